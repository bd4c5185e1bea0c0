#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# t_kunit.sh FLAVOUR: boot the patched kernel; the core's KUnit suites ran
# at boot from tests/vectors, and the series' vmalloc __GFP_NOFAIL suite.
# The console is parsed by the tree's own
# tools/testing/kunit/kunit.py; every suite of kernel/kunit must be there
# and pass, and the kernel must not complain (qemu-run.sh).  The run is
# kept and not booted again while its inputs stay the same (kept_key in
# lib.sh).
. "$(dirname "$0")/lib.sh"
flavour=$1
log=$K/kunit-$flavour.log
kept_key "$flavour" kunit
kept_restore "$log" || boot "$flavour" boot "$log"
kunit=$K/src/linux-6.1/tools/testing/kunit/kunit.py
python3 "$kunit" parse "$log" >"$T/parse" 2>&1 || {
	cat "$T/parse"
	fail "kunit.py parse: failures"
}
tail -n 3 "$T/parse"
# The core's suites, and the series' own (mm/vmalloc_kunit.c).  In
# patched-debug the core's suites run as kmirror_kunit.ko loads, after the
# built-in plan that kunit.py reads; there their "ok N SUITE" lines (which
# KUnit prints "not ok" when any case failed) are the check.
suites=vmalloc_nofail
for src in "$KMIRROR_SOURCE_ROOT"/kernel/kunit/*_kunit.c; do
	suite=$(sed -n 's/^\t\.name = "\(.*\)",$/\1/p' "$src")
	[ -n "$suite" ] || fail "no suite name in $src"
	suites="$suites $suite"
done
for suite in $suites; do
	tr -d '\r' <"$log" | grep -q "^ok [0-9]* $suite\$" ||
		fail "suite $suite did not pass"
	echo "ok suite $suite"
done
kept_keep "$log"
