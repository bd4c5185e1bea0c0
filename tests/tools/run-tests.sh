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
# Kept results: a stage that passed is recorded in the results store
# ($KMIRROR_RESULTS_STORE, default ~/.cache/kmirror-results; "none" keeps
# nothing) under a hash of every input that decides its outcome (stage_key
# below); a later run with the same inputs prints the kept log's counts as
# "kept" instead of running the stage again.  A stage with a failure is
# never kept.  KMIRROR_RERUN=1 runs every stage anyway.  The kernels keep
# their guests' runs the same way (tests/qemu/lib.sh).
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

passed=0 failed=0 skipped=0 kept=0 status=0 configured=''
t_start=$(date +%s) t_stage=$t_start

# A timing line when a stage ends: its seconds and the total so far.
stage_done() {
	now=$(date +%s)
	echo "=== $1: $((now - t_stage)) s (total $((now - t_start)) s)"
	t_stage=$now
}

# tally STAGE JSON-LOG: add up one meson test run's results from its JSON
# log; each failed test goes into $out/failed.log under a
# "--- FAILED STAGE: TEST (RESULT)" line with the end of its output, which
# the run prints again at its end, so a log cut to its tail still says
# what broke.  A stage that ran no test has no log: it counts nothing.
tally() {
	[ -f "$2" ] || { echo "=== $1: no test ran (no $2)"; return 0; }
	# shellcheck disable=SC2046 # three counts
	set -- $(python3 - "$2" "$out/failed.log" "$1" <<'PY'
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

# The results store.
results=${KMIRROR_RESULTS_STORE:-${XDG_CACHE_HOME:-$HOME/.cache}/kmirror-results}

# stage_key STAGE: a hash of what decides a userspace stage's results:
# STAGE itself (its build and test arguments), the source files (by
# content, tracked or not) but those no userspace stage reads (the docs,
# the kernels' scripts, configs and guest jobs, the tests of the qemu,
# ceph and bench folders, whose suites those stages exclude), CC and every
# KMIRROR_ setting, the host's kernel, the user, and every installed
# package's version.  Empty, so nothing is kept, with no store or outside
# a git checkout.
stage_key() {
	[ "$results" != none ] &&
		git -C "$top" rev-parse --git-dir >/dev/null 2>&1 || return 0
	{
		echo "$1 CC=$CC"
		env | grep '^KMIRROR_' |
			grep -v '^KMIRROR_\(BUILD\|RERUN\)=' | LC_ALL=C sort
		uname -r
		id -u
		dpkg-query -W -f='${Package} ${Version}\n'
		git -C "$top" ls-files -z -co --exclude-standard -- . \
			':!docs' ':!*.md' ':!kernel/scripts' ':!kernel/config' \
			':!kernel/guest' ':!tests/qemu' ':!tests/ceph' \
			':!tests/bench' |
			LC_ALL=C sort -z | (cd "$top" && xargs -0 sha256sum)
	} | sha256sum | cut -c1-16
}

# kept_restore STAGE KEY: tally the kept log of a stage with KEY that
# passed; false when there is none (or KMIRROR_RERUN is set).
kept_restore() {
	[ -n "$2" ] && [ -f "$results/$2/testlog.json" ] &&
		[ -z "${KMIRROR_RERUN:-}" ] || return 1
	echo "=== $1: not run: kept $2, which passed with the same" \
		"sources, tools and settings on $(cat "$results/$2/date")"
	n=$passed
	tally "$1 (kept)" "$results/$2/testlog.json"
	kept=$((kept + passed - n))
}

# kept_keep KEY JSON-LOG: keep a stage's log under KEY.
kept_keep() {
	[ -n "$1" ] || return 0
	mkdir -p "$results"
	rm -rf "$results/$1.new"
	mkdir "$results/$1.new"
	cp "$2" "$results/$1.new/testlog.json"
	date -u '+%Y-%m-%d %H:%M UTC' >"$results/$1.new/date"
	rm -rf "${results:?}/$1"
	mv "$results/$1.new" "$results/$1"
}

# run [--keep] NAME SETUP-ARGS... -- TEST-ARGS...: with --keep, a stage
# whose inputs match a kept one is not set up, built or run.
run() {
	keep=
	[ "$1" != --keep ] || { keep=1; shift; }
	name=$1
	shift
	setup=
	while [ "$1" != -- ]; do setup="$setup $1"; shift; done
	shift
	test_setup=$(echo "$@" | sed -n 's/.*--setup[= ]\([a-z]*\).*/\1/p')
	stage="$name${test_setup:+ ($test_setup)}"
	key=
	if [ -n "$keep" ]; then
		key=$(stage_key "$name:$setup:$*")
		if kept_restore "$stage" "$key"; then
			stage_done "$stage"
			return 0
		fi
	fi
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
	rc=0
	meson test -C "$out/$name" --print-errorlogs "$@" || rc=1
	log=$out/$name/meson-logs/testlog${test_setup:+-$test_setup}.json
	n=$failed
	tally "$stage" "$log"
	if [ $rc -ne 0 ] || [ $failed -ne $n ]; then
		status=1
	elif [ -f "$log" ]; then
		kept_keep "$key" "$log"
	fi
	stage_done "$stage"
}

mkdir -p "$out"
rm -f "$out/failed.log"
export CC=gcc
run gcc -- --suite build --num-processes 2
run --keep gcc -- --setup=valgrind --num-processes 2
echo "=== gcc: the kernels in QEMU"
meson test -C "$out/gcc" --suite qemu --print-errorlogs --num-processes 2 ||
	status=1
tally "gcc: the kernels in QEMU" "$out/gcc/meson-logs/testlog.json"
stage_done "gcc: the kernels in QEMU"
echo "=== gcc: a real CephFS"
meson test -C "$out/gcc" --suite ceph --print-errorlogs || status=1
tally "gcc: a real CephFS" "$out/gcc/meson-logs/testlog.json"
stage_done "gcc: a real CephFS"
export CC=clang
# Clang's -Werror build is the ASan+UBSan one: every suite, and the fuzz
# targets (libFuzzer, each for a bounded time) in the same build, which
# their own sanitizers share.
run --keep asan -Db_sanitize=address,undefined -Db_lundef=false -Dkernel=disabled \
	-Dfuzz=true -- --num-processes 2
# The thread stress, and the mounts whose daemon threads race (suite
# 'race': fsx on a shared file, fill behind the read), under
# ThreadSanitizer (helgrind cannot follow C11 atomics or liburcu; see
# tests/stress/stress_fscache.c).
run --keep tsan -Db_sanitize=thread -Db_lundef=false -Dkernel=disabled -- \
	--suite stress --suite race --num-processes 2

if [ -f "$out/failed.log" ]; then
	cat "$out/failed.log"
	grep '^--- FAILED ' "$out/failed.log" | sed 's/^--- /kmirror: /; s/, its last lines:$//'
fi
echo "kmirror: $passed passed, $failed failed, $skipped skipped" \
	"($kept of the passed kept from a run of the same inputs)"
exit $status
