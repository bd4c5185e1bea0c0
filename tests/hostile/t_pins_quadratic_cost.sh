#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Bug: the cost of pins grew quadratically.  Loading the pins file sorted
# the whole set again after each pin read (a mount with 20,000 pins took
# about 19 s), and each pinned file rewrote and fsynced the whole file
# (pinning 1,000 files after 500 took 4.4 s).  Now the set is sorted once
# at load, and `kmirror cache pin` sends its files in batches that the
# daemon merges into the set and writes once.  Generous bounds: a mount
# with 20,000 pins within 5 s, pinning 2,000 files within 5 s.
# (tests/bench/bench_pins.sh measures 100,000 pins and 10,000 files.)
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/../fuse/lib.sh"
: "${KMIRROR_CLI:?KMIRROR_CLI is set by tests/hostile/meson.build}"

N=20000 M=2000 BOUND=5
[ "$VG" = 1 ] && N=5000 M=500 BOUND=60
src=$T/src mnt=$T/mnt cache=$T/cache
empty_tree "$src/tree" "$M"
cfs_mount "$src" "$mnt" "$cache"
vol=$(volume_of "$cache")
cfs_umount "$mnt"
pins_file "$cache/kmirror-pins" "$N" "$vol"

# secs_since T0: seconds since $EPOCHREALTIME was T0.
secs_since() {
	awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }'
}

t0=$EPOCHREALTIME
MOUNT_WAIT=$BOUND cfs_mount "$src" "$mnt" "$cache"
secs=$(secs_since "$t0")
wait_stat "$cache" pinned "$N"	# the statistics of this mount
[ "$(stat_get "$cache" pinned)" = "$N" ] || fail "pinned: more than $N"
ok "mounted with $N pins in $secs s"

t0=$EPOCHREALTIME
out=$(timeout -k 2 $((BOUND * 2)) "$KMIRROR_CLI" cache pin "$cache" "$mnt/tree") ||
	fail "pin of $M files: exit $?, $(secs_since "$t0") s: $out"
secs=$(secs_since "$t0")
[ "$out" = "pinned $M files" ] || fail "pin said: $out"
awk -v s="$secs" -v b="$BOUND" 'BEGIN { exit !(s < b) }' ||
	fail "pinning $M files beside $N pins took $secs s"
ok "pinned $M files beside $N pins in $secs s"
out=$(tm "$KMIRROR_CLI" cache pin "$cache" "$mnt/tree") || fail "again: $out"
[ "$out" = "pinned 0 files ($M already pinned)" ] || fail "again said: $out"
cfs_umount "$mnt"

MOUNT_WAIT=$BOUND cfs_mount "$src" "$mnt" "$cache"
wait_stat "$cache" pinned $((N + M))
[ "$(stat_get "$cache" pinned)" = $((N + M)) ] ||
	fail "after a remount: more than $((N + M)) pins"
ok "$((N + M)) pins after a remount"
cfs_umount "$mnt"
