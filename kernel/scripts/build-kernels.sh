#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# build-kernels.sh OUT [FLAVOUR...]
#
# What `meson compile -C build kernel` runs: the kernels the QEMU suite
# boots (default: stock-gcc patched-gcc patched-llvm; check-exports.sh then
# proves from patched-gcc that every core symbol a modular user calls is
# exported; name patched-modules to have modpost prove it in a kernel
# built with those users as modules), each as OUT/<flavour>.bzImage, and
# the guest initramfs with
# its static test programs (build-guest-progs.sh: the tree's mm selftests, ptc_stress,
# ptc_bench), under OUT.  Kernel builds go through ccache, so a warm run
# takes a few minutes.
set -eu
out=$(mkdir -p "$1" && cd "$1" && pwd)
shift
here=$(cd "$(dirname "$0")" && pwd)
. "$here/kstore.sh"
kstore_open "$out"
[ $# -gt 0 ] || set -- stock-gcc patched-gcc patched-llvm

for f in "$@"; do
	t0=$(date +%s)
	img=$("$here/kbuild.sh" "$out" "$f")
	cp "$img" "$out/$f.bzImage.tmp"
	mv "$out/$f.bzImage.tmp" "$out/$f.bzImage"
	echo "build-kernels: $f: $(($(date +%s) - t0)) s" >&2
done

if [ -f "$out/kbuild/patched-gcc/vmlinux" ]; then
	"$here/check-exports.sh" "$out/kbuild/patched-gcc" \
		"$("$here/ktree.sh" "$out" patched)"
fi

KMIRROR_KERNEL_OUT=$out "$here/build-guest-progs.sh" "$out/guest-progs" \
	"$("$here/ktree.sh" "$out" stock)"
"$here/mkinitramfs.sh" "$out/initramfs.cpio.gz" "$out/guest-progs"
# Probe KVM once now, before the QEMU tests run side by side.
if [ -f "$out/patched-gcc.bzImage" ]; then
	"$here/qemu-accel.sh" "$out/patched-gcc.bzImage" \
		"$out/initramfs.cpio.gz" >/dev/null
fi
