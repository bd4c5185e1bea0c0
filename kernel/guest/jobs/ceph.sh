# SPDX-License-Identifier: GPL-2.0-only
# CephFS mount parsing without a cluster: mount(2) parses the source and
# the options before it connects, so a string the parser refuses fails at
# once (EINVAL and a parse message), one it accepts fails later, when
# libceph cannot reach the monitors within mount_timeout=1.
#
# The strings come from the host on the 9p share "ceph" (tests/qemu/
# t_ceph.sh writes them from tests/vectors/ceph.vec plus hostile ones):
# /share/strings, one "FLAG<TAB>SOURCE<TAB>OPTIONS" a line, "-" for an
# empty source or no options (FLAG is for the host).  For line N the job
# writes "N<TAB>RC<TAB>ERROR<TAB>FIRST" to /share/result: the exit status
# of `mount -t ceph SOURCE /mnt -o mount_timeout=1[,OPTIONS]`, busybox's
# error text (strerror of the errno) and the first line that ceph or
# libceph logged meanwhile, without its timestamp (other drivers may log
# at any time).  The host compares the stock kernel's results with the
# patched kernel's.
set -eu
mkdir -p /share
mount -t 9p -o trans=virtio,version=9p2000.L ceph /share
[ -f /share/strings ] || { echo "ceph: no /share/strings"; exit 1; }
: >/share/result
n=0
tab=$(printf '\t')
while IFS=$tab read -r _ src opts; do
	n=$((n + 1))
	[ "$src" = - ] && src=
	o=mount_timeout=1
	[ "$opts" = - ] || o="$o,$opts"
	dmesg -c >/dev/null
	rc=0
	mount -t ceph "$src" /mnt -o "$o" 2>/tmp/err || rc=$?
	# Nothing can be mounted here: rc=0 in the result would tell.
	[ "$rc" -ne 0 ] || umount /mnt || true
	err=$(sed -n 's/.*failed: //p' /tmp/err | head -n 1)
	[ -n "$err" ] || err=$(head -n 1 /tmp/err)
	first=$(dmesg | sed 's/^\[ *[0-9.]*\] //' |
		grep -E '^(lib)?ceph: ' | head -n 1 || true)
	printf '%s\t%s\t%s\t%s\n' "$n" "$rc" "$err" "$first" >>/share/result
done </share/strings
echo "ceph: $n mount strings tried"
umount /share
