#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Bug: a page of a shared mapping of a file opened O_APPEND, written back
# by the kernel, landed at the end of the source instead of at its offset
# (Linux's pwrite() ignores the offset on an O_APPEND descriptor, and the
# daemon opened the source O_APPEND).  Now the page lands in place, the
# size stays, appends with write() still append (also after the source
# grew behind the mount's back), and what the mount reads back after all
# of it is what the source holds.
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/../fuse/lib.sh"
command -v python3 >/dev/null || skip "python3 missing"

src=$T/src mnt=$T/mnt cache=$T/cache
mkfile "$src/f" 8192
cfs_mount "$src" "$mnt" "$cache"
tm cmp "$src/f" "$mnt/f" || fail "first read"

tm python3 - "$mnt/f" <<'PY' || fail "mmap write through the mount failed"
import mmap, os, sys
fd = os.open(sys.argv[1], os.O_RDWR | os.O_APPEND)
m = mmap.mmap(fd, 8192, mmap.MAP_SHARED)
m[100:105] = b"HELLO"
m.flush()
m.close()
os.close(fd)
PY
[ "$(stat -c %s "$src/f")" = 8192 ] ||
	fail "the source grew to $(stat -c %s "$src/f") bytes: the page was appended"
[ "$(dd if="$src/f" bs=1 skip=100 count=5 status=none)" = HELLO ] ||
	fail "the mapped write is not at offset 100 of the source"
ok "a shared mapping of an O_APPEND file writes in place"

printf 'tail1' >>"$mnt/f"
[ "$(tail -c 5 "$src/f")" = tail1 ] || fail "an append through the mount"
printf 'behind' >>"$src/f"
printf 'tail2' >>"$mnt/f"
[ "$(tail -c 11 "$src/f")" = behindtail2 ] ||
	fail "an append after the source grew behind the mount overwrote it"
ok "appends still append, also after the source grew behind the mount"

sleep 1.2	# attr_timeout
drop_pages "$mnt/f"
tm cmp "$src/f" "$mnt/f" || fail "the mount reads back other bytes"
cfs_umount "$mnt"
cfs_mount "$src" "$mnt" "$cache"
tm cmp "$src/f" "$mnt/f" || fail "after a remount the cache serves other bytes"
cfs_umount "$mnt"
ok "reads back what the source holds, before and after a remount"
