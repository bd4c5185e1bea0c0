#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# `kmirror ptc replay` against its contract (DESIGN.md), on traces from
# tests/ptc/ptc_gen: clean traces exit 0 silently; a trace with one
# injected violation prints "violation at line N: RULE" for exactly the
# injected line and rule and exits 1; a malformed line prints
# "error: line N: WHY" on stderr and exits 2.  TAP output.
#
#   ptc_cli.sh PTC_GEN [SEED]        (KMIRROR_CLI: the kmirror binary)
#
# Under valgrind the shell re-executes itself outside memcheck and runs
# every kmirror command under memcheck instead (as tests/unit/test_cli.sh).

if [ -z "${KM_CLI_REEXEC:-}" ]; then
	case "$(readlink /proc/$$/exe 2>/dev/null)" in
	*valgrind*|*memcheck*)
		KM_CLI_REEXEC=1 KMIRROR_UNDER_VALGRIND=1 exec /bin/bash "$0" "$@"
		;;
	esac
fi
set -u

: "${KMIRROR_CLI:?KMIRROR_CLI is set by tests/meson.build}"
GEN=${1:?usage: ptc_cli.sh PTC_GEN [SEED]}
seed=${2:-$(date +%s)}
echo "# ptc_cli: seed $seed (pass it as the second argument to replay)"

KM=("$KMIRROR_CLI")
traces=6
if [ -n "${KMIRROR_UNDER_VALGRIND:-}" ]; then
	KM=(valgrind --error-exitcode=99 --leak-check=full
	    --show-leak-kinds=all --errors-for-leak-kinds=all --quiet
	    "$KMIRROR_CLI")
	traces=1
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

tmp=$(mktemp -d "${TMPDIR:-/tmp}/kmirror-ptc-cli.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# Run kmirror; stdout in $out, stderr in $err, exit status in $rc.
km() {
	out=$("${KM[@]}" "$@" 2>"$tmp/stderr")
	rc=$?
	err=$(cat "$tmp/stderr")
}

# expect NAME RC STDOUT STDERR: check the last km run.
expect() {
	if [ "$rc" = "$2" ] && [ "$out" = "$3" ] && [ "$err" = "$4" ]; then
		ok "$1"
	else
		not_ok "$1" "exit $rc, want $2" "stdout: $out" "want:   $3" \
			"stderr: $err" "want:   $4"
	fi
}

rules="anon-map-of-file-mapped anon-rw-double-map file-map-of-anon-mapped
anon-unmap-of-file-mapped anon-unmap-underflow file-unmap-of-anon-mapped
file-unmap-underflow still-anon-mapped still-file-mapped"

for i in $(seq 0 $((traces - 1))); do
	s=$((seed + i))
	"$GEN" -s $s -n 400 >"$tmp/clean" 2>/dev/null
	km ptc replay "$tmp/clean"
	expect "seed $s: clean trace replays clean" 0 "" ""
	for rule in $rules; do
		"$GEN" -s $s -n 400 -i "$rule" >"$tmp/bad" 2>/dev/null
		want=$(tail -n 1 "$tmp/bad" | sed 's/^# expect: //')
		km ptc replay <"$tmp/bad"
		expect "seed $s: $rule caught at its line, from stdin" 1 "$want" ""
	done
done

# The same from '-' and with -v.
"$GEN" -s "$seed" -n 100 -i anon-rw-double-map >"$tmp/bad" 2>/dev/null
want=$(tail -n 1 "$tmp/bad" | sed 's/^# expect: //')
km ptc replay -v - <"$tmp/bad"
if [ "$rc" = 1 ] && [ "$out" = "$want" ] &&
   [[ "$err" =~ ^page\ 0x[0-9a-f]+:\ anon_map_count\ [2-9][0-9]*,\ file_map_count\ 0$ ]]; then
	ok "-v names the page and its counters"
else
	not_ok "-v names the page and its counters" "exit $rc" "$out" "$err"
fi

# Hand-written traces.
printf 'alloc 0 0\nset pte 0 anon rw\n# fork\nset pte 0 anon ro\nset pte 0 anon rw\n' >"$tmp/t"
km ptc replay "$tmp/t"
expect "second writable anon mapping" 1 "violation at line 5: anon-rw-double-map" ""
printf 'set pte 1 anon rw\nset pmd 0x201 anon rw\nset pte 1 anon rw\n' >"$tmp/t"
km ptc replay "$tmp/t"
expect "misaligned pmd is a bad line" 2 "" \
	"error: line 2: pmd PFN 0x201 is not aligned to 512 pages"
printf 'set pte 1 anon rw\nset pte 1 anon rw\nbogus\n' >"$tmp/t"
km ptc replay "$tmp/t"
expect "the first of violation and bad line wins" 1 \
	"violation at line 2: anon-rw-double-map" ""
printf 'set pte 1 anon rw\nset pte 1 a\0non rw\n' >"$tmp/t"
km ptc replay "$tmp/t"
expect "NUL byte" 2 "" "error: line 2: NUL byte at column 12"
: >"$tmp/t"
km ptc replay "$tmp/t"
expect "empty trace" 0 "" ""
km ptc replay "$tmp/missing"
expect "missing file" 2 "" "error: $tmp/missing: No such file or directory"
km ptc replay a b
expect "two files" 2 "" "error: one trace at a time (see --help)"
km ptc replay -x
expect "unknown option" 2 "" "error: unknown option '-x' (see --help)"
km ptc replay --help
if [ "$rc" = 0 ] && [[ "$out" == "usage: kmirror ptc replay"* ]]; then
	ok "--help"
else
	not_ok "--help" "exit $rc" "$out"
fi
km ptc
expect "no subcommand" 2 "" "$(printf 'usage: kmirror ptc COMMAND [ARGS...]\n\ncommands:\n  replay     replay a page-table trace')"

echo "1..$n"
[ $fails = 0 ]
