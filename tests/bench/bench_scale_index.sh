#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bench_scale_index.sh: kmirror-cachefs's mount time and index memory over
# a cache of N objects (KMIRROR_SCALE_N, default 100000; the issue's table
# uses 1000000), built by kmirror-mkcache (8-byte keys, 4 KiB each, one
# volume, the mount's own: -o tag=scale), with an empty source.
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
# point in /proc/self/mountinfo; "complete" to the daemon's statistics file
# saying "objects: N" and, if it has an index line, "index: complete ..."
# (it is rewritten once a second: +-1 s; at most 120 s after the mount).
# Memory is the daemon's VmRSS/VmHWM then; bytes/object = (VmRSS -
# empty's) / N; "x" columns are ratios to the first mount of N objects
# ("scan").  Timings are reported, never judged: the benchmark fails only
# when a daemon does not mount or its index never counts N objects.
# Results: a table on stdout and KMIRROR_BENCH_OUT.tsv.
# KMIRROR_SCALE_SPARSE=1: objects with a size but no data blocks (for a
# tmpfs TMPDIR: tens of millions of 4 KiB objects would not fit in memory).
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/../fuse/lib.sh"
MKCACHE=${KMIRROR_MKCACHE:-${KMIRROR_GEN_CACHE:?set by tests/fuse/meson.build}}

N=${KMIRROR_SCALE_N:-100000}
OUT=${KMIRROR_BENCH_OUT:-$T/bench_scale_index}
src=$T/src mnt=$T/mnt cache=$T/cache empty=$T/empty
mkdir -p "$src" "$mnt"
ROOT=0
[ "$(id -u)" = 0 ] && ROOT=1

now() { echo "$EPOCHREALTIME"; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }'; }
mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1e6 }'; }
vm() { awk -v k="$2:" '$1 == k { print $2 * 1024 }' "/proc/$1/status"; }
ratio() {
	awk -v a="$1" -v b="$2" \
		'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'
}

# sget CACHE NAME: a statistic, or nothing when the file has no such line.
sget() {
	awk -F': *' -v n="$2" '$1 == n { print $2; exit }' "$1/kmirror-stats" \
		2>/dev/null || true
}

# fresh CACHE PID T0: the statistics file is the daemon PID's (by its pid
# line, or for a daemon that writes none, by a change after T0).
fresh() {
	local p
	[ -f "$1/kmirror-stats" ] || return 1
	p=$(sget "$1" pid)
	if [ -n "$p" ]; then
		[ "$p" = "$2" ]
	else
		awk -v a="$(stat -c %.9Y "$1/kmirror-stats")" -v b="$3" \
			'BEGIN { exit !(a > b) }'
	fi
}

# run NAME CACHE OBJECTS: one mount, measured; leaves it mounted ($PID).
run() {
	local name=$1 c=$2 want=$3 t0 end st='' o=''
	t0=$(now)
	"$KMIRROR_CACHEFS" "$src" "$mnt" -f -o "cache=$c,tag=scale" \
		>"$T/daemon.$name.log" 2>&1 &
	PID=$!
	DPID[$mnt]=$PID
	until is_mounted "$mnt"; do
		kill -0 "$PID" 2>/dev/null || fail "$name: daemon exited: $(cat "$T/daemon.$name.log")"
		sleep 0.001
	done
	MOUNT_S=$(since "$t0")
	end=$((EPOCHSECONDS + 120))
	while :; do
		if fresh "$c" "$PID" "$t0"; then
			o=$(sget "$c" objects) st=$(sget "$c" index)
			case $st in
			complete*)
				[ "$o" = "$want" ] && break
				fail "$name: index '$st' with $o objects," \
				     "$want in the cache" ;;
			"")	[ "$o" = "$want" ] && break ;;
			esac
		fi
		kill -0 "$PID" 2>/dev/null ||
			fail "$name: daemon exited: $(cat "$T/daemon.$name.log")"
		[ "$EPOCHSECONDS" -lt "$end" ] ||
			fail "$name: 120 s after the mount: objects '$o'" \
			     "of $want, index '$st'"
		sleep 0.02
	done
	COMPLETE_S=$(since "$t0")
	RSS=$(vm "$PID" VmRSS) HWM=$(vm "$PID" VmHWM)
	STATE=${st:-"(no index line)"}
}

cold() {
	[ "$ROOT" = 1 ] || return 1
	sync
	echo 3 >/proc/sys/vm/drop_caches
}

# row NAME OBJECTS: print and record the last run.
row() {
	local per=- mx=- cx=-
	[ "$2" -gt 0 ] && per=$(((RSS - RSS0) / $2))
	if [ -n "${SCAN_S:-}" ]; then
		mx=$(ratio "$MOUNT_S" "$SCAN_MOUNT_S")
		cx=$(ratio "$COMPLETE_S" "$SCAN_S")
	fi
	printf '%-16s %9s %8s %10s %8s %8s %6s %7s %7s  %s\n' "$1" "$2" \
		"$MOUNT_S" "$COMPLETE_S" "$(mb "$RSS")" "$(mb "$HWM")" \
		"$per" "$mx" "$cx" "$STATE"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" \
		"$MOUNT_S" "$COMPLETE_S" "$RSS" "$HWM" "$per" "$mx" "$cx" \
		>>"$OUT.tsv"
}

t0=$(now)
"$MKCACHE" ${KMIRROR_SCALE_SPARSE:+--sparse} "$cache" scale "$N" \
	2>"$T/gen.log" ||
	fail "$(basename "$MKCACHE"): $(cat "$T/gen.log")"
say "$(cat "$T/gen.log") ($(since "$t0") s in all)"
mkdir -p "$empty"

printf '# kmirror-cachefs over a cache of %s objects (4 KiB, 8-byte keys)\n' "$N"
printf '%-16s %9s %8s %10s %8s %8s %6s %7s %7s  %s\n' row objects \
	"mount s" "complete s" "RSS MB" "HWM MB" "B/obj" "mount x" \
	"compl x" index
printf '%s\t' row objects mount_s complete_s rss hwm bytes_per_object \
	mount_x >"$OUT.tsv"
printf 'complete_x\n' >>"$OUT.tsv"

run empty "$empty" 0
RSS0=$RSS
row empty 0
cfs_umount "$mnt"

run scan "$cache" "$N"
SCAN_S=$COMPLETE_S SCAN_MOUNT_S=$MOUNT_S
row scan "$N"
cfs_umount "$mnt"

if cold; then
	rm -f "$cache/kmirror-index"
	run scan-cold "$cache" "$N"
	row "scan, cold" "$N"
	cfs_umount "$mnt"
else
	say "scan, cold: SKIP (drop_caches needs root)"
fi

run index "$cache" "$N"
row "index file" "$N"
cfs_umount "$mnt"

if cold; then
	run index-cold "$cache" "$N"
	row "index, cold" "$N"
	cfs_umount "$mnt"
else
	say "index, cold: SKIP (drop_caches needs root)"
fi

run before-kill "$cache" "$N"
cfs_kill9 "$mnt"
run after-kill9 "$cache" "$N"
row "after kill -9" "$N"
cfs_umount "$mnt"
if [ -f "$cache/kmirror-index" ]; then
	say "index file: $(stat -c %s "$cache/kmirror-index") bytes" \
	    "($(($(stat -c %s "$cache/kmirror-index") / N)) a object)"
fi
