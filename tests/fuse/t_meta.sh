#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The metadata store (DIR/kmirror-meta; -o meta_timeout, negative_timeout):
#  - after a remount, ls -lR within meta_timeout makes no source call and
#    shows what the source shows; a name known absent is answered too
#  - within the timeouts, changes made behind the mount's back are not
#    seen (that is the policy); once they pass, they are
#  - changes made through the mount show at once, whatever the timeouts,
#    and the directory keeps its other stored names
#  - file data changed behind the back is never served stale: an open
#    checks the source
#  - a caller the source refuses is refused with the store's answers too,
#    also when the source closed a directory within meta_timeout
#  - a damaged store file: a warning, set aside, correct answers
#  - over a FUSE source too (flaky_source), a remount asks nothing;
#    offline, listings and names come from the store, also after a
#    remount with the source failing
#  - without either timeout there is no store, and a mount without it
#    empties an old one (it would not record that mount's changes)
# The kernel's own caches are off (attr_timeout=0, entry_timeout=0),
# except where said, so that every stat and lookup reaches the daemon.
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/lib.sh"

need_root "allow_other mounts and another user"
src=$T/src mnt=$T/mnt cache=$T/cache
base=allow_other,no_xattr,attr_timeout=0,entry_timeout=0
long=$base,meta_timeout=1h,negative_timeout=1h
short=$base,meta_timeout=1	# a store, asked again after 1 s
nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups)

for d in 1 2 3; do
	for f in 1 2 3 4; do
		mkfile "$src/d$d/f$f" $((d * 100 + f))
	done
done
echo old >"$src/data"
mkdir -m 0700 "$src/private"
echo secret >"$src/private/secret"
chmod 0711 "$T"

# lsr DIR: its tree as ls -lR shows it, from inside.
lsr() {
	(cd "$1" && tm ls -lR --time-style=+%s.%N .)
}

# same_lsr WHAT SUBDIR: the mount's listing of SUBDIR is the source's.
same_lsr() {
	lsr "$mnt/$2" >"$T/m.ls"
	lsr "$src/$2" >"$T/s.ls"
	diff "$T/s.ls" "$T/m.ls" >"$T/diff" ||
		fail "$1: the mount differs from the source: $(head -20 "$T/diff")"
}

absent() {
	! stat "$1" >/dev/null 2>&1
}

calls() {
	stats_fresh "$cache"
	stat_get "$cache" source_meta_calls
}

# ---- a remount lists from the store ----------------------------------
cfs_mount "$src" "$mnt" "$cache" "$long"
same_lsr "first mount" .
absent "$mnt/nope" || fail "nope exists"
cfs_umount "$mnt"
ls "$cache/kmirror-meta" | grep -q . || fail "no store files written"

cfs_mount "$src" "$mnt" "$cache" "$long"
c0=$(calls)
same_lsr "after a remount" .
absent "$mnt/nope" || fail "nope exists after a remount"
c1=$(calls)
[ "$c1" = "$c0" ] || fail "ls -lR after a remount made $((c1 - c0)) source calls"
[ "$(stat_get "$cache" meta_hits)" -gt 0 ] || fail "no meta_hits"
[ "$(stat_get "$cache" negative_hits)" -gt 0 ] || fail "no negative_hits"
ok "ls -lR after a remount: the source's listing, no source call"

# ---- no timeout, no store; and it forgets the old one ----------------
cfs_umount "$mnt"
cfs_mount "$src" "$mnt" "$cache" "$base"
rm "$mnt/d2/f4"
lsr "$mnt" >/dev/null
cfs_umount "$mnt"
[ -z "$(ls "$cache/kmirror-meta")" ] ||
	fail "a mount without the timeouts kept store files"
cfs_mount "$src" "$mnt" "$cache" "$long"
same_lsr "after a mount without the store" .
ok "without the timeouts no store; an old one is emptied, not served"
mkfile "$src/d2/f4" 204

# ---- within the timeouts the store answers ---------------------------
mkfile "$src/d1/behind" 10
echo x >"$src/nope"
lsr "$mnt/d1" | grep -q behind && fail "d1/behind seen within meta_timeout"
absent "$mnt/nope" || fail "nope seen within negative_timeout"
rm "$src/d3/f4"
cat "$mnt/d3/f4" >/dev/null 2>"$T/err" && fail "d3/f4 opened after its removal"
grep -q "No such file" "$T/err" || fail "d3/f4: $(cat "$T/err")"
ok "within the timeouts, changes behind the back are not asked for (an open is)"

# ---- data: checked at every open -------------------------------------
settle
[ "$(cat "$mnt/data")" = old ] || fail "data: not old"
echo "new, and longer" >"$src/data"
[ "$(cat "$mnt/data")" = "new, and longer" ] ||
	fail "stale data served: $(cat "$mnt/data")"
echo "NEW, AND LONGER" >"$src/data"
[ "$(cat "$mnt/data")" = "NEW, AND LONGER" ] ||
	fail "stale data of the same size served: $(cat "$mnt/data")"
[ "$(stat -c %s "$mnt/data")" = 16 ] || fail "stale size after an open"
ok "data changed behind the back: new bytes and size at the next open"

# ---- changes through the mount show at once --------------------------
absent "$mnt/d2/new" || fail "d2/new exists"
echo hi >"$mnt/d2/new"
[ "$(cat "$mnt/d2/new")" = hi ] || fail "created file"
echo more >>"$mnt/d2/new"
[ "$(stat -c %s "$mnt/d2/new")" = 8 ] || fail "size after an append"
rm "$mnt/d2/f1"
mv "$mnt/d2/f2" "$mnt/d3/moved"
mkdir "$mnt/d2/sub"
touch "$mnt/d2/sub/x"
rm "$mnt/d2/sub/x"
rmdir "$mnt/d2/sub"
mkdir "$mnt/d2/sub2"
chmod 0600 "$mnt/d2/f3"
ln "$mnt/d2/f3" "$mnt/d2/f3.link"
ln -s f4 "$mnt/d2/f4.sym"
truncate -s 3 "$mnt/d2/f4"
same_lsr "changes through the mount (d2)" d2
same_lsr "changes through the mount (d3)" d3
ok "create, append, unlink, rename, mkdir, rmdir, chmod, link, symlink, truncate: seen at once"

# The directory's new times are its own: its other names stay stored.
lsr "$mnt/d3" >/dev/null
echo hi >"$mnt/d3/kept"
stat "$mnt/d3" >/dev/null	# its times, from the source
c0=$(calls)
same_lsr "after a create through the mount (d3)" d3
c1=$(calls)
[ $((c1 - c0)) -le 4 ] ||
	fail "a create through the mount dropped d3's stored names: $((c1 - c0)) source calls"
ok "a change through the mount keeps the directory's other stored names"

# ---- a caller the source refuses -------------------------------------
"${nobody[@]}" ls "$mnt/d1" >/dev/null || fail "nobody cannot list d1"
"${nobody[@]}" ls "$mnt/private" >/dev/null 2>"$T/err" &&
	fail "nobody listed a 0700 directory of root"
grep -q "Permission denied" "$T/err" || fail "private: $(cat "$T/err")"
"${nobody[@]}" stat "$mnt/private/secret" >/dev/null 2>"$T/err" &&
	fail "nobody looked a name up in a 0700 directory of root"
grep -q "Permission denied" "$T/err" || fail "secret: $(cat "$T/err")"
# A directory closed at the source, behind the mount's back, within
# meta_timeout: the store still says 0755, the source says no.
chmod 0700 "$src/d1"
"${nobody[@]}" ls "$mnt/d1" >/dev/null 2>&1 &&
	fail "nobody listed d1, closed at the source"
"${nobody[@]}" stat "$mnt/d1/f2" >/dev/null 2>&1 &&
	fail "nobody looked up d1/f2, closed at the source"
chmod 0755 "$src/d1"
cfs_umount "$mnt"
ok "a caller the source refuses is refused, even within meta_timeout"

# ---- past the timeouts, the source is asked again --------------------
cfs_mount "$src" "$mnt" "$cache" "$base,meta_timeout=2,negative_timeout=1"
absent "$mnt/late" || fail "late exists"
lsr "$mnt/d3" >/dev/null
echo x >"$src/late"
mkfile "$src/d3/late2" 10
sleep 2.2
! absent "$mnt/late" || fail "late not seen after negative_timeout"
same_lsr "after meta_timeout" .
cfs_umount "$mnt"
ok "after the timeouts, changes behind the back are seen"

# ---- data again, with the kernel's caches on -------------------------
# The kernel keeps the size a stored lookup gave for attr_timeout: the
# open that finds the file changed must have it dropped before it reads.
kern=allow_other,no_xattr,meta_timeout=1h
cfs_mount "$src" "$mnt" "$cache" "$kern"
ls -lR "$mnt" >/dev/null
sleep 1.1
mkfile "$T/longer" 4000	# longer than the size the store holds
cp "$T/longer" "$src/d1/f1"
cmp "$T/longer" "$mnt/d1/f1" ||
	fail "stale bytes through the kernel's cached size of d1/f1"
cfs_umount "$mnt"
ok "the kernel's cached size from the store does not cut a changed file"

# ---- a damaged store -------------------------------------------------
cache2=$T/cache2
cfs_mount "$src" "$mnt" "$cache2" "$long"
lsr "$mnt" >/dev/null
cfs_umount "$mnt"
n=0
for f in "$cache2"/kmirror-meta/*; do
	# A byte flipped in the middle of each file.
	python3 - "$f" <<'PY'
import sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
b[len(b) // 2] ^= 0x55
open(p, "wb").write(b)
PY
	n=$((n + 1))
done
echo >>"$src/d1/f1"		# would be missed if the store were read
cfs_mount "$src" "$mnt" "$cache2" "$long"
same_lsr "damaged store" .
grep -q "is damaged or not this volume's" "$T/daemon.$NMOUNT.log" ||
	fail "no warning of a damaged store file"
bad=$(find "$cache2/kmirror-meta" -name '*.bad' | wc -l)
[ "$bad" -ge 1 ] || fail "no damaged file set aside"
cfs_umount "$mnt"
ok "$bad of $n store files damaged: warned, set aside, the source asked"

# ---- over a FUSE source (flaky_source) --------------------------------
[ -x "${KMIRROR_FLAKY:-}" ] || skip "flaky_source is not built"
ctl=$T/ctl flaky=$T/flaky cache3=$T/cache3 cache4=$T/cache4
echo ok >"$ctl"
rm "$src/d2/f4.sym"	# flaky_source has no readlink
bg_mount "$flaky" "$KMIRROR_FLAKY" "$ctl" "$src" "$flaky" -f

# Its listings give every name inode 0xffffffff (libfuse's high-level
# API): the attributes readdirplus learnt must still be kept.  The
# kernel's caches on: it looks nothing up again after readdirplus.
cfs_mount "$flaky" "$mnt" "$cache4" "$kern"
lsr "$mnt" >/dev/null
cfs_umount "$mnt"
cfs_mount "$flaky" "$mnt" "$cache4" "$kern"
cache=$cache4
c0=$(calls)
lsr "$mnt" >/dev/null
c1=$(calls)
[ "$c1" = "$c0" ] || fail "over flaky_source: $((c1 - c0)) source calls"
cfs_umount "$mnt"
ok "over a FUSE source too, a remount's ls -lR makes no source call"

# ---- offline: listings from the store --------------------------------
# go_offline N: the source fails; the mount is offline for the Nth time.
go_offline() {
	echo "fail ENOTCONN" >"$ctl"
	stat "$mnt/d1/nosuch" >/dev/null 2>&1 || true	# takes it offline
	wait_stat "$cache3" offline "$1"
}

# same_offline WHAT DIR: DIR's listing now is the one in $T/online.ls.
same_offline() {
	lsr "$2" >"$T/offline.ls" || fail "$1: no listing offline"
	diff "$T/online.ls" "$T/offline.ls" >"$T/diff" ||
		fail "$1: offline listing differs: $(head -20 "$T/diff")"
}

cfs_mount "$flaky" "$mnt" "$cache3" "$short"
lsr "$mnt" >"$T/online.ls"
go_offline 1
same_offline "same mount" "$mnt"
echo ok >"$ctl"
wait_stat "$cache3" offline_left 1
cfs_umount "$mnt"
ok "offline, a directory listed before is listed from the store"

# The daemon of a new mount has looked nothing up when the source fails:
# every name and listing offline is the store's, whatever its age.
cfs_mount "$flaky" "$mnt" "$cache3" "$short"
go_offline 1
same_offline "after a remount" "$mnt"
[ "$(stat -c %s "$mnt/d3/f2")" = "$(stat -c %s "$src/d3/f2")" ] ||
	fail "offline lookup after a remount: wrong size of d3/f2"
stat "$mnt/d3/never" >/dev/null 2>"$T/err" &&
	fail "a name never seen exists offline"
echo ok >"$ctl"
wait_stat "$cache3" offline_left 1
cfs_umount "$mnt"
ok "after a remount with the source failing, names and listings come from the store"
