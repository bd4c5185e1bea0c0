#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# kmirror-cachefs in front of a real CephFS (suite 'ceph'): a single-node
# cluster (cluster.sh) in a network namespace of its own, two ceph-fuse
# clients of its file system, and then
#   - tests/fuse/t_source_change.sh with the cache reading through the
#     first client while the second changes the files behind its back;
#   - the cold and warm sequential read of a file through ceph-fuse alone
#     and through kmirror-cachefs over ceph-fuse, every byte compared, the
#     rates and their ratios printed with each daemon's memory (timings
#     are reported, never pass/fail).
# SKIP (77) with the reason when root, the ceph packages, fuse3 or
# /dev/fuse are missing.  Environment: as tests/fuse/meson.build sets it;
# KMIRROR_CEPH_BENCH_MB (64) is the size of the read.
set -euo pipefail
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
fuse_tests=$here/../fuse

skip() { echo "SKIP: cephfs-fuse: $*"; exit 77; }
fail() { echo "FAIL: cephfs-fuse: $*"; exit 1; }
ok() { echo "ok - $*"; }
say() { echo "# $*"; }

[ "$(id -u)" = 0 ] || skip "needs root (a network namespace, FUSE mounts)"
for p in ceph-mon ceph-mgr ceph-osd ceph-mds ceph-fuse ceph uuidgen \
	unshare ip fusermount3; do
	command -v "$p" >/dev/null 2>&1 ||
		skip "$p missing (apt-get install ceph-mon ceph-mgr ceph-osd" \
			"ceph-mds ceph-fuse ceph-common uuid-runtime fuse3)"
done
[ -c /dev/fuse ] || skip "/dev/fuse missing"
: "${KMIRROR_CACHEFS:?KMIRROR_CACHEFS is set by tests/fuse/meson.build}"
[ -x "$KMIRROR_CACHEFS" ] || skip "kmirror-cachefs is not built"

# The cluster binds 198.18.0.1, on the loopback of a namespace of our own.
if [ -z "${KM_CEPH_NETNS:-}" ]; then
	exec unshare --net env KM_CEPH_NETNS=1 bash "$0" "$@"
fi
ip link set lo up
ip addr add 198.18.0.1/32 dev lo

T=$(realpath "$(mktemp -d "${TMPDIR:-/tmp}/kmceph.XXXXXX")")
CL=$T/cluster
declare -a MOUNTS=()
cleanup() {
	local rc=$? i
	set +e
	trap - EXIT
	for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do
		fusermount3 -u -z "${MOUNTS[i]}" 2>/dev/null
	done
	for p in $(jobs -p); do
		kill -9 "$p" 2>/dev/null
	done
	wait 2>/dev/null
	"$here/cluster.sh" down "$CL"
	if [ "$rc" != 0 ] && [ -d "$CL/log" ]; then
		tail -n 20 "$CL"/log/*.log "$T"/*.log 2>/dev/null | tail -n 80
	fi
	if grep -q " ${T}[/ ]" /proc/self/mountinfo; then
		echo "# mounts left under $T, not removing it" >&2
	else
		rm -rf --one-file-system "$T"
	fi
	exit "$rc"
}
trap cleanup EXIT

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

t0=$(now)
"$here/cluster.sh" up "$CL" >"$T/cluster.out" 2>&1 ||
	{ cat "$T/cluster.out"; fail "cluster.sh up"; }
say "cluster up (HEALTH_OK, MDS active): $(secs "$t0" "$(now)") s"
ok "a single-node cluster is up"

# ceph_fuse NAME: a ceph-fuse client of "cephfs" as client.kmirror on
# $T/NAME, with its own log, admin socket and pid file.
ceph_fuse() {
	local m=$T/$1
	mkdir -p "$m"
	ceph-fuse -c "$CL/ceph.conf" --id kmirror -k "$CL/kmirror.keyring" \
		--client_fs cephfs --log-file "$T/ceph-fuse-$1.log" \
		--admin-socket "$T/ceph-fuse-$1.asok" \
		--pid-file "$T/ceph-fuse-$1.pid" "$m" >"$T/ceph-fuse-$1.out" 2>&1 ||
		{ cat "$T/ceph-fuse-$1.out"; fail "ceph-fuse $1"; }
	MOUNTS+=("$m")
}
ceph_fuse a
ceph_fuse b
echo hello >"$T/a/hello"
[ "$(cat "$T/b/hello")" = hello ] || fail "client b does not see a's file"
ok "two ceph-fuse clients see each other's files"

# The fuse suite's coherency test, the second client as the writer.
KMIRROR_FUSE_SRC=$T/a KMIRROR_FUSE_WRITER=$T/b \
	bash "$fuse_tests/t_source_change.sh" >"$T/source_change.out" 2>&1 ||
	{ cat "$T/source_change.out"; fail "t_source_change over CephFS"; }
grep '^ok' "$T/source_change.out" | sed 's/^ok - /ok - cephfs: /'

# rss PID: "VmRSS/VmHWM" of a process, in MB.
rss() {
	awk '/^VmRSS/ { r = $2 } /^VmHWM/ { h = $2 }
	     END { printf "%.0f/%.0f MB", r / 1024, h / 1024 }' \
		"/proc/$1/status" 2>/dev/null || echo "-"
}

# read_mbs FILE: read it all (1 MiB blocks) into $T/out, print MB/s.
read_mbs() {
	local t s
	t=$(now)
	dd if="$1" of="$T/out" bs=1M status=none
	s=$(now)
	awk -v mb="$MB" -v a="$t" -v b="$s" 'BEGIN { printf "%.1f", mb / (b - a) }'
}

# Cold and warm, through a fresh client c (its caches empty) and through
# kmirror-cachefs over a fresh client d with an empty cache; the page
# cache of the file read is dropped before each warm read.
MB=${KMIRROR_CEPH_BENCH_MB:-64}
head -c "$((MB * 1024 * 1024))" /dev/urandom >"$T/ref"
cp "$T/ref" "$T/a/big"
sync "$T/a/big"
sleep 1.1	# older than kmirror-cachefs's settle time: it will cache it
ceph_fuse c
fuse_cold=$(read_mbs "$T/c/big")
cmp -s "$T/ref" "$T/out" || fail "ceph-fuse read the file wrong"
dd if="$T/c/big" iflag=nocache count=0 status=none
fuse_warm=$(read_mbs "$T/c/big")
cmp -s "$T/ref" "$T/out" || fail "ceph-fuse read the file wrong (warm)"
ceph_fuse d
mkdir -p "$T/cfs" "$T/cache"
"$KMIRROR_CACHEFS" "$T/d" "$T/cfs" -f -o "cache=$T/cache" \
	>"$T/cachefs.log" 2>&1 &
cfs_pid=$!
MOUNTS+=("$T/cfs")
for ((i = 0; i < 200; i++)); do
	[ -f "$T/cache/kmirror-stats" ] && break
	sleep 0.05
done
[ -f "$T/cache/kmirror-stats" ] || fail "kmirror-cachefs did not mount"
cfs_cold=$(read_mbs "$T/cfs/big")
cmp -s "$T/ref" "$T/out" || fail "kmirror-cachefs read the file wrong (cold)"
dd if="$T/cfs/big" iflag=nocache count=0 status=none
cfs_warm=$(read_mbs "$T/cfs/big")
cmp -s "$T/ref" "$T/out" || fail "kmirror-cachefs read the file wrong (warm)"
ok "a ${MB} MiB file reads back byte for byte, cold and warm, both ways"

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
say "sequential read of ${MB} MiB, MB/s (anchor: ceph-fuse, same run)"
say "  ceph-fuse alone:            cold $fuse_cold  warm $fuse_warm"
say "  kmirror-cachefs over it:    cold $cfs_cold  warm $cfs_warm"
say "  ratio cachefs / ceph-fuse:  cold $(ratio "$cfs_cold" "$fuse_cold")  warm $(ratio "$cfs_warm" "$fuse_warm")"
say "memory (VmRSS/VmHWM):"
for d in mon.a mgr.x osd.0 mds.a; do
	say "  ceph-${d%%.*}: $(rss "$(cat "$CL/run/$d.pid")")"
done
say "  ceph-fuse (client d): $(rss "$(cat "$T/ceph-fuse-d.pid")")"
say "  kmirror-cachefs: $(rss "$cfs_pid")"

fusermount3 -u "$T/cfs"
wait "$cfs_pid" || fail "kmirror-cachefs exited with $? after unmount"
t0=$(now)
for m in d c b a; do
	fusermount3 -u "$T/$m"
done
MOUNTS=()
"$here/cluster.sh" down "$CL"
say "clients unmounted and cluster down: $(secs "$t0" "$(now)") s"
ok "the cluster stops cleanly"
