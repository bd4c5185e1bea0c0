#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# qemu-accel.sh BZIMAGE INITRD
#
# Print the accelerator the guest should use: "kvm" if /dev/kvm exists and
# a KVM guest runs the boot job within KMIRROR_KVM_PROBE_SECS (default 30),
# else "tcg".  KVM hangs at boot on some hosts (and -cpu host aborts on
# MSR 0x10a); TCG boots the minimal kernel in seconds, so a hang costs one
# probe.  The answer is kept in $KMIRROR_ACCEL_CACHE (default beside
# INITRD) so that a test run probes once (build-kernels.sh probes right
# after the build, before the guests run side by side).
set -eu
kernel=$1 initrd=$2
cache=${KMIRROR_ACCEL_CACHE:-$(dirname "$initrd")/qemu-accel}
if [ -f "$cache" ]; then
	cat "$cache"
	exit 0
fi
accel=tcg
if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
	log=$cache.probe.log
	timeout "${KMIRROR_KVM_PROBE_SECS:-30}" qemu-system-x86_64 -accel kvm \
		-m 256 -nographic -no-reboot -kernel "$kernel" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1 kmirror.job=boot" \
		</dev/null >"$log" 2>&1 || true
	if grep -q '^kmirror-guest: end boot rc=0' "$log"; then
		accel=kvm
	fi
	echo "qemu-accel: KVM probe: $accel (console in $log)" >&2
fi
# Atomically: guests started side by side may read it meanwhile.
echo "$accel" >"$cache.$$"
mv "$cache.$$" "$cache"
echo "$accel"
