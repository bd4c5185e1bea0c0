# SPDX-License-Identifier: GPL-2.0-only
# Shared by the cachefiles and CephFS jobs (sourced, not a job itself).

# bind_cache: the ext4 cache disk /dev/vda on /cache, its cachefiles cache
# in /cache/fsc, bound through /dev/cachefiles on descriptor 3 (closing it
# unbinds), as cachefilesd would do it.
bind_cache() {
	mount -t ext4 /dev/vda /cache
	mkdir -p /cache/fsc
	exec 3<>/dev/cachefiles
	echo "dir /cache/fsc" >&3
	echo "tag kmirror" >&3
	echo "bind" >&3
}

# read_share PASS: mount the 9p share "src" with cache=fscache, print
# "md5 PASS SUM PATH" for every file, unmount (which relinquishes the
# cookies and links their objects into the cache).
read_share() {
	mount -t 9p -o trans=virtio,version=9p2000.L,cache=fscache src /mnt
	(cd /mnt && find . -type f | sort | while read -r f; do
		sum=$(md5sum "$f")
		echo "md5 $1 ${sum%% *} ${f#./}"
	done)
	umount /mnt
}

show_stats() {
	echo "--- /proc/fs/fscache/stats"
	cat /proc/fs/fscache/stats
	echo "--- end stats"
}

unbind_cache() {
	exec 3>&-
	umount /cache
}

# ceph_args: fsid, key and mon of the host's test cluster, from the
# kernel command line (kmirror.ceph_fsid=, kmirror.ceph_key=,
# kmirror.ceph_mon=); then the virtio NIC up on QEMU's user network
# (10.0.2.15, gateway 10.0.2.2), which reaches the cluster.
ceph_args() {
	fsid= key= mon=
	for arg in $(cat /proc/cmdline); do
		case $arg in
		kmirror.ceph_fsid=*) fsid=${arg#*=} ;;
		kmirror.ceph_key=*) key=${arg#*=} ;;
		kmirror.ceph_mon=*) mon=${arg#*=} ;;
		esac
	done
	[ -n "$fsid" ] && [ -n "$key" ] && [ -n "$mon" ] ||
		{ echo "no ceph fsid, key or mon"; exit 2; }
	ip link set lo up
	ip link set eth0 up
	ip addr add 10.0.2.15/24 dev eth0
	ip route add default via 10.0.2.2
}
