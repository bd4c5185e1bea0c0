#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Bug: a cold read that overlaps a write to the source cached the old
# bytes under the new timestamps, for good (also after a remount).  A
# write stamps mtime before its bytes land, and a source's timestamps
# move in ticks: a read that checked the file in the writer's last tick
# and then ran ahead of it kept bytes the writer overwrote moments later,
# with nothing left to show it.  Now a granule is kept only if the source
# is the same before and after its bytes were fetched and its timestamps
# had settled before (cache.c, kc_attr_settled()).
#
# A writer rewrites a file chunk by chunk while readers read it through
# the mount again and again; once the writer is done, the mount must read
# what the source holds, and so must a remount.  On a source with
# nanosecond timestamps (the temp dir) and on one with whole seconds (a
# loop-mounted ext4 -I 128, root only), where the last tick is a second.
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/../fuse/lib.sh"

MB=32 CHUNK_SLEEP=0.06
[ "$VG" = 1 ] && MB=8 CHUNK_SLEEP=0.3
mkfile "$T/new" $((MB << 20))

# race NAME SRC: the race on the source directory SRC.
race() {
	local name=$1 src=$2 mnt=$T/mnt.$1 cache=$T/cache.$1 i w
	mkfile "$src/f" $((MB << 20))
	sleep 2.2	# settled, also for whole-second timestamps
	cfs_mount "$src" "$mnt" "$cache"
	(
		for ((i = 0; i < MB; i++)); do
			dd if="$T/new" of="$src/f" bs=1M seek=$i skip=$i \
				count=1 conv=notrunc status=none
			sleep "$CHUNK_SLEEP"
		done
	) &
	w=$!
	while kill -0 "$w" 2>/dev/null; do
		tm cat "$mnt/f" >/dev/null
	done
	wait "$w"
	cmp -s "$T/new" "$src/f" || fail "$name: the writer did not finish"
	sleep 2.5	# attributes time out; the last second is over
	drop_pages "$mnt/f"
	tm cmp "$src/f" "$mnt/f" ||
		fail "$name: after the write, the mount reads old bytes"
	cfs_umount "$mnt"
	cfs_mount "$src" "$mnt" "$cache"
	tm cmp "$src/f" "$mnt/f" ||
		fail "$name: after a remount, the cache serves old bytes"
	cfs_umount "$mnt"
	ok "$name: no old byte kept from a read that raced a write"
}

mkdir -p "$T/src"
race nanosecond-timestamps "$T/src"
mount_coarse_ext4 "$T/coarse" 256M ||
	skip "needs root, mkfs.ext4 and a loop device for a whole-second source (the nanosecond part passed)"
race whole-second-timestamps "$T/coarse"
