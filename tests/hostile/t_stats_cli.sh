#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Attack: `kmirror cache stats DIR` run by root on a directory a user
# controls.  It followed a symlinked DIR/kmirror-stats (and printed
# /etc/shadow) and hung for ever on a FIFO.  Now it opens kmirror-stats
# relative to DIR without following a symlink or waiting on a FIFO, reads
# only a regular file of at most 1 MiB, and shows control characters as
# \xNN.
# shellcheck source=tests/hostile/cli_lib.sh
. "$(dirname "$0")/cli_lib.sh"

d=$T/cache
mkdir -p "$d"
echo "secret-$$-words" >"$T/secret"
chmod 0600 "$T/secret"

ln -s "$T/secret" "$d/kmirror-stats"
km cache stats "$d"
[[ $out$err != *secret-$$* ]] || fail "a symlinked kmirror-stats printed its target"
refused "kmirror-stats a symlink to a secret"
if [ "$(id -u)" = 0 ] && [ -r /etc/shadow ]; then
	ln -sf /etc/shadow "$d/kmirror-stats"
	km cache stats "$d"
	[ -z "$out" ] || fail "a symlink to /etc/shadow printed it"
	refused "kmirror-stats a symlink to /etc/shadow"
fi
rm -f "$d/kmirror-stats"

mkfifo "$d/kmirror-stats"
km cache stats "$d"
refused "kmirror-stats a FIFO nobody writes"
rm "$d/kmirror-stats"

mkdir "$d/kmirror-stats"
km cache stats "$d"
refused "kmirror-stats a directory"
rmdir "$d/kmirror-stats"

truncate -s 2G "$d/kmirror-stats"
km cache stats "$d"
refused "kmirror-stats of 2 GiB"

printf 'mounted: 1\nsource: /src/\033]0;owned\007x\n' >"$d/kmirror-stats"
km cache stats "$d"
[ "$rc" = 0 ] || fail "a good kmirror-stats: exit $rc ($err)"
LC_ALL=C grep -q $'\033' "$T/out" && fail "an escape sequence went to the terminal"
[[ $out == *'source: /src/\x1b]0;owned\x07x'* ]] ||
	fail "control characters not shown as \\xNN: $out"
ok "control characters in kmirror-stats shown as \\xNN"
