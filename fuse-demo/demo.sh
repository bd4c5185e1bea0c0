#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# demo.sh [SOURCE]: the kmirror main job, on a fresh Debian 12 as root.
#
# Installs what is missing for it (tests/tools/deps.sh --demo), builds the
# daemon and the CLI, and puts kmirror-cachefs in front of SOURCE (default:
# a sample tree made here): a cold read (from the source), a warm read
# (from the cache) with their speeds and the statistics while mounted,
# then an unmount, the cache's cachefiles layout, a remount that finds the
# cache again, and the unmount.
#
# The sample is read just after it is written: younger than their
# timestamps' tick, its files are served but not cached by the cold read
# (a change within the tick could not be seen), and the daemon fills them
# behind once their timestamps have settled.  The demo waits for that
# (the statistics say when) before the warm read, and says how long.
#
# The sample source is a local directory, which is fast; so that the cold
# read shows what a network source costs, the demo then mounts with
# source_delay_us=2000 (the daemon sleeps 2 ms before every read of the
# source: about one round trip to a NAS) and says so.  A SOURCE given as
# $1 (say an NFS or sshfs mount) is used as it is, with no delay, reading
# at most $KMIRROR_DEMO_MB MiB of it (default 256).
#
# Part 2 is a short tour of the kmirror CLI on a cache that Linux 6.1's own
# cachefiles wrote (tests/fixtures), the same on-disk layout.
#
# Environment: KMIRROR_BUILD_DEMO (build dir, default build-demo/),
# KMIRROR_DEMO_DELAY_US (delay for the sample source, default 2000),
# KMIRROR_DEMO_MB.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${KMIRROR_BUILD_DEMO:-$top/build-demo}
delay=${KMIRROR_DEMO_DELAY_US:-2000}
limit_mb=${KMIRROR_DEMO_MB:-256}
given=${1:-}
if [ -n "$given" ] && [ ! -d "$given" ]; then
	echo "demo.sh: $given: not a directory" >&2
	exit 2
fi

"$top/tests/tools/deps.sh" --demo
if [ ! -f "$build/build.ninja" ]; then
	meson setup "$build" "$top" -Dtests=disabled -Dkernel=disabled >/dev/null
fi
ninja -C "$build" fuse-demo/cachefs/kmirror-cachefs userspace/cli/kmirror \
	>/dev/null
cachefs=$build/fuse-demo/cachefs/kmirror-cachefs
kmirror=$build/userspace/cli/kmirror

work=$(mktemp -d /tmp/kmirror-demo.XXXXXX)
mnt=$work/mnt cache=$work/cache
mkdir -p "$mnt" "$cache"
cleanup() {
	if grep -q " $mnt " /proc/self/mountinfo; then
		fusermount3 -u -z "$mnt" 2>/dev/null || true
	fi
	rm -rf --one-file-system "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

run() {
	echo "\$ $*"
	"$@"
	echo
}

# now_ns; mbps BYTES NS: MB/s (10^6 bytes).
now_ns() { date +%s%N; }
mbps() { awk -v b="$1" -v t="$2" 'BEGIN { printf "%.1f", b / 1e6 / (t / 1e9) }'; }
secs() { awk -v t="$1" 'BEGIN { printf "%.2f", t / 1e9 }'; }

if [ -n "$given" ]; then
	src=$(cd "$given" && pwd)
	opts=cache=$cache
	echo "== Source: $src (as it is, no added delay)"
else
	src=$work/source
	echo "== Making a sample source in $src: 4 files of 16 MiB and a small tree"
	mkdir -p "$src/photos" "$src/docs"
	for i in 1 2 3 4; do
		head -c $((16 << 20)) /dev/urandom >"$src/photos/raw-$i.bin"
	done
	for i in 1 2 3 4 5 6 7 8; do
		head -c $((i * 3000)) /dev/urandom >"$src/docs/note-$i.txt"
	done
	opts=cache=$cache,source_delay_us=$delay
	echo "   The sample is on the local disk, so the daemon is told to act like"
	echo "   a network source: source_delay_us=$delay (a ${delay} us sleep before"
	echo "   every read of the source)."
fi
echo

# The files to read: everything, up to the limit, in name order.
(cd "$src" && find . -type f -print | LC_ALL=C sort) >"$work/all"
: >"$work/list"
total=0
while IFS= read -r f; do
	[ "$total" -lt $((limit_mb << 20)) ] || break
	echo "$f" >>"$work/list"
	total=$((total + $(stat -c %s "$src/$f")))
done <"$work/all"
nfiles=$(wc -l <"$work/list")

# read_all: every listed file through the mount, by one cat (a process
# per file would time the machine's fork and exec as much as the reads);
# echoes the nanoseconds.
read_all() {
	t0=$(now_ns)
	(cd "$mnt" && xargs -d '\n' cat <"$work/list" >/dev/null)
	echo $(($(now_ns) - t0))
}
# stat_of NAME: one value of the statistics file.
stat_of() {
	"$kmirror" cache stats "$cache" | awk -F': ' -v n="$1" '$1 == n { print $2 }'
}
# settle_wait: until the statistics (rewritten within a second of any
# change) count the cold read's bytes and no file is left waiting to
# settle (settle.c); bounded.  Echoes the nanoseconds.
settle_wait() {
	t0=$(now_ns)
	for _ in $(seq 150); do
		if [ $(($(stat_of bytes_from_source) + $(stat_of bytes_from_cache))) \
			-ge "$total" ] && [ "$(stat_of settling)" = 0 ]; then
			break
		fi
		sleep 0.1
	done
	echo $(($(now_ns) - t0))
}
# drop_pages: forget the kernel's page cache of the mounted files, so that
# the next read asks the daemon again (which then serves its cache).
drop_pages() {
	while IFS= read -r f; do
		dd if="$mnt/$f" iflag=nocache count=0 status=none
	done <"$work/list"
}

echo "== Mounting"
run "$cachefs" "$src" "$mnt" -o "$opts"

echo "== Cold read: $nfiles files, $total bytes, from the source"
t=$(read_all)
echo "   $(secs "$t") s, $(mbps "$total" "$t") MB/s"
echo
w=$(settle_wait)
queued=$(stat_of settle_queued)
if [ "$queued" != 0 ]; then
	echo "== $queued files were younger than their timestamps' tick when read:"
	echo "   served, and filled into the cache once settled ($(stat_of settle_filled)"
	echo "   filled); the demo waited $(secs "$w") s for that"
	echo
fi
drop_pages
echo "== Warm read: the same files again, from the cache"
t2=$(read_all)
echo "   $(secs "$t2") s, $(mbps "$total" "$t2") MB/s" \
	"($(awk -v a="$t" -v b="$t2" 'BEGIN { printf "%.1f", a / b }')x the cold read)"
echo
echo "== Every byte equals the source"
while IFS= read -r f; do
	cmp "$src/$f" "$mnt/$f"
done <"$work/list"
echo "   $nfiles files compared: identical"
echo

sleep 1.2	# the statistics file is rewritten every second
echo "== Statistics while mounted"
echo "\$ kmirror cache stats $cache"
"$kmirror" cache stats "$cache" | grep -v '^fscache_'
echo "(and libkmirror's own fscache_* counters, in /proc/fs/fscache/stats form)"
echo

echo "== Unmounting; the cache stays"
run fusermount3 -u "$mnt"
for i in $(seq 50); do
	grep -q " $mnt " /proc/self/mountinfo || break
	sleep 0.1
done

echo "== The cache is a cachefiles-layout cache (as Linux's cachefiles writes it)"
echo "\$ kmirror cache ls $cache | head -n 5"
"$kmirror" cache ls "$cache" | head -n 5
echo "... ($("$kmirror" cache ls "$cache" | wc -l) objects in all)"
echo
echo "\$ kmirror cache ls $cache --json | head -n 1"
"$kmirror" cache ls "$cache" --json | head -n 1
echo

echo "== Mounting again: the cache is found and reused (nothing from the source)"
run "$cachefs" "$src" "$mnt" -o "$opts"
t3=$(read_all)
echo "   read after the remount: $(secs "$t3") s, $(mbps "$total" "$t3") MB/s"
sleep 1.2
"$kmirror" cache stats "$cache" | grep -E '^(hits|misses|bytes_from_cache|bytes_from_source):'
echo
run fusermount3 -u "$mnt"

# Part 2: the CLI on a cache that the kernel wrote.
echo "== Part 2: the same layout, written by Linux 6.1's cachefiles (9p shares in QEMU)"
mkdir -p "$work/kernel"
tar --xattrs --xattrs-include='user.*' -xJf \
	"$top/tests/fixtures/kernel61-cachefiles-9p.tar.xz" -C "$work/kernel"
echo "\$ kmirror cache ls $work/kernel/fsc | head -n 3"
"$kmirror" cache ls "$work/kernel/fsc" | head -n 3
echo "... ($("$kmirror" cache ls "$work/kernel/fsc" | wc -l) objects in all)"
echo
echo "\$ kmirror volume hash '9p,src,'"
"$kmirror" volume hash '9p,src,'
echo "\$ kmirror key uncook 'Tabc0d3,'"
"$kmirror" key uncook 'Tabc0d3,'
echo "\$ kmirror cookie path '9p,src,' d3c0ab0000000000"
"$kmirror" cookie path '9p,src,' d3c0ab0000000000
