#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# demo.sh: set up, build, and show kmirror on a cache that Linux 6.1 wrote.
#
# Until kmirror-cachefs lands this is the project's main job: the CLI reads
# a real cachefiles cache (two 9p shares, written by a 6.1 kernel in QEMU,
# shipped in tests/fixtures) and explains every name in it.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${KMIRROR_BUILD_DEMO:-$top/build-demo}
"$top/tests/tools/deps.sh"

if [ ! -f "$build/build.ninja" ]; then
	meson setup "$build" "$top" >/dev/null
fi
ninja -C "$build" userspace/cli/kmirror >/dev/null
km() {
	echo "\$ kmirror $*"
	"$build/userspace/cli/kmirror" "$@"
	echo
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar --xattrs --xattrs-include='user.*' -xJf \
	"$top/tests/fixtures/kernel61-cachefiles-9p.tar.xz" -C "$work"
echo "A cachefiles cache written by Linux 6.1 is in $work/fsc"
echo

kmirror="$build/userspace/cli/kmirror"
echo "\$ kmirror cache ls $work/fsc"
"$kmirror" cache ls "$work/fsc" | head -n 5
echo "... ($("$kmirror" cache ls "$work/fsc" | wc -l) objects in all)"
echo
echo "\$ kmirror cache ls $work/fsc --json"
"$kmirror" cache ls "$work/fsc" --json | head -n 2
echo
km volume hash '9p,src,' '9p,src2,second'
km key uncook 'Tabc0d3,'
km key cook d3c0ab0000000000 68656c6c6f 0102030405
km cookie path '9p,src,' d3c0ab0000000000
km hash --salt 0 0102030405060708
