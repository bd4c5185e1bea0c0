#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Fill behind the read (-o fill_behind=N): a read that fetches absent
# granules answers at once and leaves storing them to a worker, from at
# most N buffers.  What the worker stores is what the source held, or
# nothing: never bytes a write through the mount replaced meanwhile.
# -o fill_delay_us=N makes the worker sleep before each store, so that a
# write, a change of the source or an unmount can come while pieces wait.
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/lib.sh"

src=$T/src mnt=$T/mnt cache=$T/cache
MB=$((1024 * 1024))
big=24 slow=500000	# the worker's sleep when a race is staged, us
[ "$VG" = 1 ] && big=6 slow=3000000
mkfile "$src/big" $((big * MB + 4321))
mkfile "$src/small" 70000
mkfile "$src/one" 1
: >"$src/empty"
for i in 1 2 3 4; do
	mkfile "$src/race$i" $((2 * MB))
done
settle

# remount_all_hits WHAT CACHE OPTS FILE...: after a remount every FILE
# reads as the source does, and from the cache alone.
remount_all_hits() {
	local what=$1 cache=$2 opts=$3 f b0
	shift 3
	cfs_mount "$src" "$mnt" "$cache" "$opts"
	stats_fresh "$cache"
	b0=$(stat_get "$cache" bytes_from_source)
	for f in "$@"; do
		tm cmp "$src/$f" "$mnt/$f" || fail "$what: $f after a remount"
	done
	stats_fresh "$cache"
	[ "$(stat_get "$cache" bytes_from_source)" = "$b0" ] ||
		fail "$what: the remount read the source again"
	cfs_umount "$mnt"
}

# bytes_right_after_remount: what the worker stored is the source's bytes.
cfs_mount "$src" "$mnt" "$cache" "fill_behind=2"
for f in big small one empty; do
	tm cmp "$src/$f" "$mnt/$f" || fail "first read of $f"
done
stats_fresh "$cache"
n=$(stat_get "$cache" filled_behind)
[ "$n" -gt 0 ] || fail "nothing was filled behind the read"
bufs=$(stat_get "$cache" fill_behind_buffers)
[ "$bufs" -ge 1 ] && [ "$bufs" -le 2 ] ||
	fail "fill_behind=2 made $bufs buffers"
cfs_umount "$mnt"
ok "bytes_right_after_remount: $n pieces stored behind, $bufs buffers"
remount_all_hits "bytes_right_after_remount" "$cache" "" big small one empty
ok "remount serves them from the cache alone"

# served_while_queued: pieces waiting for the worker answer reads of
# their granules (1 MiB granules, reads of less), and unmount stores them.
cfs_mount "$src" "$mnt" "$T/cache2" "granule=1M,fill_delay_us=300000"
tm cmp "$src/race1" "$mnt/race1" || fail "read while pieces wait"
cfs_umount "$mnt"
from_src=$(stat_get "$T/cache2" bytes_from_source)
[ "$from_src" -lt $((2 * MB)) ] ||
	fail "served_while_queued: every read went to the source ($from_src)"
[ "$(stat_get "$T/cache2" filled_behind)" = 2 ] ||
	fail "unmount left queued pieces unstored"
[ "$(stat_get "$T/cache2" behind_dropped)" = 0 ] ||
	fail "pieces dropped with no change"
ok "served_while_queued, and umount_with_queued_fills stores them"
remount_all_hits "umount_with_queued_fills" "$T/cache2" granule=1M race1

# write_racing_a_queued_fill: a write through the mount lands while the
# piece it overwrites waits; the piece is dropped, not stored over it.
cfs_mount "$src" "$mnt" "$cache" "fill_behind=1,fill_delay_us=$slow"
tm head -c 4096 "$mnt/race2" >/dev/null
printf 'written through the mount' |
	dd of="$mnt/race2" conv=notrunc status=none
wait_stat "$cache" behind_dropped 1
cfs_umount "$mnt"
tm cmp <(printf 'written through the mount') <(head -c 25 "$src/race2") ||
	fail "the write did not reach the source"
cfs_mount "$src" "$mnt" "$cache"
tm cmp "$src/race2" "$mnt/race2" ||
	fail "write_racing_a_queued_fill: stale bytes after a remount"
cfs_umount "$mnt"
ok "write_racing_a_queued_fill: the queued piece was dropped"

# truncate_racing_a_queued_fill: the same with the file cut and regrown.
cfs_mount "$src" "$mnt" "$cache" "fill_behind=1,fill_delay_us=$slow"
tm head -c 4096 "$mnt/race3" >/dev/null
truncate -s 1000 "$mnt/race3"
head -c $((2 * MB)) /dev/urandom >>"$mnt/race3"
wait_stat "$cache" behind_dropped 1
cfs_umount "$mnt"
settle
cfs_mount "$src" "$mnt" "$cache"
tm cmp "$src/race3" "$mnt/race3" || fail "truncate_racing_a_queued_fill"
cfs_umount "$mnt"
ok "truncate_racing_a_queued_fill"

# source_change_racing_a_queued_fill: the source changes behind the
# mount while a piece waits; the next open after attr_timeout sees the
# new bytes, whatever the worker stored.
cfs_mount "$src" "$mnt" "$cache" "fill_behind=1,fill_delay_us=$slow"
tm head -c 4096 "$mnt/race4" >/dev/null
head -c $((2 * MB)) /dev/urandom | dd of="$src/race4" conv=notrunc status=none
wait_stat "$cache" filled_behind 1
sleep 1.3
tm cmp "$src/race4" "$mnt/race4" ||
	fail "source_change_racing_a_queued_fill: old bytes served"
cfs_umount "$mnt"
ok "source_change_racing_a_queued_fill"

# fill_behind=0: inline fills, as before, nothing queued.
cfs_mount "$src" "$mnt" "$T/cache3" "fill_behind=0"
tm cmp "$src/big" "$mnt/big" || fail "fill_behind=0: read"
cfs_umount "$mnt"
[ "$(stat_get "$T/cache3" filled_behind)" = 0 ] &&
	[ "$(stat_get "$T/cache3" fill_behind_buffers)" = 0 ] ||
	fail "fill_behind=0 still filled behind"
ok "fill_behind=0 fills inline"
