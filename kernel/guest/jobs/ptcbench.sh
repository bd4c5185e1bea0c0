# SPDX-License-Identifier: GPL-2.0-only
# ptcbench: ptc_bench's loops (fork + touch + exit, mmap/touch/munmap of
# anonymous, tmpfs and THP memory), one "ptcbench: TEST pages=N ops=K
# secs=S ops/s=R" line each; tests/bench/bench_qemu_ptc.sh boots it with
# page_table_check=on and =off.  Kernel arguments:
# kmirror.ptcbench_secs=S (per test, default 2), kmirror.ptcbench_pages=N
# (default 256).
set -eu
secs=2 pages=256
for arg in $(cat /proc/cmdline); do
	case $arg in
	kmirror.ptcbench_secs=*) secs=${arg#kmirror.ptcbench_secs=} ;;
	kmirror.ptcbench_pages=*) pages=${arg#kmirror.ptcbench_pages=} ;;
	page_table_check=*) echo "ptcbench: $arg" ;;
	esac
done
[ -x /opt/bin/ptc_bench ] || {
	echo "ptcbench: no /opt/bin/ptc_bench in the initramfs (kernel/scripts/build-guest-progs.sh)"
	exit 1
}
/opt/bin/ptc_bench -t "$secs" -n "$pages" -d /tmp
