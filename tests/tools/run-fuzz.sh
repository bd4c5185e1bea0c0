#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# run-fuzz.sh TARGET CORPUS_DIR     run one libFuzzer target
# run-fuzz.sh BUILD_DIR             run every tests/fuzz/fuzz_* target in it
#
# Each target runs for KMIRROR_FUZZ_TIME seconds (default 20) on a scratch
# copy of its seed corpus (tests/fuzz/corpus/<name>/, never written to),
# with tests/fuzz/<name>.dict as dictionary when there is one.  Any crash,
# leak, sanitizer report, timeout or broken invariant fails the run: the
# reproducer is printed and the scratch directory kept.  Exit 0 if every
# target ran clean, 1 otherwise (never 77, which meson reads as a skip).
set -u
here=$(cd "$(dirname "$0")" && pwd)
fuzzdir=$(cd "$here/../fuzz" && pwd)
secs=${KMIRROR_FUZZ_TIME:-20}

case $secs in
''|*[!0-9]*) echo "run-fuzz: KMIRROR_FUZZ_TIME must be whole seconds" >&2
	exit 1 ;;
esac

# fuzz_one TARGET CORPUS: 0 if the target ran clean.
fuzz_one() {
	target=$1 corpus=$2
	name=$(basename "$target")
	name=${name#fuzz_}
	if [ ! -x "$target" ] || [ ! -d "$corpus" ]; then
		echo "run-fuzz: $name: missing target $target or corpus $corpus" >&2
		return 1
	fi
	scratch=$(mktemp -d "${TMPDIR:-/tmp}/kmirror-fuzz-$name.XXXXXX") || return 1
	mkdir "$scratch/corpus" "$scratch/artifacts"
	cp -R "$corpus/." "$scratch/corpus/"
	set -- -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$scratch/artifacts/"
	[ -r "$fuzzdir/$name.dict" ] && set -- "$@" -dict="$fuzzdir/$name.dict"
	echo "run-fuzz: $name for ${secs}s from $(ls "$corpus" | wc -l) seeds"
	ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0} \
	UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
		timeout $((secs + 120)) "$target" "$@" "$scratch/corpus" \
		>"$scratch/log" 2>&1
	rc=$?
	if [ $rc -eq 0 ] && [ -z "$(ls "$scratch/artifacts")" ]; then
		grep -E '^(stat::number_of_executed_units|Done)' "$scratch/log"
		rm -rf "$scratch"
		return 0
	fi
	echo "run-fuzz: $name FAILED (exit $rc); log and reproducer kept in $scratch" >&2
	tail -n 60 "$scratch/log" >&2
	for a in "$scratch"/artifacts/*; do
		[ -e "$a" ] || continue
		echo "--- reproducer $a:" >&2
		od -A d -c "$a" | head -n 20 >&2
	done
	return 1
}

status=0
if [ $# -eq 1 ] && [ -d "$1" ]; then
	found=0
	for t in "$1"/tests/fuzz/fuzz_*; do
		[ -x "$t" ] && [ -f "$t" ] || continue
		found=1
		n=$(basename "$t")
		fuzz_one "$t" "$fuzzdir/corpus/${n#fuzz_}" || status=1
	done
	if [ $found -eq 0 ]; then
		echo "run-fuzz: no fuzz targets in $1 (configure with CC=clang -Dfuzz=true)" >&2
		exit 1
	fi
elif [ $# -eq 2 ]; then
	fuzz_one "$1" "$2" || status=1
else
	sed -n '3,11s/^# \{0,1\}//p' "$0" >&2
	exit 1
fi
exit $status
