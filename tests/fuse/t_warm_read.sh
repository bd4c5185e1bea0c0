#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A warm read asks the source for no data.  Files of every size around a
# page (and a granule) are cached whole, their page cache dropped, and
# read again: bytes equal to the source, and source_reads (data reads
# made on the source) unchanged.  The kernel asks for whole pages, so the
# last request of a file whose size is not a multiple of the page runs
# past its end: that is no sign the file grew (every size the kernel
# knows came through the daemon), and over a network source each such
# probe would cost a round trip on every warm read of most files.
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/lib.sh"

src=$T/src mnt=$T/mnt cache=$T/cache
sizes="1 3000 4095 4096 4097 9000 131077 262144 262150 1000005"
for s in $sizes; do
	mkfile "$src/f$s" "$s"
done
settle

# Read every file until a pass comes from the cache alone (what is filled
# behind a read lands a little later).
cfs_mount "$src" "$mnt" "$cache"
for ((i = 0; i < 20; i++)); do
	drop_tree "$mnt"
	stats_fresh "$cache"
	b0=$(stat_get "$cache" bytes_from_source)
	same_tree "$src" "$mnt" "cold read"
	stats_fresh "$cache"
	[ "$(stat_get "$cache" bytes_from_source)" = "$b0" ] && break
	sleep 0.2
done
[ "$i" -lt 20 ] || fail "the files are still read from the source"

r0=$(stat_get "$cache" source_reads)
drop_tree "$mnt"
same_tree "$src" "$mnt" "warm read"
stats_fresh "$cache"
r1=$(stat_get "$cache" source_reads)
[ "$r1" = "$r0" ] ||
	fail "warm_read_asks_no_source: $((r1 - r0)) data reads of the source"
cfs_umount "$mnt"
ok "warm_read_asks_no_source: $(echo "$sizes" | wc -w) files read again," \
   "no data read of the source ($r0 for the cold reads)"
