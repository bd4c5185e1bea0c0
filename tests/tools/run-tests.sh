#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# run-tests.sh: install what is missing, then build and run every suite:
#   gcc   -Werror build: the build checks, then every other suite under
#         valgrind memcheck, then the kernels in QEMU (suite qemu: builds
#         Linux 6.1 stock and patched, GCC and LLVM, through ccache and
#         the kernel store), then suite ceph (a single-node Ceph cluster,
#         kmirror-cachefs over ceph-fuse)
#   clang ASan+UBSan build (-Werror): all suites, the fuzz targets each
#         for a bounded time
#   clang TSan build: the thread stress
# No suite runs twice under one compiler and its flags: gcc's suites run
# under memcheck only (their full-size cases, which memcheck would take
# too long over, run in the ASan+UBSan build at native speed).
# Build dirs go under $KMIRROR_BUILD (default: build-test/).  The last line
# is the total: "kmirror: N passed, N failed, N skipped".
#
# run-tests.sh --quick: a developer's inner loop instead, the gcc -Werror
# build and meson's 'quick' setup (the suites that neither mount, boot a
# kernel nor start a cluster), in $KMIRROR_BUILD/quick, kept between runs.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${KMIRROR_BUILD:-$top/build-test}
cd "$top"
"$top/tests/tools/deps.sh"

if [ "${1:-}" = --quick ]; then
	t0=$(date +%s)
	[ -f "$out/quick/build.ninja" ] ||
		CC=gcc meson setup "$out/quick" -Dwerror=true -Dkernel=disabled
	ninja -C "$out/quick"
	rc=0
	meson test -C "$out/quick" --setup=quick --print-errorlogs \
		--num-processes 2 || rc=$?
	echo "=== quick: $(($(date +%s) - t0)) s"
	exit $rc
elif [ $# -gt 0 ]; then
	echo "usage: run-tests.sh [--quick]" >&2
	exit 2
fi

passed=0 failed=0 skipped=0 status=0 configured=''
t_start=$(date +%s) t_stage=$t_start

# A timing line when a stage ends: its seconds and the total so far.
stage_done() {
	now=$(date +%s)
	echo "=== $1: $((now - t_stage)) s (total $((now - t_start)) s)"
	t_stage=$now
}

# tally STAGE BUILD-DIR [SETUP]: add up one meson test run's results from
# its JSON log; each failed test goes into $out/failed.log under a
# "--- FAILED STAGE: TEST (RESULT)" line with the end of its output, which
# the run prints again at its end, so a log cut to its tail still says
# what broke.
tally() {
	# shellcheck disable=SC2046 # three counts
	set -- $(python3 - "$2/meson-logs/testlog${3:+-$3}.json" \
		"$out/failed.log" "$1" <<'PY'
import json, sys
c = {'OK': 0, 'FAIL': 0, 'SKIP': 0}
for line in open(sys.argv[1]):
    t = json.loads(line)
    r = t['result']
    k = 'OK' if r in ('OK', 'EXPECTEDFAIL') else 'SKIP' if r == 'SKIP' else 'FAIL'
    c[k] += 1
    if k == 'FAIL':
        tail = (t.get('stdout') or '').splitlines()[-30:]
        with open(sys.argv[2], 'a') as f:
            f.write('--- FAILED %s: %s (%s), its last lines:\n'
                    % (sys.argv[3], t['name'], r))
            f.write(''.join(l + '\n' for l in tail))
print(c['OK'], c['FAIL'], c['SKIP'])
PY
)
	passed=$((passed + $1)) failed=$((failed + $2)) skipped=$((skipped + $3))
}

# run NAME SETUP-ARGS... -- TEST-ARGS...
run() {
	name=$1
	shift
	setup=
	while [ "$1" != -- ]; do setup="$setup $1"; shift; done
	shift
	# A build dir is set up afresh once a run (a second stage on it, as
	# gcc's valgrind stage, reuses the build).
	case " $configured " in
	*" $name "*) ;;
	*)
		echo "=== $name: meson setup$setup"
		# shellcheck disable=SC2086
		meson setup --wipe "$out/$name" $setup -Dwerror=true >"$out/$name.setup.log" 2>&1 ||
			meson setup "$out/$name" $setup -Dwerror=true >"$out/$name.setup.log" 2>&1 || {
			cat "$out/$name.setup.log"; exit 1; }
		configured="$configured $name"
		;;
	esac
	ninja -C "$out/$name"
	meson test -C "$out/$name" --print-errorlogs "$@" || status=1
	test_setup=$(echo "$@" | sed -n 's/.*--setup[= ]\([a-z]*\).*/\1/p')
	stage="$name${test_setup:+ ($test_setup)}"
	tally "$stage" "$out/$name" "$test_setup"
	stage_done "$stage"
}

mkdir -p "$out"
rm -f "$out/failed.log"
export CC=gcc
run gcc -- --suite build --num-processes 2
run gcc -- --setup=valgrind --num-processes 2
echo "=== gcc: the kernels in QEMU"
meson test -C "$out/gcc" --suite qemu --print-errorlogs --num-processes 2 ||
	status=1
tally "gcc: the kernels in QEMU" "$out/gcc"
stage_done "gcc: the kernels in QEMU"
echo "=== gcc: a real CephFS"
meson test -C "$out/gcc" --suite ceph --print-errorlogs || status=1
tally "gcc: a real CephFS" "$out/gcc"
stage_done "gcc: a real CephFS"
export CC=clang
# Clang's -Werror build is the ASan+UBSan one: every suite, and the fuzz
# targets (libFuzzer, each for a bounded time) in the same build, which
# their own sanitizers share.
run asan -Db_sanitize=address,undefined -Db_lundef=false -Dkernel=disabled \
	-Dfuzz=true -- --num-processes 2
# The thread stress, and the mounts whose daemon threads race (suite
# 'race': fsx on a shared file, fill behind the read), under
# ThreadSanitizer (helgrind cannot follow C11 atomics or liburcu; see
# tests/stress/stress_fscache.c).
run tsan -Db_sanitize=thread -Db_lundef=false -Dkernel=disabled -- \
	--suite stress --suite race --num-processes 2

if [ -f "$out/failed.log" ]; then
	cat "$out/failed.log"
	grep '^--- FAILED ' "$out/failed.log" | sed 's/^--- /kmirror: /; s/, its last lines:$//'
fi
echo "kmirror: $passed passed, $failed failed, $skipped skipped"
exit $status
