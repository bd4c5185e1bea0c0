#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# -o max_age=AGE: objects not used for AGE are culled, whatever the space
# (culls_age), oldest first; a file opened again within AGE is kept, and
# so is a file held open all along.  Files culled read right from the
# source, and are cached again.
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/lib.sh"

src=$T/src mnt=$T/mnt cache=$T/cache
AGE=3
[ "$VG" = 1 ] && AGE=6
for f in old1 old2 old3 used held; do
	mkfile "$src/$f" 300000
done
settle
cfs_mount "$src" "$mnt" "$cache" "max_age=$AGE"
# "held" is opened first and stays open: the oldest object, in use, which
# culling must pass by (it once stopped there) and keep.
exec 3<"$mnt/held"
for f in held old1 old2 old3 used; do
	tm cmp "$src/$f" "$mnt/$f" || fail "first read of $f"
done

# read_of FILE: read_counting (lib.sh) of FILE through the mount.
read_of() {
	read_counting "$cache" "$src/$1" "$mnt/$1"
}

# "used" is opened again every second, past AGE; the others are not.
for ((i = 0; i < AGE + 3; i++)); do
	sleep 1
	drop_pages "$mnt/used"
	tm cat "$mnt/used" >/dev/null
done
wait_stat "$cache" culls_age 3
stats_fresh "$cache"
[ "$(stat_get "$cache" culls_age)" = 3 ] && [ "$(stat_get "$cache" culls)" = 3 ] ||
	fail "culled for age: $(grep '^culls' "$cache/kmirror-stats" | tr '\n' ' '), not old1-3"
ok "the three unused objects culled after max_age, nothing else"

read_of used
[ "$FROM_SOURCE" = 0 ] ||
	fail "a file opened within max_age was culled"
ok "a file opened again within max_age is kept"
read_of held
[ "$FROM_SOURCE" = 0 ] ||
	fail "a file held open past max_age was culled"
ok "a file held open is kept"
exec 3<&-
read_of old1
[ "$FROM_SOURCE" -gt 0 ] ||
	fail "old1: culled, yet read from the cache alone"
read_of old1
[ "$FROM_SOURCE" = 0 ] ||
	fail "old1: read again after its cull, yet not cached again"
ok "a culled file reads from the source and is cached again"
cfs_umount "$mnt"
