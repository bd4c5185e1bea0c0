#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The kmirror CLI against its contract (DESIGN.md): volume hash, cookie
# path, and cache ls on the cache a Linux 6.1 kernel wrote
# (tests/fixtures/kernel61-cachefiles-9p), plus damaged copies of it.
# TAP output.  Needs tar, getfattr/setfattr (attr) and python3.
#
# Under valgrind (meson test --setup=valgrind, or --wrap=valgrind...) the
# shell itself is not ours to check: the script leaves memcheck by exec'ing
# itself and runs every kmirror command under memcheck instead.

if [ -z "${KM_CLI_REEXEC:-}" ]; then
	case "$(readlink /proc/$$/exe 2>/dev/null)" in
	*valgrind*|*memcheck*)
		KM_CLI_REEXEC=1 KMIRROR_UNDER_VALGRIND=1 exec /bin/bash "$0" "$@"
		;;
	esac
fi
set -u

: "${KMIRROR_CLI:?KMIRROR_CLI is set by tests/meson.build}"
: "${KMIRROR_FIXTURES:?KMIRROR_FIXTURES is set by tests/meson.build}"
TARBALL=$KMIRROR_FIXTURES/kernel61-cachefiles-9p.tar.xz
EXPECTED=$KMIRROR_FIXTURES/kernel61-cachefiles-9p.expected
XATTR=user.CacheFiles.cache

KM=("$KMIRROR_CLI")
if [ -n "${KMIRROR_UNDER_VALGRIND:-}" ]; then
	KM=(valgrind --error-exitcode=99 --leak-check=full
	    --show-leak-kinds=all --errors-for-leak-kinds=all --quiet
	    "$KMIRROR_CLI")
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

for tool in tar getfattr setfattr python3; do
	command -v $tool >/dev/null || bail "$tool not found (apt-get install tar attr python3)"
done

# Run kmirror; stdout in $out, stderr in $err, exit status in $rc.
km() {
	out=$("${KM[@]}" "$@" 2>"$tmp/stderr")
	rc=$?
	err=$(cat "$tmp/stderr")
	if [ $rc = 99 ]; then
		echo "# valgrind found errors in: kmirror $*"
		echo "$err" | sed 's/^/#   /'
	fi
}

# check NAME WANT_RC [WANT_STDERR_REGEX]: judge the last km run.
check() {
	local name=$1 want=$2 re=${3:-}
	if [ "$rc" != "$want" ]; then
		not_ok "$name" "exit $rc, want $want" "stderr: $err"
	elif [ -n "$re" ] && ! [[ $err =~ $re ]]; then
		not_ok "$name" "stderr '$err' does not match /$re/"
	elif [ -z "$re" ] && [ -n "$err" ]; then
		not_ok "$name" "unexpected stderr: $err"
	else
		ok "$name"
	fi
}

# An error case: exactly one "error: ..." line, nothing on stdout.
check_error() {
	local name=$1 want=$2 re=$3
	if [ -n "$out" ] || [ "$(printf '%s\n' "$err" | wc -l)" != 1 ] ||
	   [[ $err != error:\ * ]]; then
		not_ok "$name" "want one 'error:' line and no output" \
			"stdout: $out" "stderr: $err"
		return
	fi
	check "$name" "$want" "$re"
}

# The xattrs must survive unpacking: tmpfs before Linux 6.6, some overlay
# and network filesystems drop user.* silently.
xattr_dir() {
	local d probe
	for d in "${TMPDIR:-/tmp}" "$PWD"; do
		probe=$(mktemp -d "$d/kmirror-cli.XXXXXX" 2>/dev/null) || continue
		if tar --xattrs --xattrs-include='user.*' -xJf "$TARBALL" \
			-C "$probe" 2>/dev/null &&
		   getfattr --absolute-names -n $XATTR \
			"$probe/fsc/cache/I9p,src,/@fa/Tabc0d3," >/dev/null 2>&1; then
			echo "$probe"
			return 0
		fi
		rm -rf "$probe"
	done
	return 1
}

tmp=$(xattr_dir) || bail "no filesystem here keeps user.* xattrs through tar" \
	"(tried ${TMPDIR:-/tmp} and $PWD): point TMPDIR at ext4, xfs or btrfs"
trap 'rm -rf "$tmp"' EXIT
CACHE=$tmp/fsc

# A fresh copy of the fixture in $tmp/$1/fsc.
fresh() {
	rm -rf "${tmp:?}/$1"
	mkdir -p "$tmp/$1"
	tar --xattrs --xattrs-include='user.*' -xJf "$TARBALL" -C "$tmp/$1"
}

# Every object and volume of the fixture really has its xattr.
nx=$(getfattr -R --absolute-names -n $XATTR "$CACHE/cache" 2>/dev/null |
     grep -c "^$XATTR=")
nobj=$(wc -l < "$EXPECTED")
if [ "$nx" = $((nobj + 2)) ]; then
	ok "fixture unpacked with its $nx xattrs ($nobj objects, 2 volumes)"
else
	bail "only $nx of $((nobj + 2)) xattrs arrived in $tmp: the filesystem dropped them"
fi

# --- cache ls: text ---------------------------------------------------------
km cache ls "$CACHE"
check "cache ls exits 0 on the kernel-written cache" 0
if diff <(sort "$EXPECTED") <(printf '%s\n' "$out" | sort) >"$tmp/diff"; then
	ok "cache ls lists exactly the .expected objects"
else
	not_ok "cache ls lists exactly the .expected objects" \
		"$(head -20 "$tmp/diff")"
fi
if [ "$out" = "$(printf '%s\n' "$out" | LC_ALL=C sort -k4)" ]; then
	ok "cache ls lists in path order"
else
	not_ok "cache ls lists in path order"
fi

# --- cache ls --json: every field, aux from the xattr itself ---------------
# Build the expected JSON from getfattr's hex dump, independently of kmirror.
expect_json() {
	local vol key size path hex
	while read -r vol key size path; do
		hex=$(getfattr --absolute-names -n $XATTR -e hex \
			"$CACHE/$path" | sed -n "s/^$XATTR=0x//p")
		printf '{"volume":"%s","key":"%s","object_size":%d,"zero_point":%d,"type":%d,"content":%d,"aux":"%s","path":"%s"}\n' \
			"$vol" "$key" $((16#${hex:0:16})) $((16#${hex:16:16})) \
			$((16#${hex:32:2})) $((16#${hex:34:2})) "${hex:36}" "$path"
		[ $((16#${hex:0:16})) = "$size" ] || echo "size mismatch $path"
	done < "$EXPECTED"
}
km cache ls "$CACHE" --json
check "cache ls --json exits 0" 0
if diff <(expect_json | sort) <(printf '%s\n' "$out" | sort) >"$tmp/diff"; then
	ok "cache ls --json: volume, key, sizes, type, content, aux, path"
else
	not_ok "cache ls --json: volume, key, sizes, type, content, aux, path" \
		"$(head -20 "$tmp/diff")"
fi
if printf '%s\n' "$out" | python3 -c '
import json, sys
keys = ["volume", "key", "object_size", "zero_point", "type", "content", "aux", "path"]
for line in sys.stdin:
    assert list(json.loads(line)) == keys, line
'; then
	ok "cache ls --json lines parse as JSON with the contract's keys"
else
	not_ok "cache ls --json lines parse as JSON with the contract's keys"
fi
km cache ls --json "$CACHE"
check "cache ls takes --json before DIR too" 0

# --- volume hash, cookie path --------------------------------------------
# Hashes from an independent transcription of fscache_hash(); the fan-out
# directories of the fixture confirm them indirectly (below).
km volume hash '9p,src,' '9p,src2,second'
if [ "$out" = $'2ec18556\neaf68225' ]; then
	check "volume hash of the fixture's volume keys" 0
else
	not_ok "volume hash of the fixture's volume keys" "got: $out"
fi
km volume hash ''
check "volume hash: an empty key is exit 2 (no netfs has one)" 2 "empty volume key"
bad=0
while read -r vol key size path; do
	km cookie path "$vol" "$key"
	if [ $rc != 0 ] || [ "$out" != "$path" ]; then
		bad=$((bad + 1))
		echo "# cookie path $vol $key: '$out' (exit $rc), kernel: $path"
	fi
done < "$EXPECTED"
if [ $bad = 0 ]; then
	ok "cookie path gives the kernel's path for all $nobj fixture objects"
else
	not_ok "cookie path gives the kernel's path for all fixture objects" \
		"$bad wrong"
fi
km cookie path 9p,x 'zz'
check_error "cookie path: malformed hex is exit 2" 2 "malformed hex"
km cookie path 9p,x ''
check_error "cookie path: an empty key is exit 2" 2 "empty"
km cookie path 'a/b' 01
check_error "cookie path: '/' in the volume key is exit 2" 2 "/"
km cookie path 9p,x "$(printf '6b%.0s' $(seq 253))"
check_error "cookie path: a 253-byte key is exit 2" 2 "too long"
km cookie path 9p,x "$(printf 'ff%.0s' $(seq 190))"
check_error "cookie path: a key whose name exceeds NAME_MAX is exit 2" 2 "exceed"
km cookie path 9p,x
check_error "cookie path: a missing argument is exit 2" 2 "expected"
km volume hash "$(printf 'v%.0s' $(seq 256))"
check_error "volume hash: a 256-byte key is exit 2" 2 "too long"
km volume hash
check_error "volume hash: no key is exit 2" 2 "no volume key"

# --- --help ---------------------------------------------------------------
for c in "volume hash" "cookie path" "cache ls"; do
	# shellcheck disable=SC2086
	km $c --help
	if [ $rc = 0 ] && [[ $out == "usage: kmirror $c"* ]]; then
		ok "kmirror $c --help"
	else
		not_ok "kmirror $c --help" "exit $rc: $out"
	fi
done

# --- cache ls: bad input is exit 2 ---------------------------------------
km cache ls "$tmp/does-not-exist"
check_error "cache ls: a missing directory is exit 2" 2 "cannot open"
mkdir -p "$tmp/empty"
km cache ls "$tmp/empty"
check_error "cache ls: a directory without cache/ is exit 2" 2 "not a cachefiles cache"
km cache ls "$EXPECTED"
check_error "cache ls: a regular file is exit 2" 2 "cannot open"
mkdir -p "$tmp/filecache"
: > "$tmp/filecache/cache"
km cache ls "$tmp/filecache"
check_error "cache ls: cache/ being a file is exit 2" 2 "not a cachefiles cache"
km cache ls
check_error "cache ls: no directory is exit 2" 2 "no cache directory"
km cache ls "$CACHE" --bogus
check_error "cache ls: an unknown option is exit 2" 2 "unexpected argument"

# --- cache ls: damaged caches are exit 1, the good objects still listed -------
OBJ='cache/I9p,src,/@fa/Tabc0d3,'
# damage NAME MESSAGE_REGEX LINES_WANTED: run cache ls on $tmp/NAME/fsc.
damaged() {
	local name=$1 re=$2 lines=$3
	km cache ls "$tmp/$name/fsc"
	if [ "$(printf '%s\n' "$err" | wc -l)" != 1 ]; then
		not_ok "$name: one error line" "stderr: $err"
	elif [ "$(printf '%s\n' "$out" | grep -c .)" != "$lines" ]; then
		not_ok "$name: $lines objects still listed" "stdout: $out"
	else
		check "$name: exit 1, $lines objects still listed" 1 "$re"
	fi
}

fresh corrupt
setfattr -n $XATTR -v 0x000000000000031d00000000000000000700f5be3f6b \
	"$tmp/corrupt/fsc/$OBJ"
damaged corrupt "^error: $OBJ: unknown object type" $((nobj - 1))

fresh content
setfattr -n $XATTR -v 0x000000000000031d00000000000000000109f5be3f6b \
	"$tmp/content/fsc/$OBJ"
damaged content "invalid content value" $((nobj - 1))

fresh truncated
setfattr -n $XATTR -v 0x00000000000003 "$tmp/truncated/fsc/$OBJ"
damaged truncated "^error: $OBJ: xattr truncated" $((nobj - 1))

fresh noxattr
setfattr -x $XATTR "$tmp/noxattr/fsc/$OBJ"
damaged noxattr "^error: $OBJ: no user.CacheFiles.cache xattr" $((nobj - 1))

fresh toolong
setfattr -n $XATTR -v "0x0000000000000001000000000000000001$(printf '00%.0s' $(seq 300))" \
	"$tmp/toolong/fsc/$OBJ"
damaged toolong "too long" $((nobj - 1))

fresh misplaced
mv "$tmp/misplaced/fsc/$OBJ" "$tmp/misplaced/fsc/cache/I9p,src,/@fb/"
damaged misplaced "fan-out @fb but its key hashes to @fa" $((nobj - 1))

fresh badname
mv "$tmp/badname/fsc/$OBJ" "$tmp/badname/fsc/cache/I9p,src,/@fa/Xabc"
damaged badname "@fa/Xabc: not a cachefiles object name" $((nobj - 1))

fresh notfile
rm "$tmp/notfile/fsc/$OBJ"
mkdir "$tmp/notfile/fsc/$OBJ"
damaged notfile "$OBJ: not a regular file" $((nobj - 1))

fresh symlink
ln -s /etc/passwd "$tmp/symlink/fsc/cache/I9p,src,/@fa/Tabc0d4,"
damaged symlink "not a regular file" "$nobj"

fresh stray
: > "$tmp/stray/fsc/cache/lost+found"
damaged stray "^error: cache/lost\\+found: not a volume directory" "$nobj"

fresh strayfan
mkdir "$tmp/strayfan/fsc/cache/I9p,src2,second/@XY"
damaged strayfan "@XY: not a fan-out directory" "$nobj"

fresh volxattr
setfattr -n $XATTR -v 0x00000001 "$tmp/volxattr/fsc/cache/I9p,src2,second"
damaged volxattr "^error: cache/I9p,src2,second: volume xattr: .*reserved" "$nobj"

fresh novolxattr
setfattr -x $XATTR "$tmp/novolxattr/fsc/cache/I9p,src,"
damaged novolxattr "^error: cache/I9p,src,: volume xattr: no user" "$nobj"

# The good lines of a damaged cache are the .expected ones.
km cache ls "$tmp/corrupt/fsc"
if diff <(grep -v "Tabc0d3," "$EXPECTED" | sort) <(printf '%s\n' "$out" | sort) \
	>/dev/null; then
	ok "damaged cache: the other objects are listed exactly"
else
	not_ok "damaged cache: the other objects are listed exactly"
fi

# --- JSON escaping --------------------------------------------------------
# A volume key with a quote, a backslash, a tab, UTF-8 and a non-UTF-8 byte.
vol=$'we"ird\\\tvol\xc3\xa9\xff'
mkdir -p "$tmp/esc"
printf 'hello' >"$tmp/esc.in"
km cache put "$tmp/esc" "$vol" 01020304 "$tmp/esc.in" --aux abcd
check "cache put takes any volume key without '/'" 0
km cache ls "$tmp/esc" --json
if [ $rc = 0 ] && printf '%s\n' "$out" | python3 -c '
import json, sys
o = json.loads(sys.stdin.readline())
want = "we\"ird\\\tvol\u00e9".encode() + b"\xff"
assert o["volume"].encode("utf-8", "surrogateescape") == want, o
assert o["key"] == "01020304" and o["aux"] == "abcd", o
assert (o["object_size"], o["content"]) == (5, 0), o
'; then
	ok "cache ls --json escapes quotes, backslashes, controls, bad UTF-8"
else
	not_ok "cache ls --json escapes names properly" "exit $rc: $out"
fi
km cache ls "$tmp/esc"
ls_path=${out##* }
if [[ $out == *'\x09vol'*'\xff'* ]]; then
	check "cache ls text shows control characters as \\xNN" 0
else
	not_ok "cache ls text shows control characters as \\xNN" "$out"
fi
# cookie path shows the same bytes the same way (docs/cli.md, Bounds).
km cookie path "$vol" 01020304
if [ $rc = 0 ] && [ "$out" = "$ls_path" ]; then
	ok "cookie path takes any volume key, shown as cache ls shows it"
else
	not_ok "cookie path takes any volume key, shown as cache ls shows it" \
		"exit $rc: '$out', cache ls: '$ls_path'"
fi

# cache put: pre-seed an object; cache ls sees it as the kernel would.
seed=$tmp/seed
mkdir -p "$seed"
printf 'seeded bytes\n' >"$tmp/seedfile"
km cache put "$seed" 9p,src, d3c0ab0000000000 "$tmp/seedfile" --aux 0a0b0c0d
check "cache put into an empty directory exits 0" 0
km cache ls "$seed" --json
want='{"volume":"9p,src,","key":"d3c0ab0000000000","object_size":13,"zero_point":0,"type":1,"content":0,"aux":"0a0b0c0d","path":"cache/I9p,src,/@fa/Tabc0d3,"}'
if [ "$rc" = 0 ] && [ "$out" = "$want" ]; then
	ok "cache put writes the object where and as cachefiles would"
else
	not_ok "cache put writes the object where and as cachefiles would" "$out"
fi
if cmp -s -n 13 "$tmp/seedfile" "$seed/cache/I9p,src,/@fa/Tabc0d3,"; then
	ok "cache put stores the file's bytes"
else
	not_ok "cache put stores the file's bytes"
fi
printf 'other\n' >"$tmp/seedfile2"
km cache put "$seed" 9p,src, d3c0ab0000000000 "$tmp/seedfile2"
km cache ls "$seed" --json
if [[ $out == *'"object_size":6,'*'"aux":"",'* ]] &&
   cmp -s -n 6 "$tmp/seedfile2" "$seed/cache/I9p,src,/@fa/Tabc0d3,"; then
	ok "cache put replaces the object of the same key"
else
	not_ok "cache put replaces the object of the same key" "$out"
fi
km cache put "$seed" 9p,src, xyz "$tmp/seedfile"
check_error "cache put refuses a bad key" 2 "not a cookie key"
km cache put "$seed" 9p/src 01 "$tmp/seedfile"
check_error "cache put refuses a volume key with '/'" 2 "contains '/'"
km cache put "$seed" 9p,src, 01 "$tmp/no-such-file"
check_error "cache put refuses a missing file" 2 "cannot read"
km cache put "$tmp/seedfile" 9p,src, 01 "$tmp/seedfile"
check_error "cache put refuses a DIR that is not a directory" 2 "cannot open cache"

echo "1..$n"
[ $fails = 0 ]
