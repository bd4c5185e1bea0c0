#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# t_series.sh: the series as a deliverable (kernel/scripts/format-series.sh):
# git format-patch mails, core included, that apply to a clean 6.1 tree,
# give exactly the tree the QEMU kernels are built from, and pass the
# tree's checkpatch.pl --strict without errors or warnings.
. "$(dirname "$0")/lib.sh"
"$S/format-series.sh" "$K" || fail "the series is not clean"
