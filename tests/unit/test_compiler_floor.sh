#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The kernel's toolchain floor (scripts/min-tool-version.sh since 5.17):
# configuring must fail with one clear message on GCC < 5.1 or Clang < 11,
# and go through at the floor itself.  TAP output.
set -u
src=${KMIRROR_SOURCE_ROOT:?}
fake=$src/tests/tools/fake-cc.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 bad=0

# check REALCC VERSION accept|refuse
check() {
	n=$((n + 1))
	out=$(CC=$fake FAKE_CC_REAL=$1 FAKE_CC_VERSION=$2 \
		meson setup "$tmp/b$n" "$src" -Dtests=disabled 2>&1)
	rc=$?
	if [ "$3" = refuse ]; then
		if [ $rc -ne 0 ] && echo "$out" | grep -q "kmirror needs $1 >= "; then
			echo "ok $n - $1 $2 refused"
			return
		fi
	elif [ $rc -eq 0 ]; then
		echo "ok $n - $1 $2 accepted"
		return
	fi
	bad=$((bad + 1))
	echo "not ok $n - $1 $2 should be $3d"
	echo "$out" | sed 's/^/# /' | tail -n 5
}

echo "1..6"
check gcc 4.8.5 refuse
check gcc 5.0.0 refuse
check gcc 5.1.0 accept
check clang 10.0.1 refuse
check clang 11.0.0 accept
check clang 14.0.6 accept
[ $bad -eq 0 ]
