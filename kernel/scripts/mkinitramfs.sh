#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# mkinitramfs.sh OUT.cpio.gz [DIR...]
#
# The guest's initramfs: Debian's static busybox, kernel/guest/init as
# /init, kernel/guest/jobs as /jobs, and the contents of each DIR (static
# test binaries and data) copied on top.
set -eu
dst=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
guest=$here/../guest
busybox=${KMIRROR_BUSYBOX:-/bin/busybox}

if ! file -L "$busybox" | grep -q 'statically linked'; then
	echo "mkinitramfs: $busybox is not a static busybox (apt-get install busybox-static)" >&2
	exit 1
fi
root=$(mktemp -d "${TMPDIR:-/tmp}/kmirror-initramfs.XXXXXX")
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/bin" "$root/jobs"
cp "$busybox" "$root/bin/busybox"
cp "$guest/init" "$root/init"
cp "$guest"/jobs/*.sh "$root/jobs/"
chmod 755 "$root/init"
for d in "$@"; do
	cp -a "$d/." "$root/"
done
# Reproducible: the same files give the same bytes (no dates, no inode
# numbers), so that a hash of the initramfs names what the guest runs.
find "$root" -exec touch -h -d @0 {} +
(cd "$root" && find . | LC_ALL=C sort |
	cpio -o -H newc --quiet --reproducible) |
	gzip -1 >"$dst.tmp"
mv "$dst.tmp" "$dst"
