# SPDX-License-Identifier: GPL-2.0-only
# cachefiles under 9p: bind the cache on /dev/vda, read every file of the
# share twice, the second time after a remount (so from the cache), print
# both passes' checksums and the fscache statistics, then unmount and
# unbind so that the host can read the cache image.
set -eu
. /jobs/lib.sh
bind_cache
read_share 1
read_share 2
show_stats
unbind_cache
