#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Attack (issue 11, item 11): hostile input to the kmirror CLI.  A NUL
# byte cut a key or a trace line short unseen; /dev/zero grew memory
# without bound (then exit 0) or never ended; `key cook` printed names no
# file can have; empty keys were taken; error messages sent the user's
# control characters to the terminal.  Every input has a documented bound
# (docs/cli.md, "Bounds") and gets one clean error line and exit 2 past
# it; what is echoed is printable UTF-8, the rest \xNN.
# shellcheck source=tests/hostile/cli_lib.sh
. "$(dirname "$0")/cli_lib.sh"

ff() { printf 'ff%.0s' $(seq "$1"); }	# $1 bytes of 0xff, as hex

nul_in_key_line() {
	printf '0102\n01\000203\n' >"$C/nul"
	km key cook <"$C/nul"
	[[ $out != *$'\n'* ]] || fail "a key after a NUL byte was cooked: $out"
	refused "a NUL byte in a key cook line"
}

empty_key_line() {
	km key cook <<<$'0102\n\n0304'
	[ "$out" = T201 ] || fail "lines around an empty one: '$out'"
	refused "an empty key cook line"
}

zero_to_key_cook() {
	KM_VMEM=262144 km key cook </dev/zero
	refused "key cook from /dev/zero"
}

long_key_line() {
	head -c 3000 /dev/zero | tr '\0' 'a' >"$C/long"
	km key cook <"$C/long"
	refused "a key cook line of 3000 bytes"
}

zero_to_ptc_replay() {
	KM_VMEM=262144 km ptc replay /dev/zero
	refused "ptc replay /dev/zero"
	KM_VMEM=262144 km ptc replay - </dev/zero
	refused "ptc replay - < /dev/zero"
}

nul_in_trace() {
	printf 'alloc 4096 0\nfree 4096 0\000 junk\n' >"$C/trace"
	km ptc replay "$C/trace"
	refused "a NUL byte in a trace line"
}

# 200 PUD mappings, 2 MiB of counters each: a 6 KiB trace wanting 400 MiB.
pud_flood() {
	local k
	for k in $(seq 1 200); do
		echo "set pud $((k * 262144)) anon ro"
	done >"$C/pud"
	KM_VMEM=1048576 km ptc replay "$C/pud"
	[[ $err == *"more than 256 MiB"* ]] || fail "no memory bound: exit $rc, $err"
	refused "a trace mapping 200 GiB (400 MiB of counters)"
}

overlong_cooked_name() {
	km key cook "$(ff 200)"
	[ -z "$out" ] || fail "key cook printed a name of ${#out} bytes"
	refused "key cook: a 200-byte key whose name exceeds NAME_MAX"
	km key cook <<<"$(ff 200)"
	refused "key cook stdin: a 200-byte key whose name exceeds NAME_MAX"
	km key cook "$(ff 120)"
	[ "$rc" = 0 ] && [ "${#out}" -le 255 ] ||
		fail "a 120-byte key: exit $rc, name of ${#out} bytes"
	ok "a 120-byte key cooks to a name of ${#out} bytes"
	km cookie path 9p,x "$(ff 200)"
	refused "cookie path: a 200-byte key whose name exceeds NAME_MAX"
	km key uncook "E0$(printf 'A%.0s' $(seq 300))"
	refused "key uncook: a name of 302 bytes"
}

overlong_put_key() {
	echo data >"$C/data"
	mkdir "$C/c"
	km cache put "$C/c" 9p,x "$(ff 200)" "$C/data"
	[ -z "$(ls -A "$C/c")" ] || fail "a refused key left $(find "$C/c" | head -n 3)"
	refused "cache put: a 200-byte key whose name exceeds NAME_MAX"
	km cache put "$C/c" "$(printf 'v%.0s' $(seq 255))" 01 "$C/data"
	[ -z "$(ls -A "$C/c")" ] || fail "a refused volume key left files"
	refused "cache put: a 255-byte volume key (no room for its 'I')"
}

empty_keys() {
	echo data >"$C/data"
	mkdir "$C/c"
	km volume hash ''
	refused "volume hash of an empty key"
	km cookie path '' 00112233
	refused "cookie path with an empty volume key"
	km cache put "$C/c" '' 0011 "$C/data"
	refused "cache put with an empty volume key"
	km key cook ''
	refused "key cook of an empty key"
	km cache put "$C/c" vol '' "$C/data"
	refused "cache put with an empty cookie key"
}

controls_in_errors() {
	km key cook $'zz\033]0;owned\007'
	refused "an escape sequence in a malformed key"
	km key uncook $'S\033[2J'
	refused "an escape sequence in an object name"
	km volume hash "$(printf 'v%.0s' $(seq 300))"$'\033[31m'
	refused "an escape sequence in an overlong volume key"
	km key cook $'zz\xc2\x9b31m\x9b\xff'
	refused "C1 controls and bytes that are not UTF-8 in a key"
	km cache stats $'/nonexistent/\033[2J\xc2\x9b'
	refused "an escape sequence in a cache directory"
	km ceph parse $'\xc2\x9b31m\033[2J:/'
	refused "C1 and C0 controls in a ceph source"
	km hash --salt $'\033[2J' 01
	refused "an escape sequence in a salt"
}

# shown WHAT: the last km call succeeded and its stdout is terminal-safe.
shown() {
	local why
	[ "$rc" = 0 ] || fail "$1: exit $rc ($err)"
	why=$(terminal_safe "$T/out" 2>&1) ||
		fail "$1: printed raw ($why): $(cat -A "$T/out")"
	ok "$1: $out"
}

# Output that echoes input: a D name with DEL (cachefiles' charmap lets
# 0x7f through), a volume key with an escape sequence in a path.
controls_in_output() {
	km key cook 7f41
	[ "$out" = 'D\x7fA' ] || fail "key cook 7f41: '$(cat -A "$T/out")'"
	shown "key cook: DEL in a D name"
	km cookie path $'v\033]0;owned\007\xc2\x9b' 01
	shown "cookie path: an escape sequence and C1 in the volume key"
}

# An object whose name holds an escape sequence: its error line is safe.
controls_in_ls_errors() {
	local fan=$C/ls/cache/I9p,x/@00
	mkdir -p "$fan"
	: >"$fan/"$'X\033]0;owned\007'
	km cache ls "$C/ls"
	[ "$rc" = 1 ] || fail "cache ls of a bad name: exit $rc ($err)"
	why=$(terminal_safe "$T/err" 2>&1) ||
		fail "cache ls error record raw ($why): $(cat -A "$T/err")"
	ok "cache ls: an object name with an escape sequence, escaped: $err"
}

bounds_past() {
	km hash "$(ff 1022)"
	refused "hash: a key of 1022 bytes"
	km cache put "$C" vol 01 "$C" --aux "$(ff 256)"
	refused "cache put: --aux of 256 bytes"
	km ceph parse "1.2.3.4:/$(printf 'p%.0s' $(seq 5000))"
	refused "ceph parse: a source of 5009 bytes"
}

attack nul_in_key_line
attack empty_key_line
attack zero_to_key_cook
attack long_key_line
attack zero_to_ptc_replay
attack nul_in_trace
attack pud_flood
attack overlong_cooked_name
attack overlong_put_key
attack empty_keys
attack controls_in_errors
attack controls_in_output
attack controls_in_ls_errors
attack bounds_past
finish
