#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Bug: a descriptor opened before a change behind the mount's back went on
# reading a torn mix: the kernel kept its page-cache copies of the pages it
# had read, and fetched the others anew.  When the daemon learns that a
# file changed, it now tells the kernel (fuse_lowlevel_notify_inval_inode)
# so that those copies go too: once the attributes time out, a read
# through the old descriptor sees the new file whole.
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/../fuse/lib.sh"
command -v python3 >/dev/null || skip "python3 missing"

src=$T/src mnt=$T/mnt cache=$T/cache
SIZE=$((4 << 20))
mkfile "$src/f" $SIZE
mkfile "$T/new" $SIZE
settle
cfs_mount "$src" "$mnt" "$cache"

# One descriptor: read the first half (now in the page cache), let the
# source change with the same size and mtime (only ctime tells, so the
# kernel's own mtime check cannot see it), wait, read all of it.  Print
# which MiB differ from the source's new bytes.
tm python3 - "$mnt/f" "$T/new" "$src/f" >"$T/torn" <<'PY' ||
import os, sys, time
mnt, new, src = sys.argv[1:4]
fd = os.open(mnt, os.O_RDONLY)
half = os.fstat(fd).st_size // 2
os.pread(fd, half, 0)
st = os.stat(src)
with open(new, "rb") as n, open(src, "r+b") as s:
    s.write(n.read())
os.utime(src, ns=(st.st_atime_ns, st.st_mtime_ns))	# only ctime tells
time.sleep(1.3)		# attr_timeout
data = b""
while len(data) < 2 * half:
    chunk = os.pread(fd, 1 << 20, len(data))
    if not chunk:
        break
    data += chunk
want = open(new, "rb").read()
bad = [i for i in range(0, len(want), 1 << 20) if data[i:i + (1 << 20)] != want[i:i + (1 << 20)]]
print(" ".join(str(i >> 20) for i in bad))
PY
	fail "the reader failed"
[ -z "$(cat "$T/torn")" ] ||
	fail "an old descriptor reads a torn mix: MiB $(cat "$T/torn") are the old bytes"
ok "an old descriptor reads the changed file whole"
stats_fresh "$cache"
[ "$(stat_get "$cache" invalidations)" -ge 1 ] || fail "no invalidation counted"
cfs_umount "$mnt"
