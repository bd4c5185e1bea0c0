#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Attack: a local user against a daemon run by root with allow_other.
# Before, any user read root's 0600 files through the mount, and files
# users made were root's, so a user could make a setuid-root program in
# the source.  Now the kernel checks every access with the caller's
# credentials (default_permissions), the daemon touches the source with
# the caller's fsuid, fsgid and supplementary groups, and the mount is
# nosuid,nodev unless "suid"/"dev" are asked for.  The second user is
# nobody (65534), through setpriv.
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/../fuse/lib.sh"
need_root "a second user through setpriv, allow_other"
command -v setpriv >/dev/null || skip "setpriv missing (Debian: util-linux)"

GRP=4242	# a supplementary group that only the test gives
chmod 0755 "$T"
src=$T/src mnt=$T/mnt cache=$T/cache
mkdir -p "$src/shared" "$src/private" "$src/grp"
chmod 1777 "$src/shared"
chmod 0700 "$src/private"
chown 0:$GRP "$src/grp"
chmod 0770 "$src/grp"
echo "root's secret" >"$src/secret"
chmod 0600 "$src/secret"
echo inside >"$src/private/f"
echo "root's shared" >"$src/shared/rootfile"
chmod 0666 "$src/shared/rootfile"
cfs_mount "$src" "$mnt" "$cache" allow_other

as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"; }
as_nobody_in_grp() { setpriv --reuid=65534 --regid=65534 --groups=$GRP -- "$@"; }

# denied WHAT CMD...: CMD, run by nobody, must fail.
denied() {
	local what=$1
	shift
	if as_nobody "$@" >"$T/out" 2>&1; then
		fail "nobody could $what: $(head -c 200 "$T/out")"
	fi
	ok "nobody cannot $what"
}

denied "read root's 0600 file" cat "$mnt/secret"
denied "read a file in root's 0700 directory" cat "$mnt/private/f"
denied "list root's 0700 directory" ls "$mnt/private"
denied "write root's 0600 file" sh -c "echo x >>'$mnt/secret'"
denied "chmod root's file" chmod 0666 "$mnt/secret"
denied "chown a file to itself" chown 65534 "$mnt/shared/rootfile"
denied "set root's file's times" touch -d @0 "$mnt/secret"
denied "delete root's file in a sticky directory" rm -f "$mnt/shared/rootfile"
denied "create in a directory of a group it is not in" \
	touch "$mnt/grp/not-mine"
grep -q "root's secret" "$src/secret" || fail "the secret changed"

# What a user makes is the user's, in the source too.
as_nobody sh -c "echo mine >'$mnt/shared/mine'" ||
	fail "nobody cannot create a file in a 1777 directory"
as_nobody mkdir "$mnt/shared/d"
as_nobody mkfifo "$mnt/shared/fifo"
as_nobody ln -s mine "$mnt/shared/link"
for f in mine d fifo link; do
	[ "$(stat -c %u:%g "$src/shared/$f")" = 65534:65534 ] ||
		fail "$f made by nobody belongs to $(stat -c %u:%g "$src/shared/$f") in the source"
done
ok "files, directories, FIFOs and symlinks made by a user are the user's"

# The setuid attack: chmod u+s on one's own file gives one's own uid.
as_nobody chmod 4755 "$mnt/shared/mine"
[ "$(stat -c %u "$src/shared/mine")" = 65534 ] ||
	fail "a setuid file made through the mount is not the user's"
ok "a user's setuid file is the user's own (not root's)"

# Supplementary groups are the caller's own.
as_nobody_in_grp touch "$mnt/grp/ours" ||
	fail "a member of group $GRP cannot create in its 0770 directory"
[ "$(stat -c %u "$src/grp/ours")" = 65534 ] || fail "grp/ours is not nobody's"
ok "a supplementary group of the caller counts"

opts=$(awk -v m="$mnt" '$5 == m { print $6 "," $NF }' /proc/self/mountinfo)
case ",$opts," in
*,nosuid,*) ;; *) fail "the mount is not nosuid: $opts" ;;
esac
case ",$opts," in
*,nodev,*) ;; *) fail "the mount is not nodev: $opts" ;;
esac
case ",$opts," in
*,default_permissions,*) ;; *) fail "no default_permissions: $opts" ;;
esac
ok "mounted nosuid,nodev,default_permissions ($opts)"
cfs_umount "$mnt"

# The opt-out is explicit.
cfs_mount "$src" "$mnt" "$cache" allow_other,suid,dev
opts=$(awk -v m="$mnt" '$5 == m { print $6 }' /proc/self/mountinfo)
case ",$opts," in
*,nosuid,* | *,nodev,*) fail "-o suid,dev did not take: $opts" ;;
esac
ok "-o suid,dev opts out ($opts)"
cfs_umount "$mnt"
