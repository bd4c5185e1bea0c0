#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# t_cephfs.sh (suite ceph): the stock and the patched kernel mount a real
# CephFS, the single-node cluster of tests/ceph/cluster.sh, run in a
# network namespace of this test's own and reached from the guest over
# QEMU's user network (job kernel/guest/jobs/cephfs.sh):
#  - the new device syntax with fsc, cachefiles bound on a virtio disk:
#    both passes read exactly the files seeded through ceph-fuse, the
#    second from the cache (fscache IO rd > 0);
#  - the old syntax and msgr2 (ms_mode=crc, secure, prefer-crc) mount and
#    read; hostile sources and monitor lists fail, without an oops;
#  - the cache image, read on the host by `kmirror cache ls`, has one
#    object per file, and the patched kernel's cache equals the stock
#    kernel's, name for name and xattr for xattr.
# SKIP (77) with the reason without root, the ceph packages, /dev/fuse or
# the kernels (meson test --suite qemu builds them).
skip() { echo "SKIP: cephfs: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "needs root (a network namespace)"
for p in ceph-mon ceph-mgr ceph-osd ceph-mds ceph-fuse ceph uuidgen \
	unshare ip fusermount3; do
	command -v "$p" >/dev/null 2>&1 || skip "$p missing (deps.sh)"
done
[ -c /dev/fuse ] || skip "/dev/fuse missing (the files are seeded through ceph-fuse)"
for k in stock-gcc patched-gcc; do
	[ -f "${KMIRROR_KERNEL_OUT:?}/$k.bzImage" ] ||
		skip "no $k kernel (meson test --suite qemu builds it)"
done
[ -n "${KMIRROR_CEPH_NETNS:-}" ] ||
	exec "$(dirname "$0")/../ceph/cluster.sh" netns sh "$0" "$@"
. "$(dirname "$0")/lib.sh"
CL=$T/cluster
cleanup() {
	rc=$?
	set +e
	fusermount3 -u -z "$T/seed-mnt" 2>/dev/null
	"$KMIRROR_SOURCE_ROOT/tests/ceph/cluster.sh" down "$CL"
	[ "$rc" = 0 ] || tail -n 5 "$CL"/log/*.log 2>/dev/null
	rm -rf "$T"
	exit "$rc"
}
trap cleanup EXIT

"$KMIRROR_SOURCE_ROOT/tests/ceph/cluster.sh" up "$CL" >"$T/cluster.out" 2>&1 ||
	{ cat "$T/cluster.out"; fail "cluster.sh up"; }
. "$CL/env"
echo "ok cluster up, fsid $fsid"

# The files, seeded through ceph-fuse; the guests read the same inodes.
make_share "$T/share"
share_sums "$T/share" >"$T/want"
mkdir -p "$T/seed-mnt"
ceph-fuse -c "$CL/ceph.conf" --id kmirror -k "$CL/kmirror.keyring" \
	--log-file "$T/ceph-fuse.log" --pid-file "$T/ceph-fuse.pid" \
	--admin-socket "$T/ceph-fuse.asok" "$T/seed-mnt" >/dev/null 2>&1 ||
	fail "ceph-fuse"
cp -a "$T/share/." "$T/seed-mnt/"
fusermount3 -u "$T/seed-mnt"

for k in stock-gcc patched-gcc; do
	log=$K/cephfs-$k.log
	python3 "$S/cache-image.py" make "$T/$k.img" 128
	boot "$k" cephfs "$log" -d "$T/$k.img" -t 600 \
		-q "-nic user,model=virtio-net-pci" \
		-a "kmirror.ceph_fsid=$fsid kmirror.ceph_key=$key \
		    kmirror.ceph_mon=$mon"
	for pass in 1 2; do
		guest_sums "$log" $pass >"$T/got"
		diff -u "$T/want" "$T/got" || fail "$k: pass $pass read wrong bytes"
	done
	rd=$(stat_field "$log" IO rd)
	[ "${rd:-0}" -gt 0 ] || fail "$k: fscache read nothing from the cache"
	echo "ok $k: new syntax with fsc, both passes equal the files, IO rd=$rd"
	want4097=$(grep ' f4097$' "$T/want" | cut -d' ' -f1)
	for m in old msgr2-crc msgr2-secure msgr2-prefer-crc; do
		tr -d '\r' <"$log" | grep -qx "mount $m rc=0" ||
			fail "$k: mount $m: $(tr -d '\r' <"$log" | grep "^mount $m ")"
		tr -d '\r' <"$log" | grep -qx "read $m $want4097" ||
			fail "$k: $m read f4097 wrong"
	done
	echo "ok $k: old syntax and msgr2 crc/secure/prefer-crc mount and read"
	n=$(tr -d '\r' <"$log" | grep -c '^hostile ')
	[ "$n" -ge 9 ] || fail "$k: only $n hostile mounts ran"
	if tr -d '\r' <"$log" | grep '^hostile .* rc=0$'; then
		fail "$k: a hostile mount succeeded"
	fi
	echo "ok $k: $n hostile sources and monitor lists refused"
	cache_report "$T/$k.img" "$k"
done

files=$(wc -l <"$T/want")
objs=$(grep -c '"key"' "$T/patched-gcc.json" || true)
[ "$objs" -ge "$files" ] ||
	fail "kmirror cache ls: $objs objects for $files files"
echo "ok kmirror cache ls: $objs objects for $files files"
caches_equal stock-gcc patched-gcc
