#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# kernel-tree.sh OUTDIR [PATH...]
#
# Unpack the Debian linux-source 6.1 tree (or just PATHs of it) into OUTDIR,
# once.  The kernel tree never goes into git: it lives in the build dir.
# Exit 77 (meson's skip) when the tarball is not installed.
set -eu
out=$1
shift
tarball=${KMIRROR_LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
top=linux-source-6.1

if [ ! -r "$tarball" ]; then
	echo "kernel-tree: $tarball missing (apt-get install linux-source-6.1)" >&2
	exit 77
fi
stamp="$out/.unpacked${*:+-$(echo "$*" | md5sum | cut -c1-8)}"
[ -e "$stamp" ] && [ "$stamp" -nt "$tarball" ] && exit 0
mkdir -p "$out"
members=
for p in "$@"; do members="$members $top/$p"; done
# shellcheck disable=SC2086
tar -xJf "$tarball" -C "$out" --strip-components=1 $members
touch "$stamp"
