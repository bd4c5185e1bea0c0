#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# ktree.sh OUT stock|patched
#
# Print the path of a Linux 6.1 source tree under OUT/src (a symlink into
# the kernel store, kstore.sh, whose lock the caller holds):
#   stock    /usr/src/linux-source-6.1.tar.xz unpacked, never modified
#   patched  a hard-linked copy of it with kernel/patches/series applied
#            in order (the core comes in with "lib: add the kmirror
#            core", which refresh-core-patch.sh writes from core/)
# The patched tree is rebuilt whenever the patches change (a content hash
# in .kmirror-tree);
# files it does not touch keep their hard links and mtimes, so that an
# incremental kernel build recompiles only what the patches changed.  A
# file the previous tree had changed and this one does not is copied
# afresh (a new mtime), or make would keep the objects built from it.
set -eu
out=$1
what=$2
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
stock=$out/src/linux-6.1

"$top/tests/tools/kernel-tree.sh" "$stock" >&2
[ -x "$stock/scripts/checkpatch.pl" ]
if [ "$what" = stock ]; then
	echo "$stock"
	exit 0
fi
[ "$what" = patched ] || { echo "ktree: stock or patched, not '$what'" >&2; exit 2; }

patched=$out/src/linux-6.1-kmirror
inputs=$(cd "$top" && find kernel/patches -type f | LC_ALL=C sort)
sum=$(cd "$top" && cat $inputs | sha256sum | cut -c1-16)
if [ "$(cat "$patched/.kmirror-tree" 2>/dev/null)" = "$sum" ]; then
	echo "$patched"
	exit 0
fi

echo "ktree: making the patched tree ($sum)" >&2
rm -rf "$patched.new"
cp -al "$stock" "$patched.new"
while read -r p; do
	case $p in '' | '#'*) continue ;; esac
	# GNU patch writes a new file, so the stock tree's links are safe.
	patch -d "$patched.new" -p1 -s --no-backup-if-mismatch -F0 \
		<"$top/kernel/patches/$p" || {
		echo "ktree: kernel/patches/$p does not apply" >&2
		exit 1
	}
done <"$top/kernel/patches/series"
# What this tree changed: new files and patched ones, for the next rebuild.
(cd "$patched.new" && find . -type f -links 1 ! -name '.kmirror-*' |
	sed 's|^\./||' | LC_ALL=C sort) >"$patched.new/.kmirror-files"
if [ -f "$patched/.kmirror-files" ]; then
	while read -r f; do
		n=$patched.new/$f
		if [ -f "$n" ] && [ "$(stat -c %h "$n")" -gt 1 ]; then
			cp -p "$n" "$n.kmirror-tmp" && touch "$n.kmirror-tmp" &&
				mv "$n.kmirror-tmp" "$n"
		fi
	done <"$patched/.kmirror-files"
fi
echo "$sum" >"$patched.new/.kmirror-tree"
rm -rf "$patched"
mv "$patched.new" "$patched"
echo "$patched"
