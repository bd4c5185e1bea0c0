#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Bug: a warning whose cause lasts repeated without end.  A failing index
# checkpoint (at a 128-descriptor limit: 31,235 identical lines in 2.5
# minutes) was tried again, and said so, at every round of the
# housekeeper; a rotten cache object printed a line per granule.  Now
# the checkpoint backs off (1 s, 2, 4, ... up to a minute), and every
# warning of the daemon goes through one rate limiter (kc_warn(): ten
# lines a minute per call site, then "N similar messages suppressed").
# The checkpoint is made to fail for good by a directory in the way of
# its temporary file; a file's 64 granules are rotted behind the
# daemon's back.
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/../fuse/lib.sh"

src=$T/src mnt=$T/mnt cache=$T/cache
G=4096 NG=64
mkfile "$src/f" $((G * NG))
mkfile "$src/g" 1000
settle
cfs_mount "$src" "$mnt" "$cache" "granule=4K"
tm cmp "$src/f" "$mnt/f" || fail "f read wrong"
cfs_umount "$mnt"
mkdir -p "$cache/kmirror-index.tmp/in-the-way"
cfs_mount "$src" "$mnt" "$cache" "granule=4K"
log=$T/daemon.$NMOUNT.log
index_wait "$cache" >/dev/null
tm cat "$mnt/g" >/dev/null	# the index changed: a checkpoint is due

# count: lines of the failing checkpoint so far.
count() { grep -c "cannot write kmirror-index" "$log" || true; }

# The first failure, then 8 s: tries at 0, 1, 3 and 7 s (it was one a
# second at least, and one each time new data woke the housekeeper).
for ((i = 0; i < 200 && $(count) == 0; i++)); do
	sleep 0.1
done
[ "$(count)" -gt 0 ] || fail "the checkpoint never failed (no warning)"
t0=$EPOCHREALTIME
while awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { exit !(b - a < 8) }'; do
	[ "$(count)" -le 4 ] ||
		fail "$(count) checkpoint warnings in $(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }') s"
	tm cat "$mnt/g" >/dev/null	# new data: the housekeeper wakes
	sleep 0.2
done
ok "$(count) checkpoint warnings in 8 s of failing"

# Every granule of f rotten (mtime kept, so the seal still holds): 64
# checksum mismatches, 10 lines of them.
obj=$(find "$cache/cache" -type f -size +200k | head -n 1)
[ -n "$obj" ] || fail "no object of f in $cache/cache"
cfs_umount "$mnt"
rmdir "$cache/kmirror-index.tmp/in-the-way" "$cache/kmirror-index.tmp"
mt=$(stat -c %.9Y "$obj")
python3 - "$obj" "$G" <<'PY'
import sys
with open(sys.argv[1], "r+b") as f:
    data = bytearray(f.read())
    for off in range(0, len(data), int(sys.argv[2])):
        data[off] ^= 0xff
    f.seek(0)
    f.write(data)
PY
touch -m -d "@$mt" "$obj"
cfs_mount "$src" "$mnt" "$cache" "granule=4K"
log=$T/daemon.$NMOUNT.log
drop_pages "$mnt/f"
tm cmp "$src/f" "$mnt/f" || fail "rotten f read wrong"
stats_fresh "$cache"
n=$(stat_get "$cache" verify_failures)
[ "$n" = "$NG" ] || fail "verify_failures $n, want $NG"
cfs_umount "$mnt"
lines=$(grep -c "^kmirror-cachefs: /.*: granule [0-9]*: checksum mismatch" "$log" ||
	true)
[ "$lines" -le 10 ] || fail "$lines checksum mismatch lines for $n failures"
grep -q "^kmirror-cachefs: $((NG - lines)) similar messages suppressed (the last: .*checksum mismatch" "$log" ||
	fail "no 'similar messages suppressed' line: $(grep -v mismatch "$log" | tail -n 5)"
ok "$n checksum failures: $lines lines, then '$(grep -o "[0-9]* similar messages suppressed" "$log")'"
