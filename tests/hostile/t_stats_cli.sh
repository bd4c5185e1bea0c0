#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Attack (issue 11, item 3): files planted where the kmirror CLI reads
# by name, for root to read.  `kmirror cache stats DIR` followed a
# symlinked DIR/kmirror-stats (and printed /etc/shadow) and hung for
# ever on a FIFO.  Now it opens kmirror-stats relative to DIR without
# following a symlink or waiting on a FIFO, reads only a regular file of
# at most 1 MiB, and shows control characters as \xNN.  The same classes
# of input (symlink, FIFO, device, directory) against `cache ls` (objects
# of the cache) and `cache put` (its FILE) are refused too.
# shellcheck source=tests/hostile/cli_lib.sh
. "$(dirname "$0")/cli_lib.sh"

SECRET="secret-$$-words"
echo "$SECRET" >"$T/secret"
chmod 0600 "$T/secret"
root() { [ "$(id -u)" = 0 ]; }

# The cache directory of a stats attack: $C/cache.
d=
stats_dir() {
	d=$C/cache
	mkdir -p "$d"
}

# stats_refused WHAT: cache stats on $d, refused, nothing of the secret.
stats_refused() {
	km cache stats "$d"
	[[ $out$err != *"$SECRET"* ]] || fail "$1: the secret was printed"
	[ -z "$out" ] || fail "$1: printed $(head -c 200 "$T/out" | cat -v)"
	refused "$1"
}

stats_symlink_secret() {
	stats_dir
	ln -s "$T/secret" "$d/kmirror-stats"
	stats_refused "kmirror-stats a symlink to a 0600 secret"
}

stats_symlink_shadow() {
	stats_dir
	root && [ -r /etc/shadow ] ||
		{ ok "kmirror-stats a symlink to /etc/shadow # SKIP not root"; return; }
	ln -s /etc/shadow "$d/kmirror-stats"
	km cache stats "$d"
	[ -z "$out" ] || fail "a symlink to /etc/shadow printed it"
	refused "kmirror-stats a symlink to /etc/shadow"
}

stats_fifo() {
	stats_dir
	mkfifo "$d/kmirror-stats"
	stats_refused "kmirror-stats a FIFO nobody writes"
}

stats_device() {
	stats_dir
	root || { ok "kmirror-stats a device node # SKIP not root"; return; }
	mknod "$d/kmirror-stats" c 1 5	# /dev/zero
	KM_VMEM=262144 stats_refused "kmirror-stats a /dev/zero device node"
}

stats_directory() {
	stats_dir
	mkdir "$d/kmirror-stats"
	stats_refused "kmirror-stats a directory"
}

stats_huge() {
	stats_dir
	truncate -s 2G "$d/kmirror-stats"
	KM_VMEM=262144 stats_refused "kmirror-stats of 2 GiB"
	truncate -s $((1024 * 1024 + 1)) "$d/kmirror-stats"
	stats_refused "kmirror-stats of 1 MiB and 1 byte"
	truncate -s $((1024 * 1024)) "$d/kmirror-stats"
	km cache stats "$d"
	[ "$rc" = 0 ] || fail "kmirror-stats of exactly 1 MiB: exit $rc ($err)"
	ok "kmirror-stats of exactly 1 MiB is read"
}

stats_controls() {
	stats_dir
	printf 'mounted: 1\nsource: /src/\033]0;owned\007x\302\233\377\000end\n' \
		>"$d/kmirror-stats"
	km cache stats "$d"
	[ "$rc" = 0 ] || fail "a good kmirror-stats: exit $rc ($err)"
	why=$(terminal_safe "$T/out" 2>&1) ||
		fail "kmirror-stats shown raw ($why): $(cat -A "$T/out")"
	[[ $out == *'source: /src/\x1b]0;owned\x07x\xc2\x9b\xff\x00end'* ]] ||
		fail "control characters, NUL or bad UTF-8 not shown as \\xNN: $out"
	ok "controls, C1, bad UTF-8 and NUL in kmirror-stats shown as \\xNN"
}

# A cache for ls whose one fan-out holds $1 under an object's name.
ls_cache() {
	local fan=$C/ls/cache/I9p,x/@00
	rm -rf "$C/ls"
	mkdir -p "$fan" "$C/ls/graveyard"
	setfattr -n user.CacheFiles.cache -v 0x00000000 "$C/ls/cache/I9p,x" \
		2>/dev/null || true
	echo "$fan/Dobj"
}

# ls_refused WHAT: cache ls lists no object, says why in one line, exit 1.
ls_refused() {
	km cache ls "$C/ls"
	[[ $out$err != *"$SECRET"* ]] || fail "$1: the secret was printed"
	[ "$rc" != 124 ] && [ "$rc" != 137 ] || fail "$1: still running after ${KM_TIMEOUT}s"
	[ "$rc" = 1 ] && [ -z "$out" ] && [[ $err == *"not a regular file"* ]] ||
		fail "$1: exit $rc, stdout '$out', stderr '$err'"
	ok "$1: $err"
}

ls_symlink() {
	ln -s "$T/secret" "$(ls_cache)"
	ls_refused "cache ls: an object that is a symlink to a secret"
}

ls_fifo() {
	mkfifo "$(ls_cache)"
	ls_refused "cache ls: an object that is a FIFO nobody writes"
}

ls_device() {
	root || { ok "cache ls: an object that is a device # SKIP not root"; return; }
	mknod "$(ls_cache)" c 1 5
	ls_refused "cache ls: an object that is a /dev/zero device node"
}

ls_symlinked_cache() {
	local o
	o=$(ls_cache)
	: >"$o"
	mv "$C/ls/cache" "$C/ls/real"
	ln -s real "$C/ls/cache"
	km cache ls "$C/ls"
	[ -z "$out" ] || fail "cache ls followed a symlinked cache/: $out"
	refused "cache ls: cache/ a symlink to another tree"
}

put_refused() {
	mkdir -p "$C/put"
	km cache put "$C/put" 9p,x 0102 "$1"
	[ -z "$(ls -A "$C/put")" ] || fail "$2: the cache was touched"
	refused "$2"
}

put_symlink() {
	ln -s "$T/secret" "$C/link"
	put_refused "$C/link" "cache put FILE a symlink to a secret"
}

put_fifo() {
	mkfifo "$C/fifo"
	put_refused "$C/fifo" "cache put FILE a FIFO nobody writes"
}

put_device() {
	KM_VMEM=262144 put_refused /dev/zero "cache put FILE /dev/zero"
}

put_directory() {
	put_refused "$C" "cache put FILE a directory"
}

attack stats_symlink_secret
attack stats_symlink_shadow
attack stats_fifo
attack stats_device
attack stats_directory
attack stats_huge
attack stats_controls
attack ls_symlink
attack ls_fifo
attack ls_device
attack ls_symlinked_cache
attack put_symlink
attack put_fifo
attack put_device
attack put_directory
finish
