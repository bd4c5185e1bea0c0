#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# tool-floor.sh TREE gcc|clang
#
# Refuse a compiler older than the floor the tree itself declares in
# scripts/min-tool-version.sh (GCC 5.1.0 and LLVM 11.0.0 in 6.1), with one
# clear line, before a build starts.  Prints "tool-floor: ok ..." otherwise.
set -eu
tree=$1
cc=$2
case $cc in
gcc) tool=gcc ;;
clang) tool=llvm ;;
*) echo "tool-floor: unknown compiler '$cc'" >&2; exit 2 ;;
esac
floor=$(SRCARCH=x86 "$tree/scripts/min-tool-version.sh" "$tool")
if ! command -v "$cc" >/dev/null 2>&1; then
	echo "tool-floor: $cc not found (the kernel needs $tool >= $floor)" >&2
	exit 1
fi
found=$("$cc" -dumpfullversion 2>/dev/null || "$cc" -dumpversion)
ver() { echo "$1" | awk -F. '{ printf "%d%03d%03d", $1, $2, $3 }'; }
if [ "$(ver "$found")" -lt "$(ver "$floor")" ]; then
	echo "tool-floor: $cc $found is older than the kernel's floor $floor" \
		"(scripts/min-tool-version.sh)" >&2
	exit 1
fi
echo "tool-floor: ok, $cc $found >= $floor" >&2
