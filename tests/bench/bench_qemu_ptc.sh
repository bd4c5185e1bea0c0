#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# bench_qemu_ptc.sh: what the page-table check costs in the booted
# kernels, and what the kmirror core costs it.  Boots stock-gcc and
# patched-gcc (whose page-table check counts through the core: patch 0003)
# each with page_table_check=on and =off, running the guest job ptcbench
# (kernel/guest/src/ptc_bench.c: fork + touch + exit, mmap/touch/munmap
# of N anonymous, tmpfs and THP pages), and prints for each test:
#   - the check's cost in each kernel: 1 - ops(on) / ops(off);
#   - patched / stock with the check on (goal: within 2%, 0.98..1.02).
# Two clocks:
#   wall    qemu-run.sh as the tests boot (TCG), the guest's clock being
#           the host's: ROUNDS interleaved rounds (stock on, stock off,
#           patched on, patched off, again), the best ops/s of each.  On
#           a shared host TCG timings swing by 2x between rounds: the
#           best of several rounds is the estimate, not a measurement to
#           2%.
#   icount  TCG with -icount shift=SHIFT,sleep=off: the guest's clock
#           advances 2^SHIFT ns per emulated instruction, so ops/s counts
#           instructions, the same run after run (to about 1%) whatever
#           the host's load; it sees no cache or TLB effects.
#           ICOUNT_ROUNDS rounds, best and spread.
# Timings are reported, never pass/fail; the script fails only if a boot
# or the job fails.
#
# Environment: KMIRROR_KERNEL_OUT (where build-kernels.sh puts
# stock-gcc.bzImage, patched-gcc.bzImage and initramfs.cpio.gz), KMIRROR_BENCH_ROUNDS (wall rounds,
# 5), KMIRROR_BENCH_ICOUNT_ROUNDS (2; 0: no icount part),
# KMIRROR_BENCH_ICOUNT_SHIFT (3), KMIRROR_BENCH_SECS (seconds per test
# and boot, 2), KMIRROR_BENCH_PAGES (pages per operation, 256).  Every
# round's numbers are left in $KMIRROR_KERNEL_OUT/bench-ptc.raw
# (clock kernel check round test ops/s).
set -eu
: "${KMIRROR_KERNEL_OUT:?}"
K=$KMIRROR_KERNEL_OUT
S=$(cd "$(dirname "$0")/../../kernel/scripts" && pwd)
ROUNDS=${KMIRROR_BENCH_ROUNDS:-5}
IROUNDS=${KMIRROR_BENCH_ICOUNT_ROUNDS:-2}
SHIFT=${KMIRROR_BENCH_ICOUNT_SHIFT:-3}
SECS=${KMIRROR_BENCH_SECS:-2}
PAGES=${KMIRROR_BENCH_PAGES:-256}
T=$(mktemp -d "${TMPDIR:-/tmp}/kmirror-bench-ptc.XXXXXX")
trap 'rm -rf "$T"' EXIT

# The kernels and the initramfs, as `meson compile -C build kernel` makes
# them (quick when they are up to date).
"$S/build-kernels.sh" "$K" stock-gcc patched-gcc >"$T/build.log" 2>&1 ||
	{ tail -n 30 "$T/build.log"; echo "FAIL: build-kernels.sh"; exit 1; }
initrd=$K/initramfs.cpio.gz
accel=${KMIRROR_QEMU_ACCEL:-$("$S/qemu-accel.sh" "$K/stock-gcc.bzImage" "$initrd")}
export KMIRROR_QEMU_ACCEL="$accel"

: >"$T/all"

# ptc_bench's lines of LOG into $T/all as "CLOCK KERNEL CHECK ROUND TEST OPS/S".
collect() {
	sed -n 's/^ptcbench: \([a-z]*\) .*ops\/s=\([0-9.]*\).*/\1 \2/p' "$5" |
		sed "s/^/$1 $2 $3 $4 /" >>"$T/all"
}

# boot CLOCK KERNEL CHECK ROUND: one ptcbench boot.
boot() {
	log=$T/$1-$2-$3-$4.log
	append="page_table_check=$3 kmirror.ptcbench_secs=$SECS kmirror.ptcbench_pages=$PAGES"
	acc=$accel secs=600 qopts=
	if [ "$1" = icount ]; then
		acc=tcg secs=900 qopts="-icount shift=$SHIFT,sleep=off"
	fi
	KMIRROR_QEMU_ACCEL=$acc "$S/qemu-run.sh" -t $secs -a "$append" \
		${qopts:+-q "$qopts"} "$K/$2.bzImage" "$initrd" ptcbench \
		"$log" >"$T/verdict" || verdict=bad
	if [ "${verdict:-}" = bad ]; then
		cat "$T/verdict"
		cp "$log" "$K/bench-ptc-failed.log"
		echo "FAIL: $2 page_table_check=$3 ($1 round $4; console in $K/bench-ptc-failed.log)"
		exit 1
	fi
	collect "$1" "$2" "$3" "$4" "$log"
}

# rounds CLOCK N: N interleaved rounds.
rounds() {
	r=1
	while [ $r -le "$2" ]; do
		for k in stock-gcc patched-gcc; do
			for c in on off; do
				boot "$1" $k $c $r
			done
		done
		echo "# $1 round $r of $2 done"
		r=$((r + 1))
	done
}

# table CLOCK TITLE: best ops/s of each column, costs, ratio.
table() {
	awk -v clock="$1" -v title="$2" '
	$1 == clock {
		key = $2 " " $3 " " $5
		if (!(key in best) || $6 > best[key])
			best[key] = $6
		if (!(key in worst) || $6 < worst[key])
			worst[key] = $6
		if (!($5 in seen)) {
			seen[$5] = 1
			order[n++] = $5
		}
	}
	END {
		print title
		printf "%-5s %11s %11s %11s %11s  %10s %12s  %13s %7s\n", "test", "stock-on", "stock-off", "patched-on", "patched-off", "cost-stock", "cost-patched", "patched/stock", "spread"
		lr = 0; m = 0
		for (i = 0; i < n; i++) {
			t = order[i]
			so = best["stock-gcc on " t]; sf = best["stock-gcc off " t]
			po = best["patched-gcc on " t]; pf = best["patched-gcc off " t]
			ratio = (so > 0) ? po / so : 0
			cs = (sf > 0) ? 100 * (1 - so / sf) : 0
			cp = (pf > 0) ? 100 * (1 - po / pf) : 0
			# The widest best/worst gap of the four columns.
			sp = 0
			for (key in best) {
				split(key, f, " ")
				if (f[3] == t && worst[key] > 0 &&
				    best[key] / worst[key] - 1 > sp)
					sp = best[key] / worst[key] - 1
			}
			printf "%-5s %11.1f %11.1f %11.1f %11.1f  %9.1f%% %11.1f%%  %13.3f %6.1f%%\n", t, so, sf, po, pf, cs, cp, ratio, 100 * sp
			if (ratio > 0) {
				lr += log(ratio)
				m++
			}
		}
		if (m)
			printf "patched/stock with the check on, geometric mean over %d tests: %.3f\n", m, exp(lr / m)
	}' "$T/all"
}

rounds wall "$ROUNDS"
[ "$IROUNDS" -gt 0 ] && rounds icount "$IROUNDS"

echo
echo "bench_qemu_ptc: $SECS s per test and boot, $PAGES pages per operation (thp: 512), 1 CPU, 1 GiB"
echo "ops/s; check cost = 1 - ops(on)/ops(off); patched/stock with the check on, goal within 2% (0.98..1.02);"
echo "spread = best/worst - 1 over the rounds, the widest of the four columns"
table wall "wall clock, qemu $accel: best of $ROUNDS interleaved rounds"
if [ "$IROUNDS" -gt 0 ]; then
	echo
	table icount "icount (TCG -icount shift=$SHIFT: $((1 << SHIFT)) ns of guest time per instruction): best of $IROUNDS rounds"
fi
cp "$T/all" "$K/bench-ptc.raw"
echo "# every round's numbers (clock kernel check round test ops/s): $K/bench-ptc.raw"
