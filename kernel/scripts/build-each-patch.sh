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
#      `make bzImage modules` in one object dir (OUT/steps/obj), so each
#      step rebuilds only what the patch touched.
# The config is "allmodconfig-lite": tinyconfig plus kernel/config's
# kmirror.config, kmirror-patched.config and kmirror-modules.config (the
# core's users and the core itself as modules).  Options a step's tree
# does not have yet (KMIRROR_CORE before 0004) are dropped by
# olddefconfig, so no check-config here.  Prints one line per step with
# its build time; exits non-zero at the first step that does not build.
set -eu
out=$(mkdir -p "$1" && cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cfg=$top/kernel/config

"$here/format-series.sh" "$out" >"$out/format-series.log"
stock=$("$here/ktree.sh" "$out" stock)
tree=$out/steps/linux
obj=$out/steps/obj
rm -rf "$out/steps"
mkdir -p "$out/steps" "$obj"
cp -al "$stock" "$tree"
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

# The command `git rebase -x` runs after each patch.
cat >"$out/steps/build-step.sh" <<EOF
#!/bin/sh
set -eu
t0=\$(date +%s)
step=\$(git log -1 --format=%s)
make -s -C "$tree" O="$obj" CC="ccache gcc" HOSTCC="ccache gcc" \\
	tinyconfig >/dev/null
"$tree/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" \\
	"$cfg/kmirror.config" "$cfg/kmirror-patched.config" \\
	"$cfg/kmirror-modules.config" >"$obj/merge.log" 2>&1
make -s -C "$tree" O="$obj" CC="ccache gcc" HOSTCC="ccache gcc" \\
	olddefconfig >/dev/null
make -s -C "$tree" O="$obj" CC="ccache gcc" HOSTCC="ccache gcc" \\
	-j$(nproc) bzImage modules >"$obj/make.log" 2>&1 || {
	tail -n 30 "$obj/make.log"
	echo "build-each-patch: FAILED after: \$step"
	exit 1
}
echo "build-each-patch: ok (\$((\$(date +%s) - t0)) s): \$step"
EOF
chmod +x "$out/steps/build-step.sh"
git_ rebase -q -f -x "$out/steps/build-step.sh" pristine
echo "build-each-patch: all $(ls "$out"/series/*.patch | wc -l) steps build"
