#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# cluster.sh up|down DIR
# cluster.sh netns CMD [ARG...]
#
# A single-node Ceph cluster from Debian's packages (16.2.x) in DIR, for
# the CephFS tests: one monitor (a), one manager (x), one OSD (0) on
# memstore, one MDS (a), a CephFS named "cephfs" and a client key for the
# user "kmirror" with rw on it.  Everything is in DIR: ceph.conf, the
# keyrings, the daemons' data, logs, pid files and admin sockets; nothing
# in /etc/ceph or /var/lib/ceph is read or written.
#
#   up    start it and wait for HEALTH_OK; print the lines
#           fsid=... mon=IP key=... (the kmirror client's secret)
#         and write DIR/env with the same as shell assignments.  On any
#         failure stop what it started and exit 1.
#   down  stop every daemon DIR's pid files name; DIR stays (logs).
#   netns run CMD in a network namespace of its own with the cluster's
#         address on its loopback, KMIRROR_CEPH_NETNS=1 in its
#         environment (the tests re-run themselves this way).
#
# Every daemon binds KMIRROR_CEPH_IP (default 198.18.0.1, a benchmarking
# address no real network uses), which must be on an interface.  Run it in
# a network namespace of its own, with the address on its loopback:
#
#   cluster.sh netns sh -c 'cluster.sh up /tmp/c && ...'
#
# QEMU's user-mode network started in that namespace reaches the cluster at
# the same address from the guest.  The messenger listens on both
# protocols: v1 on 6789, v2 (msgr2) on 3300.
set -eu

what=${1:-}
dir=${2:-}
ip=${KMIRROR_CEPH_IP:-198.18.0.1}
if [ "$what" = netns ]; then
	shift
	[ $# -gt 0 ] || { echo "usage: cluster.sh netns CMD [ARG...]" >&2; exit 2; }
	exec unshare --net env KMIRROR_CEPH_NETNS=1 sh -c \
		'ip link set lo up && ip addr add "$0/32" dev lo && exec "$@"' \
		"$ip" "$@"
fi
[ -n "$dir" ] || { echo "usage: cluster.sh up|down DIR" >&2; exit 2; }

# The packages, or a clear refusal.
need() {
	for p in ceph-mon ceph-mgr ceph-osd ceph-mds ceph ceph-authtool \
		monmaptool; do
		command -v "$p" >/dev/null 2>&1 || {
			echo "cluster: $p not found (apt-get install ceph-mon" \
				"ceph-mgr ceph-osd ceph-mds ceph-common)" >&2
			exit 1
		}
	done
}

# Stop every daemon of DIR: TERM, then KILL what is left after 10 s.
stop_all() {
	pids=
	for f in "$dir"/run/*.pid; do
		[ -f "$f" ] || continue
		p=$(cat "$f")
		if kill -0 "$p" 2>/dev/null; then
			kill "$p" 2>/dev/null || true
			pids="$pids $p"
		fi
		rm -f "$f"
	done
	for i in $(seq 1 100); do
		alive=
		for p in $pids; do
			kill -0 "$p" 2>/dev/null && alive="$alive $p"
		done
		[ -n "$alive" ] || return 0
		[ "$i" -lt 100 ] || break
		sleep 0.1
	done
	# shellcheck disable=SC2086
	kill -9 $alive 2>/dev/null || true
}

if [ "$what" = down ]; then
	[ -d "$dir" ] || exit 0
	stop_all
	exit 0
fi
[ "$what" = up ] || { echo "cluster: up or down, not '$what'" >&2; exit 2; }
need
ip -o addr show 2>/dev/null | grep -q "inet $ip/" || {
	echo "cluster: $ip is on no interface here (see cluster.sh's head)" >&2
	exit 1
}

mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
[ ! -e "$dir/ceph.conf" ] || {
	echo "cluster: $dir already holds a cluster" >&2
	exit 1
}
trap 'echo "cluster: failed; logs in $dir/log" >&2; stop_all' EXIT
mkdir -p "$dir/run" "$dir/log" "$dir/mon.a" "$dir/mgr.x" "$dir/osd.0" \
	"$dir/mds.a"
fsid=$(uuidgen)
conf=$dir/ceph.conf
cat >"$conf" <<EOF
[global]
fsid = $fsid
mon host = [v2:$ip:3300,v1:$ip:6789]
public addr = $ip
public network = $ip/32
auth cluster required = cephx
auth service required = cephx
auth client required = cephx
auth allow insecure global id reclaim = false
osd pool default size = 1
osd pool default min size = 1
mon allow pool size one = true
mon warn on pool no redundancy = false
mon data avail warn = 1
osd objectstore = memstore
memstore device bytes = 1073741824
osd pool default pg autoscale mode = off
run dir = $dir/run
pid file = $dir/run/\$name.pid
admin socket = $dir/run/\$name.asok
log file = $dir/log/\$name.log
keyring = $dir/keyring.\$name
[client]
keyring = $dir/admin.keyring
[mon.a]
mon data = $dir/mon.a
[mgr.x]
mgr data = $dir/mgr.x
[osd.0]
osd data = $dir/osd.0
[mds.a]
mds data = $dir/mds.a
EOF
c() { ceph -c "$conf" --connect-timeout 20 "$@"; }

# Monitor: keys, map, store.
ceph-authtool --create-keyring "$dir/admin.keyring" --gen-key \
	-n client.admin --cap mon 'allow *' --cap osd 'allow *' \
	--cap mds 'allow *' --cap mgr 'allow *'
ceph-authtool --create-keyring "$dir/keyring.mon.a" --gen-key -n mon. \
	--cap mon 'allow *'
ceph-authtool "$dir/keyring.mon.a" --import-keyring "$dir/admin.keyring" \
	>/dev/null
monmaptool --create --fsid "$fsid" \
	--addv a "[v2:$ip:3300,v1:$ip:6789]" "$dir/monmap" >/dev/null
ceph-mon -c "$conf" --mkfs -i a --monmap "$dir/monmap" \
	--keyring "$dir/keyring.mon.a"
ceph-mon -c "$conf" -i a

# Manager.
c auth get-or-create mgr.x mon 'allow profile mgr' osd 'allow *' \
	mds 'allow *' -o "$dir/keyring.mgr.x"
ceph-mgr -c "$conf" -i x

# OSD 0 on memstore.
uuid=$(uuidgen)
secret=$(ceph-authtool --gen-print-key)
echo "{\"cephx_secret\": \"$secret\"}" |
	c osd new "$uuid" -i - >/dev/null
ceph-authtool --create-keyring "$dir/keyring.osd.0" -n osd.0 \
	--add-key "$secret"
ceph-osd -c "$conf" -i 0 --mkfs --osd-uuid "$uuid" 2>"$dir/log/mkfs.log"
ceph-osd -c "$conf" -i 0

# MDS and the file system.
c auth get-or-create mds.a mon 'allow profile mds' mgr 'allow profile mds' \
	mds 'allow *' osd 'allow *' -o "$dir/keyring.mds.a"
ceph-mds -c "$conf" -i a
c osd pool create cephfs_metadata 8 >/dev/null 2>&1
c osd pool create cephfs_data 8 >/dev/null 2>&1
c fs new cephfs cephfs_metadata cephfs_data >/dev/null 2>&1
c fs set cephfs standby_count_wanted 0
c fs authorize cephfs client.kmirror / rw >"$dir/kmirror.keyring"
key=$(c auth get-key client.kmirror)

# HEALTH_OK, and an active MDS, within a minute.
for i in $(seq 1 120); do
	if c health 2>/dev/null | grep -q '^HEALTH_OK' &&
		c mds stat 2>/dev/null | grep -q 'up:active'; then
		break
	fi
	[ "$i" -lt 120 ] || {
		c health detail >&2 || true
		exit 1
	}
	sleep 0.5
done

cat >"$dir/env" <<EOF
fsid=$fsid
mon=$ip
key=$key
EOF
cat "$dir/env"
trap - EXIT
