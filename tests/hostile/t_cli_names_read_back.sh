#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Bug: what the CLI printed of a file name or key did not read back.
# Control characters went out as \xNN, but a backslash as itself, so the
# cooked names of the keys "]\" DEL and "]\\x7f" printed the same line.
# Now a backslash goes out as \\ wherever output names a file or a key
# (and in error messages, which echo them): every line below is decoded
# (\\ and \xNN, nothing else) and must give back the exact bytes.
# shellcheck source=tests/hostile/cli_lib.sh
. "$(dirname "$0")/cli_lib.sh"

# decode: stdin with \\ and \xNN undone, as hex; a backslash followed by
# anything else does not read back (exit 1).
decode() {
	python3 -c '
import re, sys
s = sys.stdin.buffer.read().rstrip(b"\n")
out, i = bytearray(), 0
while i < len(s):
    if s[i:i+2] == b"\\\\":
        out += b"\\"; i += 2
    elif re.match(rb"\\x[0-9a-f]{2}", s[i:i+4]):
        out.append(int(s[i+2:i+4], 16)); i += 4
    elif s[i:i+1] == b"\\":
        sys.exit("a lone backslash at byte %d" % i)
    else:
        out.append(s[i]); i += 1
print(out.hex())'
}

hex() { printf '%s' "$1" | od -An -tx1 | tr -d ' \n'; }

# cooked_reads_back KEYHEX: `key cook`, from argv and stdin, prints "D"
# and the key's bytes (both keys below are printable: D encoding).
cooked_reads_back() {
	km key cook "$1"
	[ "$rc" = 0 ] || fail "key cook $1: exit $rc: $err"
	[ "$(decode <<<"$out")" = "44$1" ] ||
		fail "key cook $1 printed '$out', which reads back as $(decode <<<"$out")"
	km key cook <<<"$1"
	[ "$(decode <<<"$out")" = "44$1" ] || fail "key cook < $1: '$out'"
	COOKED=$out
}

key_cook_backslash_del() {
	local a b
	cooked_reads_back 5d5c7f		# ] \ DEL
	a=$COOKED
	cooked_reads_back 5d5c5c783766		# ] \ \ x 7 f
	b=$COOKED
	[ "$a" != "$b" ] || fail "two keys, one printed name: $a"
	ok "key cook: '$a' and '$b'"
}

cookie_path_backslash() {
	km cookie path 'v\' 5d5c7f
	[ "$rc" = 0 ] || fail "cookie path: exit $rc: $err"
	[[ $(decode <<<"$out") == "$(hex 'cache/Iv\/@')"*"$(hex '/D]\')7f" ]] ||
		fail "cookie path printed '$out'"
	ok "cookie path: '$out'"
}

cache_ls_backslash() {
	local line
	printf 'data' >"$C/f"
	mkdir "$C/cache"
	km cache put "$C/cache" 'v\' 5d5c7f "$C/f"
	[ "$rc" = 0 ] || fail "cache put: exit $rc: $err"
	km cache ls "$C/cache"
	[ "$rc" = 0 ] || fail "cache ls: exit $rc: $err"
	read -ra line <<<"$out"
	[ "$(decode <<<"${line[0]}")" = "$(hex 'v\')" ] ||
		fail "cache ls volume '${line[0]}'"
	[[ $(decode <<<"${line[3]}") == "$(hex 'cache/Iv\/@')"*"$(hex '/D]\')7f" ]] ||
		fail "cache ls path '${line[3]}'"
	ok "cache ls: '$out'"
}

error_echo_backslash() {
	km key uncook 'S\x7f'
	refused "an uncook of 'S\\x7f'"
	[[ $err == "error: 'S\\\\x7f' "* ]] || fail "echoed as: $err"
}

attack key_cook_backslash_del
attack cookie_path_backslash
attack cache_ls_backslash
attack error_echo_backslash
finish
