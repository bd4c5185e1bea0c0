#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Bug: a cache object shortened behind the daemon's back was served as
# zeros, with cache_errors 0.  Whatever the cache holds that disagrees
# with its own metadata must be a cache error: counted, the source
# serves, the object repaired.  Damage done while mounted (an object
# truncated, a short read) and while unmounted (truncated, truncated and
# grown back to its size, bytes overwritten, a map claiming more than
# the object holds).
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/../fuse/lib.sh"

src=$T/src mnt=$T/mnt cache=$T/cache
SIZE=$((3 * 1024 * 1024 + 12345))
for n in live short grown garbage claim; do
	mkfile "$src/$n" $SIZE
done
settle
cfs_mount "$src" "$mnt" "$cache"
for n in live short grown garbage claim; do
	tm cmp "$src/$n" "$mnt/$n" || fail "first read of $n"
done

# object NAME: the path of NAME's object in the cache (its key: st_ino).
object() {
	local key
	key=$(printf '%016x' "$(stat -c %i "$src/$1")" |
		sed 's/\(..\)/\1 /g' | awk '{ for (i = 8; i >= 1; i--) printf "%s", $i }')
	"$KMIRROR_CLI" cache ls "$cache" | awk -v k="$key" '$2 == k { print $4 }'
}

# served NAME WHAT: NAME reads as the source through the mount, and a
# cache error was counted since $e0.
served() {
	drop_pages "$mnt/$1"
	tm cmp "$src/$1" "$mnt/$1" || fail "$2: the mount serves other bytes"
	stats_fresh "$cache"
	[ "$(stat_get "$cache" cache_errors)" -gt "$e0" ] ||
		fail "$2: no cache error counted"
	e0=$(stat_get "$cache" cache_errors)
	ok "$2: served from the source, a cache error counted"
}

# New objects are linked into the cache when their cookies go: find them
# after an unmount, then damage 'live' while mounted again.
cfs_umount "$mnt"
for n in live short grown garbage claim; do
	o=$(object "$n")
	[ -n "$o" ] || fail "no object of $n in the cache"
	eval "obj_$n=\$cache/\$o"
done
cfs_mount "$src" "$mnt" "$cache"
tm cmp "$src/live" "$mnt/live" || fail "read of live after a remount"
stats_fresh "$cache"
e0=$(stat_get "$cache" cache_errors)
truncate -s $((SIZE / 2)) "$obj_live"	# its second half gone
served live "an object truncated while mounted"
cfs_umount "$mnt"

# While unmounted.
truncate -s 1M "$obj_short"
truncate -s 1M "$obj_grown"
truncate -s $(((SIZE + 4095) / 4096 * 4096)) "$obj_grown"
printf 'garbage!' | dd of="$obj_garbage" bs=1 seek=2000000 conv=notrunc status=none
truncate -s 0 "$obj_claim"
cfs_mount "$src" "$mnt" "$cache"
stats_fresh "$cache"
e0=$(stat_get "$cache" cache_errors)
served short "an object truncated while unmounted"
served grown "an object truncated and grown back while unmounted"
served garbage "an object overwritten while unmounted"
served claim "a map claiming more than its (empty) object holds"

# Repaired: the next reads hit and are right.
for n in live short grown garbage claim; do
	tm cat "$mnt/$n" >/dev/null
done
sleep 0.1
for n in live short grown garbage claim; do
	drop_pages "$mnt/$n"
	tm cmp "$src/$n" "$mnt/$n" || fail "$n after its repair"
done
stats_fresh "$cache"
[ "$(stat_get "$cache" cache_errors)" = "$e0" ] ||
	fail "repaired objects still give cache errors"
cfs_umount "$mnt"
ok "the damaged objects are repaired: read again, no new error"
