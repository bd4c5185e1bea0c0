#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# qemu-run.sh [-d IMG]... [-s DIR:TAG]... [-a ARGS] [-q OPTS] [-t SECS]
#             BZIMAGE INITRD JOB LOG
#
# Boot BZIMAGE with INITRD in qemu-system-x86_64, run guest job JOB
# (kernel/guest/jobs/JOB.sh), console to LOG.  -d adds a raw virtio disk
# (/dev/vda, /dev/vdb, ...), -s a 9p share with mount tag TAG, -a kernel
# arguments, -q QEMU options (split on blanks; the benchmark's -icount).  The page-table check is on (page_table_check=on) unless -a
# says page_table_check=off.
#
# The accelerator is KMIRROR_QEMU_ACCEL if set, else what qemu-accel.sh
# found for this machine: KVM hangs at boot on some hosts, and TCG boots
# the minimal kernel in seconds anyway.
#
# Exit 0 only when the job ended with rc=0 and the console has no BUG,
# WARNING, Oops or panic; otherwise the lines that tell why, and 1.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
disks= shares= args= qopts= timeout=300
while getopts d:s:a:q:t: o; do
	case $o in
	d) disks="$disks $OPTARG" ;;
	s) shares="$shares $OPTARG" ;;
	a) args="$args $OPTARG" ;;
	q) qopts="$qopts $OPTARG" ;;
	t) timeout=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 4 ] || { echo "usage: qemu-run.sh [opts] BZIMAGE INITRD JOB LOG" >&2; exit 2; }
kernel=$1 initrd=$2 job=$3 log=$4

accel=${KMIRROR_QEMU_ACCEL:-$("$here/qemu-accel.sh" "$kernel" "$initrd")}
set -- -accel "$accel" -m 1024 -nographic -no-reboot -kernel "$kernel" \
	-initrd "$initrd"
for d in $disks; do
	set -- "$@" -drive "file=$d,format=raw,if=virtio"
done
for s in $shares; do
	dir=${s%:*} tag=${s##*:}
	set -- "$@" -virtfs \
		"local,path=$dir,mount_tag=$tag,security_model=none,id=$tag"
done
case $args in
*page_table_check=*) ;;
*) args="page_table_check=on$args" ;;
esac
# shellcheck disable=SC2086
timeout "$timeout" qemu-system-x86_64 "$@" $qopts \
	-append "console=ttyS0 panic=-1 oops=panic $args kmirror.job=$job" \
	</dev/null >"$log" 2>&1 || true

"$here/console-check.sh" "$log" "$job"
