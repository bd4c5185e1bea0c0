#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# kbuild.sh OUT FLAVOUR
#
# Build a Linux 6.1 bzImage for the QEMU guest under OUT (a build dir,
# never the repository).  FLAVOUR is one of
#   stock-gcc      the pristine Debian linux-source tree, GCC
#   patched-gcc    the tree with the kmirror core and kernel/patches, GCC
#   patched-llvm   the same, LLVM=1 (clang, lld, llvm-ar, ...): only the
#                  directories the series touches are compiled, no
#                  bzImage (clang proves the series compiles; linking
#                  and booting are the GCC kernels' to prove)
#   patched-debug  the patched tree, GCC, as distributions ship it:
#                  fscache, cachefiles, 9p, libceph, ceph and the core as
#                  modules (kmirror-modules.config), with lockdep, KASAN
#                  and the other checks of kmirror-debug.config; bzImage
#                  and the modules, installed under OBJ/modroot for the
#                  guest's initramfs
# The kernel's .config is `make tinyconfig` plus kernel/config/kmirror.config
# (and kmirror-patched.config for the patched tree, kmirror-modules.config
# and kmirror-debug.config for patched-debug); every option of the
# fragments (the last one's value, where two set an option) must survive
# olddefconfig.  Compilers go
# through ccache (KMIRROR_CCACHE_DIR, default ~/.cache/kmirror-ccache) so a
# warm rebuild takes a minute, not four.  Prints the bzImage path last
# (nothing for patched-llvm).
# KMIRROR_KERNEL_TREE builds that tree instead (a developer's git tree of
# the series), where it is.  The caller holds the kernel store's lock
# (kstore.sh).
set -eu
out=$(mkdir -p "$1" && cd "$1" && pwd)
flavour=$2
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)

case $flavour in
stock-gcc) tree=stock cc=gcc ;;
patched-gcc) tree=patched cc=gcc ;;
patched-llvm) tree=patched cc=clang ;;
patched-debug) tree=patched cc=gcc ;;
*) echo "kbuild: unknown flavour '$flavour'" >&2; exit 2 ;;
esac

# Every tree is built from one path, OUT/k/src: it is moved there for the
# build and back afterwards.  The stock and the patched tree then compile
# with the very same arguments (-I, -fmacro-prefix-map, the file names),
# so that ccache serves every file the series does not change from the
# stock build (its preprocessor mode: the configs differ only in options
# those files do not use).  A tree left there by a killed build goes home
# first.
at=$out/k/src
home_again() {
	if [ -d "$at" ] && [ -f "$out/k/home" ]; then
		mv "$at" "$(cat "$out/k/home")"
		rm -f "$out/k/home"
	fi
}
mkdir -p "$out/k"
home_again
if [ -n "${KMIRROR_KERNEL_TREE:-}" ]; then
	src=$KMIRROR_KERNEL_TREE
else
	src=$("$here/ktree.sh" "$out" "$tree")
	[ ! -e "$at" ] || { echo "kbuild: $at is in the way" >&2; exit 1; }
	(cd -P "$src" && pwd) >"$out/k/home"
	mv "$src" "$at"
	trap home_again EXIT
	trap 'exit 130' INT TERM HUP
	src=$at
fi
obj=$out/kbuild/$flavour
mkdir -p "$obj"

# The tree's own toolchain floor (scripts/min-tool-version.sh), checked
# before anything is built so that the message is ours and clear.
"$here/tool-floor.sh" "$src" "$cc"

export CCACHE_DIR=${KMIRROR_CCACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/kmirror-ccache}
# The base is the real path: make sees the trees through OUT's symlinks
# into the kernel store (kstore.sh) by their real paths.
CCACHE_BASEDIR=$(cd -P "$out/k/.." && pwd)
export CCACHE_BASEDIR CCACHE_NOHASHDIR=1 CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-4G}
# Reproducible version strings, so that ccache can hit on init/version.c,
# and a kernel relinked from the same sources is the same bzImage (the
# "#N" build count would change it), so its kept guest runs still hold.
export KBUILD_BUILD_TIMESTAMP='Thu Jan  1 00:00:00 UTC 2026'
export KBUILD_BUILD_USER=kmirror KBUILD_BUILD_HOST=kmirror
export KBUILD_BUILD_VERSION=1
if [ "$cc" = clang ]; then
	set -- LLVM=1 CC="ccache clang" HOSTCC="ccache clang"
else
	set -- CC="ccache gcc" HOSTCC="ccache gcc"
fi
jobs=$(nproc)

# Configure only when the fragment or the tree changed.
frags=$top/kernel/config/kmirror.config
[ "$tree" = stock ] || frags="$frags $top/kernel/config/kmirror-patched.config"
targets=bzImage
if [ "$flavour" = patched-debug ]; then
	frags="$frags $top/kernel/config/kmirror-modules.config"
	frags="$frags $top/kernel/config/kmirror-debug.config"
	targets="bzImage modules"
fi
if [ "$flavour" = patched-llvm ]; then
	targets=$(sed -n 's|^diff --git a/\(.*/\)[^/]*\.c b/.*|\1|p' \
		"$top"/kernel/patches/*.patch | LC_ALL=C sort -u)
fi
stamp=$obj/.kmirror-config
# shellcheck disable=SC2086
want="$(cat $frags) $(cat "$src/.kmirror-tree" 2>/dev/null || true)"
if [ ! -f "$obj/.config" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
	make -s -C "$src" O="$obj" "$@" tinyconfig >/dev/null
	# shellcheck disable=SC2086
	"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" \
		$frags >"$obj/merge.log" 2>&1
	make -s -C "$src" O="$obj" "$@" olddefconfig >/dev/null
	# What the fragments ask for, the last one winning, as merge_config.sh.
	# shellcheck disable=SC2086
	grep -h '^CONFIG_' $frags | awk -F= '{ v[$1] = $0; if (!($1 in o))
		o[$1] = n++ } END { for (k in v) print o[k], v[k] }' |
		sort -n | cut -d' ' -f2- >"$obj/want.config"
	"$here/check-config.sh" "$obj/want.config" "$obj/.config"
	printf '%s' "$want" >"$stamp"
fi

echo "kbuild: $flavour: make -j$jobs $targets in $obj" >&2
# shellcheck disable=SC2086
make -s -C "$src" O="$obj" "$@" -j"$jobs" $targets >&2
if [ "$flavour" = patched-debug ]; then
	# modpost has resolved every symbol; the modules must be there too.
	for m in fs/fscache/fscache fs/cachefiles/cachefiles fs/9p/9p \
		net/ceph/libceph fs/ceph/ceph lib/kmirror/kmirror; do
		[ -f "$obj/$m.ko" ] || {
			echo "kbuild: $flavour: no $m.ko" >&2
			exit 1
		}
	done
	rm -rf "$obj/modroot"
	make -s -C "$src" O="$obj" "$@" INSTALL_MOD_PATH="$obj/modroot" \
		INSTALL_MOD_STRIP=1 modules_install >&2
	# (build and source point into the tree, which the guest has not.)
	rm -f "$obj"/modroot/lib/modules/*/build "$obj"/modroot/lib/modules/*/source
fi
[ "$flavour" = patched-llvm ] || echo "$obj/arch/x86/boot/bzImage"
