# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# tests/ceph/lib.sh: sourced by the scripts that run a live cluster
# (t_cephfs_fuse.sh, tests/bench/bench_cephfs.sh).  ceph_setup skips (77)
# without root or the packages, re-runs the script in a network namespace
# of its own with the cluster's address on its loopback, makes $T and
# starts the cluster in $CL; an EXIT trap unmounts every ceph-fuse client
# and kmirror-cachefs mount made through these helpers, stops the cluster
# and removes $T.

CEPH_LIB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

skip() { echo "SKIP: $(basename "$0" .sh): $*"; exit 77; }
fail() { echo "FAIL: $(basename "$0" .sh): $*"; exit 1; }
ok() { echo "ok - $*"; }
say() { echo "# $*"; }
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

declare -a CEPH_MOUNTS=()

ceph_cleanup() {
	local rc=$? i p
	set +e
	trap - EXIT
	for ((i = ${#CEPH_MOUNTS[@]} - 1; i >= 0; i--)); do
		fusermount3 -u -z "${CEPH_MOUNTS[i]}" 2>/dev/null
	done
	for p in $(jobs -p); do
		kill -9 "$p" 2>/dev/null
	done
	wait 2>/dev/null
	"$CEPH_LIB_DIR/cluster.sh" down "$CL"
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

# ceph_setup ARGS...: see the head of this file; ARGS are the script's.
ceph_setup() {
	local p t0
	[ "$(id -u)" = 0 ] || skip "needs root (a network namespace, FUSE mounts)"
	for p in ceph-mon ceph-mgr ceph-osd ceph-mds ceph-fuse ceph uuidgen \
		unshare ip fusermount3; do
		command -v "$p" >/dev/null 2>&1 ||
			skip "$p missing (apt-get install ceph-mon ceph-mgr" \
				"ceph-osd ceph-mds ceph-fuse ceph-common" \
				"uuid-runtime fuse3)"
	done
	[ -c /dev/fuse ] || skip "/dev/fuse missing"
	[ -n "${KMIRROR_CEPH_NETNS:-}" ] ||
		exec "$CEPH_LIB_DIR/cluster.sh" netns bash "$0" "$@"
	T=$(realpath "$(mktemp -d "${TMPDIR:-/tmp}/kmceph.XXXXXX")")
	CL=$T/cluster
	trap ceph_cleanup EXIT
	t0=$(now)
	"$CEPH_LIB_DIR/cluster.sh" up "$CL" >"$T/cluster.out" 2>&1 ||
		{ cat "$T/cluster.out"; fail "cluster.sh up"; }
	CEPH_UP_SECS=$(secs "$t0" "$(now)")
	# shellcheck source=/dev/null
	. "$CL/env"
}

# ceph_fuse NAME: a ceph-fuse client of "cephfs" as client.kmirror on
# $T/NAME, with its own log, admin socket and pid file ($T/ceph-fuse-NAME.*).
ceph_fuse() {
	local m=$T/$1
	mkdir -p "$m"
	ceph-fuse -c "$CL/ceph.conf" --id kmirror -k "$CL/kmirror.keyring" \
		--client_fs cephfs --log-file "$T/ceph-fuse-$1.log" \
		--admin-socket "$T/ceph-fuse-$1.asok" \
		--pid-file "$T/ceph-fuse-$1.pid" "$m" >"$T/ceph-fuse-$1.out" 2>&1 ||
		{ cat "$T/ceph-fuse-$1.out"; fail "ceph-fuse $1"; }
	CEPH_MOUNTS+=("$m")
}

# cachefs_on SRC MNT CACHE: kmirror-cachefs in the background; its pid in
# CFS_PID once the mount is up.
cachefs_on() {
	local i
	mkdir -p "$2" "$3"
	"$KMIRROR_CACHEFS" "$1" "$2" -f -o "cache=$3" >"$T/cachefs.log" 2>&1 &
	CFS_PID=$!
	CEPH_MOUNTS+=("$2")
	for ((i = 0; i < 200; i++)); do
		[ -f "$3/kmirror-stats" ] && return 0
		sleep 0.05
	done
	fail "kmirror-cachefs did not mount $2"
}

# cachefs_settled CACHE BYTES: wait (bounded) until the statistics of the
# kmirror-cachefs on CACHE count BYTES read and no file waiting for its
# timestamps to settle.  A file read within its timestamp tick of being
# written is served uncached, and filled behind once the tick has passed:
# the read after that comes from the cache.  (The statistics file is
# rewritten within a second of any change.)
cachefs_settled() {
	local i
	for ((i = 0; i < 150; i++)); do
		awk -F': *' -v want="$2" '
			$1 == "bytes_from_source" || $1 == "bytes_from_cache" { n += $2 }
			$1 == "settling" { s = $2; seen = 1 }
			END { exit !(seen && n >= want && s == 0) }' \
			"$1/kmirror-stats" 2>/dev/null && return 0
		sleep 0.1
	done
	fail "kmirror-cachefs on $1: files still settling 15 s after the read"
}

# rss PID: "VmRSS/VmHWM" of a process, in MB.
rss() {
	awk '/^VmRSS/ { r = $2 } /^VmHWM/ { h = $2 }
	     END { printf "%.0f/%.0f MB", r / 1024, h / 1024 }' \
		"/proc/$1/status" 2>/dev/null || echo "-"
}

# daemons_rss: one line per cluster daemon.
daemons_rss() {
	local d
	for d in mon.a mgr.x osd.0 mds.a; do
		say "  ceph-${d%%.*}: $(rss "$(cat "$CL/run/$d.pid")")"
	done
}

# read_mbs FILE MB: read FILE (MB MiB) into $T/out in 1 MiB blocks, print
# MB/s.
read_mbs() {
	local t s
	t=$(now)
	dd if="$1" of="$T/out" bs=1M status=none
	s=$(now)
	awk -v mb="$2" -v a="$t" -v b="$s" 'BEGIN { printf "%.1f", mb / (b - a) }'
}

# drop_pages FILE: the kernel's page cache of FILE, dropped (as
# tests/fuse/lib.sh's, which these scripts do not source: it makes its
# own temp dir and trap).
drop_pages() {
	dd if="$1" iflag=nocache count=0 status=none
}
