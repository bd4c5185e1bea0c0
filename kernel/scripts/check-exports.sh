#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# check-exports.sh OBJ TREE
#
# Every core symbol that a user of the core which can be a module calls
# (fscache, cachefiles, 9p, libceph, ceph) must be exported, or the series
# breaks the day those are built as modules.  modpost proves it in the
# patched-modules kernel (build-kernels.sh OUT patched-modules, about as
# long as a kernel build); this checks the same in a second from the
# patched-gcc build OBJ (its objects' undefined kmc_ symbols) and the
# patched TREE (the core's EXPORT_SYMBOL lines), so that CI need not build
# a fourth kernel.  mm/ is left out: the page-table check is built in.
set -eu
obj=$1
tree=$2
users="fs/fscache fs/cachefiles fs/9p net/9p net/ceph fs/ceph"

want=$(cd "$obj" && for d in $users; do
	find "$d" -name '*.o' ! -name 'built-in*' ! -name '*.mod.o'
done | xargs -r nm -u | awk '$2 ~ /^kmc_/ { print $2 }' | sort -u)
[ -n "$want" ] || { echo "check-exports: no kmc_ symbol used in $obj" >&2; exit 1; }
have=$(grep -hoE 'EXPORT_SYMBOL(_GPL)?\(kmc_[a-z0-9_]+\)' "$tree"/lib/kmirror/*.c |
	sed 's/.*(\(.*\))/\1/' | sort -u)
missing=$(printf '%s\n' "$want" | grep -vxF "$have" || true)
if [ -n "$missing" ]; then
	echo "check-exports: used by fscache/cachefiles/9p/ceph but not exported:" $missing >&2
	exit 1
fi
echo "check-exports: $(printf '%s\n' "$want" | wc -l) kmc_ symbols used by modular users, all exported" >&2
