#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Bug: at a low limit on open files the daemon failed with EMFILE: it
# keeps a descriptor per file the kernel has looked up and one per cache
# object used in the last seconds, so a tree bigger than the limit could
# not be read.  Now it raises its soft RLIMIT_NOFILE to the hard one at
# start, keeps cache objects open in a bounded LRU, and when the looked-up
# files near its budget it asks the kernel to forget the least recently
# looked-up ones (their descriptors close on the kernel's forget).  A tree
# of NFILES files read, listed and read again under a hard limit of 128.
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/../fuse/lib.sh"
command -v prlimit >/dev/null || skip "prlimit missing (Debian: util-linux)"

NFILES=600 LIMIT=128
[ "$VG" = 1 ] && NFILES=300 LIMIT=256	# valgrind keeps descriptors too
src=$T/src mnt=$T/mnt cache=$T/cache
for ((i = 0; i < NFILES; i++)); do
	mkfile "$src/d$((i % 20))/f$i" $((4096 + i))
done
settle

# The soft limit goes up to the hard one.  (valgrind applies a client's
# setrlimit() to its own bookkeeping only: it starts with both equal.)
CFS_WRAP="prlimit --nofile=64:$LIMIT --"
[ "$VG" = 1 ] && CFS_WRAP="prlimit --nofile=$LIMIT:$LIMIT --"
cfs_mount "$src" "$mnt" "$cache"
if [ "$VG" = 1 ]; then
	# valgrind emulates setrlimit and keeps descriptors of its own.
	say "under valgrind: the daemon's own limits are valgrind's to show"
else
	soft=$(awk '/^Max open files/ { print $4 }' "/proc/${DPID[$mnt]}/limits")
	[ "$soft" = "$LIMIT" ] ||
		fail "soft RLIMIT_NOFILE stayed at $soft (hard $LIMIT)"
	ok "soft RLIMIT_NOFILE raised to the hard limit ($LIMIT)"
fi

tm find "$mnt" -type f -exec cat {} + >/dev/null 2>"$T/err" ||
	fail "reading $NFILES files under a limit of $LIMIT: $(sort -u "$T/err" | head -n 3)"
same_tree "$src" "$mnt" "under a limit of $LIMIT descriptors"
tm ls -lR "$mnt" >/dev/null 2>"$T/err" || fail "ls -lR: $(head -n 3 "$T/err")"
ok "$NFILES files read, compared and listed under a limit of $LIMIT"

# Files held open stay readable while others come and go.
for ((i = 0; i < 16; i++)); do
	exec {fd}<"$mnt/d$i/f$i"
	held[i]=$fd
done
tm find "$mnt" -type f -exec cat {} + >/dev/null 2>"$T/err" || {
	ls -l "/proc/${DPID[$mnt]}/fd" | awk '{ print $NF }' |
		sed 's|/[^/]*$||' | sort | uniq -c | sort -rn | head
	fail "reading with 16 files held open: $(sort -u "$T/err" | head -n 3)"
}
for ((i = 0; i < 16; i++)); do
	cmp "$src/d$i/f$i" "/dev/fd/${held[i]}" || fail "held file $i"
	exec {held[i]}<&-
done
ok "files held open stay readable while $NFILES others are read"
stats_fresh "$cache"
[ "$(stat_get "$cache" hits)" -gt 0 ] || fail "nothing was read from the cache"
cfs_umount "$mnt"
