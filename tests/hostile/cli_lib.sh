# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# tests/hostile/cli_lib.sh: sourced by the hostile tests of the kmirror
# CLI (no mount needed).  A test is a list of attacks, each a function
# run by `attack FUNC` in a subshell of its own, so that every attack
# that gets through is named (on the old code as on the new), then
# `finish` exits 1 if any did.
#
# km CMD...: run kmirror with a time bound; its stdout in $out, stderr in
# $err, exit status in $rc (124: it hung).  With KM_VMEM=KiB set, it also
# runs under that address-space cap.  Under valgrind (meson test
# --setup=valgrind) the shell leaves memcheck and runs kmirror under it
# instead; memcheck errors are exit 99.
if [ -z "${KM_CLI_REEXEC:-}" ]; then
	case "${LD_PRELOAD:-}" in
	*vgpreload*)
		KM_CLI_REEXEC=1 KMIRROR_UNDER_VALGRIND=1 exec /bin/bash "$0" "$@"
		;;
	esac
fi
set -uo pipefail
: "${KMIRROR_CLI:?KMIRROR_CLI is set by tests/hostile/meson.build}"
command -v python3 >/dev/null || { echo "SKIP: python3 missing"; exit 77; }
TNAME=$(basename "$0" .sh)
VG=${KMIRROR_UNDER_VALGRIND:+1}
VG=${VG:-0}
KM=("$KMIRROR_CLI")
KM_TIMEOUT=10
if [ "$VG" = 1 ]; then
	KM=(valgrind --error-exitcode=99 --leak-check=full --show-leak-kinds=all
	    --errors-for-leak-kinds=all --quiet "$KMIRROR_CLI")
	KM_TIMEOUT=120
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/kmcli-$TNAME.XXXXXX")
trap 'rm -rf "$T"' EXIT
ATTACKS=0
GOT_THROUGH=()

ok() { echo "ok - $*"; }
fail() { echo "FAIL: $TNAME: $*"; exit 1; }
skip() { echo "SKIP: $TNAME: $*"; exit 77; }

# attack FUNC: run one attack in a subshell, with a fresh directory $C of
# its own; it fails by calling fail (which ends only that subshell).
attack() {
	ATTACKS=$((ATTACKS + 1))
	C=$T/$1
	mkdir "$C"
	("$1") || GOT_THROUGH+=("$1")
	rm -rf "$C"
}

finish() {
	[ ${#GOT_THROUGH[@]} = 0 ] || {
		echo "FAIL: $TNAME: ${#GOT_THROUGH[@]} of $ATTACKS attacks got through: ${GOT_THROUGH[*]}"
		exit 1
	}
	echo "ok - $TNAME: all $ATTACKS attacks refused"
	exit 0
}

# Can kmirror run in $1 KiB of address space at all?  Not under valgrind
# or AddressSanitizer, which reserve far more: there the time bound alone
# keeps what must stay bounded.
vmem_ok() {
	[ "$VG" = 0 ] &&
		bash -c 'ulimit -v "$0" && exec "$@"' "$1" "$KMIRROR_CLI" --help \
			>/dev/null 2>&1
}

km() {
	local -a cap=()
	rc=0
	[ -z "${KM_VMEM:-}" ] || ! vmem_ok "$KM_VMEM" ||
		cap=(bash -c 'ulimit -v "$0" && exec "$@"' "$KM_VMEM")
	timeout -k 5 "$KM_TIMEOUT" "${cap[@]}" "${KM[@]}" "$@" >"$T/out" \
		2>"$T/err" || rc=$?
	out=$(head -c 4096 "$T/out" | tr -d '\0')
	err=$(head -c 4096 "$T/err" | tr -d '\0')
	[ "$rc" != 99 ] || [ "$VG" != 1 ] || fail "memcheck: kmirror $*: $err"
}

# terminal_safe FILE: FILE is printable UTF-8 and newlines only: no C0 or
# C1 control character, no byte of no UTF-8 sequence, no NUL.
terminal_safe() {
	python3 - "$1" <<'EOF'
import sys
data = open(sys.argv[1], 'rb').read()
try:
    text = data.decode('utf-8')
except UnicodeDecodeError as e:
    sys.exit('not UTF-8 at byte %d' % e.start)
bad = [c for c in text if c != '\n' and (ord(c) < 0x20 or 0x7f <= ord(c) <= 0x9f)]
if bad:
    sys.exit('control characters %r' % bad[:4])
EOF
}

# refused WHAT: the last km call ended within its bound with exit 2 and
# one "error: " line on stderr that is safe on a terminal.
refused() {
	local why
	[ "$rc" != 124 ] && [ "$rc" != 137 ] || fail "$1: still running after ${KM_TIMEOUT}s"
	[ "$rc" = 2 ] || fail "$1: exit $rc, want 2 (stderr: $(cat -v "$T/err" | head -c 300))"
	[ "$(wc -l <"$T/err")" = 1 ] && [[ $err == error:* ]] ||
		fail "$1: not one error line: $(cat -A "$T/err" | head -n 3)"
	why=$(terminal_safe "$T/err" 2>&1) ||
		fail "$1: unsafe message ($why): $(cat -A "$T/err")"
	ok "$1: $err"
}
