#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# t_stack.sh: no function the series adds or changes has a stack frame over
# 256 bytes (kernel/scripts/stack-report.sh: the stock-gcc and patched-gcc
# builds' files compiled again with -fstack-usage); the report is printed.
# A report that passed is kept and not made again while the sources it
# reads (kernel/, core/, the KUnit vectors), the tools and the installed
# linux-source stay the same (kept_source_key in lib.sh).
. "$(dirname "$0")/lib.sh"
kept_source_key stack kernel core tests/vectors
if ! kept_restore "$T/report"; then
	"$S/stack-report.sh" "$K" >"$T/report" 2>&1 || {
		cat "$T/report"
		fail "the series grew a stack frame past 256 bytes"
	}
	kept_keep "$T/report"
fi
cat "$T/report"
echo "ok: no stack frame the series touches is over 256 bytes"
