#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# t_stack.sh: no function the series adds or changes has a stack frame over
# 256 bytes (kernel/scripts/stack-report.sh: the stock-gcc and patched-gcc
# builds' files compiled again with -fstack-usage); the report is printed.
. "$(dirname "$0")/lib.sh"
"$S/stack-report.sh" "$K" || fail "the series grew a stack frame past 256 bytes"
echo "ok: no stack frame the series touches is over 256 bytes"
