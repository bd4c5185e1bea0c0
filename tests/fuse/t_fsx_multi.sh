#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# fsx through kmirror-cachefs, several processes at once: four on files of
# their own, then four on one shared file, each confined to its own region
# (not granule-aligned, so neighbours share granules of the cache).  Every
# process checks its reads against its model and, at the end, its bytes in
# the source file.  Seeds are printed: KMIRROR_FSX_SEED=N replays a run.
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/lib.sh"
: "${KMIRROR_FSX:?KMIRROR_FSX is set by tests/fuse/meson.build}"

src=$T/src mnt=$T/mnt cache=$T/cache
mkdir -p "$src"
ops=1500 nproc=4
[ "$VG" = 1 ] && ops=150
seed=${KMIRROR_FSX_SEED:-$(od -An -N6 -tu8 /dev/urandom | tr -d ' ')}

# run_all NAME ARGS...: wait for every fsx job; fail if any failed.
run_all() {
	local what=$1 p bad=0
	shift
	for p in "$@"; do
		wait "$p" || bad=$((bad + 1))
	done
	for p in "$T"/fsx.*.log; do cat "$p"; done
	rm -f "$T"/fsx.*.log
	[ "$bad" = 0 ] || fail "$what: $bad fsx process(es) failed (base seed $seed)"
}

cfs_mount "$src" "$mnt" "$cache"
pids=()
for ((i = 0; i < nproc; i++)); do
	tm "$KMIRROR_FSX" -N "$ops" -s $((seed + i)) -l 2M -o 400K \
		-V "$src/own$i" "$mnt/own$i" >"$T/fsx.own$i.log" 2>&1 &
	pids+=($!)
done
run_all "separate files" "${pids[@]}"
ok "$nproc processes, $ops operations each, on files of their own"

# One shared file: region i is [i * 700001, +700001), zeros at start.
reg=700001
truncate -s $((nproc * reg)) "$src/shared"
pids=()
for ((i = 0; i < nproc; i++)); do
	tm "$KMIRROR_FSX" -N "$ops" -s $((seed + 100 + i)) -o 200K \
		-R $((i * reg)):$reg -V "$src/shared" "$mnt/shared" \
		>"$T/fsx.shared$i.log" 2>&1 &
	pids+=($!)
done
run_all "shared file" "${pids[@]}"
tm cmp "$src/shared" "$mnt/shared" || fail "shared file differs from the source"
ok "$nproc processes, $ops operations each, on regions of one shared file"

cfs_umount "$mnt"
cfs_mount "$src" "$mnt" "$cache"
for f in own0 own1 own2 own3 shared; do
	tm cmp "$src/$f" "$mnt/$f" || fail "after remount: $f differs from the source"
done
cfs_umount "$mnt"
ok "after remount every file equals the source"
