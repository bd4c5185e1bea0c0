#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A second daemon on a cache directory that a mounted daemon holds is
# refused at once with one line naming the holder, whatever the holder's
# -o fsname= (fstab lines and test harnesses set one: libfuse then mounts
# type "fuse", not "fuse.kmirror-cachefs"; `mount -o remount,ro` on such
# a mount runs a second daemon).  Waiting is only for a holder
# whose mount is already gone (it is sealing maps): once it exits, the
# next daemon mounts.
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/lib.sh"

src=$T/src mnt=$T/mnt cache=$T/cache
mkfile "$src/hello" 5000
quick=5		# seconds: "at once", with room for a loaded machine
[ "$VG" = 1 ] && quick=60

# refused_quickly WHAT OPTS: a daemon on $T/mnt2 with the cache held is
# refused within $quick seconds, naming the holder's pid and mount.
refused_quickly() {
	local t0 took saved=$mnt
	mkdir -p "$T/mnt2"
	mnt=$T/mnt2
	t0=$(date +%s%N)
	REFUSE_WAIT=$((quick * 4)) refused "$1" "in use by another" \
		"$src" "$T/mnt2" -f -o "cache=$cache,$2"
	took=$((($(date +%s%N) - t0) / 1000000))
	mnt=$saved
	[ "$took" -lt $((quick * 1000)) ] ||
		fail "$1: refused only after $took ms (waited for a live holder)"
	grep -q "pid ${DPID[$mnt]}, mounted on $mnt" "$T/err" ||
		fail "$1: the holder is not named: $(cat "$T/err")"
	ok "$1: refused in $took ms"
}

cfs_mount "$src" "$mnt" "$cache" "fsname=kmtest-holder"
type=$(awk -v m="$mnt" '$5 == m { sub(/.* - /, ""); print $1 }' \
	/proc/self/mountinfo)
say "the holder's mount type: $type"
refused_quickly "busy_cache_fsname" "fsname=kmtest-second"
refused_quickly "busy_cache_fsname_subtype" "subtype=other"
tm cmp "$src/hello" "$mnt/hello" || fail "the holder's mount broke"
cfs_umount "$mnt"

# An fstab-style mount (type fuse, fsname "PROGRAM#SOURCE"): mount(8)'s
# "-o remount,ro" runs a second daemon through mount.fuse3, which must be
# refused at once too.
if [ "$(id -u)" = 0 ] && command -v mount.fuse3 >/dev/null; then
	cfs_mount "$src" "$mnt" "$cache" "fsname=$KMIRROR_CACHEFS#$src"
	t0=$(date +%s%N)
	rc=0
	timeout -k 5 $((quick * 4)) mount -o "remount,ro,cache=$cache" "$mnt" \
		2>"$T/err" || rc=$?
	took=$((($(date +%s%N) - t0) / 1000000))
	if [ "$rc" = 124 ] || [ "$took" -ge $((quick * 1000)) ]; then
		fail "mount -o remount,ro took $took ms (exit $rc)"
	fi
	grep -q "in use by another" "$T/err" ||
		fail "mount -o remount,ro: $(cat "$T/err")"
	tm cmp "$src/hello" "$mnt/hello" || fail "the holder's mount broke"
	cfs_umount "$mnt"
	ok "busy_cache_remount: refused in $took ms: $(cat "$T/err")"
else
	say "busy_cache_remount: needs root and mount.fuse3, not run"
fi

cfs_mount "$src" "$T/mnt2" "$cache" "fsname=kmtest-second"
tm cmp "$src/hello" "$T/mnt2/hello" || fail "mount after the holder left"
cfs_umount "$T/mnt2"
ok "the cache is free again once the holder is unmounted"
