#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# kmirror cache pin|unpin|pins|evict|warm|top against a mounted cache,
# through its control socket DIR/kmirror.sock:
#  - the socket is the daemon's, mode 0600, and another user is refused
#    even when the mode lets them connect; a path that leaves the source
#    (a raw request with "..", through a symlink, absolute) is refused
#  - files pinned before they are cached, then warmed, are read from the
#    cache; under -o size_limit, reading five times the cap through the
#    mount culls other files but never a pinned one
#  - evict refuses a pinned file and an open one, drops an unpinned one
#    at once (the next read comes from the source)
#  - pins outlive a remount; a damaged pins file is set aside with a
#    warning and the mount runs with none
#  - top shows the files just read, with their counters
#  - the pin of a deleted file is shown gone; unpin --gone drops it
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/lib.sh"

: "${KMIRROR_CLI:?KMIRROR_CLI is set by tests/fuse/meson.build}"
src=$T/src mnt=$T/mnt cache=$T/cache
K=$KMIRROR_CLI
KiB=1024
n=10
[ "$VG" = 1 ] && n=6
for f in p0 p1; do
	mkfile "$src/pinned/$f" $((512 * KiB))
done
for ((i = 0; i < n; i++)); do
	mkfile "$src/other/f$i" $((512 * KiB))
done
settle
cfs_mount "$src" "$mnt" "$cache" size_limit=2M

[ "$(stat -c %a "$cache/kmirror.sock")" = 600 ] ||
	fail "control socket mode $(stat -c %a "$cache/kmirror.sock"), not 600"
# Raw requests, as a hostile client would send them: up and out of the
# source, and through a symlink in the source that leads out of it.
ln -s /etc "$src/escape"
for p in ../src/other/f0 escape/passwd /etc/passwd; do
	out=$(python3 - "$cache/kmirror.sock" "$p" <<'PY'
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
s.sendall(b"pin\0" + sys.argv[2].encode() + b"\0")
s.shutdown(socket.SHUT_WR)
print(s.makefile().readline().strip())
PY
) || fail "raw request failed"
	case $out in
	"error "*) ;;
	*) fail "a path out of the source was taken ($p): $out" ;;
	esac
done
tm "$K" cache pin "$cache" "$src/other/f0" >/dev/null 2>"$T/err" &&
	fail "pin of a path outside the mount succeeded"
grep -q "not in the mount" "$T/err" || fail "outside path: $(cat "$T/err")"
# The daemon checks the peer, not only the socket's mode: opened to all,
# it still refuses another user.
if command -v setpriv >/dev/null; then
	chmod 0711 "$T" "$cache"
	chmod 0666 "$cache/kmirror.sock"
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$K" cache pins "$cache" >/dev/null 2>"$T/err" &&
		fail "another user was served"
	grep -q "only root and the daemon's user are served" "$T/err" ||
		fail "another user: $(cat "$T/err")"
	chmod 0700 "$T"
	chmod 0600 "$cache/kmirror.sock"
fi
ok "socket mode 0600, peers checked; paths out of the source or the mount refused"

out=$(tm "$K" cache pin "$cache" "$mnt/pinned") || fail "pin: $out"
[ "$out" = "pinned 2 files" ] || fail "pin said: $out"
tm "$K" cache pins "$cache" >"$T/pins" || fail "pins failed"
[ "$(sort "$T/pins" | tr '\n' ' ')" = "absent - pinned/p0 absent - pinned/p1 " ] ||
	fail "pins before warming: $(cat "$T/pins")"
out=$(tm "$K" cache warm "$cache" "$mnt/pinned" 2>"$T/progress") ||
	fail "warm: $out $(cat "$T/progress")"
# Bytes of a granule fetched for an earlier request count as from the
# cache: together, the two are what was read.
[[ $out =~ ^warmed\ 2\ files,\ 1048576\ bytes\ in\ .*:\ ([0-9]+)\ bytes\ from\ the\ source,\ ([0-9]+)\ from\ the\ cache$ ]] &&
	[ $((BASH_REMATCH[1] + BASH_REMATCH[2])) = 1048576 ] &&
	[ "${BASH_REMATCH[1]}" -gt 0 ] || fail "warm said: $out"
grep -q "warm: 1.0/1.0 MiB, 2/2 files" "$T/progress" ||
	fail "no progress line: $(cat "$T/progress")"
ok "pinned before caching, warmed: $out"

for ((i = 0; i < n; i++)); do
	tm cmp "$src/other/f$i" "$mnt/other/f$i" || fail "f$i differs"
done
STATS_WAIT=$((STATS_WAIT * 3))
wait_stat "$cache" culls 1
for f in p0 p1; do
	read_counting "$cache" "$src/pinned/$f" "$mnt/pinned/$f"
	[ "$FROM_SOURCE" = 0 ] ||
		fail "pinned $f was culled ($FROM_SOURCE bytes from the source)"
done
ok "$(stat_get "$cache" culls) culls under size_limit=2M, pinned files kept"

tm "$K" cache evict "$cache" "$mnt/pinned/p0" >/dev/null 2>"$T/err" &&
	fail "evict of a pinned file succeeded"
grep -q "pinned (unpin it first)" "$T/err" || fail "evict pinned: $(cat "$T/err")"
last=other/f$((n - 1))
exec 3<"$mnt/$last"
tm "$K" cache evict "$cache" "$mnt/$last" >/dev/null 2>"$T/err" &&
	fail "evict of an open file succeeded"
grep -q "in use" "$T/err" || fail "evict open: $(cat "$T/err")"
exec 3<&-
out=$(tm "$K" cache unpin "$cache" "$mnt/pinned/p0") || fail "unpin: $out"
[ "$out" = "unpinned 1 file" ] || fail "unpin said: $out"
out=$(tm "$K" cache evict "$cache" "$mnt/pinned/p0") || fail "evict: $out"
[ "$out" = "evicted 1 file" ] || fail "evict said: $out"
read_counting "$cache" "$src/pinned/p0" "$mnt/pinned/p0"
[ "$FROM_SOURCE" -gt 0 ] || fail "evicted p0 still read from the cache"
wait_stat "$cache" evictions 1
ok "evict: pinned and open files refused, an unpinned one dropped"

tm "$K" cache top "$cache" -n 1 -d 0.2 >"$T/top" || fail "top failed"
grep -q " /pinned/p0$" "$T/top" || fail "top lacks p0: $(cat "$T/top")"
grep -q "^reads/s: " "$T/top" || fail "top header: $(cat "$T/top")"
ok "top shows the files read"

# A pin follows the source inode: once its file is deleted (a new file may
# get the number), the pin is shown gone and unpin --gone drops it.
out=$(tm "$K" cache pin "$cache" "$mnt/other/f1") || fail "pin f1: $out"
rm "$src/other/f1"
tm "$K" cache pins "$cache" >"$T/pins" || fail "pins with a gone file"
grep -qx "gone - other/f1" "$T/pins" || fail "gone pin not shown: $(cat "$T/pins")"
out=$(tm "$K" cache unpin "$cache" --gone) || fail "unpin --gone: $out"
[ "$out" = "unpinned 1 gone pins" ] || fail "unpin --gone said: $out"
tm "$K" cache pins "$cache" >"$T/pins" || fail "pins after --gone"
[ "$(cut -d' ' -f1,3 "$T/pins")" = "cached pinned/p1" ] ||
	fail "pins after --gone: $(cat "$T/pins")"
ok "a deleted file's pin is shown gone and dropped by unpin --gone"

cfs_umount "$mnt"
cfs_mount "$src" "$mnt" "$cache" size_limit=2M
tm "$K" cache pins "$cache" >"$T/pins" || fail "pins after remount"
grep -q "^cached [0-9]* pinned/p1$" "$T/pins" && [ "$(wc -l <"$T/pins")" = 1 ] ||
	fail "pins after remount: $(cat "$T/pins")"
ok "pins outlive a remount"
cfs_umount "$mnt"

printf 'kmirror-pins 1\n\377\377garbage' >"$cache/kmirror-pins"
cfs_mount "$src" "$mnt" "$cache" size_limit=2M
grep -q "kmirror-pins is damaged" "$T/daemon.$NMOUNT.log" ||
	fail "no warning for a damaged pins file"
[ -f "$cache/kmirror-pins.bad" ] || fail "damaged pins file not set aside"
tm "$K" cache pins "$cache" >"$T/pins" || fail "pins after damage"
[ ! -s "$T/pins" ] || fail "pins made up: $(cat "$T/pins")"
tm cmp "$src/pinned/p1" "$mnt/pinned/p1" || fail "p1 after damage"
cfs_umount "$mnt"
tm "$K" cache pins "$cache" >/dev/null 2>"$T/err" &&
	fail "pins with nothing mounted succeeded"
grep -q "no kmirror-cachefs is mounted" "$T/err" ||
	fail "unmounted: $(cat "$T/err")"
ok "a damaged pins file is set aside; nothing mounted is said"
