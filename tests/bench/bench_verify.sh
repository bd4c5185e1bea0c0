#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bench_verify.sh: what -o verify=on costs a warm read.  A file of
# KMIRROR_VERIFY_MB MiB (default 128) is cached once; then, in the same run
# and for each of verify=off and verify=on, a fresh mount reads it whole
# sequentially twice (1 MiB reads; with verify=on the first pass checks
# every granule, the second trusts the page cache: once per granule per
# load of the map) and then does KMIRROR_VERIFY_RANDOM (20000) 4 KiB reads
# at random offsets, each with the kernel's page cache dropped first.  Prints the
# times, the ratios on/off and the daemon's VmHWM.  Best of
# KMIRROR_BENCH_ROUNDS (3) rounds, interleaved.  Timings are reported,
# never judged (issue 15's goal: within 10%).
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/../fuse/lib.sh"

MB=${KMIRROR_VERIFY_MB:-128}
NRAND=${KMIRROR_VERIFY_RANDOM:-20000}
ROUNDS=${KMIRROR_BENCH_ROUNDS:-3}
src=$T/src mnt=$T/mnt cache=$T/cache

vm() { awk -v k="$2:" '$1 == k { printf "%.1f", $2 / 1000 }' "/proc/$1/status"; }
best() { awk -v a="$1" -v b="$2" 'BEGIN { print (b == "" || a < b) ? a : b }'; }

# seconds of sequential reading of FILE
seq_read() {
	local t0=$EPOCHREALTIME
	dd if="$1" of=/dev/null bs=1M status=none
	awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }'
}

# seconds of NRAND 4 KiB reads at random (seeded) offsets of FILE
rand_read() {
	python3 - "$1" "$NRAND" <<'PY'
import os, random, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY)
size = os.fstat(fd).st_size
rng = random.Random(15)
offs = [rng.randrange(0, size // 4096) * 4096 for _ in range(int(sys.argv[2]))]
t = time.monotonic()
for o in offs:
    os.pread(fd, 4096, o)
print("%.3f" % (time.monotonic() - t))
PY
}

mkfile "$src/f" $((MB << 20))
settle
cfs_mount "$src" "$mnt" "$cache"
dd if="$mnt/f" of=/dev/null bs=1M status=none
cfs_umount "$mnt"

declare -A seq seq2 rnd hwm
for ((r = 0; r < ROUNDS; r++)); do
	for v in off on; do
		cfs_mount "$src" "$mnt" "$cache" "verify=$v"
		drop_pages "$mnt/f"
		s=$(seq_read "$mnt/f")
		drop_pages "$mnt/f"
		s2=$(seq_read "$mnt/f")
		drop_pages "$mnt/f"
		x=$(rand_read "$mnt/f")
		h=$(vm "${DPID[$mnt]}" VmHWM)
		stats_fresh "$cache"
		[ "$(stat_get "$cache" bytes_from_source)" = 0 ] ||
			fail "verify=$v: warm reads went to the source"
		[ "$(stat_get "$cache" verify_failures)" = 0 ] ||
			fail "verify=$v: verify failures on an intact cache"
		cfs_umount "$mnt"
		seq[$v]=$(best "$s" "${seq[$v]:-}")
		seq2[$v]=$(best "$s2" "${seq2[$v]:-}")
		rnd[$v]=$(best "$x" "${rnd[$v]:-}")
		hwm[$v]=$h
		say "round $r verify=$v: sequential ${s}s then ${s2}s," \
		    "random ${x}s, VmHWM ${h} MB"
	done
done
for v in off on; do
	echo "verify=$v: ${MB} MiB sequential ${seq[$v]}s first," \
	     "${seq2[$v]}s again; $NRAND random 4K reads ${rnd[$v]}s;" \
	     "VmHWM ${hwm[$v]} MB"
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
echo "ratio on/off: sequential first $(ratio "${seq[on]}" "${seq[off]}")," \
     "again $(ratio "${seq2[on]}" "${seq2[off]}")," \
     "random $(ratio "${rnd[on]}" "${rnd[off]}")"
