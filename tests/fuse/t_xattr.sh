#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Extended attributes through the mount: by default user xattrs set
# through it land on the source file and read back through both; with
# -o no_xattr every xattr call fails with "Operation not supported" (the
# kernel stops asking: ls -l then costs no round trips for ACLs and
# labels), the source's xattrs are left alone, and ls -lR and the data
# are as the source's.
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/lib.sh"
command -v setfattr >/dev/null || skip "setfattr/getfattr missing (Debian: attr)"

src=$T/src mnt=$T/mnt cache=$T/cache
mkfile "$src/f" 300000
mkfile "$src/d/g" 5000
setfattr -n user.color -v blue "$src/f" 2>/dev/null ||
	skip "the source filesystem ($(stat -f -c %T "$src")) takes no user xattrs"
settle

getx() { getfattr --absolute-names --only-values -n "$2" "$1" 2>&1; }

cfs_mount "$src" "$mnt" "$cache"
[ "$(getx "$mnt/f" user.color)" = blue ] || fail "user.color through the mount: $(getx "$mnt/f" user.color)"
tm setfattr -n user.shape -v round "$mnt/f" || fail "setfattr through the mount"
[ "$(getx "$src/f" user.shape)" = round ] || fail "user.shape not on the source"
tm cmp "$src/f" "$mnt/f" || fail "f differs after an xattr change"
cfs_umount "$mnt"
ok "user xattrs pass through both ways"

cfs_mount "$src" "$mnt" "$cache" no_xattr
for op in "getfattr --absolute-names -n user.color" \
	  "getfattr --absolute-names -d" "setfattr -n user.x -v 1" \
	  "setfattr -x user.color"; do
	# shellcheck disable=SC2086 # op is words
	out=$(tm $op "$mnt/f" 2>&1) && fail "no_xattr: '$op' succeeded: $out"
	case $out in
	*"Operation not supported"*) ;;
	*) fail "no_xattr: '$op': $out" ;;
	esac
done
[ "$(getx "$src/f" user.color)" = blue ] || fail "no_xattr: the source's user.color changed"
getfattr -n user.x "$src/f" >/dev/null 2>&1 && fail "no_xattr: user.x reached the source"
diff <(cd "$src" && ls -lR --time-style=+%s) <(cd "$mnt" && tm ls -lR --time-style=+%s) >"$T/ls.diff" ||
	fail "no_xattr: ls -lR differs: $(head "$T/ls.diff")"
same_tree "$src" "$mnt" "no_xattr"
cfs_umount "$mnt"
ok "no_xattr: every xattr call refused, the source untouched, ls -lR and data as the source's"
