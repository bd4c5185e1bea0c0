#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Bug: on a source whose timestamps have whole seconds (sshfs, SMB, FAT,
# ext4 with 128-byte inodes), a same-size rewrite within the second the
# file was read and cached in went unnoticed, for good.  Now a file is
# cached only once its timestamps are older than the source's tick
# (2 s for timestamps without nanoseconds), and checked again at every
# open: what was read young is served, not kept.  Once the file has aged,
# it is cached as before.  The source is a loop-mounted ext4 -I 128.
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/../fuse/lib.sh"
need_root "a loop-mounted ext4 -I 128"
mount_coarse_ext4 "$T/src" 64M ||
	skip "cannot make a loop-mounted ext4 -I 128 (mkfs.ext4, loop device)"

src=$T/src mnt=$T/mnt cache=$T/cache
cfs_mount "$src" "$mnt" "$cache"

# rewrite_in_same_second FILE SIZE: read FILE through the mount, then
# rewrite it in the source with other bytes of the same size, all within
# one second of the clock (retried until it fits in one).
rewrite_in_same_second() {
	local f=$1 size=$2 try t0 t1
	for ((try = 0; try < 10; try++)); do
		mkfile "$T/v1" "$size"
		mkfile "$T/v2" "$size"
		t0=$(date +%s)
		cp "$T/v1" "$src/$f"
		tm cat "$mnt/$f" >/dev/null
		dd if="$T/v2" of="$src/$f" conv=notrunc status=none
		t1=$(date +%s)
		[ "$t0" = "$t1" ] &&
			[ "$(stat -c %Y "$src/$f")" = "$t0" ] && return 0
		sleep 0.2
	done
	fail "could not read and rewrite $f within one second in 10 tries"
}

for size in 4096 300000 3000000; do
	rewrite_in_same_second "same-$size" "$size"
	sleep 1.2	# attr_timeout
	tm cmp "$src/same-$size" "$mnt/same-$size" ||
		fail "a same-size rewrite within the second of a read ($size bytes) is served stale"
	ok "a same-size rewrite within one second is seen ($size bytes)"
done
stats_fresh "$cache"
[ "$(stat_get "$cache" unstable)" -gt 0 ] ||
	fail "no fill was counted as unstable"

# Aged files are cached: a second read hits.
sleep 2.2
for size in 4096 300000 3000000; do
	tm cat "$mnt/same-$size" >/dev/null
done
stats_fresh "$cache"
h0=$(stat_get "$cache" hits)
for size in 4096 300000 3000000; do
	drop_pages "$mnt/same-$size"
	tm cmp "$src/same-$size" "$mnt/same-$size" || fail "aged file read"
done
stats_fresh "$cache"
h1=$(stat_get "$cache" hits)
[ "$h1" -gt "$h0" ] || fail "files older than the tick are not cached (hits $h0 -> $h1)"
ok "files older than the source's tick are cached (hits $h0 -> $h1)"
cfs_umount "$mnt"

cfs_mount "$src" "$mnt" "$cache"
for size in 4096 300000 3000000; do
	tm cmp "$src/same-$size" "$mnt/same-$size" || fail "after a remount"
done
cfs_umount "$mnt"
ok "after a remount the cache serves the source's bytes"
