#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Checksums (-o verify, sums.c): bytes flipped in a cache object behind
# the daemon's back, its mtime put back so that the seal still matches,
# are never served with verify=on (counted in verify_failures, fetched
# again, and the object repaired), and are with verify=off (so the test
# can fail, and verify is what catches it).  A damaged or missing sidecar
# of sums makes the map's granules absent (sums_missing), never served
# unchecked.  Intact sums and a write-through into a cached granule give
# no false failure after a remount.
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/lib.sh"

src=$T/src mnt=$T/mnt cache=$T/cache
g=$((256 * 1024)) size=$((5 * 256 * 1024 + 1234))
mkfile "$src/f" "$size"
settle

# The one object of the cache, and its one sidecar.
object() {
	find "$cache/cache" -type f -size +100k | head -n 1
}
sidecar() {
	find "$cache/kmirror-sums" -type f ! -name '*.tmp' | head -n 1
}

# rot: flip 64 bytes in granule 2 of the object, size and mtime kept.
rot() {
	local obj mt
	obj=$(object)
	[ -n "$obj" ] || fail "no cache object found under $cache/cache"
	mt=$(stat -c %.9Y "$obj")
	head -c 64 /dev/urandom |
		dd of="$obj" bs=1 seek=$((2 * g + 1000)) conv=notrunc status=none
	touch -m -d "@$mt" "$obj"
	[ "$(stat -c %.9Y "$obj")" = "$mt" ] || fail "mtime of $obj not restored"
}

# check_read WHAT WANT_FAILURES: a read of f through the mount is right;
# sets FROM_SOURCE, FAILURES, MISSING.
check_read() {
	read_counting "$cache" "$src/f" "$mnt/f"
	FAILURES=$(stat_get "$cache" verify_failures)
	MISSING=$(stat_get "$cache" sums_missing)
}

cfs_mount "$src" "$mnt" "$cache"
check_read
cfs_umount "$mnt"
[ -n "$(sidecar)" ] || fail "no sidecar in $cache/kmirror-sums"
ok "first read cached the file and wrote its sums"

# (d) intact sums: all hits, nothing fetched, no failure.
cfs_mount "$src" "$mnt" "$cache"
check_read
[ "$FROM_SOURCE" = 0 ] || fail "remount: $FROM_SOURCE bytes from the source"
[ "$FAILURES" = 0 ] || fail "remount: $FAILURES verify failures, intact object"
[ "$MISSING" = 0 ] || fail "remount: sums_missing $MISSING, sums intact"
cfs_umount "$mnt"
ok "remount with intact sums: all from the cache, no failure"

# (b) verify=off serves the rotten bytes: the test can fail.
rot
cfs_mount "$src" "$mnt" "$cache" verify=off
drop_pages "$mnt/f"
if cmp -s "$src/f" "$mnt/f"; then
	fail "verify=off: rotten object read as the source (rot not seen?)"
fi
cfs_umount "$mnt"
ok "verify=off serves the rotten bytes"

# (a) verify=on catches them, fetches the granule again, repairs it.
cfs_mount "$src" "$mnt" "$cache"
check_read
[ "$FAILURES" -ge 1 ] || fail "rotten granule: verify_failures $FAILURES"
caught=$FAILURES
[ "$FROM_SOURCE" -gt 0 ] ||
	fail "rotten granule: nothing fetched again"
grep -q "granule 2: checksum mismatch" "$T/daemon.$NMOUNT.log" ||
	fail "no log line for the rotten granule"
cfs_umount "$mnt"
cfs_mount "$src" "$mnt" "$cache"
check_read
[ "$FROM_SOURCE" = 0 ] && [ "$FAILURES" = 0 ] ||
	fail "after repair: $FROM_SOURCE bytes from source, $FAILURES failures"
cfs_umount "$mnt"
ok "verify=on: rot caught ($caught), granule fetched again and repaired"

# (c) a damaged sidecar, then none: the granules are fetched again.
sc=$(sidecar)
printf 'X' | dd of="$sc" bs=1 seek=70 conv=notrunc status=none
cfs_mount "$src" "$mnt" "$cache"
check_read
[ "$MISSING" -ge 1 ] || fail "damaged sidecar: sums_missing $MISSING"
[ "$FROM_SOURCE" -gt 0 ] || fail "damaged sidecar: nothing fetched again"
cfs_umount "$mnt"
rm -f "$(sidecar)"
cfs_mount "$src" "$mnt" "$cache"
check_read
[ "$MISSING" -ge 1 ] || fail "missing sidecar: sums_missing $MISSING"
[ "$FROM_SOURCE" -gt 0 ] || fail "missing sidecar: nothing fetched again"
cfs_umount "$mnt"
cfs_mount "$src" "$mnt" "$cache"
check_read
[ "$FROM_SOURCE" = 0 ] && [ "$MISSING" = 0 ] ||
	fail "refetched: $FROM_SOURCE bytes from the source, missing $MISSING"
cfs_umount "$mnt"
ok "damaged or missing sums: counted, everything fetched again"

# (e) a write through the mount into cached granules (part of granule
# 1, across the end of 3 into 4), then a remount: no false failure.
cfs_mount "$src" "$mnt" "$cache"
check_read
head -c 100 /dev/urandom >"$T/w1"
head -c 5000 /dev/urandom >"$T/w2"
dd if="$T/w1" of="$mnt/f" bs=1 seek=$((g + 5)) conv=notrunc status=none
dd if="$T/w2" of="$mnt/f" bs=1 seek=$((4 * g - 2000)) conv=notrunc \
	status=none
cfs_umount "$mnt"
cfs_mount "$src" "$mnt" "$cache"
check_read
[ "$FAILURES" = 0 ] || fail "write-through: $FAILURES false verify failures"
[ "$MISSING" = 0 ] || fail "write-through: sums_missing $MISSING"
[ "$FROM_SOURCE" = 0 ] ||
	fail "write-through: $FROM_SOURCE bytes from the source after remount"
cfs_umount "$mnt"
ok "write-through into cached granules: no false failure after remount"
