#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# run-tests.sh: install what is missing, then build and run every suite:
#   gcc   -Werror build: all suites, then again under valgrind memcheck,
#         then the kernels in QEMU (suite qemu: builds Linux 6.1 stock and
#         patched, GCC and LLVM, through ccache), then suite ceph (a
#         single-node Ceph cluster, kmirror-cachefs over ceph-fuse)
#   clang ASan+UBSan build (-Werror): all suites, the fuzz targets each
#         for a bounded time
#   clang TSan build: the thread stress
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

passed=0 failed=0 skipped=0 status=0 configured='' failures=''
t_start=$(date +%s) t_stage=$t_start

# A timing line when a stage ends: its seconds and the total so far.
stage_done() {
	now=$(date +%s)
	echo "=== $1: $((now - t_stage)) s (total $((now - t_start)) s)"
	t_stage=$now
}

# Add up one meson test run's results from its JSON log, and name the
# tests that failed (the last lines of the run list them again, so a log
# cut to its tail still says what broke).
tally() {
	# shellcheck disable=SC2046 # one word per count and failed test
	set -- $(python3 - "$1/meson-logs/testlog${2:+-$2}.json" \
		"$out/failed.log" <<'PY'
import json, sys
c = {'OK': 0, 'FAIL': 0, 'SKIP': 0}
bad = []
for line in open(sys.argv[1]):
    t = json.loads(line)
    r = t['result']
    k = 'OK' if r in ('OK', 'EXPECTEDFAIL') else 'SKIP' if r == 'SKIP' else 'FAIL'
    c[k] += 1
    if k == 'FAIL':
        bad.append(t['name'].replace(' ', '') + '(' + r + ')')
        tail = (t.get('stdout') or '').splitlines()[-30:]
        with open(sys.argv[2], 'a') as f:
            f.write('--- %s (%s), its last lines:\n' % (t['name'], r))
            f.write(''.join(l + '\n' for l in tail))
print(c['OK'], c['FAIL'], c['SKIP'], *bad)
PY
)
	passed=$((passed + $1)) failed=$((failed + $2)) skipped=$((skipped + $3))
	shift 3
	for t in "$@"; do
		failures="$failures
  $stage_name: $t"
	done
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
	stage_name="$name$(echo "$@" | sed -n 's/.*--setup[= ]\([a-z]*\).*/ (\1)/p')"
	tally "$out/$name" "$(echo "$@" | sed -n 's/.*--setup[= ]\([a-z]*\).*/\1/p')"
	stage_done "$stage_name"
}

mkdir -p "$out"
rm -f "$out/failed.log"
export CC=gcc
run gcc -- --num-processes 2
run gcc -- --setup=valgrind --num-processes 2
echo "=== gcc: the kernels in QEMU"
stage_name="gcc (qemu)"
meson test -C "$out/gcc" --suite qemu --print-errorlogs --num-processes 2 ||
	status=1
tally "$out/gcc"
stage_done "gcc: the kernels in QEMU"
echo "=== gcc: a real CephFS"
stage_name="gcc (ceph)"
meson test -C "$out/gcc" --suite ceph --print-errorlogs || status=1
tally "$out/gcc"
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

if [ -n "$failures" ]; then
	cat "$out/failed.log"
	echo "kmirror: failed:$failures"
fi
echo "kmirror: $passed passed, $failed failed, $skipped skipped"
exit $status
