#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Attack: directories that nest.  A cache inside the source is served to
# every user of the mount (and caches itself); a source or cache under the
# mount point is hidden by the mount; a mount point inside the source shows
# the mount inside itself without end.  kmirror-cachefs must refuse each
# such start with one line saying which directory lies in which, also when
# the path goes through a symlink, and mount the same directories when
# they are apart.
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/../fuse/lib.sh"

src=$T/src cache=$T/cache mnt=$T/mnt
mkfile "$src/hello" 1000
mkdir -p "$src/sub" "$cache" "$mnt" "$T/elsewhere/inner"
ln -s "$src/sub" "$T/link-to-src-sub"

refused "cache inside the source" "cache.*inside the source" \
	"$src" "$mnt" -o cache="$src/sub"
refused "cache inside the source, through a symlink" \
	"cache.*inside the source" \
	"$src" "$mnt" -o cache="$T/link-to-src-sub"
refused "cache is the source" "same directory" \
	"$src" "$mnt" -o cache="$src"
mkdir -p "$cache/src"
refused "source inside the cache" "source.*inside the cache" \
	"$cache/src" "$mnt" -o cache="$cache"

refused "cache is the mount point" "same directory" \
	"$src" "$T/elsewhere" -o cache="$T/elsewhere"
mnt=$T/elsewhere
refused "cache inside the mount point" "cache.*inside the mount point" \
	"$src" "$T/elsewhere" -o cache="$T/elsewhere/inner"
cp "$src/hello" "$T/elsewhere/inner/"
refused "source inside the mount point" "source.*inside the mount point" \
	"$T/elsewhere/inner" "$T/elsewhere" -o cache="$cache"
refused "source is the mount point" "same directory" \
	"$T/elsewhere" "$T/elsewhere" -o cache="$cache"
mnt=$src/sub
refused "mount point inside the source" "mount point.*inside the source" \
	"$src" "$src/sub" -o cache="$cache"
mnt=$cache/mnt
mkdir -p "$mnt"
refused "mount point inside the cache" "mount point.*inside the cache" \
	"$src" "$mnt" -o cache="$cache"
rmdir "$mnt" "$cache/src"

mnt=$T/mnt
cfs_mount "$src" "$mnt" "$cache"
tm cmp "$src/hello" "$mnt/hello" || fail "apart, the mount does not work"
cfs_umount "$mnt"
ok "the same directories, apart, mount"
