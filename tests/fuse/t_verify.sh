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
# no false failure after a remount.  Offline (the source failing), a
# rotten granule is refused, not served.
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

# (f) offline (offline.c: the source failing): a rotten granule is not
# served from the cache either; the read fails instead.
if [ "$(id -u)" = 0 ] && [ -x "${KMIRROR_FLAKY:-}" ]; then
	ctl=$T/ctl flaky=$T/flaky cache=$T/cache-offline
	echo ok >"$ctl"
	bg_mount "$flaky" "$KMIRROR_FLAKY" "$ctl" "$src" "$flaky" -f
	cfs_mount "$flaky" "$mnt" "$cache"
	tm cmp "$src/f" "$mnt/f" || fail "offline case: first read"
	cfs_umount "$mnt"
	rot
	cfs_mount "$flaky" "$mnt" "$cache"
	# Opened while the source answers; granule 2 is read only once the
	# mount is offline: its check fails, and nothing else can serve it.
	exec 3<"$mnt/f"
	head -c 4096 <&3 >/dev/null
	echo "fail ENOTCONN" >"$ctl"
	stat "$mnt/not-there" >/dev/null 2>&1 || true	# a lookup: offline
	wait_stat "$cache" offline 1
	range_src=$(range_sum "$src/f" $((2 * g)) "$g")
	if range_mnt=$(dd bs=64K iflag=skip_bytes,count_bytes skip=$((2 * g)) \
			count="$g" status=none <&3 2>/dev/null | sha256sum); then
		[ "${range_mnt%% *}" = "$range_src" ] ||
			fail "offline: the rotten granule was served"
	fi
	exec 3<&-
	stats_fresh "$cache"
	[ "$(stat_get "$cache" offline)" = 1 ] || fail "offline case: not offline"
	[ "$(stat_get "$cache" verify_failures)" -ge 1 ] ||
		fail "offline: rot not counted"
	echo ok >"$ctl"
	ok "offline: a rotten granule is refused, not served"
else
	say "offline case skipped: needs root and flaky_source"
fi
