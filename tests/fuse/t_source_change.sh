#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The source changes behind the mount's back (written through the SOURCE
# path directly): once the attributes time out (attr_timeout, default 1 s),
# the next open through the mount sees the new data, never the cached old
# one.  Changes: append, same-size rewrite, same-size rewrite with the old
# mtime put back (only ctime tells), shrink, replace by rename, delete,
# create, a rewrite of a file only partly cached, rewrites while the old
# file is held open, and a run of versions.  The daemon counts the
# invalidations.  The changes go through WSRC: the source itself here, a
# second client of the same files in the ceph suite (source_dirs).
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/lib.sh"

source_dirs
src=$SRC wsrc=$WSRC mnt=$T/mnt cache=$T/cache
WAIT=1.3	# attr_timeout (default 1.0 s) plus a margin

# expect NAME WHAT: after the timeout, MNT/NAME reads as SRC/NAME does.
expect() {
	sleep "$WAIT"
	tm cmp "$src/$1" "$mnt/$1" ||
		fail "$2: $1 through the mount is not the source's new content"
	ok "$2"
}

# change FILE: new random bytes of the same size, in place.
rewrite_same_size() {
	head -c "$(stat -c %s "$1")" /dev/urandom |
		dd of="$1" conv=notrunc status=none
}

names=(append same same-mtime shrink renamed held)
for n in "${names[@]}"; do
	mkfile "$src/$n" $((700 * 1024 + 3))
done
mkfile "$src/gone" 5000
mkfile "$src/partial" $((1024 * 1024))
cfs_mount "$src" "$mnt" "$cache"
for n in "${names[@]}" gone; do
	tm cmp "$src/$n" "$mnt/$n" || fail "first read of $n"
done
# "partial" gets only its first 100 KiB read (and cached).
tm head -c 102400 "$mnt/partial" >/dev/null
stats_fresh "$cache"
inv0=$(stat_get "$cache" invalidations)

head -c 12345 /dev/urandom >>"$wsrc/append"
expect append "appended to"

rewrite_same_size "$wsrc/same"
expect same "rewritten in place, same size"

touch -r "$wsrc/same-mtime" "$T/mtime-ref"
rewrite_same_size "$wsrc/same-mtime"
touch -r "$T/mtime-ref" "$wsrc/same-mtime"
[ "$(stat -c %Y.%y "$src/same-mtime")" = "$(stat -c %Y.%y "$T/mtime-ref")" ] ||
	fail "could not put the old mtime back"
expect same-mtime "rewritten in place with the old mtime put back (ctime changed)"

truncate -s 1000 "$wsrc/shrink"
head -c 1000 /dev/urandom | dd of="$wsrc/shrink" conv=notrunc status=none
expect shrink "shrunk and rewritten"

mkfile "$T/new" $((700 * 1024 + 3))
cp "$T/new" "$wsrc/renamed.tmp"
mv "$wsrc/renamed.tmp" "$wsrc/renamed"
expect renamed "replaced by rename (a new inode)"

rewrite_same_size "$wsrc/partial"
expect partial "rewritten after only its first 100 KiB was cached"

exec 3<"$mnt/held"
rewrite_same_size "$wsrc/held"
expect held "rewritten while an old descriptor stays open"
exec 3<&-

rm "$wsrc/gone"
sleep "$WAIT"
[ ! -e "$mnt/gone" ] || fail "a file deleted in the source is still there"
ok "deleted in the source"

mkfile "$wsrc/created" 4321
expect created "created in the source"

for ((v = 1; v <= 5; v++)); do
	mkfile "$wsrc/versions" $((RANDOM * 7 + v))
	expect versions "version $v of a file changed again and again"
done

stats_fresh "$cache"
inv1=$(stat_get "$cache" invalidations)
say "invalidations: $inv0 -> $inv1"
# append, same, same-mtime, shrink, partial, held, versions 2..5 at least.
[ $((inv1 - inv0)) -ge 6 ] ||
	fail "only $((inv1 - inv0)) invalidations counted for at least 6 changed cached files"
cfs_umount "$mnt"
ok "invalidations counted ($((inv1 - inv0)))"
