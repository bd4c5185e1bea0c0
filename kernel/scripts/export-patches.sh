#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# export-patches.sh KERNEL_GIT [BASE]
#
# Maintainer tool: write kernel/patches/ (and its series file) from the
# commits BASE..HEAD (BASE default: the tag "pristine") of a git tree of
# Linux 6.1 in which the series is developed.  The files install-core.sh
# puts into the tree (lib/kmirror/, include/linux/kmirror/) are left out
# of every patch: they come from core/ and kernel/, the one copy.
set -eu
git=$1
base=${2:-pristine}
dst=$(cd "$(dirname "$0")/../patches" && pwd)
rm -f "$dst"/*.patch
: >"$dst/series.new"
n=0
for c in $(git -C "$git" rev-list --reverse "$base..HEAD"); do
	n=$((n + 1))
	name=$(git -C "$git" format-patch --zero-commit --no-signature \
		--no-stat -1 --start-number "$n" -o "$dst" "$c" -- . \
		':!lib/kmirror' ':!include/linux/kmirror')
	basename "$name" >>"$dst/series.new"
done
{
	echo "# SPDX-License-Identifier: GPL-2.0-only"
	echo "# Applied in order to a pristine Linux 6.1 tree after"
	echo "# kernel/scripts/install-core.sh (kernel/scripts/ktree.sh does both)."
	cat "$dst/series.new"
} >"$dst/series"
rm "$dst/series.new"
cat "$dst/series"
