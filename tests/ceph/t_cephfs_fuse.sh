#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# kmirror-cachefs in front of a real CephFS (suite 'ceph'): a single-node
# cluster (cluster.sh) in a network namespace of its own, two ceph-fuse
# clients of its file system, and then
#   - tests/fuse/t_source_change.sh with the cache reading through the
#     first client while the second changes the files behind its back;
#   - a file read cold and warm through kmirror-cachefs over a fresh
#     client, byte for byte, the warm read from the cache alone.
# The timings are tests/bench/bench_cephfs.sh's.  SKIP (77) with the
# reason when root, the ceph packages, fuse3 or /dev/fuse are missing.
# Environment: as tests/fuse/meson.build sets it.
set -euo pipefail
export LC_ALL=C
# shellcheck source=tests/ceph/lib.sh
. "$(dirname "$0")/lib.sh"
: "${KMIRROR_CACHEFS:?KMIRROR_CACHEFS is set by tests/fuse/meson.build}"
[ -x "$KMIRROR_CACHEFS" ] || skip "kmirror-cachefs is not built"
ceph_setup "$@"
say "cluster up (HEALTH_OK, MDS active): $CEPH_UP_SECS s"
ok "a single-node cluster is up"

ceph_fuse a
ceph_fuse b
echo hello >"$T/a/hello"
[ "$(cat "$T/b/hello")" = hello ] || fail "client b does not see a's file"
ok "two ceph-fuse clients see each other's files"

# The fuse suite's coherency test, the second client as the writer.
KMIRROR_FUSE_SRC=$T/a KMIRROR_FUSE_WRITER=$T/b \
	bash "$CEPH_LIB_DIR/../fuse/t_source_change.sh" \
	>"$T/source_change.out" 2>&1 ||
	{ cat "$T/source_change.out"; fail "t_source_change over CephFS"; }
grep '^ok' "$T/source_change.out" | sed 's/^ok - /ok - cephfs: /'

# Cold, then warm with the page cache dropped: the same bytes, and the
# warm read takes nothing from the source (the cache's misses stay put).
head -c $((8 * 1024 * 1024 + 4097)) /dev/urandom >"$T/ref"
cp "$T/ref" "$T/a/big"
ceph_fuse c
cachefs_on "$T/c" "$T/cfs" "$T/cache"
cmp "$T/ref" "$T/cfs/big" || fail "cold read through the cache differs"
cachefs_settled "$T/cache" "$(stat -c %s "$T/ref")"	# a fresh file
drop_pages "$T/cfs/big"
cmp "$T/ref" "$T/cfs/big" || fail "warm read through the cache differs"
fusermount3 -u "$T/cfs"
wait "$CFS_PID" || fail "kmirror-cachefs exited with $? after unmount"
stat_of() { awk -F': *' -v n="$1" '$1 == n { print $2 }' "$T/cache/kmirror-stats"; }
size=$(stat -c %s "$T/ref")
from_src=$(stat_of bytes_from_source) from_cache=$(stat_of bytes_from_cache)
say "bytes from the source $from_src, from the cache $from_cache ($size a pass)"
[ "${from_src:-0}" -le "$size" ] ||
	fail "the warm read went to the source ($from_src bytes for one $size-byte pass)"
[ "${from_cache:-0}" -ge "$size" ] || fail "the warm read did not come from the cache"
ok "a file reads back byte for byte through kmirror-cachefs, cold, then warm from the cache alone"
t0=$(now)
for m in c b a; do
	fusermount3 -u "$T/$m"
done
CEPH_MOUNTS=()
"$CEPH_LIB_DIR/cluster.sh" down "$CL"
say "clients unmounted and cluster down: $(secs "$t0" "$(now)") s"
ok "the cluster stops cleanly"
