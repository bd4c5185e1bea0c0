#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# deps.sh [--demo] [extra-package...]
#
# Install the Debian 12 packages kmirror needs to build and test.  As root it
# runs apt-get; otherwise it prints the exact apt-get line and fails, so that
# nothing half-installed is ever mistaken for a working setup.
#
# --demo: only what fuse-demo/demo.sh needs (a compiler, meson, liburcu,
# libfuse3 and fusermount3, xz for the kernel-written cache it unpacks):
# no kernel source, QEMU, Ceph or test tools.
set -eu

KMIRROR_DEMO_PACKAGES="build-essential meson ninja-build pkg-config python3 \
liburcu-dev libfuse3-dev fuse3 xz-utils"
KMIRROR_PACKAGES="$KMIRROR_DEMO_PACKAGES \
clang lld llvm libclang-rt-14-dev \
libcmocka-dev valgrind attr \
linux-source-6.1 ccache rclone gnuplot-nox \
flex bison bc libelf-dev libssl-dev cpio kmod qemu-system-x86 busybox-static \
e2fsprogs libcap-dev sshfs openssh-server \
ceph-mon ceph-mgr ceph-osd ceph-mds ceph-fuse ceph-common uuid-runtime iproute2"

if [ "${1:-}" = --demo ]; then
	KMIRROR_PACKAGES=$KMIRROR_DEMO_PACKAGES
	shift
fi

missing=
for p in $KMIRROR_PACKAGES "$@"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
		grep -q '^install ok installed$' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

line="apt-get install -y --no-install-recommends$missing"
if [ "$(id -u)" -ne 0 ]; then
	echo "kmirror needs these Debian packages; run as root:" >&2
	echo "  apt-get update && $line" >&2
	exit 1
fi
echo "deps: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
