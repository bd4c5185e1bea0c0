#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Bug: the metadata store (-o meta_timeout) named a directory's file by
# its (volume, dev, ino) alone.  Once a private source directory was
# removed and a new public one got its inode number, a remount served
# the old directory's names, sizes and owners as the new one's, to any
# user.  Now a stored directory is served only while the source's
# directory is the one it was learnt from: same birth time (where the
# source gives one), ctime and mtime, under the same parent and name.
# The source is a loop-mounted ext4, which hands a freed inode number to
# the next directory made in the same group; the second user is nobody.
# Both a remount and one mount whose source changes behind its back are
# tried, and a file of the store's first format (which did not record
# which directory it was of) is removed, not served.
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/../fuse/lib.sh"
need_root "a loop-mounted ext4, another user"
command -v setpriv >/dev/null || skip "setpriv missing (Debian: util-linux)"
command -v python3 >/dev/null || skip "python3 missing (writes an old store file)"
# One block group (4 KiB blocks, 32 MiB): a freed number is reused first.
mount_loop_ext4 "$T/src" 32M -I 256 -b 4096 ||
	skip "cannot make a loop-mounted ext4 (mkfs.ext4, loop device)"

src=$T/src mnt=$T/mnt cache=$T/cache
opts=allow_other,no_xattr,attr_timeout=0,entry_timeout=0
opts=$opts,meta_timeout=1h,negative_timeout=1h
chmod 0711 "$T"
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"; }

# secret DIR: a private directory of root's with named files in it.
secret() {
	mkdir -m 0700 "$1"
	echo "the plan" >"$1/plan-$2"
	head -c 4321 /dev/zero >"$1/payroll-$2"
}

# reuse OLD NEW: remove OLD, make NEW with OLD's inode number: up to 64
# directories are made, 50 ms apart (the number is free once the daemon
# closed its descriptor of OLD), the one that got it kept.  SKIP if none.
reuse() {
	local ino i j
	ino=$(stat -c %i "$1")
	rm -rf "$1"
	for ((i = 0; i < 64; i++)); do
		mkdir -m 0755 "$2.$i"
		[ "$(stat -c %i "$2.$i")" = "$ino" ] && break
		sleep 0.05
	done
	[ "$i" -lt 64 ] ||
		skip "ext4 gave inode $ino to none of 64 new directories"
	for ((j = 0; j < i; j++)); do
		rmdir "$2.$j"
	done
	mv "$2.$i" "$2"
	echo "public" >"$2/readme"
	say "$2 has inode $ino, as $1 had"
}

# only_new WHAT DIR TAG: nobody lists DIR through the mount and sees
# its names on the source, and no name of the removed directory (made
# by secret ... TAG), nor looks one up; root neither.
only_new() {
	local d=$2
	as_nobody ls -la "$mnt/$d" >"$T/ls" 2>&1 ||
		fail "$1: nobody cannot list $d: $(cat "$T/ls")"
	if grep -E 'plan|payroll' "$T/ls"; then
		fail "$1: nobody sees the removed private directory's names in $d"
	fi
	grep -q readme "$T/ls" || fail "$1: $d lacks its own name: $(cat "$T/ls")"
	as_nobody stat "$mnt/$d/payroll-$3" >"$T/stat" 2>&1 &&
		fail "$1: nobody stats the removed $d/payroll-$3: $(cat "$T/stat")"
	grep -q "No such file" "$T/stat" || fail "$1: $(cat "$T/stat")"
	ls "$mnt/$d" >"$T/ls"
	grep -E 'plan|payroll' "$T/ls" &&
		fail "$1: root sees the removed directory's names in $d"
	ok "$1: another user sees only the new directory's names"
}

mkdir -m 0755 "$src/pub"
secret "$src/secret" a
cfs_mount "$src" "$mnt" "$cache" "$opts"
ls -la "$mnt/secret" >/dev/null	# stored
as_nobody ls "$mnt/secret" >/dev/null 2>&1 && fail "nobody lists secret"
cfs_umount "$mnt"
reuse "$src/secret" "$src/pub/d1"
cfs_mount "$src" "$mnt" "$cache" "$opts"
only_new "after a remount" pub/d1 a

# The same within one mount, once the kernel forgot the old directory
# (the daemon held it open: its number was not free before).
secret "$src/pub/hidden" b
ls -la "$mnt/pub/hidden" >/dev/null
mv "$src/pub/hidden" "$src/pub/hidden.gone"
echo 2 >/proc/sys/vm/drop_caches	# unused dentries and inodes
reuse "$src/pub/hidden.gone" "$src/pub/hidden"
only_new "behind a mount's back" pub/hidden b
cfs_umount "$mnt"

# A file of the first format (no record of which directory it was of),
# listing pub/d1 with a name it never had: removed, never served.
ino=$(stat -c %i "$src/pub/d1")
python3 - "$cache/kmirror-meta" "$ino" <<'PY'
import os, struct, sys, time
d, ino = sys.argv[1], int(sys.argv[2])
def crc32c(b):
    c = 0xffffffff
    for x in b:
        c ^= x
        for _ in range(8):
            c = (c >> 1) ^ (0x82f63b78 & -(c & 1))
    return c ^ 0xffffffff
f = sorted(os.listdir(d))[0]
raw = open(os.path.join(d, f), "rb").read()
vol = raw[17:17 + struct.unpack_from("<H", raw, 15)[0]]
now = time.time_ns()
b = b"kmirror-meta 1\n" + struct.pack("<H", len(vol)) + vol
b += struct.pack("<QQqI", 0, ino, now, 1)
b += bytes([len(b"payroll-v1")]) + b"payroll-v1" + struct.pack("<BBqQ", 0, 8, now, 99)
b += struct.pack("<I", crc32c(b))
name = "%s-%016x-%016x" % (f[:8], 0, ino)
open(os.path.join(d, name), "wb").write(b)
PY
cfs_mount "$src" "$mnt" "$cache" "$opts"
as_nobody ls "$mnt/pub/d1" >"$T/ls" || fail "nobody cannot list pub/d1"
grep -q payroll-v1 "$T/ls" && fail "a first-format file was served"
ls "$mnt/pub/d1" >"$T/ls"
grep -q payroll-v1 "$T/ls" && fail "a first-format file was served to root"
cfs_umount "$mnt"
grep -q "damaged" "$T/daemon.$NMOUNT.log" &&
	fail "a first-format file was taken as damaged: $(cat "$T/daemon.$NMOUNT.log")"
find "$cache/kmirror-meta" -name '*.bad' | grep -q . && fail "a file was set aside"
grep -l "^kmirror-meta 1" "$cache"/kmirror-meta/* && fail "a first-format file is left"
ok "a file of the first format is removed, not served"
