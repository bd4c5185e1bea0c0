#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# format-series.sh OUT
#
# Emit the kernel series as `git format-patch` mails in OUT/series/ (with
# a diffstat, which the stored patches leave out), ready for `git am` on a
# clean Linux 6.1 tree.  Then check them:
#   - "lib: add the kmirror core" carries the core of core/ and kernel/
#     (refresh-core-patch.sh --check);
#   - the mails apply in order (git apply) to a copy of the stock tree, and
#     the result is byte for byte the tree the QEMU kernels are built from
#     (kernel/scripts/ktree.sh patched);
#   - every mail passes the tree's scripts/checkpatch.pl --strict with no
#     ERROR and no WARNING but those kernel/patches/checkpatch.accepted
#     lists with a reason (CHECKs are counted and printed).
# Exit 1 if either check fails.
set -eu
out=$(mkdir -p "$1" && cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/kstore.sh"
kstore_open "$out"
top=$(cd "$here/../.." && pwd)
patches=$top/kernel/patches
stock=$("$here/ktree.sh" "$out" stock)
patched=$("$here/ktree.sh" "$out" patched)
core_ok=0
"$here/refresh-core-patch.sh" "$out" --check || core_ok=1

git_() { git -C "$repo" -c user.name=kmirror -c user.email=kmirror@lists.invalid "$@"; }

# A small repository holding the pristine versions of the files the
# series touches: enough for git format-patch's index lines, which are
# the stock tree's own blob ids.
repo=$out/series-git
rm -rf "$repo" "$out/series"
mkdir -p "$repo"
grep -h '^diff --git a/' $(sed -e '/^#/d' -e "s|^|$patches/|" "$patches/series") |
	sed 's|^diff --git a/\([^ ]*\) .*|\1|' | LC_ALL=C sort -u >"$out/touched"
# (Files a patch creates are not in the stock tree.)
(cd "$stock" && while read -r f; do [ ! -e "$f" ] || echo "$f"; done \
	<"$out/touched" | xargs -r cp --parents -t "$repo")
git_ init -q
git_ add -A -f .
git_ commit -q -m "Linux 6.1 (Debian linux-source-6.1), touched files"

sed -e '/^#/d' -e '/^$/d' "$patches/series" | while read -r p; do
	git_ am -q "$patches/$p"
done
git_ format-patch -q --zero-commit -o "$out/series" HEAD~$(($(sed -e '/^#/d' -e '/^$/d' "$patches/series" | wc -l)))
n=$(ls "$out/series" | wc -l)
echo "format-series: $n mails in $out/series"

# Check 1: the mails rebuild the tree the kernels are built from.
check=$out/series-check
rm -rf "$check"
# Hard links where the store shares a filesystem with OUT, else a copy.
cp -al "$stock" "$check" 2>/dev/null ||
	{ rm -rf "$check"; cp -a "$stock" "$check"; }
# $out usually sits inside kmirror's own work tree; there git apply would
# take the patch paths as relative to that repository and silently skip
# them all.  The ceiling keeps it from looking above the copy.
for m in "$out"/series/*.patch; do
	(cd "$check" && GIT_CEILING_DIRECTORIES=$out git apply "$m") ||
		{ echo "format-series: $m does not apply" >&2; exit 1; }
done
if ! diff -r -q -x '.kmirror-*' "$check" "$patched" >"$out/tree.diff"; then
	echo "format-series: the series does not rebuild the patched tree:" >&2
	head -n 20 "$out/tree.diff" >&2
	exit 1
fi
echo "format-series: applies to a clean 6.1 tree and gives the built tree"
rm -rf "$check"

# accepted MAIL WARNING: is this warning listed in checkpatch.accepted?
accepted() {
	grep -v '^#' "$patches/checkpatch.accepted" |
		while IFS='|' read -r mail text why; do
			case $1 in "$mail"*) ;; *) continue ;; esac
			case $2 in "WARNING: $text"*) echo yes; break ;; esac
		done
}

# Check 2: checkpatch --strict, no ERROR and no unaccepted WARNING.
bad=0
for m in "$out"/series/*.patch; do
	name=$(basename "$m")
	res=$("$stock/scripts/checkpatch.pl" --strict --no-tree "$m" 2>&1 || true)
	e=$(echo "$res" | grep -c '^ERROR:' || true)
	c=$(echo "$res" | grep -c '^CHECK:' || true)
	w=0 a=0
	for warn in $(echo "$res" | grep -n '^WARNING:' | cut -d: -f1); do
		line=$(echo "$res" | sed -n "${warn}p")
		if [ -n "$(accepted "$name" "$line")" ]; then
			a=$((a + 1))
		else
			w=$((w + 1))
		fi
	done
	echo "checkpatch: $name: $e errors, $w warnings (+$a accepted), $c checks"
	if [ "$e" -gt 0 ] || [ "$w" -gt 0 ]; then
		echo "$res" | grep -A4 -E '^(ERROR|WARNING):' | head -n 40
		bad=1
	fi
done
exit $((bad | core_ok))
