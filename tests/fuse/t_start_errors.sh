#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Start errors: kmirror-cachefs refuses to mount, with one clear message
# and a non-zero exit (in the foreground and daemonized alike), when the
# source is missing, the cache dir is on a filesystem without user xattrs
# (ramfs here; a vfat image where ramfs is missing), the cache dir is in
# use by another mount (locked), or the cache dir is a directory that is
# not a cachefiles-layout cache.  The lock goes away with its mount.
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/lib.sh"

src=$T/src mnt=$T/mnt
mkfile "$src/hello" 1000
mkdir -p "$mnt" "$T/c1"

refused "missing source" "$T/no-such-source|source" \
	"$T/no-such-source" "$mnt" -o cache="$T/c1"
refused "missing source (foreground)" "$T/no-such-source|source" \
	"$T/no-such-source" "$mnt" -f -o cache="$T/c1"
refused "no cache= option" "cache" "$src" "$mnt"
# size_limit_below_minimum: a cap of a few blocks has cull limits of no
# block at all; it was taken, and an overfull cache never culled.
refused "size_limit_below_minimum" "size_limit" \
	"$src" "$mnt" -f -o cache="$T/c1",size_limit=4096
refused "size_limit=0" "size_limit" "$src" "$mnt" -f -o cache="$T/c1",size_limit=0
refused "fill_behind past 1024" "fill_behind" \
	"$src" "$mnt" -f -o cache="$T/c1",fill_behind=1025
refused "fill_behind not a number" "fill_behind" \
	"$src" "$mnt" -f -o cache="$T/c1",fill_behind=8M
refused "fill_delay_us not a number" "fill_delay_us" \
	"$src" "$mnt" -f -o cache="$T/c1",fill_delay_us=-1
refused "verify neither on nor off" "verify=yes: not on or off" \
	"$src" "$mnt" -f -o cache="$T/c1",verify=yes
refused "max_age=0" "max_age" "$src" "$mnt" -f -o cache="$T/c1",max_age=0
refused "max_age in weeks" "max_age" "$src" "$mnt" -f -o cache="$T/c1",max_age=2w
refused "source_timeout negative" "source_timeout" \
	"$src" "$mnt" -f -o cache="$T/c1",source_timeout=-1
refused "source_timeout in days" "source_timeout" \
	"$src" "$mnt" -f -o cache="$T/c1",source_timeout=1d
refused "source_timeout past a day" "source_timeout" \
	"$src" "$mnt" -f -o cache="$T/c1",source_timeout=25h
refused "source_timeout empty" "source_timeout" \
	"$src" "$mnt" -f -o cache="$T/c1",source_timeout=
refused "source_timeout 0s" "source_timeout" \
	"$src" "$mnt" -f -o cache="$T/c1",source_timeout=0s

# A filesystem without user xattrs for the cache dir.
noxattr=
mkdir -p "$T/ramfs"
if [ "$(id -u)" = 0 ] && mount -t ramfs kmfuse-ramfs "$T/ramfs" 2>/dev/null; then
	OTHER_MOUNTS+=("$T/ramfs")
	touch "$T/ramfs/probe"
	if setfattr -n user.kmirror -v 1 "$T/ramfs/probe" 2>/dev/null; then
		say "ramfs here takes user xattrs"
	else
		noxattr=$T/ramfs
	fi
fi
if [ -z "$noxattr" ] && [ "$(id -u)" = 0 ] && command -v mkfs.vfat >/dev/null; then
	truncate -s 8M "$T/vfat.img"
	mkfs.vfat "$T/vfat.img" >/dev/null
	mkdir -p "$T/vfat"
	if mount -o loop "$T/vfat.img" "$T/vfat" 2>/dev/null; then
		OTHER_MOUNTS+=("$T/vfat")
		noxattr=$T/vfat
	fi
fi
if [ -n "$noxattr" ]; then
	mkdir -p "$noxattr/cache"
	refused "cache dir without user xattrs ($(stat -f -c %T "$noxattr"))" \
		"xattr" "$src" "$mnt" -o cache="$noxattr/cache"
else
	echo "SKIP: cache dir without user xattrs: no such filesystem can be mounted here (ramfs, vfat; root needed)"
fi

# A directory with other things in it, not a cache.
mkdir -p "$T/notcache/photos"
echo hello >"$T/notcache/notes.txt"
before=$(cd "$T/notcache" && find . | sort)
refused "cache dir that is not a cachefiles cache" "cache" \
	"$src" "$mnt" -o cache="$T/notcache"
[ "$(cd "$T/notcache" && find . | sort)" = "$before" ] ||
	fail "the daemon changed a directory that is not a cache"
ok "the directory that is not a cache was left as it was"

# The cache dir is locked while mounted.
cfs_mount "$src" "$mnt" "$T/cache"
mkdir -p "$T/mnt2"
saved=$mnt
mnt=$T/mnt2
refused "cache dir in use by another mount" "in use|lock|busy|already" \
	"$src" "$T/mnt2" -f -o cache="$T/cache"
mnt=$saved
tm cmp "$src/hello" "$mnt/hello" || fail "the first mount broke"
cfs_umount "$mnt"
cfs_mount "$src" "$T/mnt2" "$T/cache"
tm cmp "$src/hello" "$T/mnt2/hello" || fail "mount after the lock was released"
cfs_umount "$T/mnt2"
ok "the lock goes away with its mount"

"$KMIRROR_CACHEFS" --help >"$T/help" 2>&1 || fail "--help exits non-zero"
grep -q 'cache=' "$T/help" || fail "--help does not mention cache="
ok "--help"
