#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The cache filesystem is full (ENOSPC): the cache dir lives on a 4 MiB
# tmpfs that a filler file then takes whole.  Reads and writes through the
# mount still succeed, served by and written to the source, and the
# nospace statistic counts the failed cache writes.
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/lib.sh"

src=$T/src mnt=$T/mnt
n=6 fsize=$((1024 * 1024))
[ "$VG" = 1 ] && n=3
mount_tmpfs "$T/tmpfs" 4m
cache=$T/tmpfs/cache
for ((i = 0; i < n; i++)); do
	mkfile "$src/f$i" $((fsize + i * 3))
done

# No stop limits (bstop=fstop=0): with cachefiles' defaults the
# housekeeper, within a second of seeing the full filesystem, stops all
# caching, and whether a cache write meets ENOSPC first would be a race
# with it (under valgrind it lost about half the time).
cfs_mount "$src" "$mnt" "$cache" bstop=0,fstop=0
# The daemon wrote its statistics file at mount (there is no room for one
# later); give it a moment to finish, then fill the cache filesystem to
# the last block.
sleep "$([ "$VG" = 1 ] && echo 3 || echo 0.5)"
dd if=/dev/zero of="$T/tmpfs/filler" bs=64K status=none 2>/dev/null || true
avail=$(df -B1 --output=avail "$T/tmpfs" | tail -n 1 | tr -d ' ')
[ "$avail" -lt 65536 ] || fail "tmpfs not full: $avail bytes free"
say "cache filesystem full ($avail bytes free)"

for ((i = 0; i < n; i++)); do
	tm cmp "$src/f$i" "$mnt/f$i" || fail "read of f$i with the cache full"
done
ok "$n files read correctly with the cache filesystem full"

mkfile "$T/new" $((1500 * 1024))
tm cp "$T/new" "$mnt/new" || fail "create+write with the cache full"
cmp "$T/new" "$src/new" || fail "written file did not reach the source"
head -c 200000 /dev/urandom >"$T/patch"
tm dd if="$T/patch" of="$mnt/f0" bs=64K seek=300000 oflag=seek_bytes \
	conv=notrunc status=none || fail "overwrite with the cache full"
# The source holds the write ...
cmp <(dd if="$src/f0" bs=64K iflag=skip_bytes,count_bytes skip=300000 \
	count=200000 status=none) "$T/patch" || fail "overwrite did not reach the source"
# ... and the mount serves it, from a new open with the page cache dropped.
drop_pages "$mnt/f0" "$mnt/new"
tm cmp "$src/f0" "$mnt/f0" || fail "f0 after the overwrite"
tm cmp "$src/new" "$mnt/new" || fail "new after it was written"
ok "writes go to the source and read back correctly with the cache full"

wait_stat "$cache" nospace 1
ok "nospace counted: $(stat_get "$cache" nospace)"

# Space comes back: the cache works again.
rm -f "$T/tmpfs/filler"
drop_pages "$mnt"/f*
tm cmp "$src/f1" "$mnt/f1" || fail "f1 after space came back"
cfs_umount "$mnt"
ok "unmounted cleanly"
