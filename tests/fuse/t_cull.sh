#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Culling: more data is read through the mount than the cache may hold,
#   t_cull.sh size_limit   -o size_limit=2M on an ordinary cache dir
#   t_cull.sh tmpfs        a cache dir on a tmpfs that holds half the data
#                          (cachefiles' defaults: bcull 5% / brun 7% free)
#   t_cull.sh inodes       a cache dir on a tmpfs of 400 inodes (the volume's
#                          256 fan-out dirs take most), and 200 small files
#                          (fcull 5% / frun 7% free)
# Objects get culled (least recently used first), the statistics count it
# under the limit that triggered it (culls_size_limit, culls_blocks,
# culls_files),
# the cache comes back under its limit, every file still reads as the
# source, and a file held open the whole time is never culled: read again
# through a new open (page cache dropped), it comes from the cache.
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/lib.sh"

mode=${1:?usage: t_cull.sh size_limit|tmpfs|inodes}
TNAME=$TNAME-$mode
src=$T/src mnt=$T/mnt
MiB=$((1024 * 1024))
n=12 fsize=$MiB
[ "$VG" = 1 ] && n=8 fsize=$((512 * 1024))
case $mode in
size_limit)
	# 512 KiB files, two granules each, under a 2 MiB cap.
	n=10 fsize=$((512 * 1024))
	cache=$T/cache opts=size_limit=2M limit=$((2 * MiB)) why=size_limit
	;;
tmpfs)
	# Half the data fits: 8 MiB for 16 files of 1 MiB.
	n=$((n + 4)) opts='' limit='' why=blocks
	mount_tmpfs "$T/tmpfs" $((n * fsize / 2048))k
	cache=$T/tmpfs/cache
	;;
inodes)
	# 200 files of 4 KiB, a cache of 400 inodes and room for all bytes
	# (under valgrind 100 files, 330 inodes).
	n=200 fsize=4096 opts='' limit='' why=files inodes=400
	[ "$VG" = 1 ] && n=100 inodes=330
	mount_tmpfs "$T/tmpfs" "64m,nr_inodes=$inodes"
	cache=$T/tmpfs/cache
	;;
*)
	fail "unknown mode $mode"
	;;
esac
for ((i = 0; i < n; i++)); do
	mkfile "$src/f$i" $((fsize + i))
done

settle
cfs_mount "$src" "$mnt" "$cache" "$opts"
exec 3<"$mnt/f0"
tm cmp "$src/f0" /dev/fd/3 || fail "held file f0, first read"
for ((i = 1; i < n; i++)); do
	tm cmp "$src/f$i" "$mnt/f$i" || fail "f$i differs from the source"
done
ok "$n files of $fsize bytes read through a cache that holds less"

# Culling runs in the background (the daemon's housekeeper, every second
# or when kicked): give it up to 15 s.
STATS_WAIT=$((STATS_WAIT * 3))
wait_stat "$cache" culls 1
if [ -n "$limit" ]; then
	for ((i = 0; i < STATS_WAIT * 10; i++)); do
		[ "$(stat_get "$cache" cache_bytes)" -le "$limit" ] && break
		sleep 0.1
	done
	cb=$(stat_get "$cache" cache_bytes)
	[ "$cb" -le "$limit" ] || fail "cache_bytes $cb stays above size_limit $limit"
	disk=$(find "$cache" -path "$cache/graveyard" -prune -o -type f \
		! -name kmirror-stats -printf '%b\n' | awk '{ s += $1 * 512 } END { printf "%.0f\n", s }')
	[ "$disk" -le $((limit + 256 * 1024)) ] ||
		fail "data objects take $disk bytes on disk, size_limit is $limit"
	say "cache_bytes $cb, data objects on disk $disk, limit $limit"
else
	# Culling goes on until brun or frun (7%) is free again; at least
	# bcull or fcull (5%) must be free once it settled.
	cols=size,avail
	[ "$why" = files ] && cols=itotal,iavail
	for ((i = 0; i < STATS_WAIT * 10; i++)); do
		df -B1 --output=$cols "$T/tmpfs" | tail -n 1 >"$T/df"
		read -r total avail <"$T/df"
		[ $((avail * 100)) -ge $((total * 5)) ] && break
		sleep 0.1
	done
	say "tmpfs: $avail of $total ($cols) free"
	[ $((avail * 100)) -ge $((total * 5)) ] ||
		fail "free $avail of $total ($cols) stays below the cull limit (5%)"
fi
stats_fresh "$cache"
culls=$(stat_get "$cache" culls) objs=$(stat_get "$cache" objects)
[ "$objs" -lt "$n" ] || fail "objects $objs: nothing was culled for real"
ok "culled: culls $culls, $objs objects left of $n"
# culls_by_limit: every cull is counted under the limit that asked for it.
by=$(stat_get "$cache" "culls_$why")
[ "$by" = "$culls" ] ||
	fail "culls_by_limit: $culls culls, culls_$why $by: $(grep '^culls' "$cache/kmirror-stats")"
ok "culls_by_limit: all $culls culls counted in culls_$why"

# from_cache FILE WHY [partial]: a new open of FILE (page cache dropped)
# reads all of it from the cache, nothing from the source; with partial,
# its object must be there but some granules may come from the source.
from_cache() {
	local size
	read_counting "$cache" "$src/$1" "$mnt/$1"
	size=$(stat -c %s "$src/$1")
	if [ "${3:-}" = partial ]; then
		[ "$FROM_SOURCE" -lt "$size" ] ||
			fail "$2: all $size bytes of $1 came from the source"
	else
		[ "$FROM_SOURCE" = 0 ] ||
			fail "$2: $FROM_SOURCE bytes of $1 came from the source"
	fi
}

# The held file was never culled: all of it is in the cache.  Nor was the
# file read last (the most recently used; culling goes least recently
# used first), but some of its granules may be missing: while it was
# read the cache could be at bstop, the background culling not yet done,
# and a granule read then is served but not stored.  Culling takes whole
# objects, so a culled file would come all from the source.
from_cache f0 "the file held open was culled"
ok "the file held open was kept and reads from the cache"
# (Not with inodes short: at fstop no new object is made at all, and the
# last files read, one granule each, may have none.)
if [ "$why" != files ]; then
	from_cache "f$((n - 1))" "the file read last was culled" partial
	ok "the file read last was kept (least recently used went first;" \
		"$FROM_SOURCE bytes of granules refused at bstop from the source)"
fi
exec 3<&-

for ((i = 1; i < n; i++)); do
	tm cmp "$src/f$i" "$mnt/f$i" || fail "second pass: f$i differs from the source"
done
ok "second pass over every file equals the source"
cfs_umount "$mnt"
