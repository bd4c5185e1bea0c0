#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Bug: open read the source's attributes before it took the file's I/O
# lock.  When a write through the mount ended in between, the cache's
# newer attributes looked like a change behind the mount's back: the
# cached data was thrown away and counted as an invalidation, thousands
# of times in a few seconds of opens, reads and fstats racing a writer.
# Changes made through the mount, and files nobody changes, must cause
# no invalidation at all; the data must still be right at the end.
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/../fuse/lib.sh"
command -v python3 >/dev/null || skip "python3 missing"

SECS=8
[ "$VG" = 1 ] && SECS=20
src=$T/src mnt=$T/mnt cache=$T/cache
mkfile "$src/quiet" $((4 << 20))
mkfile "$src/busy" $((1 << 20))
settle
cfs_mount "$src" "$mnt" "$cache"

tm python3 - "$mnt" "$SECS" <<'PY' || fail "the storm failed"
import os, sys, threading, time
mnt, secs = sys.argv[1], float(sys.argv[2])
stop = False

def reader(name, flags):		# open, fstat, read, fstat, close
    while not stop:
        fd = os.open(os.path.join(mnt, name), flags)
        os.fstat(fd)
        os.pread(fd, 65536, 0)
        os.fstat(fd)
        os.close(fd)

def held(name):				# one descriptor: read and fstat
    fd = os.open(os.path.join(mnt, name), os.O_RDONLY)
    n = 0
    while not stop:
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        os.pread(fd, 1 << 20, (n << 20) % os.fstat(fd).st_size)
        n += 1
    os.close(fd)

def writer(name):			# writes through the mount
    fd = os.open(os.path.join(mnt, name), os.O_RDWR)
    n = 0
    while not stop:
        os.pwrite(fd, bytes([n % 251]) * 4096, (n * 4096) % (1 << 20))
        n += 1
    os.close(fd)

ts = [threading.Thread(target=f, args=a) for f, a in (
    (reader, ("quiet", os.O_RDONLY)), (held, ("quiet",)),
    (writer, ("busy",)), (reader, ("busy", os.O_RDONLY)),
    (reader, ("busy", os.O_RDONLY)), (held, ("busy",)))]
for t in ts:
    t.start()
time.sleep(secs)
stop = True
for t in ts:
    t.join()
PY
stats_fresh "$cache"
inv=$(stat_get "$cache" invalidations)
[ "$inv" = 0 ] ||
	fail "$inv invalidations in ${SECS}s of reads, fstats and writes through the mount"
ok "no invalidation from ${SECS}s of opens, reads, fstats and writes through the mount"
drop_pages "$mnt/quiet" "$mnt/busy"
tm cmp "$src/quiet" "$mnt/quiet" || fail "quiet file differs"
tm cmp "$src/busy" "$mnt/busy" || fail "the written file differs"
cfs_umount "$mnt"
ok "the data is right afterwards"
