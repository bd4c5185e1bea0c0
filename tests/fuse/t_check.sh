#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# kmirror cache check DIR [--repair] (userspace/cli/cmd_cache_check.c):
# a clean cache exits 0; a granule rotten behind the daemon's back (as in
# t_verify.sh: bytes flipped, mtime put back) is reported with its object
# and granule, exit 4; --repair unmounted clears the granule in the map
# (exit 1) and the next mounted read gets the source's bytes with no
# verify failure; mounted, --repair evicts the object through the daemon
# (exit 1), and an open object is left (exit 4).  A garbage sidecar and a
# truncated map are reported, without a crash; output is plain lines.
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/lib.sh"

src=$T/src mnt=$T/mnt cache=$T/cache
g=$((256 * 1024))
fsize=$((5 * g + 1234)) hsize=$((3 * g + 77))
mkfile "$src/f" "$fsize"
mkfile "$src/h" "$hsize"
settle

# The object of f (over 1000 KiB) or h (under), found by its size.
object() {
	find "$cache/cache" -type f -size "$1" | head -n 1
}
# The sidecar of h: 4 granules, 48 + 4 * 4 + 4 bytes (f's has 6).
sidecar_h() {
	find "$cache/kmirror-sums" -type f -size 68c | head -n 1
}

# rot OBJECT: flip 64 bytes in granule 2, size and mtime kept.
rot() {
	local mt
	mt=$(stat -c %.9Y "$1")
	head -c 64 /dev/urandom |
		dd of="$1" bs=1 seek=$((2 * g + 1000)) conv=notrunc status=none
	touch -m -d "@$mt" "$1"
}

# check [ARGS]: run the check (under memcheck too, with the daemon);
# RC, OUT (stdout) and ERR (stderr) set.
check() {
	local -a vg=()
	[ "$VG" = 1 ] && vg=(valgrind --error-exitcode=99 --leak-check=full
		--show-leak-kinds=all --errors-for-leak-kinds=all --quiet
		--log-file="$T/vg-check.log")
	RC=0
	tm "${vg[@]}" "$KMIRROR_CLI" cache check "$cache" "$@" >"$T/out" \
		2>"$T/err" || RC=$?
	OUT=$(cat "$T/out") ERR=$(cat "$T/err")
	[ "$RC" != 99 ] || fail "check $*: memcheck: $(cat "$T/vg-check.log")"
	grep -q "AddressSanitizer\|runtime error" "$T/err" &&
		fail "check $*: sanitizer report: $ERR"
	return 0
}

# A mounted read of f right, with no verify failure.
read_clean() {
	cfs_mount "$src" "$mnt" "$cache"
	read_counting "$cache" "$src/f" "$mnt/f"
	[ "$(stat_get "$cache" verify_failures)" = 0 ] ||
		fail "$1: verify failures on the next read"
	[ "$FROM_SOURCE" -gt 0 ] || fail "$1: nothing fetched again"
	cfs_umount "$mnt"
}

cfs_mount "$src" "$mnt" "$cache"
tm cat "$mnt/f" "$mnt/h" >/dev/null
cfs_umount "$mnt"
fobj=$(object +1000k) hobj=$(object -1000k)
[ -n "$fobj" ] && [ -n "$hobj" ] || fail "objects of f and h not found"
frel=${fobj#"$cache/"}

check
[ "$RC" = 0 ] || fail "clean cache: exit $RC: $OUT $ERR"
grep -q "^checked 2 objects, 10 granules.*2 clean, 0 damaged" <<<"$OUT" ||
	fail "clean cache: summary: $OUT"
grep -q $'\r\|\033' "$T/err" && fail "not a terminal, yet a redrawn bar"
grep -q "^check: .* 2/2 objects" <<<"$ERR" || fail "no plain progress line"
ok "clean cache: exit 0, plain progress lines"

rot "$fobj"
check
[ "$RC" = 4 ] || fail "rot, no --repair: exit $RC, not 4: $OUT"
grep -qx "$frel: granule 2: checksum mismatch" <<<"$OUT" ||
	fail "rot not reported as $frel granule 2: $OUT"
[ "$(grep -c mismatch <<<"$OUT")" = 1 ] || fail "more than the rot: $OUT"
check
[ "$RC" = 4 ] || fail "a check without --repair changed the cache"
ok "rot: $frel granule 2 reported, exit 4"

check --repair
[ "$RC" = 1 ] || fail "--repair unmounted: exit $RC, not 1: $OUT $ERR"
grep -q "$frel: repaired: damaged granules marked absent" <<<"$OUT" ||
	fail "--repair unmounted: $OUT"
check
[ "$RC" = 0 ] || fail "after --repair: exit $RC: $OUT"
read_clean "--repair unmounted"
ok "--repair unmounted: exit 1, then the source's bytes, no failure"

# Mounted: the check reads the files; the repair is the daemon's.
rot "$fobj"
cfs_mount "$src" "$mnt" "$cache"
exec 3<"$mnt/f"
check --repair
[ "$RC" = 4 ] || fail "mounted, open: exit $RC, not 4: $OUT"
grep -q "$frel: left: .*in use" <<<"$OUT" || fail "open object: $OUT"
exec 3<&-
check --repair
[ "$RC" = 1 ] || fail "--repair mounted: exit $RC, not 1: $OUT $ERR"
grep -q "$frel: repaired: evicted by the daemon" <<<"$OUT" ||
	fail "--repair mounted: $OUT"
[ -e "$fobj" ] && fail "--repair mounted: the object is still there"
read_counting "$cache" "$src/f" "$mnt/f"
[ "$(stat_get "$cache" verify_failures)" = 0 ] ||
	fail "--repair mounted: verify failures on the next read"
cfs_umount "$mnt"
ok "--repair mounted: evicted through the daemon (open: left, exit 4)"

# A garbage sidecar, a truncated map: reported, no crash.
fobj=$(object +1000k) hobj=$(object -1000k)
hrel=${hobj#"$cache/"}
sc=$(sidecar_h)
[ -n "$sc" ] || fail "no sidecar of h (4 granules) found"
head -c 100 /dev/urandom >"$sc"
setfattr -n user.kmirror.map.0 -v 0x0102 "$fobj"
check
[ "$RC" = 4 ] || fail "garbage sidecar, torn map: exit $RC: $OUT $ERR"
grep -q "$hrel: checksum sidecar does not parse" <<<"$OUT" ||
	fail "garbage sidecar not reported: $OUT"
frel=${fobj#"$cache/"}
grep -q "$frel: map xattrs that do not parse" <<<"$OUT" ||
	fail "truncated map not reported: $OUT"
check --repair
[ "$RC" = 1 ] || fail "--repair of both: exit $RC: $OUT $ERR"
check
[ "$RC" = 0 ] || fail "after --repair of both: exit $RC: $OUT"
read_clean "sidecar and map repaired"
ok "garbage sidecar and truncated map: reported, repaired, no crash"

# Hostile names in the cache: a sidecar that is a symlink to a file the
# check could read, or a FIFO (never opened blocking); a symlink planted
# as an object's fan-out directory.  Reported or skipped, never followed,
# no hang, nothing written through them.
printf 'precious\n' >"$T/victim"
cfs_mount "$src" "$mnt" "$cache"
tm cat "$mnt/h" >/dev/null
cfs_umount "$mnt"
sc=$(sidecar_h)
[ -n "$sc" ] || fail "no sidecar of h after the repairs"
cp "$sc" "$T/good-sidecar"
ln -sf "$T/good-sidecar" "$sc"
check --repair
grep -q "$hrel: checksum sidecar does not parse" <<<"$OUT" ||
	fail "symlinked sidecar not refused: $OUT"
[ -L "$sc" ] && fail "symlinked sidecar left in place by --repair"
cmp -s "$sc" "$T/good-sidecar" 2>/dev/null && fail "sidecar followed"
cfs_mount "$src" "$mnt" "$cache"
tm cat "$mnt/h" >/dev/null
cfs_umount "$mnt"
sc=$(sidecar_h)
rm -f "$sc"
mkfifo "$sc"
check
[ "$RC" = 4 ] || fail "FIFO sidecar: exit $RC: $OUT $ERR"
rm -f "$sc"
fan=$(dirname "$cache/$hrel")
mv "$fan" "$fan.real"
ln -s "$fan.real" "$fan"
ln -s "$T/victim" "$(dirname "$cache/$frel")/Tvictim,"
check --repair
[ "$RC" = 4 ] || fail "symlinks in the cache: exit $RC: $OUT $ERR"
grep -q "${hrel%/*}: cannot open fan-out" <<<"$OUT" ||
	fail "symlinked fan-out not reported: $OUT $ERR"
grep -q "Tvictim," <<<"$OUT" || fail "symlinked object not reported: $OUT"
[ "$(cat "$T/victim")" = precious ] || fail "wrote through a symlink"
ok "symlinked or FIFO sidecar, symlinked directory: refused, not followed"
