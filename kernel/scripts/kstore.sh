# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# kstore.sh: sourced, not run.  kstore_open OUT
#
# The kernel store: the unpacked 6.1 trees (src/), the kernel object dirs
# (kbuild/) and the build's fixed source path (k/) are kept between runs
# and between clones in $KMIRROR_KERNEL_STORE (default
# ~/.cache/kmirror-kernel), so that a fresh clone's kernels are an
# incremental make (about a minute with nothing changed) instead of an
# untar and a full build.  OUT/src, OUT/kbuild and OUT/k are symlinks into
# it; a build dir that already holds them as real directories keeps them
# (KMIRROR_KERNEL_STORE=none makes new ones real too).  Products a build
# dir's tests read (the bzImages, the initramfs, the logs) stay in OUT.
#
# kstore_open also takes the store's lock (fd 9, held until the caller
# exits): everything that builds, moves or reads the trees and object dirs
# (build-kernels.sh, format-series.sh, stack-report.sh,
# build-each-patch.sh) holds it, so that two build dirs never build or
# reshape the same tree at once.  Scripts they start inherit the lock.

# kstore_dir: the store's path, or "none".
kstore_dir() {
	ks_dir=${XDG_CACHE_HOME:-$HOME/.cache}/kmirror-kernel
	echo "${KMIRROR_KERNEL_STORE:-$ks_dir}"
}

kstore_open() {
	ks_out=$1
	ks_store=$(kstore_dir)
	if [ "$ks_store" = none ]; then
		ks_store=$ks_out
	else
		mkdir -p "$ks_store"
		for ks_d in src kbuild k; do
			[ -e "$ks_out/$ks_d" ] || [ -L "$ks_out/$ks_d" ] ||
				ln -s "$ks_store/$ks_d" "$ks_out/$ks_d"
			mkdir -p "$ks_store/$ks_d"
		done
	fi
	[ -z "${KMIRROR_KSTORE_LOCKED:-}" ] || return 0
	exec 9>"$ks_store/.lock"
	if ! flock -n 9; then
		echo "kstore: waiting for $ks_store (another build holds it)" >&2
		flock 9
	fi
	export KMIRROR_KSTORE_LOCKED=1
}
