#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Bug: `kmirror cache unpin DIR --gone` dropped every pin while the
# source was offline: a pin was taken for gone whenever its path could
# not be resolved, and offline every source call fails with EIO.  Now a
# pin is gone only when the source answered that its path names nothing
# (ENOENT, ENOTDIR) or another file; with the source offline the command
# fails and drops nothing, and one file's I/O error keeps that pin.
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/../fuse/lib.sh"

need_root "FUSE mounts of a FUSE source"
[ -x "${KMIRROR_FLAKY:-}" ] || skip "flaky_source is not built"

src=$T/src mnt=$T/mnt cache=$T/cache ctl=$T/ctl flaky=$T/flaky
K=$KMIRROR_CLI
for f in a b c; do
	mkfile "$src/d/$f" 10000
done
settle
echo ok >"$ctl"
bg_mount "$flaky" "$KMIRROR_FLAKY" "$ctl" "$src" "$flaky" -f
cfs_mount "$flaky" "$mnt" "$cache"
out=$(tm "$K" cache pin "$cache" "$mnt/d") || fail "pin: $out"
[ "$out" = "pinned 3 files" ] || fail "pin said: $out"

# pins_are WHAT PATHS...: the pins listed are exactly PATHS.
pins_are() {
	local what=$1
	shift
	tm "$K" cache pins "$cache" >"$T/pins" 2>"$T/err" ||
		fail "$what: pins failed: $(cat "$T/err")"
	[ "$(awk '{ print $3 }' "$T/pins" | sort | xargs)" = "$*" ] ||
		fail "$what: pins: $(tr '\n' ';' <"$T/pins"), want $*"
}

# The source fails as a whole: offline, nothing can be known.
echo "fail ENOTCONN" >"$ctl"
stat "$mnt/nosuch" 2>/dev/null && fail "a stat succeeded with the source failing"
wait_stat "$cache" offline 1
rc=0
tm "$K" cache unpin "$cache" --gone >"$T/out" 2>"$T/err" || rc=$?
[ "$rc" = 1 ] || fail "unpin --gone offline: exit $rc: $(cat "$T/out" "$T/err")"
grep -q "does not answer" "$T/err" || fail "offline: $(cat "$T/err")"
ok "unpin --gone offline: exit 1: $(cat "$T/err")"
echo ok >"$ctl"
wait_stat "$cache" offline_left 1
pins_are "after unpin --gone offline" d/a d/b d/c
ok "back online: all 3 pins kept"

# One file's I/O error (the source answers for the rest): that pin stays.
echo "fail EIO b" >"$ctl"
out=$(tm "$K" cache unpin "$cache" --gone 2>&1) || fail "unpin --gone: $out"
[ "$out" = "unpinned 0 gone pins" ] || fail "one file's EIO: $out"
echo ok >"$ctl"
pins_are "after one file's EIO" d/a d/b d/c
[ "$(stat_get "$cache" offline)" = 0 ] || fail "offline after one file's EIO"
ok "one file's EIO: its pin kept"

# Gone for sure: deleted, or a directory on its way replaced by a file.
rm "$src/d/a"
out=$(tm "$K" cache unpin "$cache" --gone 2>&1) || fail "unpin --gone: $out"
[ "$out" = "unpinned 1 gone pins" ] || fail "a deleted file: $out"
pins_are "after a deletion" d/b d/c
mv "$src/d" "$src/e"
echo x >"$src/d"
out=$(tm "$K" cache unpin "$cache" --gone 2>&1) || fail "unpin --gone: $out"
[ "$out" = "unpinned 2 gone pins" ] || fail "a directory replaced: $out"
pins_are "after the directory went"
ok "deleted files, and a directory replaced by a file: gone and dropped"
cfs_umount "$mnt"
