#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# fake-cc.sh: a compiler that claims another version.
#
# Set FAKE_CC_REAL (gcc or clang) and FAKE_CC_VERSION (e.g. 4.8.5); every
# call goes to the real compiler, except the ones meson uses to learn the
# version, whose answers are rewritten.  Used by test_compiler_floor.sh.
set -eu
real=${FAKE_CC_REAL:?}
IFS=. read -r major minor patch <<V
$FAKE_CC_VERSION
V
case "$*" in
*-Wl,--version*)
	exec "$real" "$@" ;;
*-dM*)
	"$real" "$@" | sed \
		-e "s/^#define __GNUC__ .*/#define __GNUC__ $major/" \
		-e "s/^#define __GNUC_MINOR__ .*/#define __GNUC_MINOR__ $minor/" \
		-e "s/^#define __GNUC_PATCHLEVEL__ .*/#define __GNUC_PATCHLEVEL__ $patch/" \
		-e "s/^#define __clang_major__ .*/#define __clang_major__ $major/" \
		-e "s/^#define __clang_minor__ .*/#define __clang_minor__ $minor/" \
		-e "s/^#define __clang_patchlevel__ .*/#define __clang_patchlevel__ $patch/" \
		-e "s/^#define __clang_version__ .*/#define __clang_version__ \"$FAKE_CC_VERSION\"/"
	exit 0 ;;
--version)
	if [ "$real" = clang ]; then
		echo "clang version $FAKE_CC_VERSION"
		echo "Target: x86_64-pc-linux-gnu"
	else
		echo "gcc (GCC) $FAKE_CC_VERSION"
		echo "Copyright (C) Free Software Foundation, Inc."
	fi
	exit 0 ;;
-dumpversion)
	echo "$FAKE_CC_VERSION"
	exit 0 ;;
esac
exec "$real" "$@"
