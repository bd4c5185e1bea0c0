#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The index across mounts (DIR/kmirror-index): written at a clean
# unmount and trusted at the next mount (no scan) while the cache is as
# it was; checked by a background scan when the cache changed behind its
# back or the daemon was killed; ignored with a warning, and the cache
# scanned, when it is damaged, truncated, not an index file or another
# cache's.  Whatever the index file says, every mount serves the source's
# bytes and counts the objects that are really there.
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/lib.sh"

src=$T/src mnt=$T/mnt cache=$T/cache
n=12
[ "$VG" = 1 ] && n=6
for ((i = 0; i < n; i++)); do
	mkfile "$src/f$i" $((100000 + i * 4099))
done
settle

# remount_check NAME WANT_STATE: mount; the index state as wanted and
# as many objects indexed as there are on disk; every byte as the
# source's; unmount.
remount_check() {
	local name=$1 want=$2 objs s o
	objs=$(on_disk)
	cfs_mount "$src" "$mnt" "$cache"
	s=$(index_wait "$cache")	# the same file's objects: nothing read yet
	o=$(stat_get "$cache" objects)
	[ "$s" = "$want" ] || fail "$name: index '$s', want '$want'"
	[ "$o" = "$objs" ] || fail "$name: $o objects indexed, $objs on disk"
	same_tree "$src" "$mnt" "$name"
	cfs_umount "$mnt"
}

# warned NAME TEXT: the last daemon's log says TEXT.
warned() {
	grep -q "$2" "$T/daemon.$NMOUNT.log" ||
		fail "$1: no warning '$2' in the log: $(cat "$T/daemon.$NMOUNT.log")"
}

on_disk() { find "$cache/cache" -mindepth 3 -type f | wc -l; }

cfs_mount "$src" "$mnt" "$cache"
same_tree "$src" "$mnt" "first mount"
s=$(index_wait "$cache")
[ "$s" = "complete (scanned)" ] || fail "first mount: index '$s'"
cfs_umount "$mnt"
[ -s "$cache/kmirror-index" ] || fail "no kmirror-index after a clean unmount"
ok "index_written_at_clean_unmount"

b0=$(stat_get "$cache" bytes_from_source)
remount_check index_trusted_when_unchanged "complete (index file)"
[ "$(stat_get "$cache" bytes_from_source)" = 0 ] ||
	fail "index_trusted_when_unchanged: read from the source (first: $b0)"
ok "index_trusted_when_unchanged: no scan, every file from the cache"

find "$cache/cache" -mindepth 3 -type f | head -2 | xargs rm -f
remount_check index_rechecked_after_objects_removed \
	"complete (index file, rechecked)"
ok "index_rechecked_after_objects_removed: the two removed are no longer indexed"

remount_check index_trusted_again "complete (index file)"
ok "index_trusted_again after the rescan's clean unmount"

cfs_mount "$src" "$mnt" "$cache"
same_tree "$src" "$mnt" "before kill -9"
index_wait "$cache" >/dev/null
cfs_kill9 "$mnt"
remount_check index_rechecked_after_kill9 \
	"complete (index file, rechecked)"
ok "index_rechecked_after_kill9"

# damage KIND: spoil the index file as KIND says.
damage() {
	local f=$cache/kmirror-index size
	size=$(stat -c %s "$f")
	case $1 in
	checksum) printf '\x5a' | dd of="$f" bs=1 seek=$((size - 3)) \
			conv=notrunc status=none ;;
	truncated) truncate -s $((size / 2)) "$f" ;;
	empty) : >"$f" ;;
	junk) head -c 5000 /dev/urandom >"$f" ;;
	header) printf '\xff\xff\xff\xff' | dd of="$f" bs=1 seek=32 \
			conv=notrunc status=none ;;
	symlink) rm -f "$f"; ln -s /etc/passwd "$f" ;;
	esac
}

kinds="checksum truncated empty junk header symlink"
[ "$VG" = 1 ] && kinds="checksum symlink"	# a mount takes seconds there
for kind in $kinds; do
	damage "$kind"
	remount_check "index_damaged_$kind" "complete (scanned)"
	warned "index_damaged_$kind" "ignoring kmirror-index"
	ok "index_damaged_$kind: warned, scanned, served right"
	[ -L "$cache/kmirror-index" ] && rm -f "$cache/kmirror-index"
done

# Another tool's objects (another volume, made behind the mount's back):
# the mount serves while the scan runs, and then indexes them too.
ours=$(on_disk)
foreign=$([ "$VG" = 1 ] && echo 2000 || echo 100000)
"$KMIRROR_GEN_CACHE" "$cache" other-tool "$foreign" 2>"$T/gen.log" ||
	fail "gen_cache: $(cat "$T/gen.log")"
cfs_mount "$src" "$mnt" "$cache"
s=$(stat_get "$cache" index)
same_tree "$src" "$mnt" "while the scan runs"
say "index at the first read: $s"
[ "$VG" = 1 ] || case $s in scanning*) ;; *)
	fail "index_scan_serves_meanwhile: the scan of $foreign objects was over before the first read ($s)" ;;
esac
s=$(index_wait "$cache")
o=$(stat_get "$cache" objects)
[ "$o" = $((ours + foreign)) ] ||
	fail "index_other_tools_objects: $o indexed, $((ours + foreign)) on disk"
cfs_umount "$mnt"
ok "index_scan_serves_meanwhile, index_other_tools_objects: $foreign more, $s"
rm -rf "$cache/cache/Iother-tool"

# A copy of the whole cache is another cache/ directory: its index file
# names the original one.
cp -a "$cache" "$T/copy"
rm -rf "$cache"
mv "$T/copy" "$cache"
remount_check index_of_another_cache "complete (scanned)"
warned index_of_another_cache "written for another cache directory"
ok "index_of_another_cache: warned, scanned, served right"
