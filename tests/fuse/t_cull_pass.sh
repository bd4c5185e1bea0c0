#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A long culling pass: a cache of 200,000 objects (20,000 under
# valgrind) mounted with a cap of a tenth of it, so that the housekeeper
# culls for seconds (91% of the objects: down to brun, 7% of the cap
# free).  Meanwhile the statistics file is still rewritten once a second
# (it was not until the pass ended: a watcher saw nothing, and scale-cull
# at 1,000,000 objects thought nothing was culled), and an unmount ends
# the pass at once instead of waiting for the last object.
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/lib.sh"
: "${KMIRROR_GEN_CACHE:?set by tests/fuse/meson.build}"

# Under valgrind a tenth: memcheck's daemon culls 20,000 objects as slowly
# as the native one 200,000, and the pass is still long (the same code).
n=200000
[ "$VG" = 1 ] && n=20000
src=$T/src mnt=$T/mnt cache=$T/cache
mkdir -p "$src"
# The cache on a loop ext4 where one can be made (root): a filesystem
# mounted with discard, as this machine's, spent minutes of the test's ten
# under load removing the objects at exit, one synchronous discard each.
mount_loop_ext4 "$T/ext4" 2G -N 262144 && cache=$T/ext4/cache
"$KMIRROR_GEN_CACHE" "$cache" scale "$n" 2>"$T/gen.log" ||
	fail "gen_cache: $(cat "$T/gen.log")"

# First mount: index the cache (the index file is written at unmount).
cfs_mount "$src" "$mnt" "$cache" tag=scale
STATS_WAIT=$((STATS_WAIT > 60 ? STATS_WAIT : 60))	# a scan of 200,000
index_wait "$cache" >/dev/null
[ "$(stat_get "$cache" objects)" = "$n" ] || fail "$n objects not indexed"
cfs_umount "$mnt"

# A full pass leaves 93% of the cap's 4 KiB blocks (brun: 7% free).
full=$((n / 10 * 93 / 100))
cfs_mount "$src" "$mnt" "$cache" "tag=scale,size_limit=$((n * 4096 / 10))"
pid=${DPID[$mnt]}
mid=0 wait_s=$((STATS_WAIT > 60 ? STATS_WAIT : 60))
for ((i = 0; i < wait_s * 20; i++)); do
	if [ "$(stat_get "$cache" pid)" = "$pid" ]; then
		mid=$(stat_get "$cache" culls)
		[ "${mid:-0}" -gt 0 ] && break
	fi
	sleep 0.05
done
[ "${mid:-0}" -gt 0 ] || fail "no culls counted in ${wait_s}s"
[ "$mid" -lt $((n - full)) ] ||
	fail "statistics_while_culling: none written until all $mid culls were done"
ok "statistics_while_culling: $mid of $((n - full)) culls counted during the pass"

# Unmount at once, mid-pass.
t0=$EPOCHREALTIME
cfs_umount "$mnt"
left=$(find "$cache/cache" -mindepth 3 -type f | wc -l)
[ "$left" -gt "$full" ] ||
	fail "umount_ends_the_pass: the daemon culled down to $left objects before exiting"
ok "umount_ends_the_pass: the daemon exited in" \
   "$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }') s," \
   "$left objects left (a full pass leaves $full)"
