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
#   lib/kmirror/kunit/       kernel/kunit/*.[ch] and the test vectors of
#                            tests/vectors as C headers (vec2c.py), the
#                            same files the cmocka suites include
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

mkdir -p "$inc" "$lib/kunit"
cp "$top"/core/*.h "$top/kernel/kcompat.h" "$inc/"
cp "$top"/core/*.c "$lib/"
cp "$top/kernel/Kconfig" "$top/kernel/Kbuild" "$top/kernel/kmc_module.c" \
	"$lib/"
cp "$top"/kernel/kunit/*.[ch] "$top/kernel/kunit/Makefile" "$lib/kunit/"
for v in "$top"/tests/vectors/*.vec; do
	name=$(basename "$v" .vec)
	python3 "$top/tests/tools/vec2c.py" "$name" "$v" "$lib/kunit/kmv_$name.h"
done
