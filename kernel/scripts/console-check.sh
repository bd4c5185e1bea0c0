#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# console-check.sh LOG JOB
#
# The verdict on a guest console log: the job must have ended with rc=0,
# and the kernel must not have printed a BUG, WARNING, Oops, panic or
# lockdep splat anywhere.  Prints the offending lines and exits 1.
set -eu
log=$1 job=$2
bad=$(grep -n -E 'BUG:|kernel BUG at|WARNING:|Oops|Kernel panic|general protection fault|Call Trace:|UBSAN:|possible circular locking' "$log" | head -n 20 || true)
if [ -n "$bad" ]; then
	echo "console-check: the kernel complained ($log):"
	echo "$bad"
	exit 1
fi
if ! grep -q "^kmirror-guest: end $job rc=0" "$log"; then
	echo "console-check: job $job did not end with rc=0 ($log):"
	grep -E '^kmirror-guest:' "$log" || tail -n 20 "$log"
	exit 1
fi
