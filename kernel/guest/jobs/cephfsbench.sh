# SPDX-License-Identifier: GPL-2.0-only
# The kernel CephFS client's sequential read of /big (kmirror.bench_mb=
# MiB, seeded by tests/bench/bench_cephfs.sh) from the host's test cluster,
# without and with fsc (cachefiles on /dev/vda): cold on a fresh mount,
# warm on the next mount (the page cache goes with the unmount; with fsc
# the data then comes from the cache).  Prints
#   bench nofsc|fsc cold|warm MS
# milliseconds from /proc/uptime (10 ms steps).
set -eu
. /jobs/lib.sh

ceph_args
src="kmirror@$fsid.cephfs=/"
opts="mon_addr=$mon:6789,secret=$key"

ms() { read -r up _ </proc/uptime; echo "${up%.*}${up#*.}0"; }

# one MODE PASS OPTIONS: mount, read /big, unmount.
one() {
	mount -t ceph "$src" /mnt -o "$3"
	t0=$(ms)
	cat /mnt/big >/dev/null
	t1=$(ms)
	umount /mnt
	echo "bench $1 $2 $((t1 - t0))"
}

one nofsc cold "$opts"
one nofsc warm "$opts"
bind_cache
one fsc cold "$opts,fsc"
one fsc warm "$opts,fsc"
show_stats
unbind_cache
