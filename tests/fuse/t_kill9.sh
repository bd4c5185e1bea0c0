#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# kill -9 of the daemon in the middle of writes, three times: files that
# were read (so cached) are being overwritten in place, extended, truncated
# and created through the mount when the daemon dies.  After the dead
# mount is cleaned (fusermount3 -u -z) and the same cache is mounted again,
# every byte served, cold and then warm, equals the source: no stale or
# torn cache content survives the crash.
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/lib.sh"

src=$T/src mnt=$T/mnt cache=$T/cache
n=8 fsize=$((2 * 1024 * 1024))
[ "$VG" = 1 ] && n=4 fsize=$((512 * 1024))
for ((i = 0; i < n; i++)); do
	mkfile "$src/f$i" $((fsize + i * 1000))
done

# writer DIR SEED: endless random writes in place, appends, truncates and
# new files under DIR, until it is killed or the mount dies.  Once the dead
# mount is detached, DIR is a plain directory again: stop then too, or the
# writes would go on there for ever.
writer() {
	local d=$1 f off len k=0
	RANDOM=$2
	while grep -q " $d " /proc/self/mountinfo; do
		k=$((k + 1))
		f=$d/f$((RANDOM % n))
		off=$(((RANDOM * 32768 + RANDOM) % (fsize + 300000)))
		len=$((1 + RANDOM * 4 % 400000))
		case $((RANDOM % 8)) in
		0) head -c "$len" /dev/urandom >>"$f" ;;
		1) truncate -s "$off" "$f" ;;
		2) head -c "$len" /dev/urandom >"$d/new$((k % 5))" ;;
		*) head -c "$len" /dev/urandom |
			dd of="$f" bs=64K seek="$off" oflag=seek_bytes \
				conv=notrunc status=none ;;
		esac || return 0
	done
}

check_all() {
	same_tree "$src" "$mnt" "$1"
	drop_tree "$mnt"
	same_tree "$src" "$mnt" "$1, warm"
}

for round in 1 2 3; do
	cfs_mount "$src" "$mnt" "$cache"
	check_all "round $round, before the writes"
	writer "$mnt" $((round * 101)) 2>/dev/null &
	wpid=$!
	# 0.3 s, 0.8 s, 1.5 s of writes before the kill (longer under memcheck).
	delay=$(awk -v r="$round" -v vg="$VG" 'BEGIN { d = r == 1 ? 0.3 : r == 2 ? 0.8 : 1.5; print vg ? d * 10 : d }')
	sleep "$delay"
	pid=${DPID[$mnt]}
	kill -0 "$wpid" 2>/dev/null || fail "round $round: the writer died before the kill"
	cfs_kill9 "$mnt"
	kill "$wpid" 2>/dev/null || true
	wait "$wpid" 2>/dev/null || true
	ok "round $round: daemon killed with -9 after ${delay}s of writes (pid $pid)"

	cfs_mount "$src" "$mnt" "$cache"
	check_all "round $round, after the kill and a remount"
	cfs_umount "$mnt"
	ok "round $round: after remount every byte equals the source, cold and warm"
done
