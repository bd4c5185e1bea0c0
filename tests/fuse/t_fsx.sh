#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# fsx through kmirror-cachefs, one process: random reads, writes,
# truncates, hole punches, fallocates, mmap reads, reopens and fsyncs on a
# file, every read checked against fsx's in-memory model; at the end the
# source file (write-through) and, after a remount, the cached copy hold
# the model's bytes too.  A second run does the same past 4 GiB in a sparse
# file.  Seeds are printed: KMIRROR_FSX_SEED=N replays one.
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/lib.sh"
: "${KMIRROR_FSX:?KMIRROR_FSX is set by tests/fuse/meson.build}"

src=$T/src mnt=$T/mnt cache=$T/cache
mkdir -p "$src"
ops=3000 ops_far=1000
[ "$VG" = 1 ] && ops=300 ops_far=100
seed=${KMIRROR_FSX_SEED:-$(od -An -N6 -tu8 /dev/urandom | tr -d ' ')}

cfs_mount "$src" "$mnt" "$cache"
tm "$KMIRROR_FSX" -N "$ops" -s "$seed" -l 3M -o 600K \
	-V "$src/one" "$mnt/one" || fail "fsx (seed $seed)"
ok "fsx: $ops operations on a file of up to 3 MiB (seed $seed)"
tm "$KMIRROR_FSX" -N "$ops_far" -s "$((seed + 1))" -b 4G -l 1M -o 300K \
	-V "$src/far" "$mnt/far" || fail "fsx past 4 GiB (seed $((seed + 1)))"
ok "fsx: $ops_far operations past 4 GiB (seed $((seed + 1)))"
cfs_umount "$mnt"

# The cache's copy, read warm after a remount, is still the source's.
cfs_mount "$src" "$mnt" "$cache"
tm cmp "$src/one" "$mnt/one" || fail "after remount: one differs from the source"
sz=$(stat -c %s "$src/far")
[ "$(stat -c %s "$mnt/far")" = "$sz" ] || fail "after remount: size of far"
[ "$(range_sum "$src/far" $((4 << 30)) $((sz - (4 << 30))))" = \
  "$(range_sum "$mnt/far" $((4 << 30)) $((sz - (4 << 30))))" ] ||
	fail "after remount: far differs from the source past 4 GiB"
cfs_umount "$mnt"
ok "after remount both files equal the source"
