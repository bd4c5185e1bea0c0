#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bench_verify.sh: what -o verify=on costs a warm read (issue 15's goal:
# within 10% of verify=off).  A file of KMIRROR_VERIFY_MB MiB (default 128)
# is cached once, its object then warm in the page cache of the cache's
# filesystem; the kernel's page cache of the mounted file is dropped
# before every measurement, so each read reaches the daemon.  Four cases:
#   seq first   1 MiB reads of the whole file, just after a mount: the map
#               is loaded, no granule verified yet (verify=on checks each)
#   seq steady  the same again, every granule verified since the mount
#   rand first  KMIRROR_VERIFY_RANDOM (20000) 4 KiB reads at random
#               offsets (seeded), just after another mount
#   rand steady the same after a whole sequential pass
# A load on the machine moves both settings alike only if they alternate:
# KMIRROR_BENCH_ROUNDS (7) rounds, off then on in even rounds, on then off
# in odd ones (ABBA), each case measured once per round.  Prints, per case
# and setting, the median and the minimum, and the ratios on/off of both;
# and the daemon's VmRSS and VmHWM after the steady cases.  Timings are
# reported, never judged; the load average is printed at start and end.
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/../fuse/lib.sh"

MB=${KMIRROR_VERIFY_MB:-128}
NRAND=${KMIRROR_VERIFY_RANDOM:-20000}
ROUNDS=${KMIRROR_BENCH_ROUNDS:-7}
src=$T/src mnt=$T/mnt cache=$T/cache
CASES="seq_first seq_steady rand_first rand_steady"

vm() { awk -v k="$2:" '$1 == k { printf "%.1f", $2 / 1024 }' "/proc/$1/status"; }

# seconds of sequential 1 MiB reads of FILE (its page cache dropped)
seq_read() {
	local t0
	drop_pages "$1"
	t0=$EPOCHREALTIME
	dd if="$1" of=/dev/null bs=1M status=none
	awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.4f", b - a }'
}

# seconds of NRAND 4 KiB reads at random (seeded) offsets of FILE
rand_read() {
	drop_pages "$1"
	python3 - "$1" "$NRAND" <<'PY'
import os, random, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY)
size = os.fstat(fd).st_size
rng = random.Random(15)
offs = [rng.randrange(0, size // 4096) * 4096 for _ in range(int(sys.argv[2]))]
t = time.monotonic()
for o in offs:
    os.pread(fd, 4096, o)
print("%.4f" % (time.monotonic() - t))
PY
}

# A mount that read nothing from the source and found no rot.
mount_warm() { cfs_mount "$src" "$mnt" "$cache" "verify=$1"; }
umount_warm() {
	stats_fresh "$cache"
	[ "$(stat_get "$cache" bytes_from_source)" = 0 ] ||
		fail "verify=$1: warm reads went to the source"
	[ "$(stat_get "$cache" verify_failures)" = 0 ] ||
		fail "verify=$1: verify failures on an intact cache"
	cfs_umount "$mnt"
}

# One round of setting $1: the four cases, times appended to $T/t.<case>.$1
round() {
	local v=$1
	mount_warm "$v"
	seq_read "$mnt/f" >>"$T/t.seq_first.$v"; echo >>"$T/t.seq_first.$v"
	seq_read "$mnt/f" >>"$T/t.seq_steady.$v"; echo >>"$T/t.seq_steady.$v"
	rand_read "$mnt/f" >>"$T/t.rand_steady.$v"
	echo "$(vm "${DPID[$mnt]}" VmRSS) $(vm "${DPID[$mnt]}" VmHWM)" \
		>>"$T/mem.$v"
	umount_warm "$v"
	mount_warm "$v"
	rand_read "$mnt/f" >>"$T/t.rand_first.$v"
	umount_warm "$v"
}

# median and minimum of the numbers in FILE, one a line
stats() {
	sort -g "$1" | awk '{ v[NR] = $1 } END {
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%.4f %.4f", m, v[1] }'
}

mkfile "$src/f" $((MB << 20))
settle
cfs_mount "$src" "$mnt" "$cache"
dd if="$mnt/f" of=/dev/null bs=1M status=none
cfs_umount "$mnt"
say "load at start: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"

for ((r = 0; r < ROUNDS; r++)); do
	if ((r % 2)); then order="on off"; else order="off on"; fi
	for v in $order; do
		round "$v"
	done
	say "round $((r + 1))/$ROUNDS done"
done

echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs;" \
     "$MB MiB file, $NRAND random reads, $ROUNDS rounds (ABBA)"
echo "| case | off median | off min | on median | on min | on/off median | on/off min |"
echo "|---|---|---|---|---|---|---|"
for c in $CASES; do
	read -r om on_ <<<"$(stats "$T/t.$c.off")"
	read -r nm nn <<<"$(stats "$T/t.$c.on")"
	awk -v c="$c" -v om="$om" -v on_="$on_" -v nm="$nm" -v nn="$nn" \
	    'BEGIN { printf "| %s | %.3f s | %.3f s | %.3f s | %.3f s | %.3f | %.3f |\n",
		     c, om, on_, nm, nn, nm / om, nn / on_ }'
done
for v in off on; do
	echo "verify=$v: daemon VmRSS/VmHWM after the steady cases (MiB):" \
	     "$(awk '{ r = r " " $1 "/" $2 } END { print r }' "$T/mem.$v")"
done
