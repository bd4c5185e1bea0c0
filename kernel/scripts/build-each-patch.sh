#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# build-each-patch.sh OUT
#
# Maintainer check that the series bisects: build the kernel after every
# patch, as `git rebase -x` does, so that no step breaks the build.
#   1. format-series.sh OUT: the mails, the core inside "lib: add the
#      kmirror core", each one applying on its own;
#   2. a git tree of the stock 6.1 sources (OUT/steps/linux, hard links)
#      with the mails applied by `git am`;
#   3. `git rebase -x` over the series: after each patch, olddefconfig and
#      make in two object dirs (OUT/steps/obj-*), so that each step
#      rebuilds only what the patch touched:
#        modules  "allmodconfig-lite": tinyconfig plus kernel/config's
#                 kmirror.config, kmirror-patched.config and
#                 kmirror-modules.config (the core's users and the core
#                 itself as modules, the page-table check off); bzImage
#                 and modules
#        builtin  the patched QEMU kernel's config (all built in, the
#                 page-table check and the KUnit suites on); bzImage
# Options a step's tree does not have yet (KMIRROR_CORE before "lib: add
# the kmirror core") are dropped by olddefconfig, so no check-config
# here.  Prints one line per step with its build time; exits non-zero at
# the first step that does not build.
set -eu

# kmake OBJ ARGS...: make in the step's tree, into OBJ, through ccache.
kmake() {
	obj=$1
	shift
	make -s -C "$KMIRROR_STEP_TREE" O="$obj" CC="ccache gcc" \
		HOSTCC="ccache gcc" "$@"
}

# build_one OBJ TARGETS FRAGMENT...: configure and make one object dir.
build_one() {
	obj=$1 targets=$2
	shift 2
	mkdir -p "$obj"
	kmake "$obj" tinyconfig >/dev/null
	"$KMIRROR_STEP_TREE/scripts/kconfig/merge_config.sh" -m -O "$obj" \
		"$obj/.config" "$@" >"$obj/merge.log" 2>&1
	kmake "$obj" olddefconfig >/dev/null
	# shellcheck disable=SC2086
	kmake "$obj" -j"$(nproc)" $targets >"$obj/make.log" 2>&1 || {
		tail -n 30 "$obj/make.log"
		return 1
	}
}

# --step: what `git rebase -x` runs after each patch, in the tree.
if [ "${1:-}" = --step ]; then
	t0=$(date +%s)
	step=$(git log -1 --format=%s)
	cfg=$KMIRROR_STEP_CFG
	build_one "$KMIRROR_STEP_OUT/obj-modules" "bzImage modules" \
		"$cfg/kmirror.config" "$cfg/kmirror-patched.config" \
		"$cfg/kmirror-modules.config" &&
		build_one "$KMIRROR_STEP_OUT/obj-builtin" bzImage \
			"$cfg/kmirror.config" "$cfg/kmirror-patched.config" || {
		echo "build-each-patch: FAILED after: $step"
		exit 1
	}
	echo "build-each-patch: ok ($(($(date +%s) - t0)) s): $step"
	exit 0
fi

out=$(mkdir -p "$1" && cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/kstore.sh"
kstore_open "$out"
top=$(cd "$here/../.." && pwd)

"$here/format-series.sh" "$out" >"$out/format-series.log"
stock=$("$here/ktree.sh" "$out" stock)
tree=$out/steps/linux
rm -rf "$out/steps"
mkdir -p "$out/steps"
# Hard links where the store shares a filesystem with OUT, else a copy.
cp -al "$stock" "$tree" 2>/dev/null ||
	{ rm -rf "$tree"; cp -a "$stock" "$tree"; }
git_() {
	git -C "$tree" -c user.name=kmirror -c user.email=kmirror@lists.invalid \
		"$@"
}
git_ init -q
git_ add -A -f .
git_ commit -q -m "Linux 6.1 (Debian linux-source-6.1)"
git_ tag pristine
for m in "$out"/series/*.patch; do
	git_ am -q "$m"
done

export CCACHE_DIR=${KMIRROR_CCACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/kmirror-ccache}
export CCACHE_BASEDIR=$out CCACHE_NOHASHDIR=1
export KBUILD_BUILD_TIMESTAMP='Thu Jan  1 00:00:00 UTC 2026'
export KBUILD_BUILD_USER=kmirror KBUILD_BUILD_HOST=kmirror
export KMIRROR_STEP_TREE=$tree KMIRROR_STEP_OUT=$out/steps
export KMIRROR_STEP_CFG=$top/kernel/config
git_ rebase -q -f -x "$here/build-each-patch.sh --step" pristine
echo "build-each-patch: all $(ls "$out"/series/*.patch | wc -l) steps build"
