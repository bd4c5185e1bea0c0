#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# export-patches.sh KERNEL_GIT [BASE]
#
# Maintainer tool: write kernel/patches/ (and its series file) from the
# commits BASE..HEAD (BASE default: the tag "pristine") of a git tree of
# Linux 6.1 in which the series is developed.  "lib: add the kmirror
# core" must carry exactly what install-core.sh puts into the tree
# (refresh-core-patch.sh --check says whether it does): commit the core
# there with `git add -f lib/kmirror include/linux/kmirror`.
set -eu
git=$1
base=${2:-pristine}
dst=$(cd "$(dirname "$0")/../patches" && pwd)
rm -f "$dst"/*.patch
: >"$dst/series.new"
n=0
for c in $(git -C "$git" rev-list --reverse "$base..HEAD"); do
	n=$((n + 1))
	name=$(git -C "$git" -c core.abbrev=9 format-patch --zero-commit \
		--no-signature --no-stat -1 --start-number "$n" -o "$dst" "$c")
	basename "$name" >>"$dst/series.new"
done
{
	echo "# SPDX-License-Identifier: GPL-2.0-only"
	echo "# Applied in order to a pristine Linux 6.1 tree"
	echo "# (kernel/scripts/ktree.sh does it in the build directory)."
	cat "$dst/series.new"
} >"$dst/series"
rm "$dst/series.new"
cat "$dst/series"
