#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# check-exports.sh OBJ TREE
#
# Every core symbol that a user of the core which can be a module calls
# (fscache, cachefiles, 9p, libceph, ceph) must be exported, or the series
# breaks the day those are built as modules.  modpost proves it in the
# patched-debug kernel; this checks the same in a second from the
# patched-gcc build OBJ (its objects' undefined kmc_ symbols) and the
# patched TREE (the core's EXPORT_SYMBOL lines), and names the symbol.
# mm/ is left out: the page-table check is built in.
# And the other way round: nothing is exported that no modular user calls
# (what only the KUnit suites call is EXPORT_SYMBOL_IF_KUNIT, and those
# must call it).
set -eu
obj=$1
tree=$2
users="fs/fscache fs/cachefiles fs/9p net/9p net/ceph fs/ceph"

want=$(cd "$obj" && for d in $users; do
	find "$d" -name '*.o' ! -name 'built-in*' ! -name '*.mod.o'
done | xargs -r nm -u | awk '$2 ~ /^kmc_/ { print $2 }' | sort -u)
[ -n "$want" ] || { echo "check-exports: no kmc_ symbol used in $obj" >&2; exit 1; }
exports() {
	grep -hoE "$1\\(kmc_[a-z0-9_]+\\)" "$tree"/lib/kmirror/*.c |
		sed 's/.*(\(.*\))/\1/' | sort -u
}
# The symbols the KUnit suites call (lib/kmirror/kunit/*.o).
kunit_want=$(cd "$obj" && find lib/kmirror/kunit -name '*.o' \
	! -name 'built-in*' ! -name '*.mod.o' | xargs -r nm -u |
	awk '$2 ~ /^kmc_/ { print $2 }' | sort -u)
have=$(exports 'EXPORT_SYMBOL(_GPL)?')
for_kunit=$(exports 'EXPORT_SYMBOL_IF_KUNIT')
# only_in A B: the lines of A that are not in B
only_in() {
	printf '%s\n' "$1" | grep -vxF -e "$2" -e '' || true
}
bad=0
missing=$(only_in "$want" "$have")
if [ -n "$missing" ]; then
	echo "check-exports: used by fscache/cachefiles/9p/ceph but not exported:" $missing >&2
	bad=1
fi
unused=$(only_in "$have" "$want")
if [ -n "$unused" ]; then
	echo "check-exports: exported, but no modular user calls them" \
		"(EXPORT_SYMBOL_IF_KUNIT if only the KUnit suites do):" $unused >&2
	bad=1
fi
unused=$(only_in "$for_kunit" "$kunit_want")
if [ -n "$unused" ]; then
	echo "check-exports: exported to KUnit, but no suite calls them:" $unused >&2
	bad=1
fi
missing=$(only_in "$(only_in "$kunit_want" "$have")" "$for_kunit")
if [ -n "$missing" ]; then
	echo "check-exports: called by the KUnit suites but not exported to them:" $missing >&2
	bad=1
fi
[ "$bad" = 0 ] || exit 1
echo "check-exports: $(printf '%s\n' "$want" | wc -l) kmc_ symbols exported for modular users," \
	"$(printf '%s\n' "$for_kunit" | wc -l) for the KUnit suites only, none unused" >&2
