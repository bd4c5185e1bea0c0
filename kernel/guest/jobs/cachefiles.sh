# SPDX-License-Identifier: GPL-2.0-only
# cachefiles under 9p, the way cachefilesd would do it but with busybox:
# an ext4 cache on /dev/vda (the cache in its fsc/ directory), bound
# through /dev/cachefiles, the 9p share "src" mounted with cache=fscache.
# Every file is read twice, the second time after a remount (so from the
# cache), and the checksums of both passes are printed as
#   md5 PASS SUM PATH
# for the host to compare with the share.  The fscache statistics follow.
# At the end the share is unmounted (cookies relinquished, objects linked
# into the cache) and the cache unbound and unmounted, for the host to
# read the image.
set -eu
mount -t ext4 /dev/vda /cache
mkdir -p /cache/fsc
exec 3<>/dev/cachefiles
echo "dir /cache/fsc" >&3
echo "tag kmirror" >&3
echo "bind" >&3

opts=trans=virtio,version=9p2000.L,cache=fscache
for pass in 1 2; do
	mount -t 9p -o "$opts" src /mnt
	(cd /mnt && find . -type f | sort | while read -r f; do
		set -- $(md5sum "$f")
		echo "md5 $pass $1 ${f#./}"
	done)
	umount /mnt
done
echo "--- /proc/fs/fscache/stats"
cat /proc/fs/fscache/stats
echo "--- end stats"
exec 3>&-
umount /cache
