# SPDX-License-Identifier: GPL-2.0-only
# CephFS against the host's test cluster (tests/ceph/cluster.sh), reached
# on QEMU's user network; its address, fsid and the client "kmirror"'s
# secret come on the kernel command line (ceph_args).
#   1. cachefiles bound on /dev/vda; the new device syntax with fsc: every
#      file read twice, remounted between (the second pass from the
#      cache), "md5 PASS SUM PATH" lines and the fscache statistics;
#   2. the old syntax, and msgr2 (ms_mode=crc, secure, prefer-crc on port
#      3300): "mount NAME rc=N" and a file read through each;
#   3. hostile sources and monitor lists: "hostile NAME rc=N", each must
#      fail cleanly (the host checks the console for oopses).
set -eu
. /jobs/lib.sh

ceph_args

new="kmirror@$fsid.cephfs=/"
opts="mon_addr=$mon:6789,secret=$key"

# read_ceph PASS SOURCE OPTIONS: mount, "md5 PASS SUM PATH" for every
# file, unmount.
read_ceph() {
	mount -t ceph "$2" /mnt -o "$3"
	(cd /mnt && find . -type f | sort | while read -r f; do
		sum=$(md5sum "$f")
		echo "md5 $1 ${sum%% *} ${f#./}"
	done)
	umount /mnt
}

bind_cache
read_ceph 1 "$new" "$opts,fsc"
read_ceph 2 "$new" "$opts,fsc"
show_stats
unbind_cache

# try NAME SOURCE OPTIONS: a mount that must work; one file read.
try() {
	rc=0
	mount -t ceph "$2" /mnt -o "$3" || rc=$?
	echo "mount $1 rc=$rc"
	[ "$rc" = 0 ] || return 0
	sum=$(md5sum /mnt/f4097)
	echo "read $1 ${sum%% *}"
	umount /mnt
}
try old "$mon:6789:/" "name=kmirror,secret=$key,mds_namespace=cephfs"
for mode in crc secure prefer-crc; do
	try "msgr2-$mode" "$new" "mon_addr=$mon:3300,secret=$key,ms_mode=$mode"
done

# hostile NAME SOURCE OPTIONS: a mount that must fail.
hostile() {
	rc=0
	mount -t ceph "$2" /mnt -o "$3" 2>/dev/null || rc=$?
	echo "hostile $1 rc=$rc"
	[ "$rc" = 0 ] && umount /mnt
	return 0
}
mons33=$mon mons33c=$mon
for i in $(seq 2 33); do
	mons33="$mons33/10.0.2.$i"
	mons33c="$mons33c,10.0.2.$i"
done
hostile bad-fsid "kmirror@zz${fsid#??}.cephfs=/" "$opts"
hostile short-fsid "kmirror@1234.cephfs=/" "$opts"
hostile empty-fs-name "kmirror@$fsid.=/" "$opts"
hostile no-equals "kmirror@$fsid.cephfs/" "$opts"
hostile 33-monitors "$new" "mon_addr=$mons33,secret=$key"
hostile mixed-separators "$new" "mon_addr=$mon:6789,10.0.2.3/$mon,secret=$key"
hostile bad-port "$new" "mon_addr=$mon:99999,secret=$key"
hostile wrong-secret "$new" \
	"mon_addr=$mon:6789,secret=AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA==,mount_timeout=10"
hostile old-33-monitors "$mons33c:/" \
	"name=kmirror,secret=$key,mds_namespace=cephfs"
