#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Attack: names planted in a cache directory, by whoever can write it (a
# user's own cache that root then checks or mounts).  At every name the
# daemon or the CLI writes or reads there (lock, statistics and their
# spare and temporary, index, pins, checksum sidecars, metadata store
# files, their temporaries, the control socket, the objects, cache/
# itself) stands in turn a symlink to a canary file OUTSIDE the cache, a
# FIFO, and a hard link to that canary.  The daemon mounts, serves, pins
# and unmounts; the CLI runs stats, ls, check, check --repair and pins.
# Nothing may write the canary or create files beside it, nothing may
# hang (every command runs under a time bound), and what is refused says
# why in words.
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/../fuse/lib.sh"
need_root "hard links to another's file, files of other users"
OP_TIMEOUT=$([ "$VG" = 1 ] && echo 300 || echo 10)
KM_T=$([ "$VG" = 1 ] && echo 300 || echo 10)

src=$T/src mnt=$T/mnt out=$T/outside
mkdir -p "$src" "$mnt" "$out"
head -c 300000 /dev/urandom >"$src/hello"
printf 'precious\n' >"$out/canary"
canary_sum=$(sha256sum <"$out/canary")
settle

intact() {
	[ "$(sha256sum <"$out/canary")" = "$canary_sum" ] ||
		fail "$1: the canary outside the cache was written"
	[ "$(ls -A "$out")" = canary ] ||
		fail "$1: files made outside the cache: $(ls -A "$out")"
}

# km ARGS...: the CLI under a time bound (and memcheck, under valgrind);
# output in $kout, status $krc.
KM=("$KMIRROR_CLI")
[ "$VG" = 0 ] || KM=(valgrind --error-exitcode=99 --leak-check=full
		     --show-leak-kinds=all --errors-for-leak-kinds=all --quiet
		     "$KMIRROR_CLI")
km() {
	krc=0
	timeout -k 5 "$KM_T" "${KM[@]}" "$@" >"$T/km.out" 2>&1 || krc=$?
	kout=$(cat "$T/km.out")
	[ "$krc" != 124 ] && [ "$krc" != 137 ] || fail "kmirror $*: hangs"
	[ "$krc" != 99 ] || [ "$VG" = 0 ] || fail "kmirror $*: memcheck: $kout"
	! grep -q precious "$T/km.out" ||
		fail "kmirror $*: printed the canary's contents"
}

# plant KIND PATH: a symlink to the canary, a FIFO or a hard link to it.
plant() {
	rm -rf "$2"
	case $1 in
	symlink) ln -s "$out/canary" "$2" ;;
	fifo) mkfifo "$2" ;;
	hardlink) ln "$out/canary" "$2" ;;
	esac
}

# fresh: a new cache $cache of hello with sums, a metadata store and an
# index, as a mount leaves it (a copy would not do where sidecars count:
# they are bound to their object's inode).
n=0
fresh() {
	n=$((n + 1))
	cache=$T/c.$n
	cfs_mount "$src" "$mnt" "$cache" meta_timeout=60
	tm cmp "$src/hello" "$mnt/hello" || fail "first read"
	tm ls "$mnt" >/dev/null
	cfs_umount "$mnt"
}
fresh
base=$cache
obj=$(cd "$base" && find cache -type f -path '*/@*/*' | head -1)
sidecar=$(ls "$base/kmirror-sums")
metaf=$(ls "$base/kmirror-meta" | head -1)
[ -n "$obj" ] && [ -n "$sidecar" ] && [ -n "$metaf" ] ||
	fail "no object, sidecar or metadata file in the first cache"
copy() {
	n=$((n + 1))
	cache=$T/c.$n
	cp -a "$base" "$cache"
	# A copy's cache/ is another directory: its index would only warn.
	rm "$cache/kmirror-index"
}

# ---- directories the daemon refuses to use at all ---------------------
copy
rm -rf "$cache/cache"
ln -s "$out" "$cache/cache"
refused "cache/ is a symlink" "cache/.*symbolic link" \
	"$src" "$mnt" -o cache="$cache"
km cache ls "$cache"
[ "$krc" != 0 ] && grep -qi "cache' is a symbolic link" "$T/km.out" ||
	fail "cache ls of a symlinked cache/: $krc: $kout"
intact "symlinked cache/"
ok "a symlinked cache/ is refused as such by the daemon and cache ls"

copy
rm -rf "$cache/graveyard"
ln -s "$out" "$cache/graveyard"
refused "graveyard/ is a symlink" "graveyard/.*symbolic link" \
	"$src" "$mnt" -o cache="$cache"
copy
vol=$(dirname "$(dirname "$obj")")
rm -rf "${cache:?}/$vol"
ln -s "$out" "$cache/$vol"
refused "the volume is a symlink" "volume .*: it is a symbolic link" \
	"$src" "$mnt" -o cache="$cache"
for kind in symlink fifo hardlink; do
	copy
	plant $kind "$cache/kmirror.lock"
	refused "kmirror.lock: $kind" "kmirror.lock: it (is a symbolic|is not a regular|has more than one)" \
		"$src" "$mnt" -o cache="$cache"
	km cache check --repair "$cache"
	grep -q "kmirror.lock: it " "$T/km.out" ||
		fail "check --repair with a $kind kmirror.lock: $kout"
done
for d in kmirror-sums kmirror-meta; do
	for kind in symlink fifo; do
		copy
		rm -rf "${cache:?}/$d"
		if [ $kind = symlink ]; then ln -s "$out" "$cache/$d"; else mkfifo "$cache/$d"; fi
		refused "$d: $kind" "$d: it (is a symbolic link|is not a directory)" \
			"$src" "$mnt" -o cache="$cache,meta_timeout=60"
	done
done
copy
rm -rf "$cache/kmirror-sums"
ln -s "$out" "$cache/kmirror-sums"
km cache check "$cache"
[ "$krc" = 8 ] && grep -q "kmirror-sums: it is a symbolic link" "$T/km.out" ||
	fail "cache check with a symlinked kmirror-sums: $krc: $kout"
intact "directories"
ok "lock, cache/, graveyard/, kmirror-sums/, kmirror-meta/ planted: refused by name"

# ---- check --repair writes a sidecar: its temporary is planted --------
for kind in symlink fifo hardlink; do
	fresh
	# Damage one granule but keep size and mtime: the repair clears it
	# in the map and writes the sums anew (kmirror-sums/NAME.tmp).
	touch -r "$cache/$obj" "$T/ref"
	printf 'X' | dd of="$cache/$obj" bs=1 seek=1000 conv=notrunc status=none
	touch -r "$T/ref" "$cache/$obj"
	plant $kind "$cache/kmirror-sums/$sidecar.tmp"
	plant $kind "$cache/kmirror-index.tmp"
	km cache check --repair "$cache"
	[ "$krc" = 1 ] && grep -q "repaired" "$T/km.out" ||
		fail "check --repair with a $kind sidecar temporary: $krc: $kout"
	intact "check --repair, $kind at kmirror-sums/NAME.tmp"
	[ ! -e "$cache/kmirror-sums/$sidecar.tmp" ] ||
		fail "check --repair left $sidecar.tmp"
done
ok "check --repair: sidecar temporaries planted, nothing written through"

# ---- every other name, while mounted and not ---------------------------
names=(kmirror-stats kmirror-stats.tmp kmirror-stats.new kmirror-index
       kmirror-index.tmp kmirror-pins kmirror-pins.tmp kmirror.sock
       "kmirror-sums/$sidecar" "kmirror-sums/$sidecar.tmp"
       "kmirror-meta/$metaf" "kmirror-meta/$metaf.tmp" "$obj")
for kind in symlink fifo hardlink; do
	copy
	for name in "${names[@]}"; do
		plant $kind "$cache/$name"
	done
	# Readers, unmounted.
	km cache stats "$cache"
	[ "$krc" = 2 ] && grep -Eq "kmirror-stats'.*(symbolic link|not a regular file|more than one name)" "$T/km.out" ||
		fail "cache stats of a $kind kmirror-stats: $krc: $kout"
	km cache ls "$cache"
	[ $kind = hardlink ] && ! grep -q "hard link" "$T/km.out" &&
		fail "cache ls of a hard-linked object: $kout"
	km cache check "$cache"
	km cache pins "$cache"
	[ "$krc" != 0 ] || fail "cache pins of an unmounted cache: $kout"
	intact "CLI readers, $kind planted"
	# The daemon: mount, read, list, pin, unmount.
	cfs_mount "$src" "$mnt" "$cache" meta_timeout=60
	tm cmp "$src/hello" "$mnt/hello" || fail "read with $kind planted"
	tm ls "$mnt" >/dev/null || fail "ls with $kind planted"
	km cache pin "$cache" "$mnt/hello"
	[ "$krc" = 0 ] || fail "cache pin with $kind planted: $kout"
	km cache pins "$cache"
	grep -q hello "$T/km.out" || fail "cache pins with $kind planted: $kout"
	km cache stats "$cache"
	[ "$krc" = 0 ] || fail "cache stats, mounted, $kind planted: $kout"
	cfs_umount "$mnt"
	intact "the daemon, $kind planted"
	[ $kind = symlink ] || continue
	grep -q "ignoring kmirror-index: it is a symbolic link" "$T"/daemon.*.log ||
		fail "no word of the symlinked kmirror-index"
done
ok "stats, index, pins, sums, metadata, socket and object planted: nothing written through, no hang"
