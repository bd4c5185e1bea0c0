# SPDX-License-Identifier: GPL-2.0-only
# A cache written on the host by libkmirror (kmirror cache put) for the
# 9p share: bind it and read every file once.  The host checks that the
# reads were served from it (the statistics, and a canary file whose
# cached bytes differ from the share's).
set -eu
. /jobs/lib.sh
bind_cache
read_share 1
show_stats
unbind_cache
