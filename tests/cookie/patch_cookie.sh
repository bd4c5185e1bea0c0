#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# patch_cookie.sh STOCK_COOKIE_C OUT PATCHDIR
#
# Write to OUT the tree's fs/fscache/cookie.c with the hunks of every patch
# of PATCHDIR/series that touch it applied in order: the kmirror build of
# the file, for diff_cookie.  The core files install-core.sh adds are not
# needed: the test links the userspace build of the core.
set -eu
stock=$1
out=$2
dir=$(cd "$3" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/fs/fscache"
cp "$stock" "$tmp/fs/fscache/cookie.c"
for p in $(grep -v '^#' "$dir/series"); do
	if grep -q '^diff --git a/fs/fscache/cookie.c' "$dir/$p"; then
		(cd "$tmp" && git apply --include=fs/fscache/cookie.c "$dir/$p")
	fi
done
cp "$tmp/fs/fscache/cookie.c" "$out"
