#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# install-core.sh TREE
#
# Put the kmirror core into a Linux 6.1 tree, as the series' "lib: add the
# kmirror core" adds it (kernel/scripts/format-series.sh makes that patch from
# here, so the core exists once, in core/):
#   include/linux/kmirror/   core/*.h and kernel/kcompat.h
#   lib/kmirror/             core/*.c, kernel/Kconfig, kernel/Kbuild,
#                            kernel/kmc_module.c (the module's licence)
#   lib/kmirror/kunit/       kernel/kunit/*.[chS] and its Makefile
#   lib/kmirror/kunit/vectors/  tests/vectors/*.vec, the tables the cmocka
#                            suites read too (kmv_data.S links them in)
# The hook-up (lib/Kconfig, lib/Makefile) is that patch of kernel/patches.
set -eu
tree=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
inc=$tree/include/linux/kmirror
lib=$tree/lib/kmirror

# Drift check: every core source must be built by kernel/Kbuild.
for c in "$top"/core/*.c; do
	o=$(basename "$c" .c).o
	if ! grep -qw "$o" "$top/kernel/Kbuild"; then
		echo "install-core: kernel/Kbuild does not build $o" >&2
		exit 1
	fi
done

mkdir -p "$inc" "$lib/kunit/vectors"
cp "$top"/core/*.h "$top/kernel/kcompat.h" "$inc/"
cp "$top"/core/*.c "$lib/"
cp "$top/kernel/Kconfig" "$top/kernel/Kbuild" "$top/kernel/kmc_module.c" \
	"$lib/"
cp "$top"/kernel/kunit/*.[chS] "$top/kernel/kunit/Makefile" "$lib/kunit/"
cp "$top"/tests/vectors/*.vec "$lib/kunit/vectors/"
