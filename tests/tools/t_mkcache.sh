#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# kmirror-mkcache against the CLI: a cache of 1000 objects it writes is
# read back by `kmirror cache ls` with no error, every object where
# `kmirror cookie path` puts its key, with the xattr, size, data and atime
# asked for; the same sparse with 40-byte keys; a second volume next to
# the first; and its errors (one line, exit 1).  TAP output.  Needs python3.
#
# Under valgrind (meson test --setup=valgrind) the shell itself is not ours
# to check: the script leaves memcheck by exec'ing itself and runs
# kmirror-mkcache and kmirror under memcheck instead, on fewer objects.

if [ -z "${KM_MK_REEXEC:-}" ]; then
	case "$(readlink /proc/$$/exe 2>/dev/null)" in
	*valgrind*|*memcheck*)
		KM_MK_REEXEC=1 KMIRROR_UNDER_VALGRIND=1 exec /bin/bash "$0" "$@"
		;;
	esac
fi
set -u
export LC_ALL=C

: "${KMIRROR_CLI:?set by tests/tools/meson.build}"
: "${KMIRROR_MKCACHE:?set by tests/tools/meson.build}"

KM=("$KMIRROR_CLI")
MK=("$KMIRROR_MKCACHE")
MKF=("$KMIRROR_MKCACHE")
N=1000
if [ -n "${KMIRROR_UNDER_VALGRIND:-}" ]; then
	VG=(valgrind --error-exitcode=99 --leak-check=full
	    --show-leak-kinds=all --errors-for-leak-kinds=all --quiet)
	KM=("${VG[@]}" "$KMIRROR_CLI")
	MK=("${VG[@]}" "$KMIRROR_MKCACHE")
	# exit(1) on an error frees nothing: no leak check then
	MKF=(valgrind --error-exitcode=99 --leak-check=no --quiet
	     "$KMIRROR_MKCACHE")
	N=100
fi

n=0
fails=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() {
	n=$((n + 1)); fails=$((fails + 1))
	echo "not ok $n - $1"
	shift
	for l in "$@"; do echo "#   $l"; done
}
bail() { echo "Bail out! $*"; exit 1; }

command -v python3 >/dev/null || bail "python3 not found (apt-get install python3)"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kmirror-mkcache.XXXXXX") || bail "mktemp"
trap 'rm -rf "$tmp"' EXIT

# Run CMD...; stdout in $out, stderr in $err, exit status in $rc.
run() {
	out=$("$@" 2>"$tmp/stderr")
	rc=$?
	err=$(cat "$tmp/stderr")
}

# mk NAME ARGS...: kmirror-mkcache must succeed and report its rate.
mk() {
	local name=$1
	shift
	run "${MK[@]}" "$@"
	if [ "$rc" != 0 ]; then
		not_ok "$name" "exit $rc" "stderr: $err"
	elif ! [[ $err =~ ^kmirror-mkcache:\ .*objects/s ]] ||
	     [ "$(printf '%s\n' "$err" | wc -l)" != 1 ]; then
		not_ok "$name" "want one line with objects/s: $err"
	else
		ok "$name"
		echo "# $err"
	fi
}

# mk_fails NAME REGEX ARGS...: exit 1 and one line on stderr matching REGEX.
mk_fails() {
	local name=$1 re=$2
	shift 2
	run "${MKF[@]}" "$@"
	if [ "$rc" != 1 ]; then
		not_ok "$name" "exit $rc, want 1" "stderr: $err"
	elif [ "$(printf '%s\n' "$err" | wc -l)" != 1 ] || ! [[ $err =~ $re ]]; then
		not_ok "$name" "want one line matching /$re/: $err"
	else
		ok "$name: $err"
	fi
}

# ls_clean NAME DIR COUNT: cache ls (and --json) exit 0, no stderr, COUNT
# objects.  The JSON goes to $tmp/ls.json.
ls_clean() {
	local name=$1 dir=$2 count=$3
	run "${KM[@]}" cache ls "$dir"
	if [ "$rc" != 0 ] || [ -n "$err" ]; then
		not_ok "$name: cache ls" "exit $rc" "stderr: $(head -c 2000 "$tmp/stderr")"
		return
	fi
	if [ "$(printf '%s\n' "$out" | grep -c .)" != "$count" ]; then
		not_ok "$name: cache ls" "$(printf '%s\n' "$out" | grep -c .) objects, want $count"
		return
	fi
	"${KM[@]}" cache ls "$dir" --json >"$tmp/ls.json" 2>"$tmp/stderr"
	rc=$?
	if [ "$rc" != 0 ] || [ -s "$tmp/stderr" ]; then
		not_ok "$name: cache ls --json" "exit $rc" "stderr: $(cat "$tmp/stderr")"
		return
	fi
	ok "$name: cache ls: $count objects, no error"
}

# check NAME DIR VOLUME COUNT BYTES KEY_LEN SEED SPARSE: every object as
# kmirror-mkcache promises (python3 reads $tmp/ls.json and the files).
check() {
	local name=$1
	shift
	if python3 - "$tmp/ls.json" "$tmp/samples" "$@" >"$tmp/check" 2>&1 <<'EOF'
import json, os, sys
js, samples, root, vol, count, size, klen, seed, sparse = sys.argv[1:]
count, size, klen, seed = int(count), int(size), int(klen), int(seed)
sparse = sparse == "1"
recs = [json.loads(l) for l in open(js) if l.strip()]
recs = [r for r in recs if r["volume"] == vol]
assert len(recs) == count, f"{len(recs)} objects in {vol}, want {count}"
seen = set()
for r in recs:
    i = int.from_bytes(bytes.fromhex(r["aux"]), "little")
    want = (i + seed).to_bytes(8, "little")[:klen] + bytes(max(0, klen - 8))
    key = bytes.fromhex(r["key"])
    # S/T names carry whole 32-bit words: the key may come back zero-padded
    assert key[:klen] == want and not any(key[klen:]), \
        f"{r['path']}: key {r['key']}, want {want.hex()} (object {i})"
    assert r["type"] == 1 and r["content"] == 2, f"{r['path']}: {r}"
    assert r["object_size"] == size and r["zero_point"] == 0, f"{r}"
    assert len(r["aux"]) == 16, f"{r['path']}: aux {r['aux']}"
    assert i not in seen and 0 <= i < count, f"object {i} twice or unknown"
    seen.add(i)
    p = os.path.join(root, r["path"])
    st = os.stat(p)
    assert st.st_size == size, f"{p}: {st.st_size} bytes"
    assert st.st_atime_ns == (1000000000 + i) * 10**9, \
        f"{p}: atime {st.st_atime_ns}, want object {i}'s"
    if sparse:
        assert st.st_blocks == 0, f"{p}: {st.st_blocks} blocks (sparse)"
    elif i < 50:
        data = open(p, "rb").read()
        assert data == b"\x5a" * size, f"{p}: data not {size} x 0x5a"
vdir = os.path.join(root, "cache", "I" + vol)
os.getxattr(vdir, "user.CacheFiles.cache")
fans = sorted(os.listdir(vdir))
assert fans == ["@%02x" % f for f in range(256)], f"fan-outs: {fans[:5]}..."
assert os.path.isdir(os.path.join(root, "graveyard")), "no graveyard/"
with open(samples, "w") as f:
    for r in recs[:: max(1, count // 10)]:
        f.write(r["volume"] + "\t" + r["key"] + "\t" + r["path"] + "\n")
EOF
	then
		ok "$name: keys, xattrs, sizes, atimes$([ "$7" = 1 ] || echo ', data')"
	else
		not_ok "$name" "$(tail -n 5 "$tmp/check")"
		return
	fi
	# Some of them where the CLI's cookie path (libkmirror) puts the key.
	local bad=0 v k p
	while IFS=$'\t' read -r v k p; do
		run "${KM[@]}" cookie path "$v" "${k:0:$(($5 * 2))}"
		[ "$rc" = 0 ] && [ "$out" = "$p" ] && continue
		bad=1
		not_ok "$name: cookie path $v $k" "got '$out' (exit $rc, $err), listed $p"
		break
	done <"$tmp/samples"
	[ "$bad" = 1 ] || ok "$name: objects where kmirror cookie path puts them"
}

c=$tmp/c
mk "default options, $N objects" "$c" "mk,test" "$N"
ls_clean default "$c" "$N"
check default "$c" "mk,test" "$N" 4096 8 0 0

mk "sparse, 40-byte keys, seed 7, 1 job" --sparse --bytes 1000000 \
	--key-len 40 --seed 7 --jobs 1 "$c" "second" "$N"
ls_clean "two volumes" "$c" $((N * 2))
check "sparse" "$c" "second" "$N" 1000000 40 7 1

c2=$tmp/c2
mk "1-byte keys, all 256" --key-len 1 --bytes 0 "$c2" v 256
ls_clean "1-byte keys" "$c2" 256
check "1-byte keys" "$c2" v 256 0 1 0 0

mk_fails "257 1-byte keys" "distinct 1-byte keys" --key-len 1 "$tmp/c3" v 257
mk_fails "the same objects again" "File exists" "$c" "mk,test" 10
mk_fails "no parent directory" "No such file" "$tmp/no/such" v 1
mk_fails "a '/' in the volume key" "volume key" "$tmp/c4" "a/b" 1
mk_fails "N not a number" "not a number" "$tmp/c4" v 12x
mk_fails "key too long" "key-len" --key-len 253 "$tmp/c4" v 1
mk_fails "usage" "^usage:" "$tmp/c4" v

echo "1..$n"
[ "$fails" = 0 ]
