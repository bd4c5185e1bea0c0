#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# t_cachefiles.sh: cachefiles bound on an ext4 virtio disk, a 9p share
# mounted with cache=fscache, in the stock and in the patched kernel, and
# in patched-debug (the same as modules, with lockdep and KASAN).
#  - both passes read exactly the share's bytes; the second pass (after a
#    remount) is read from the cache (fscache IO rd > 0);
#  - after unmount and unbind, the cache image is read on the host with
#    `kmirror cache ls`: every file of the share is an object, with its
#    inode as key and its size;
#  - each patched kernel's cache equals the stock kernel's, name for name
#    and xattr for xattr;
#  - /proc/fs/fscache/stats (printed by the core in the patched kernel)
#    has the stock kernel's lines and fields.
# A kernel's run (its console log and the cache image it wrote) is kept
# and not booted again while its inputs, the share among them, stay the
# same (kept_key and kept_share in lib.sh).
. "$(dirname "$0")/lib.sh"
share=$(kept_share)
share_sums "$share" >"$T/want"
for k in stock-gcc patched-gcc patched-debug; do
	booted=
	kept_key $k cachefiles "$T/want" "$T/share.list"
	if ! kept_restore "$K/cachefiles-$k.log" "$T/$k.img"; then
		python3 "$S/cache-image.py" make "$T/$k.img" 128
		boot "$k" cachefiles "$K/cachefiles-$k.log" -d "$T/$k.img" \
			-s "$share:src"
		booted=$k
	fi
	for pass in 1 2; do
		guest_sums "$K/cachefiles-$k.log" $pass >"$T/got"
		diff -u "$T/want" "$T/got" || fail "$k: pass $pass read wrong bytes"
	done
	stats_shape "$K/cachefiles-$k.log" >"$T/$k.stats"
	rd=$(stat_field "$K/cachefiles-$k.log" IO rd)
	[ "${rd:-0}" -gt 0 ] || fail "$k: fscache read nothing from the cache"
	echo "ok $k: both passes identical to the share, IO rd=$rd"
	cache_report "$T/$k.img" "$k"
	[ -z "$booted" ] || kept_keep "$K/cachefiles-$k.log" "$T/$k.img"
done

# Every file of the share, by inode and size, is an object.
(cd "$share" && find . -type f -printf '%i %s\n') | while read -r ino size; do
	key=$(python3 -c "import sys; print(int(sys.argv[1]).to_bytes(8, 'little').hex())" "$ino")
	grep -q "\"key\":\"$key\",\"object_size\":$size," "$T/patched-gcc.json" ||
		fail "no object for inode $ino ($size bytes)"
done || exit 1
n=$(wc -l <"$T/patched-gcc.json")
echo "ok kmirror cache ls: $n objects, one per file, keys and sizes right"

caches_equal stock-gcc patched-gcc
caches_equal stock-gcc patched-debug

for k in patched-gcc patched-debug; do
	diff -u "$T/stock-gcc.stats" "$T/$k.stats" ||
		fail "/proc/fs/fscache/stats differs in form between stock and $k"
done
grep -q '^IO     : rd=N wr=N$' "$T/patched-gcc.stats" ||
	fail "no IO line in the patched kernel's /proc/fs/fscache/stats"
echo "ok /proc/fs/fscache/stats: $(wc -l <"$T/stock-gcc.stats") lines, the same form in every kernel"
