#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Attack: names planted in the cache directory.  The daemon runs as root
# and writes kmirror.lock and kmirror-stats.* there; a symlink, hard link
# or FIFO planted by those names must never make it write, truncate or
# create a file elsewhere, and a cache directory that others can write
# (who could plant them) or that belongs to another user is refused, as
# cachefilesd refuses one.
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/../fuse/lib.sh"
need_root "files of other users, hard links into the cache"

src=$T/src mnt=$T/mnt
mkfile "$src/hello" 1000
mkdir -p "$mnt"
printf 'precious\n' >"$T/victim"
victim_sum=$(sha256sum <"$T/victim")

victim_intact() {
	[ "$(sha256sum <"$T/victim")" = "$victim_sum" ] ||
		fail "$1: the daemon wrote through it into $T/victim"
}

# A fresh cache directory $T/c.N, 0700, already a cache (it has cache/).
n=0
new_cache() {
	n=$((n + 1))
	cache=$T/c.$n
	mkdir -m 0700 "$cache" "$cache/cache"
}

new_cache
ln -s "$T/victim" "$cache/kmirror.lock"
refused "kmirror.lock is a symlink" "kmirror.lock.*symbolic link" \
	"$src" "$mnt" -o cache="$cache"
victim_intact "symlinked kmirror.lock"

new_cache
ln "$T/victim" "$cache/kmirror.lock"
refused "kmirror.lock is a hard link" "kmirror.lock" \
	"$src" "$mnt" -o cache="$cache"
victim_intact "hard-linked kmirror.lock"

new_cache
mkfifo "$cache/kmirror.lock"
refused "kmirror.lock is a FIFO" "kmirror.lock.*regular" \
	"$src" "$mnt" -o cache="$cache"

# A dangling symlink in place of the spare statistics file: the daemon
# must not create its target.
new_cache
ln -s "$T/created-by-daemon" "$cache/kmirror-stats.tmp"
ln -s "$T/victim" "$cache/kmirror-stats.new"
cfs_mount "$src" "$mnt" "$cache"
tm cmp "$src/hello" "$mnt/hello" || fail "read through the mount"
stats_fresh "$cache"
cfs_umount "$mnt"
[ ! -e "$T/created-by-daemon" ] ||
	fail "the daemon created the target of a symlinked kmirror-stats.tmp"
victim_intact "symlinked kmirror-stats.new"
[ -f "$cache/kmirror-stats.tmp" ] && [ ! -L "$cache/kmirror-stats.tmp" ] ||
	fail "the spare kmirror-stats.tmp was not made anew"
ok "symlinked kmirror-stats.tmp and .new: nothing written elsewhere"

new_cache
chmod 0777 "$cache"
refused "cache directory writable by all" "written by others" \
	"$src" "$mnt" -o cache="$cache"
new_cache
chmod 0770 "$cache"
refused "cache directory writable by its group" "written by others" \
	"$src" "$mnt" -o cache="$cache"
new_cache
chown 65534 "$cache"
refused "cache directory of another user" "belongs to uid 65534" \
	"$src" "$mnt" -o cache="$cache"
