#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The cache persists across unmount and remount: a second mount over the
# same source and cache dir serves everything the first one read from the
# cache (hits, no byte from the source) and correctly; a file changed in
# the source while nothing was mounted is invalidated at its next open; the
# cache dir is a cachefiles-layout cache that `kmirror cache ls` reads
# without error; `kmirror cache stats` prints the statistics; and tag=
# names a volume of its own.
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/lib.sh"
: "${KMIRROR_CLI:?KMIRROR_CLI is set by tests/meson.build}"

src=$T/src mnt=$T/mnt cache=$T/cache
n=24 size=$((600 * 1024 + 77))
[ "$VG" = 1 ] && n=8
for ((i = 0; i < n; i++)); do
	mkfile "$src/dir$((i % 4))/file$i" $((size + i * 4099))
done
mkfile "$src/changed" 300000
nonempty=$(find "$src" -type f -size +0 | wc -l)

settle
cfs_mount "$src" "$mnt" "$cache"
same_tree "$src" "$mnt" "first mount"
cfs_umount "$mnt"
m1=$(stat_get "$cache" misses)
[ "$m1" -gt 0 ] || fail "first mount counted no misses"
ok "first mount: everything read once (misses $m1)"

"$KMIRROR_CLI" cache ls "$cache" >"$T/ls" 2>"$T/ls.err" ||
	fail "kmirror cache ls: $(cat "$T/ls.err")"
objs=$(wc -l <"$T/ls")
[ "$objs" -ge "$nonempty" ] ||
	fail "kmirror cache ls lists $objs objects for $nonempty files read"
ok "kmirror cache ls reads the cache: $objs objects, no error"

head -c 300000 /dev/urandom | dd of="$src/changed" conv=notrunc status=none

cfs_mount "$src" "$mnt" "$cache"
stats_fresh "$cache"
h0=$(stat_get "$cache" hits) b0=$(stat_get "$cache" bytes_from_source)
i0=$(stat_get "$cache" invalidations)
for ((i = 0; i < n; i++)); do
	f=dir$((i % 4))/file$i
	tm cmp "$src/$f" "$mnt/$f" || fail "second mount: $f differs from the source"
done
stats_fresh "$cache"
h1=$(stat_get "$cache" hits) b1=$(stat_get "$cache" bytes_from_source)
say "second mount: hits $h0 -> $h1, bytes_from_source $b0 -> $b1"
[ "$h1" -gt "$h0" ] || fail "second mount: no hits"
[ "$b1" = "$b0" ] || fail "second mount: $((b1 - b0)) bytes came from the source (want 0)"
ok "second mount: $n files from the cache (hits +$((h1 - h0)), nothing from the source)"

tm cmp "$src/changed" "$mnt/changed" ||
	fail "a file changed while unmounted reads stale through the second mount"
stats_fresh "$cache"
i1=$(stat_get "$cache" invalidations)
[ "$i1" -gt "$i0" ] || fail "the file changed while unmounted was not invalidated"
ok "a file changed while unmounted: new content, invalidated"

"$KMIRROR_CLI" cache stats "$cache" >"$T/cstats" 2>&1 ||
	fail "kmirror cache stats: $(cat "$T/cstats")"
for k in hits misses bytes_from_cache bytes_from_source invalidations culls \
	 nospace objects cache_bytes; do
	grep -q "^$k: *[0-9]" "$T/cstats" ||
		fail "kmirror cache stats has no '$k: N' line: $(cat "$T/cstats")"
done
ok "kmirror cache stats prints every statistic while mounted"
cfs_umount "$mnt"

# Another tag: another volume, nothing to reuse from the first one.
cfs_mount "$src" "$mnt" "$cache" tag=other-tag
stats_fresh "$cache"
b0=$(stat_get "$cache" bytes_from_source)
tm cmp "$src/dir0/file0" "$mnt/dir0/file0" || fail "tag=other-tag: content"
stats_fresh "$cache"
b1=$(stat_get "$cache" bytes_from_source)
[ "$b1" -gt "$b0" ] || fail "tag=other-tag reused the first volume's data"
cfs_umount "$mnt"
vols=$("$KMIRROR_CLI" cache ls "$cache" --json |
	python3 -c 'import json, sys; print(len({json.loads(l)["volume"] for l in sys.stdin}))')
[ "$vols" = 2 ] || fail "cache ls shows $vols volumes after a second tag, want 2"
grep -q other-tag <("$KMIRROR_CLI" cache ls "$cache") ||
	fail "no volume key names other-tag"
ok "tag=other-tag is a volume of its own"
