#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bench_cephfs.sh: cold and warm sequential reads of one file on a real
# CephFS (the single-node cluster of tests/ceph/cluster.sh), in one run:
#   (a) ceph-fuse alone: cold on a fresh client, warm from its own caches
#       (the kernel's page cache of the file dropped);
#   (b) kmirror-cachefs over a fresh ceph-fuse client: cold (filled as it
#       reads), warm from the cache directory (page cache dropped);
#   (c) the patched kernel in QEMU (TCG), its CephFS client without and
#       with fsc (cachefiles): cold on a fresh mount, warm on the next.
# Ratios: (b) over (a), fsc over no fsc.  Also the cluster's up and down
# times and every daemon's VmRSS/VmHWM.  (c) runs under emulation: its
# MB/s are the guest's, comparable with each other, not with (a)/(b).
# Timings are reported, never pass/fail.
# Environment: KMIRROR_CACHEFS, KMIRROR_KERNEL_OUT (the QEMU kernels; (c)
# is left out without them), KMIRROR_CEPH_BENCH_MB (64),
# KMIRROR_BENCH_ROUNDS ((a) and (b), best of; 3).
set -euo pipefail
export LC_ALL=C
# shellcheck source=tests/ceph/lib.sh
. "$(dirname "$0")/../ceph/lib.sh"
: "${KMIRROR_CACHEFS:?}"
[ -x "$KMIRROR_CACHEFS" ] || skip "kmirror-cachefs is not built"
ceph_setup "$@"
MB=${KMIRROR_CEPH_BENCH_MB:-64}

ceph_fuse w
head -c "$((MB * 1024 * 1024))" /dev/urandom >"$T/ref"
cp "$T/ref" "$T/w/big"
sync "$T/w/big"

# best A B: the larger rate.
best() { awk -v a="$1" -v b="$2" 'BEGIN { print (a > b ? a : b) }'; }

# One round of (a) and (b), each on fresh ceph-fuse clients (and a fresh
# cache): rates into a_cold a_warm b_cold b_warm, the best so far kept.
a_cold=0 a_warm=0 b_cold=0 b_warm=0
round() {
	local r=$1 v
	ceph_fuse "a$r"
	v=$(read_mbs "$T/a$r/big" "$MB"); a_cold=$(best "$a_cold" "$v")
	cmp -s "$T/ref" "$T/out" || fail "ceph-fuse read the file wrong"
	drop_pages "$T/a$r/big"
	v=$(read_mbs "$T/a$r/big" "$MB"); a_warm=$(best "$a_warm" "$v")
	cmp -s "$T/ref" "$T/out" || fail "ceph-fuse read the file wrong (warm)"
	ceph_fuse "b$r"
	cachefs_on "$T/b$r" "$T/cfs$r" "$T/cache$r"
	v=$(read_mbs "$T/cfs$r/big" "$MB"); b_cold=$(best "$b_cold" "$v")
	cmp -s "$T/ref" "$T/out" || fail "kmirror-cachefs read the file wrong"
	# A file written just now is filled once its timestamps settle.
	cachefs_settled "$T/cache$r" $((MB * 1024 * 1024))
	drop_pages "$T/cfs$r/big"
	v=$(read_mbs "$T/cfs$r/big" "$MB"); b_warm=$(best "$b_warm" "$v")
	cmp -s "$T/ref" "$T/out" ||
		fail "kmirror-cachefs read the file wrong (warm)"
}
ROUNDS=${KMIRROR_BENCH_ROUNDS:-3}
for ((r = 1; r <= ROUNDS; r++)); do
	round "$r"
done

say "cluster up: $CEPH_UP_SECS s"
say "sequential read of $MB MiB, MB/s, best of $ROUNDS rounds (anchor: ceph-fuse, this run)"
say "  (a) ceph-fuse alone:          cold $a_cold  warm $a_warm"
say "  (b) kmirror-cachefs over it:  cold $b_cold  warm $b_warm"
say "      (b)/(a):                  cold $(ratio "$b_cold" "$a_cold")  warm $(ratio "$b_warm" "$a_warm")"
say "memory (VmRSS/VmHWM):"
daemons_rss
say "  ceph-fuse (client b1): $(rss "$(cat "$T/ceph-fuse-b1.pid")")"
say "  kmirror-cachefs: $(rss "$CFS_PID")"

# (c) the patched kernel, without and with fsc.
K=${KMIRROR_KERNEL_OUT:-}
if [ -n "$K" ] && [ -f "$K/patched-gcc.bzImage" ]; then
	S=$CEPH_LIB_DIR/../../kernel/scripts
	python3 "$S/cache-image.py" make "$T/cache.img" $((MB * 2 + 64))
	"$S/qemu-run.sh" -d "$T/cache.img" -t 900 \
		-q "-nic user,model=virtio-net-pci" \
		-a "kmirror.ceph_fsid=$fsid kmirror.ceph_key=$key kmirror.ceph_mon=$mon" \
		"$K/patched-gcc.bzImage" "$K/initramfs.cpio.gz" cephfsbench \
		"$T/guest.log" >"$T/guest.verdict" ||
		{ cat "$T/guest.verdict"; fail "the guest's benchmark job"; }
	cp "$T/guest.log" "$K/bench-cephfs-guest.log"
	g() {
		tr -d '\r' <"$T/guest.log" | awk -v m="$1" -v p="$2" -v mb="$MB" \
			'$1 == "bench" && $2 == m && $3 == p {
				printf "%.1f", ($4 > 0 ? mb * 1000 / $4 : 0) }'
	}
	nc=$(g nofsc cold) nw=$(g nofsc warm) fc=$(g fsc cold) fw=$(g fsc warm)
	[ -n "$nc$nw$fc$fw" ] ||
		fail "no bench lines in the guest's console ($K/bench-cephfs-guest.log)"
	say "  (c) guest kernel, no fsc:     cold $nc  warm $nw   (QEMU TCG)"
	say "      guest kernel, fsc:        cold $fc  warm $fw"
	say "      fsc / no fsc:             cold $(ratio "$fc" "$nc")  warm $(ratio "$fw" "$nw")"
else
	say "  (c) left out: no QEMU kernels (meson test --suite qemu builds them)"
fi

# The caches first, and their daemons gone, then the clients they read.
for ((r = 1; r <= ROUNDS; r++)); do
	fusermount3 -u "$T/cfs$r"
done
wait
for ((i = ${#CEPH_MOUNTS[@]} - 1; i >= 0; i--)); do
	case ${CEPH_MOUNTS[i]} in */cfs*) continue ;; esac
	fusermount3 -u "${CEPH_MOUNTS[i]}"
done
CEPH_MOUNTS=()
t0=$(now)
"$CEPH_LIB_DIR/cluster.sh" down "$CL"
say "cluster down: $(secs "$t0" "$(now)") s"
