#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# t_settle.sh fill_when_settled|changed
#
# A file read within its timestamps' tick of being written is served but
# not cached then (a change within the tick could not be seen); once its
# timestamps have settled the daemon fills it behind, if it is still the
# file that was read, so that the next read is a cache hit:
#   fill_when_settled  read a fresh file: within a bounded wait its object
#                      is complete in the cache and the next read comes
#                      from the cache alone (hits, no byte from the source)
#   changed            the file changes in the source while it waits: it
#                      is not filled, and the next read returns the new
#                      bytes; changed and read again while it waits: the
#                      new bytes are filled, and only they
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/lib.sh"

case=${1:?usage: t_settle.sh fill_when_settled|changed}
src=$T/src mnt=$T/mnt
size=$((3 * 1024 * 1024 + 4321))
fill_wait=10	# s: the tick (1 s here) and the fill, on a loaded machine
[ "$VG" = 1 ] && fill_wait=60 size=$((300 * 1024 + 4321))
mkdir -p "$src"

# fresh_read FILE [CMD...]: mount, write FILE in the source, read it
# through the mount and run CMD on it, all within the timestamps' tick
# (1 s): the read must find FILE unsettled (counted in unstable).  A
# machine too slow for that gets three tries, each with a fresh cache
# ($cache) and file (its name in FRESH).
fresh_read() {
	local i u t0
	for ((i = 0; i < 3; i++)); do
		FRESH=$1.$i cache=$T/cache.$i
		cfs_mount "$src" "$mnt" "$cache"
		t0=$(date +%s%N)
		mkfile "$src/$FRESH" "$size"
		tm cmp "$src/$FRESH" "$mnt/$FRESH" || fail "first read of $FRESH"
		"${@:2}" "$src/$FRESH"
		took=$((($(date +%s%N) - t0) / 1000000))
		stats_fresh "$cache"
		u=$(stat_get "$cache" unstable)
		[ "$u" -gt 0 ] && [ "$took" -lt 900 ] && return 0
		say "$FRESH: read (and changed) in $took ms, unstable $u: again"
		cfs_umount "$mnt"
	done
	fail "$1 was never read within its timestamps' tick of being written"
}

# change FILE: the same size, other bytes ($T/new): mtime and ctime
# move, as a writer's do.
change() {
	dd if="$T/new" of="$1" conv=notrunc status=none
}

# change_read FILE: change FILE, and read it through the mount again.
change_read() {
	change "$1"
	drop_pages "$mnt/${1##*/}"
	tm cmp "$T/new" "$mnt/${1##*/}" || fail "the read after the change"
}

# cache_bytes_at_least N: wait (bounded) until the cache holds N bytes.
cache_bytes_at_least() {
	local i v
	for ((i = 0; i < fill_wait * 10; i++)); do
		v=$(stat_get "$cache" cache_bytes)
		[ "$v" -ge "$1" ] && return 0
		sleep 0.1
	done
	fail "$2: the cache holds $v bytes ${fill_wait}s later, not $1"
}

# wait_settled NAME MIN: statistic NAME reaches MIN within fill_wait.
wait_settled() {
	STATS_WAIT=$fill_wait wait_stat "$cache" "$1" "$2"
}

case $case in
fill_when_settled)
	fresh_read fresh true
	cache_bytes_at_least "$size" "a file read while unsettled"
	wait_settled settle_filled 1
	[ "$(stat_get "$cache" settle_dropped)" = 0 ] ||
		fail "settle_dropped: $(stat_get "$cache" settle_dropped)"
	h0=$(stat_get "$cache" hits)
	m0=$(stat_get "$cache" misses)
	read_counting "$cache" "$src/$FRESH" "$mnt/$FRESH"
	[ "$FROM_SOURCE" = 0 ] ||
		fail "the read after the fill took $FROM_SOURCE bytes from the source"
	[ "$(stat_get "$cache" misses)" = "$m0" ] ||
		fail "the read after the fill missed"
	[ "$(stat_get "$cache" hits)" -gt "$h0" ] ||
		fail "the read after the fill counted no hit"
	ok "fill_when_settled: filled once settled, then read from the cache"
	;;
changed)
	head -c "$size" /dev/urandom >"$T/new"
	fresh_read moving change
	wait_settled settle_dropped 1
	[ "$(stat_get "$cache" settle_filled)" = 0 ] ||
		fail "a file that changed while it settled was filled"
	[ "$(stat_get "$cache" cache_bytes)" = 0 ] ||
		fail "the cache holds $(stat_get "$cache" cache_bytes) bytes of it"
	drop_pages "$mnt/$FRESH"
	tm cmp "$T/new" "$mnt/$FRESH" || fail "the next read is not the new bytes"
	ok "settle_changed: not filled, the next read returns the new bytes"
	cfs_umount "$mnt"

	# Changed and read again while it settles: the new bytes are filled.
	head -c "$size" /dev/urandom >"$T/new"
	fresh_read reread change_read
	wait_settled settle_filled 1
	read_counting "$cache" "$T/new" "$mnt/$FRESH"
	[ "$FROM_SOURCE" = 0 ] ||
		fail "the read after the fill took $FROM_SOURCE bytes from the source"
	ok "settle_changed: read again after the change, the new bytes are filled"
	;;
*)
	fail "unknown case $case"
	;;
esac
cfs_umount "$mnt"
