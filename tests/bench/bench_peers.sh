#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bench_peers.sh: kmirror-cachefs and rclone mount --vfs-cache-mode full
# (Debian's rclone 1.60) side by side, each over its own flaky_source
# (tests/fuse/flaky_source.c: a passthrough that fails or hangs on
# command) in front of the same files, through the same situations:
#   offline   the source fails with ENOTCONN: a cached file, an uncached
#             one, a new file written, a listing
#   hang      the source stops answering: a cached file, read with a
#             20 s limit
#   rot       bytes of a cached file flipped in the cache (mtime kept,
#             as a disk or a tool behind the daemon's back would): what
#             the next read returns
#   counters  what each reports about its cache while mounted
# kmirror-cachefs mounts with source_timeout=2 (a hang is noticed) and
# meta_timeout=60 (a metadata store, which offline mode lists from).
# Each answer is what the command did here, printed as a table row: the
# closing table of issue 15 (docs/cachefs.md, "Against rclone") is filled
# from it.  It judges nothing: the exit status only reports a broken run.
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/../fuse/lib.sh"

need_root "FUSE mounts of a FUSE source"
[ -x "${KMIRROR_FLAKY:-}" ] || skip "flaky_source is not built"
RCLONE=$(command -v rclone) || skip "rclone is not installed (Debian: rclone)"
MOUNT_WAIT=20		# rclone takes its time
size=$((1 << 20))

# A source, its flaky mount and the tool on top, for tool $1 (kmirror or
# rclone); the tool's mount is $T/$1/mnt, its cache $T/$1/cache.
start() {
	local d=$T/$1
	mkfile "$d/src/cached" "$size"
	mkfile "$d/src/uncached" 5000
	settle
	echo ok >"$d/ctl"
	bg_mount "$d/flaky" "$KMIRROR_FLAKY" "$d/ctl" "$d/src" "$d/flaky" -f
	if [ "$1" = kmirror ]; then
		cfs_mount "$d/flaky" "$d/mnt" "$d/cache" source_timeout=2,meta_timeout=60
	else
		: >"$d/rclone.conf"
		bg_mount "$d/mnt" "$RCLONE" mount "$d/flaky" "$d/mnt" \
			--config "$d/rclone.conf" --vfs-cache-mode full \
			--cache-dir "$d/cache" --rc --rc-no-auth \
			--rc-addr "127.0.0.1:$RC_PORT"
	fi
	cmp "$d/src/cached" "$d/mnt/cached" || fail "$1: first read differs"
	ls -l "$d/mnt" >/dev/null	# listed once, as a user would have
	sleep 3		# both write their cache behind the read
}

# try CMD...: "ok", the error text, or "hung" (no answer in 20 s).
try() {
	local rc=0
	timeout -k 2 20 "$@" >/dev/null 2>"$T/err" || rc=$?
	case $rc in
	0) echo ok ;;
	124 | 137) echo "hung (20 s)" ;;
	*) sed -n '1s/^[^:]*: [^:]*: //p' "$T/err" ;;
	esac
}

# same_as_source TOOL: a fresh read of the cached file, against the source.
same_as_source() {
	local d=$T/$1
	drop_pages "$d/mnt/cached"
	if ! timeout -k 2 20 cat "$d/mnt/cached" >"$T/got" 2>"$T/err"; then
		echo "fails: $(sed -n '1s/^[^:]*: [^:]*: //p' "$T/err")"
	elif cmp -s "$T/got" "$d/src/cached"; then
		echo "source's bytes"
	else
		echo "ROTTEN BYTES SERVED"
	fi
}

offline() {
	local d=$T/$1
	echo "fail ENOTCONN" >"$d/ctl"
	echo "| $1 | cached: $(same_as_source "$1") | uncached: $(try cat "$d/mnt/uncached") | write: $(try sh -c "echo x >'$d/mnt/new'") | ls: $(try ls "$d/mnt") |"
	echo ok >"$d/ctl"
}

hang() {
	local d=$T/$1 t0 r
	echo hang >"$d/ctl"
	drop_pages "$d/mnt/cached"
	t0=$(date +%s.%N)
	r=$(try cat "$d/mnt/cached")
	echo "| $1 | cached read: $r in $(echo "$(date +%s.%N) - $t0" | bc | cut -c1-4) s |"
	echo ok >"$d/ctl"
	sleep 3		# let whatever hung drain before the next part
}

# The cache file holding the cached file's bytes.
object() {
	find "$T/$1/cache" -path '*/kmirror-sums' -prune -o -type f \
		-size +100k -print | head -n 1
}

rot() {
	local obj mt
	obj=$(object "$1")
	[ -n "$obj" ] || fail "$1: no cache file found"
	mt=$(stat -c %.9Y "$obj")
	head -c 64 /dev/urandom |
		dd of="$obj" bs=1 seek=5000 conv=notrunc status=none
	touch -m -d "@$mt" "$obj"
	echo 3 >/proc/sys/vm/drop_caches
	echo "| $1 | next read: $(same_as_source "$1") |"
}

counters() {
	if [ "$1" = kmirror ]; then
		stats_fresh "$T/kmirror/cache"
		echo "| kmirror | $(grep -E '^(hits|misses|bytes_from_cache|bytes_from_source|verify_failures|pinned):' \
			"$T/kmirror/cache/kmirror-stats" | tr '\n' ' ')|"
	else
		echo "| rclone | vfs/stats: $("$RCLONE" rc --url "http://127.0.0.1:$RC_PORT/" vfs/stats |
			python3 -c 'import json,sys; d=json.load(sys.stdin)["diskCache"]; print(" ".join(f"{k}: {v}" for k, v in sorted(d.items()) if k not in ("path", "pathMeta")))') |"
	fi
}

RC_PORT=$((20000 + $$ % 20000))
for part in offline hang rot counters; do
	echo
	echo "## $part"
	for tool in kmirror rclone; do
		[ -d "$T/$tool/mnt" ] || start "$tool"
		"$part" "$tool"
	done
done
echo
cfs_umount "$T/kmirror/mnt"
fusermount3 -u "$T/rclone/mnt"
