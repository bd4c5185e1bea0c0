#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# check_typecheck.sh KCOMPAT_DIR CC [ARGS...]: min(), max(), min3() and
# clamp() of a signed and an unsigned operand must not build with the
# userspace kcompat, as with the kernel's <linux/minmax.h>; the same
# calls on operands of one signedness must (TAP).  A failure counts only
# if it is the type check's (not -Wsign-compare's).
set -u
inc=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
fail=0

try() {	# try WANT NAME EXPR
	n=$((n + 1))
	{
		echo '#include "kcompat.h"'
		echo 'long f(int i, unsigned int u, long l, unsigned long ul, u8 c)'
		printf '{\n\treturn %s;\n}\n' "$3"
	} >"$tmp/t.c"
	# -Wsign-compare (of -Wextra) would fail them before the type check.
	flags=
	[ "$1" = builds ] || flags=-Wno-sign-compare
	# shellcheck disable=SC2086
	if $CC_ -O2 -Werror -Wall -Wextra -Wno-unused-parameter $flags \
		-D_GNU_SOURCE -I"$inc" -c "$tmp/t.c" -o "$tmp/t.o" \
		>"$tmp/log" 2>&1; then
		got=builds
	elif grep -q 'signedness error' "$tmp/log"; then
		got=fails
	else
		got="fails, but not on the type check"
	fi
	if [ "$got" = "$1" ]; then
		echo "ok $n - $2 $got"
	else
		echo "not ok $n - $2 $got"
		sed 's/^/# /' "$tmp/log"
		fail=1
	fi
}

CC_=$1
shift
case $# in 0) ;; *) CC_="$CC_ $*" ;; esac

echo "1..8"
try fails "min(int, unsigned int)" "min(i, u)"
try fails "max(unsigned long, long)" "max(ul, l)"
try fails "min3(int, unsigned int, int)" "min3(i, u, i)"
try fails "clamp(long, unsigned long, long)" "clamp(l, ul, l)"
try builds "min(int, long)" "min(i, l)"
try builds "min(unsigned int, unsigned long)" "min(u, ul)"
try builds "min(u8, unsigned int)" "min(c, u)"
try builds "min_t(int, unsigned int, int)" "min_t(int, u, i)"
exit $fail
