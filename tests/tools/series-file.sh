#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# series-file.sh STOCK_FILE OUT PATCHDIR PATH
#
# Write to OUT the tree's file PATH (a copy of it at STOCK_FILE) with the
# hunks of every patch of PATCHDIR/series that touch it applied in order:
# the series' build of that one file, for the differential tests.  The
# core files the series adds are not needed: the tests link the
# userspace build of the core.
set -eu
stock=$1
out=$2
dir=$(cd "$3" && pwd)
path=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/$(dirname "$path")"
cp "$stock" "$tmp/$path"
for p in $(grep -v '^#' "$dir/series"); do
	if grep -q "^diff --git a/$path " "$dir/$p"; then
		(cd "$tmp" && git apply --include="$path" "$dir/$p")
	fi
done
cp "$tmp/$path" "$out"
