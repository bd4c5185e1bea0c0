#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bench_scale_index.sh: kmirror-cachefs's mount time and index memory over
# a cache of N objects (KMIRROR_SCALE_N, default 100000; the issue's table
# uses 1000000), built by gen_cache (8-byte keys, 4 KiB each, one volume,
# the mount's own: -o tag=scale), with an empty source.
#
# Rows, each one mount:
#   empty          an empty cache: the anchor for memory and mount time
#   scan           N objects, no index file: the mount serves at once and
#                  the index is built by the background scan
#   scan, cold     the same after drop_caches (root)
#   index file     remount after a clean unmount: the index file is loaded
#   index, cold    the same after drop_caches (root)
#   after kill -9  remount after kill -9: the index file is loaded and
#                  rechecked by a scan
# "mount" is from starting the daemon (in the foreground) to the mount
# point in /proc/self/mountinfo; "complete" to the statistics file saying
# "index: complete ..." (it is rewritten once a second: +-1 s).  Memory is
# the daemon's VmRSS/VmHWM then; bytes/object = (VmRSS - empty's) / N.
# Timings are reported, never judged.  Results: a table on stdout and
# KMIRROR_BENCH_OUT.tsv.  KMIRROR_SCALE_SPARSE=1: objects with a size but
# no data blocks (for a tmpfs TMPDIR: tens of millions of 4 KiB objects
# would not fit in memory).
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/../fuse/lib.sh"
: "${KMIRROR_GEN_CACHE:?set by tests/fuse/meson.build}"

N=${KMIRROR_SCALE_N:-100000}
WAIT_S=$((N / 20000 > 120 ? N / 20000 : 120))	# for a scan: 20,000 objects/s
MOUNT_WAIT=$((N / 100000 > 10 ? N / 100000 : 10))	# index file: 1M/s
OUT=${KMIRROR_BENCH_OUT:-$T/bench_scale_index}
src=$T/src mnt=$T/mnt cache=$T/cache empty=$T/empty
mkdir -p "$src" "$mnt"
ROOT=0
[ "$(id -u)" = 0 ] && ROOT=1

now() { echo "$EPOCHREALTIME"; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }'; }
mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1e6 }'; }
vm() { awk -v k="$2:" '$1 == k { print $2 * 1024 }' "/proc/$1/status"; }

# run NAME CACHE: one mount, measured; leaves it mounted ($PID).
run() {
	local name=$1 c=$2 t0 i st o
	t0=$(now)
	bg_mount "$mnt" "$KMIRROR_CACHEFS" "$src" "$mnt" -f -o "cache=$c,tag=scale"
	MOUNT_S=$(since "$t0")
	PID=${DPID[$mnt]}
	for ((i = 0; i < WAIT_S * 50; i++)); do
		if [ -f "$c/kmirror-stats" ] &&
		   [ "$(stat_get "$c" pid)" = "$PID" ]; then
			st=$(stat_get "$c" index)
			case $st in complete*) break ;; esac
		fi
		sleep 0.02
	done
	COMPLETE_S=$(since "$t0")
	o=$(stat_get "$c" objects)
	case $st in
	complete*) ;;
	*) fail "$name: index '$st' after $WAIT_S s" ;;
	esac
	RSS=$(vm "$PID" VmRSS) HWM=$(vm "$PID" VmHWM)
	STATE=$st OBJS=$o
}

cold() {
	[ "$ROOT" = 1 ] || return 1
	sync
	echo 3 >/proc/sys/vm/drop_caches
}

# row NAME OBJECTS: print and record the last run.
row() {
	local per=- ratio=-
	[ "$2" -gt 0 ] && per=$(((RSS - RSS0) / $2))
	[ -n "${SCAN_S:-}" ] &&
		ratio=$(awk -v a="$COMPLETE_S" -v b="$SCAN_S" 'BEGIN { printf "%.3f", a / b }')
	[ "$OBJS" = "$2" ] || fail "$1: $OBJS objects indexed, $2 in the cache"
	printf '%-16s %9s %8s %10s %9s %9s %8s %8s  %s\n' "$1" "$2" \
		"$MOUNT_S" "$COMPLETE_S" "$(mb "$RSS")" "$(mb "$HWM")" \
		"$per" "$ratio" "$STATE"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$MOUNT_S" \
		"$COMPLETE_S" "$RSS" "$HWM" "$per" >>"$OUT.tsv"
}

t0=$(now)
"$KMIRROR_GEN_CACHE" ${KMIRROR_SCALE_SPARSE:+--sparse} "$cache" scale "$N" \
	2>"$T/gen.log" ||
	fail "gen_cache: $(cat "$T/gen.log")"
say "$(cat "$T/gen.log") ($(since "$t0") s with the volume)"
mkdir -p "$empty"

printf '# kmirror-cachefs over a cache of %s objects (4 KiB, 8-byte keys)\n' "$N"
printf '%-16s %9s %8s %10s %9s %9s %8s %8s  %s\n' row objects "mount s" \
	"complete s" "RSS MB" "HWM MB" "B/obj" "vs scan" index
printf 'row\tobjects\tmount_s\tcomplete_s\trss\thwm\tbytes_per_object\n' \
	>"$OUT.tsv"

run empty "$empty"
RSS0=$RSS
row empty 0
cfs_umount "$mnt"

run scan "$cache"
SCAN_S=$COMPLETE_S
row scan "$N"
cfs_umount "$mnt"

if cold; then
	rm -f "$cache/kmirror-index"
	run scan-cold "$cache"
	row "scan, cold" "$N"
	cfs_umount "$mnt"
else
	say "scan, cold: SKIP (drop_caches needs root)"
fi

run index "$cache"
row "index file" "$N"
cfs_umount "$mnt"

if cold; then
	run index-cold "$cache"
	row "index, cold" "$N"
	cfs_umount "$mnt"
else
	say "index, cold: SKIP (drop_caches needs root)"
fi

run before-kill "$cache"
cfs_kill9 "$mnt"
run after-kill9 "$cache"
row "after kill -9" "$N"
cfs_umount "$mnt"
say "index file: $(stat -c %s "$cache/kmirror-index") bytes" \
    "($(($(stat -c %s "$cache/kmirror-index") / N)) a object)"
