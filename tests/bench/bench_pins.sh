#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bench_pins.sh: the cost of pins (kmirror cache pin, DIR/kmirror-pins)
# in kmirror-cachefs: time and memory.
#
# Rows:
#   mount, no pins     mount an empty cache: the anchor for mount time
#                      and memory
#   mount, N pins      the same cache with a pins file of N pins
#                      (KMIRROR_PINS_N, default 100000), made here
#   walk M files       find over a tree of M files in the mount, a stat
#                      each (KMIRROR_PINS_FILES, default 10000): the
#                      anchor for the pin commands, which walk it so
#   pin M files        kmirror cache pin DIR TREE, with the N pins there
#   unpin M files      kmirror cache unpin DIR TREE
# "s" is wall time (mount: from starting the daemon in the foreground to
# its statistics file); "vs anchor" divides it by its anchor's.  Memory
# is the daemon's VmRSS and VmHWM after the row; bytes/pin is VmRSS less
# the empty mount's, over the pins held.  Timings are reported, never
# judged.  Results: a table on stdout and KMIRROR_BENCH_OUT.tsv.
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/../fuse/lib.sh"
: "${KMIRROR_CLI:?set by tests/fuse/meson.build}"

N=${KMIRROR_PINS_N:-100000}
M=${KMIRROR_PINS_FILES:-10000}
OUT=${KMIRROR_BENCH_OUT:-$T/bench_pins}
src=$T/src mnt=$T/mnt cache=$T/cache
MOUNT_WAIT=$((N / 10000 > 10 ? N / 10000 : 10))
mkdir -p "$src/tree" "$cache"

now() { echo "$EPOCHREALTIME"; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }'; }
vm() { awk -v k="$2:" '$1 == k { print $2 * 1024 }' "/proc/$1/status"; }
mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1e6 }'; }

# row NAME SECONDS ANCHOR_SECONDS PINS: print and record, with the
# daemon's memory now.
row() {
	local pid=${DPID[$mnt]} rss hwm per=- ratio=-
	rss=$(vm "$pid" VmRSS)
	hwm=$(vm "$pid" VmHWM)
	[ "$4" -gt 0 ] && [ -n "${RSS0:-}" ] && per=$(((rss - RSS0) / $4))
	[ "$3" = - ] ||
		ratio=$(awk -v a="$2" -v b="$3" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
	printf '%-18s %9s %8s %9s %9s %8s %9s\n' "$1" "$4" "$2" "$(mb "$rss")" \
		"$(mb "$hwm")" "$per" "$ratio"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$4" "$2" "$rss" "$hwm" \
		"$per" "$ratio" >>"$OUT.tsv"
	RSS=$rss
}

t=$(now)
empty_tree "$src/tree" "$M"
say "made $M files in $(since "$t") s"

printf '# kmirror-cachefs with %s pins, pinning %s files\n' "$N" "$M"
printf '%-18s %9s %8s %9s %9s %8s %9s\n' row pins s "RSS MB" "HWM MB" \
	"B/pin" "vs anchor"
printf 'row\tpins\ts\trss\thwm\tbytes_per_pin\tvs_anchor\n' >"$OUT.tsv"

t=$(now)
cfs_mount "$src" "$mnt" "$cache"
MOUNT0=$(since "$t")
row "mount, no pins" "$MOUNT0" - 0
RSS0=$RSS
vol=$(volume_of "$cache")
cfs_umount "$mnt"

pins_file "$cache/kmirror-pins" "$N" "$vol"
t=$(now)
cfs_mount "$src" "$mnt" "$cache"
row "mount, $N pins" "$(since "$t")" "$MOUNT0" "$N"

t=$(now)
tm find "$mnt/tree" -type f -printf '%s\n' >/dev/null
WALK=$(since "$t")
row "walk $M files" "$WALK" - "$N"

t=$(now)
out=$(tm "$KMIRROR_CLI" cache pin "$cache" "$mnt/tree") || fail "pin: $out"
[ "$out" = "pinned $M files" ] || fail "pin said: $out"
row "pin $M files" "$(since "$t")" "$WALK" $((N + M))

t=$(now)
out=$(tm "$KMIRROR_CLI" cache unpin "$cache" "$mnt/tree") || fail "unpin: $out"
[ "$out" = "unpinned $M files" ] || fail "unpin said: $out"
row "unpin $M files" "$(since "$t")" "$WALK" "$N"
cfs_umount "$mnt"
say "pins file: $(stat -c %s "$cache/kmirror-pins") bytes"
