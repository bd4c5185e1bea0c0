#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Content equality: a tree of files of many sizes (empty, one byte, around
# pages and granules, several MiB), symlinks, hard links, odd names, and a
# sparse 5 GiB file with data past 4 GiB and across the 1 GiB content-map
# boundaries, read through kmirror-cachefs cold (from the source), then warm
# (from the cache, with the kernel's page cache dropped): every byte equals
# the source, and the warm pass reads nothing from the source.
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/lib.sh"

src=$T/src mnt=$T/mnt cache=$T/cache
G=$((256 * 1024))
sizes=(0 1 2 511 512 4095 4096 4097 65536 131071 131072 131073
	$((G - 1)) "$G" $((G + 1)) $((2 * G - 1)) $((3 * G + 17)) $((1024 * 1024))
	$((5 * 1024 * 1024 + 1)))
[ "$VG" = 1 ] || sizes+=($((16 * 1024 * 1024 + 4097)))
i=0
for s in "${sizes[@]}"; do
	mkfile "$src/d$((i % 3))/f$i-$s" "$s"
	i=$((i + 1))
done
RANDOM=7
for ((j = 0; j < 12; j++)); do
	mkfile "$src/rand/r$j" $((RANDOM * 37 + RANDOM % 1000))
done
mkfile "$src/deep/a/b/c/d/e/leaf" 3000
mkfile "$src/names/with space" 100
mkfile "$src/names/ünïcödé-ñame" 200
mkfile "$src/names/$(printf 'x%.0s' {1..200})" 300
ln -s ../d0/f0-0 "$src/names/link-rel"
ln -s /nonexistent/target "$src/names/link-dangling"
ln "$src/d1/f1-1" "$src/names/hardlink"
mkdir -p "$src/empty-dir"
chmod 0600 "$src/d2/f2-2"
chmod 0755 "$src/d0/f3-511"

# Sparse: 5 GiB, data at 0, across the 1 GiB and 2 GiB map boundaries,
# past 4 GiB, and in the last bytes.
sparse=$src/sparse/five-gib
GiB=$((1024 * 1024 * 1024))
mkdir -p "$src/sparse"
truncate -s $((5 * GiB)) "$sparse"
declare -a pieces=(0:4096 $((GiB - 3000)):7000 $((2 * GiB - 1)):2
	$((4 * GiB + 12345)):300000 $((5 * GiB - 10)):10)
for p in "${pieces[@]}"; do
	head -c "${p#*:}" /dev/urandom |
		dd of="$sparse" bs=64K seek="${p%%:*}" oflag=seek_bytes \
			conv=notrunc status=none
done
[ "$(stat -c %s "$sparse")" = $((5 * GiB)) ] || fail "sparse file size"
# Ranges to compare: every piece with a margin, plus holes.
ranges=()
for p in "${pieces[@]}"; do
	o=${p%%:*} l=${p#*:}
	s=$((o > 70000 ? o - 70000 : 0))
	e=$((o + l + 70000))
	[ $e -le $((5 * GiB)) ] || e=$((5 * GiB))
	ranges+=("$s:$((e - s))")
done
ranges+=($((3 * GiB)):$((2 * G)) $((GiB / 2 + 5)):1000)

check_sparse() {
	local r o l
	[ "$(stat -c %s "$mnt/sparse/five-gib")" = $((5 * GiB)) ] ||
		fail "$1: sparse file size through the mount"
	for r in "${ranges[@]}"; do
		o=${r%%:*} l=${r#*:}
		[ "$(range_sum "$sparse" "$o" "$l")" = \
		  "$(range_sum "$mnt/sparse/five-gib" "$o" "$l")" ] ||
			fail "$1: sparse file differs in [$o, +$l)"
	done
	# Reading past the end gives nothing.
	[ "$(tm dd if="$mnt/sparse/five-gib" bs=4096 iflag=skip_bytes \
		skip=$((5 * GiB)) count=1 status=none | wc -c)" = 0 ] ||
		fail "$1: read past the end of the sparse file returned data"
}

export SUMS_EXCLUDE=five-gib
settle
cfs_mount "$src" "$mnt" "$cache"
same_tree "$src" "$mnt" "cold read"
check_sparse "cold read"
for l in link-rel link-dangling; do
	[ "$(readlink "$mnt/names/$l")" = "$(readlink "$src/names/$l")" ] ||
		fail "readlink $l"
done
ok "cold: $(find "$src" -type f | wc -l) files ($(tree_bytes "$src") bytes of size) equal the source"

stats_fresh "$cache"
miss1=$(stat_get "$cache" misses)
src1=$(stat_get "$cache" bytes_from_source)
hits1=$(stat_get "$cache" hits)
cached1=$(stat_get "$cache" bytes_from_cache)
[ "$miss1" -gt 0 ] || fail "cold read counted no misses"
[ "$src1" -gt 0 ] || fail "cold read counted no bytes from the source"
say "after cold read: misses $miss1, bytes_from_source $src1"

drop_tree "$mnt"
same_tree "$src" "$mnt" "warm read"
check_sparse "warm read"
stats_fresh "$cache"
hits2=$(stat_get "$cache" hits)
src2=$(stat_get "$cache" bytes_from_source)
cached2=$(stat_get "$cache" bytes_from_cache)
say "after warm read: hits $hits2 (+$((hits2 - hits1))), bytes_from_cache" \
	"+$((cached2 - cached1)), bytes_from_source +$((src2 - src1))"
[ "$hits2" -gt "$hits1" ] || fail "warm read counted no hits"
[ "$src2" = "$src1" ] ||
	fail "warm read took $((src2 - src1)) bytes from the source (want 0)"
small=$(( $(tree_bytes "$src") - 5 * GiB ))
[ $((cached2 - cached1)) -ge "$small" ] ||
	fail "warm read served $((cached2 - cached1)) bytes from the cache, want >= $small"
ok "warm: equal again, all of it from the cache"

cfs_umount "$mnt"
ok "unmounted cleanly"
