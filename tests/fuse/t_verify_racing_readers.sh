#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Checksums under parallel readers: every granule of a cached file is
# rotten (bytes flipped behind the daemon's back, mtime put back), then
# several readers read the file at once from different offsets.  Each
# reader must get the source's bytes: bytes a reader read from the object
# before another reader's check found the granule rotten and dropped it
# (and perhaps fetched and stored it again) are never served.
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/lib.sh"

src=$T/src mnt=$T/mnt cache=$T/cache
g=$((256 * 1024)) ng=16 readers=6 rounds=8
[ "$VG" = 1 ] && ng=4 readers=3 rounds=2
mkfile "$src/f" $((ng * g))
settle

object() {
	find "$cache/cache" -type f -size +100k | head -n 1
}

# rot_all: flip 64 bytes in every granule of the object, mtime kept.
rot_all() {
	local obj mt i
	obj=$(object)
	[ -n "$obj" ] || fail "no cache object found under $cache/cache"
	mt=$(stat -c %.9Y "$obj")
	for ((i = 0; i < ng; i++)); do
		head -c 64 /dev/urandom |
			dd of="$obj" bs=1 seek=$((i * g + 70000 + i * 4096)) \
			   conv=notrunc status=none
	done
	touch -m -d "@$mt" "$obj"
}

# Reader I reads the file from offset I * 40 KiB to its end (so that the
# readers' requests meet inside granules) and compares with the source.
reader() {
	local skip=$(($1 * 40 * 1024))
	cmp <(tail -c +$((skip + 1)) "$mnt/f") \
	    <(tail -c +$((skip + 1)) "$src/f") >"$T/reader.$1" 2>&1
}

cfs_mount "$src" "$mnt" "$cache"
cache_whole "$cache" "$src/f" "$mnt/f"
cfs_umount "$mnt"

caught=0
for ((r = 0; r < rounds; r++)); do
	rot_all
	cfs_mount "$src" "$mnt" "$cache"
	drop_pages "$mnt/f"
	pids=()
	for ((i = 0; i < readers; i++)); do
		reader "$i" &
		pids+=($!)
	done
	for ((i = 0; i < readers; i++)); do
		wait "${pids[$i]}" ||
			fail "round $r, reader $i: $(cat "$T/reader.$i")"
	done
	stats_fresh "$cache"
	caught=$((caught + $(stat_get "$cache" verify_failures)))
	cfs_umount "$mnt"
done
[ "$caught" -ge "$rounds" ] || fail "only $caught verify failures counted"
ok "$rounds rounds of $readers racing readers over $ng rotten granules:" \
   "every byte from the source ($caught failures caught)"
