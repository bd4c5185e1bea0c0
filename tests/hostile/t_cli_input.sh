#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Attack: hostile input to the kmirror CLI.  A NUL byte cut a key short
# unseen; /dev/zero grew memory without bound (then exit 0) or never
# ended; `key cook` printed names no file can have; empty volume keys were
# taken; error messages sent the user's control characters to the
# terminal.  Every input has a documented bound (docs/cli.md, "Bounds")
# and gets one clean error line and exit 2 past it.
# shellcheck source=tests/hostile/cli_lib.sh
. "$(dirname "$0")/cli_lib.sh"

printf '0102\n01\000203\n' >"$T/nul"
km key cook <"$T/nul"
[[ $out != *$'\n'* ]] || fail "a key after a NUL byte was cooked: $out"
refused "a NUL byte in a key cook line"

KM_VMEM=262144 km key cook </dev/zero
refused "key cook from /dev/zero"
head -c 3000 /dev/zero | tr '\0' 'a' >"$T/long"
km key cook <"$T/long"
refused "a key cook line of 3000 bytes"

KM_VMEM=262144 km ptc replay /dev/zero
refused "ptc replay /dev/zero"
printf 'alloc 4096 0\nfree 4096 0\000 junk\n' >"$T/trace"
km ptc replay "$T/trace"
refused "a NUL byte in a trace line"

km key cook "$(printf 'ff%.0s' {1..200})"
[ -z "$out" ] || fail "key cook printed a name of $((${#out})) bytes"
refused "a 200-byte key whose cooked name exceeds NAME_MAX"
km key cook "$(printf 'ff%.0s' {1..120})"
[ "$rc" = 0 ] && [ "${#out}" -le 255 ] ||
	fail "a 120-byte key: exit $rc, name of ${#out} bytes"
ok "a 120-byte key cooks to a name of ${#out} bytes"

km volume hash ''
refused "volume hash of an empty key"
km cookie path '' 00112233
refused "cookie path with an empty volume key"
mkdir -p "$T/c"
echo data >"$T/data"
km cache put "$T/c" '' 0011 "$T/data"
refused "cache put with an empty volume key"

km key cook $'zz\033]0;owned\007'
refused "an escape sequence in a malformed key"
km key uncook $'S\033[2J'
refused "an escape sequence in an object name"
km volume hash "$(printf 'v%.0s' {1..300})"$'\033[31m'
refused "an escape sequence in an overlong volume key"

mkfifo "$T/fifo"
km cache put "$T/c" vol 0011 "$T/fifo"
refused "cache put of a FIFO nobody writes"
