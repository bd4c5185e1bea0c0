#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bench_meta.sh: ls -lR of a slow source, and again after a remount (the
# metadata store, -o meta_timeout).  The source is a tree of
# KMIRROR_META_DIRS (100) directories of KMIRROR_META_FILES (20) files
# each behind flaky_source (tests/fuse/flaky_source.c) with "delay
# KMIRROR_META_DELAY_US" (5000): every call it gets waits 5 ms, as a
# network source's round trip.  Timed, in one run:
#   - kmirror-cachefs (meta_timeout=1h): first mount, then after a
#     remount, which must make no source call
#   - libfuse's passthrough_ll example over the slow source (the anchor)
#   - rclone mount --vfs-cache-mode full over it: first, and after a
#     remount with the same cache directory
# Prints the times, their ratios to passthrough_ll, and each daemon's
# VmRSS and VmHWM after its ls.  Timings are reported, never judged.
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/../fuse/lib.sh"

need_root "FUSE mounts of a FUSE source"
[ -x "${KMIRROR_FLAKY:-}" ] || skip "flaky_source is not built"
NDIRS=${KMIRROR_META_DIRS:-100}
NFILES=${KMIRROR_META_FILES:-20}
DELAY=${KMIRROR_META_DELAY_US:-5000}
PTL=${KMIRROR_PASSTHROUGH_LL:-}
[ -x "$PTL" ] || { say "passthrough_ll not built"; PTL=; }
RCLONE=$(command -v rclone || true)
[ -n "$RCLONE" ] || say "rclone not installed: its rows stay empty"
OP_TIMEOUT=1800
MOUNT_WAIT=30
src=$T/src slow=$T/slow ctl=$T/ctl

vm() { awk -v k="$2:" '$1 == k { printf "%.1f", $2 / 1000 }' "/proc/$1/status"; }

# lsr MNT: seconds of ls -lR of MNT (its output kept in $T/last.ls).
lsr() {
	local t0=$EPOCHREALTIME
	(cd "$1" && tm ls -lR --time-style=+%s.%N . >"$T/last.ls")
	awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }'
}

declare -A TIME=() RSS=() HWM=()

# run KEY MNT: time ls -lR of MNT, check it against the source, keep the
# daemon's memory.
run() {
	TIME[$1]=$(lsr "$2")
	# rclone shows its own modes and link counts: its names are checked.
	case $1 in
	rclone*) [ "$(grep -c . "$T/last.ls")" = "$(grep -c . "$T/src.ls")" ] ;;
	*) diff -q "$T/src.ls" "$T/last.ls" >/dev/null ;;
	esac || fail "$1: ls -lR differs from the source's"
	RSS[$1]=$(vm "${DPID[$2]}" VmRSS)
	HWM[$1]=$(vm "${DPID[$2]}" VmHWM)
	say "$1: ${TIME[$1]} s"
}

for ((d = 0; d < NDIRS; d++)); do
	mkdir -p "$src/d$d"
	for ((f = 0; f < NFILES; f++)); do
		echo "$d $f" >"$src/d$d/f$f"
	done
done
(cd "$src" && ls -lR --time-style=+%s.%N . >"$T/src.ls")
echo "delay $DELAY" >"$ctl"
bg_mount "$slow" "$KMIRROR_FLAKY" "$ctl" "$src" "$slow" -f
say "source: $NDIRS dirs of $NFILES files, $DELAY us per call"

opts=meta_timeout=1h,negative_timeout=1h,no_xattr
cfs_mount "$slow" "$T/m_kmc" "$T/cache" "$opts"
run "kmirror-cachefs first" "$T/m_kmc"
cfs_umount "$T/m_kmc"
cfs_mount "$slow" "$T/m_kmc" "$T/cache" "$opts"
stats_fresh "$T/cache"
c0=$(stat_get "$T/cache" source_meta_calls)
run "kmirror-cachefs remount" "$T/m_kmc"
stats_fresh "$T/cache"
c1=$(stat_get "$T/cache" source_meta_calls)
[ "$c1" = "$c0" ] || fail "the remount's ls -lR made $((c1 - c0)) source calls"
cfs_umount "$T/m_kmc"

if [ -n "$PTL" ]; then
	bg_mount "$T/m_ptl" "$PTL" -f -o "source=$slow" "$T/m_ptl"
	run "passthrough_ll" "$T/m_ptl"
	fusermount3 -u "$T/m_ptl"
	daemon_wait "${DPID[$T/m_ptl]}" || fail "passthrough_ll did not exit"
	unset "DPID[$T/m_ptl]"
fi
if [ -n "$RCLONE" ]; then
	: >"$T/rclone.conf"
	for pass in first remount; do
		bg_mount "$T/m_rc" "$RCLONE" mount "$slow" "$T/m_rc" \
			--config "$T/rclone.conf" --vfs-cache-mode full \
			--cache-dir "$T/rclone-cache"
		run "rclone $pass" "$T/m_rc"
		fusermount3 -u "$T/m_rc"
		daemon_wait "${DPID[$T/m_rc]}" || fail "rclone did not exit"
		unset "DPID[$T/m_rc]"
	done
fi

echo "# ls -lR of $((NDIRS * NFILES)) files in $NDIRS dirs, $DELAY us per source call"
printf '%-26s %10s %10s %10s %10s\n' "" "seconds" "vs ptl" "VmRSS MB" "VmHWM MB"
for k in "kmirror-cachefs first" "kmirror-cachefs remount" "passthrough_ll" \
	 "rclone first" "rclone remount"; do
	[ -n "${TIME[$k]:-}" ] || continue
	r=-
	[ -z "${TIME[passthrough_ll]:-}" ] ||
		r=$(awk -v a="${TIME[$k]}" -v b="${TIME[passthrough_ll]}" \
			'BEGIN { printf "%.3f", a / b }')
	printf '%-26s %10s %10s %10s %10s\n' "$k" "${TIME[$k]}" "$r" \
		"${RSS[$k]}" "${HWM[$k]}"
done
