#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# refresh-core-patch.sh OUT [--check]
#
# The series' "lib: add the kmirror core" carries the core: core/*.[ch],
# kernel/kcompat.h, kernel/Kconfig, kernel/Kbuild, kernel/kmc_module.c,
# kernel/kunit/ and tests/vectors/*.vec, where install-core.sh puts them.
# Those files are the one copy the kmirror repository edits; this script
# writes that patch again from them, keeping its message and its hook-up
# of lib/Kconfig and lib/Makefile, so that every stored patch applies on
# its own.  With --check, write nothing and exit 1 if the stored patch is
# not what it would write (core/ was changed and the patch not refreshed).
# OUT is a build directory (the stock tree is unpacked there).
set -eu
out=$(mkdir -p "$1" && cd "$1" && pwd)
check=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/kstore.sh"
kstore_open "$out"
top=$(cd "$here/../.." && pwd)
patches=$top/kernel/patches
name=$(grep -e '-lib-add-the-kmirror-core' "$patches/series")
stored=$patches/$name
stock=$("$here/ktree.sh" "$out" stock)

repo=$out/core-patch-git
rm -rf "$repo"
mkdir -p "$repo/lib"
cp "$stock/lib/Kconfig" "$stock/lib/Makefile" "$repo/lib/"
git_() {
	git -C "$repo" -c user.name=kmirror -c user.email=kmirror@lists.invalid \
		-c core.abbrev=9 "$@"
}
git_ init -q
git_ add -A .
git_ commit -q -m stock

# The hook-up from the stored patch, the core from its one copy.
git_ apply --index --exclude='lib/kmirror/*' \
	--exclude='include/linux/kmirror/*' "$stored"
"$here/install-core.sh" "$repo"
git_ add -A -f lib/kmirror include/linux/kmirror
git -C "$repo" mailinfo "$out/core-patch.msg" /dev/null <"$stored" \
	>"$out/core-patch.info"
info() { sed -n "s/^$1: //p" "$out/core-patch.info"; }
printf '%s\n\n' "$(info Subject)" | cat - "$out/core-patch.msg" |
	GIT_AUTHOR_DATE="$(info Date)" git_ commit -q \
		--author="$(info Author) <$(info Email)>" -F -
git_ format-patch -q --zero-commit --no-signature --no-stat -1 \
	--stdout >"$out/core-patch.new"

if [ "$check" = --check ]; then
	if ! cmp -s "$out/core-patch.new" "$stored"; then
		echo "refresh-core-patch: kernel/patches/$name is not the core" \
			"of core/ and kernel/:" >&2
		diff -u "$stored" "$out/core-patch.new" | head -n 20 >&2
		echo "refresh-core-patch: run kernel/scripts/refresh-core-patch.sh" \
			"$out" >&2
		exit 1
	fi
	echo "refresh-core-patch: kernel/patches/$name carries core/ and kernel/"
	exit 0
fi
cp "$out/core-patch.new" "$stored"
echo "refresh-core-patch: wrote kernel/patches/$name"
