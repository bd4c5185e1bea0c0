#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# build-kernels.sh OUT [FLAVOUR...]
#
# What `meson compile -C build kernel` runs: the kernels the QEMU suite
# boots (default: stock-gcc patched-gcc patched-llvm patched-debug), each
# as OUT/<flavour>.bzImage (patched-llvm is compiled, not linked), and
# the guest initramfs with its static test programs (build-guest-progs.sh:
# the tree's mm selftests, ptc_stress, ptc_bench), under OUT; patched-debug's modules go into its own
# OUT/patched-debug.initramfs.cpio.gz.  check-exports.sh proves from
# patched-gcc that every core symbol a modular user calls is exported
# (patched-debug's modpost proves it again).  Kernel builds go through
# ccache and the kernel store (kstore.sh): with nothing changed, a minute.
set -eu
out=$(mkdir -p "$1" && cd "$1" && pwd)
shift
here=$(cd "$(dirname "$0")" && pwd)
. "$here/kstore.sh"
kstore_open "$out"
[ $# -gt 0 ] || set -- stock-gcc patched-gcc patched-llvm patched-debug

for f in "$@"; do
	t0=$(date +%s)
	img=$("$here/kbuild.sh" "$out" "$f")
	if [ -n "$img" ]; then
		cp "$img" "$out/$f.bzImage.tmp"
		mv "$out/$f.bzImage.tmp" "$out/$f.bzImage"
	fi
	echo "build-kernels: $f: $(($(date +%s) - t0)) s" >&2
done

if [ -f "$out/kbuild/patched-gcc/vmlinux" ]; then
	"$here/check-exports.sh" "$out/kbuild/patched-gcc" \
		"$("$here/ktree.sh" "$out" patched)"
fi

KMIRROR_KERNEL_OUT=$out "$here/build-guest-progs.sh" "$out/guest-progs" \
	"$("$here/ktree.sh" "$out" stock)"
"$here/mkinitramfs.sh" "$out/initramfs.cpio.gz" "$out/guest-progs"
case " $* " in
*" patched-debug "*)
	"$here/mkinitramfs.sh" "$out/patched-debug.initramfs.cpio.gz" \
		"$out/guest-progs" "$out/kbuild/patched-debug/modroot"
	;;
esac
# Probe KVM once now, before the QEMU tests run side by side.
if [ -f "$out/patched-gcc.bzImage" ]; then
	"$here/qemu-accel.sh" "$out/patched-gcc.bzImage" \
		"$out/initramfs.cpio.gz" >/dev/null
fi
