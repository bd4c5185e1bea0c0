#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bench_scale_cull.sh: how fast kmirror-cachefs culls a large cache, with
# `find -delete` on the same cache as the anchor.
#
# A cache of N objects (KMIRROR_SCALE_N, default 100000; 4 KiB each, made by
# gen_cache) is mounted once to index it (the index file is then written
# at unmount), then mounted with -o size_limit at half its size: the
# housekeeper culls, least recently used first, from the index, until 7%
# of the cap is free again (cachefiles' default brun), about 53% of the
# objects.  Culls per second are counted from the statistics (rewritten
# once a second) until they stop.  Then `find cache -type f -delete`
# deletes the objects left, and its deletions per second are the anchor.
# Timings are reported, never judged.
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/../fuse/lib.sh"
: "${KMIRROR_GEN_CACHE:?set by tests/fuse/meson.build}"

N=${KMIRROR_SCALE_N:-100000}
src=$T/src mnt=$T/mnt cache=$T/cache
mkdir -p "$src" "$mnt"

now() { echo "$EPOCHREALTIME"; }
dt() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
rate() { awk -v n="$1" -v t="$2" 'BEGIN { printf "%.0f", (t > 0 ? n / t : 0) }'; }
vm() { awk -v k="$2:" '$1 == k { printf "%.1f", $2 / 1000 }' "/proc/$1/status"; }
objects() { find "$cache/cache" -mindepth 3 -type f | wc -l; }

"$KMIRROR_GEN_CACHE" "$cache" scale "$N" 2>"$T/gen.log" ||
	fail "gen_cache: $(cat "$T/gen.log")"
say "$(cat "$T/gen.log")"

cfs_mount "$src" "$mnt" "$cache" tag=scale
for ((i = 0; i < 1200; i++)); do
	case $(stat_get "$cache" index) in complete*) break ;; esac
	sleep 0.1
done
cfs_umount "$mnt"

cap=$((N * 4096 / 2))
t0=$(now)
cfs_mount "$src" "$mnt" "$cache" "tag=scale,size_limit=$cap"
pid=${DPID[$mnt]}
last=0 tlast=$t0 still=0
while ((still < 30)); do		# 3 s without a new cull: done
	sleep 0.1
	c=$(stat_get "$cache" culls)
	if [ "$c" != "$last" ]; then
		last=$c tlast=$(now) still=0
	else
		still=$((still + 1))
	fi
done
rss=$(vm "$pid" VmRSS) hwm=$(vm "$pid" VmHWM)
bytes=$(stat_get "$cache" cache_bytes)
cfs_umount "$mnt"
[ "$last" -gt 0 ] || fail "nothing was culled"
[ "$bytes" -le "$cap" ] || fail "still $bytes bytes cached over a cap of $cap"
cull_t=$(dt "$t0" "$tlast")
left=$(objects)

t1=$(now)
find "$cache/cache" -mindepth 3 -type f -delete
find_t=$(dt "$t1" "$(now)")

cull_r=$(rate "$last" "$cull_t")
find_r=$(rate "$left" "$find_t")
printf '# culling a cache of %s objects to a cap of half its size\n' "$N"
printf '%-28s %9s %8s %11s %7s\n' "" objects seconds "objects/s" ratio
printf '%-28s %9s %8s %11s %7s\n' "find -delete (anchor)" "$left" "$find_t" \
	"$find_r" 1.00
printf '%-28s %9s %8s %11s %7s\n' "kmirror-cachefs culling" "$last" \
	"$cull_t" "$cull_r" \
	"$(awk -v a="$cull_r" -v b="$find_r" 'BEGIN { printf "%.2f", a / b }')"
printf '# daemon memory while culling: VmRSS %s MB, VmHWM %s MB; %s bytes left\n' \
	"$rss" "$hwm" "$bytes"
