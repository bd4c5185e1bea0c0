# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# tests/hostile/cli_lib.sh: sourced by the hostile tests of the kmirror
# CLI (no mount needed).  km CMD...: run kmirror with a time bound; its
# stdout in $out, stderr in $err, exit status in $rc (124: it hung).
# Under valgrind (meson test --setup=valgrind) the shell leaves memcheck
# and runs kmirror under it instead; memcheck errors are exit 99.
if [ -z "${KM_CLI_REEXEC:-}" ]; then
	case "${LD_PRELOAD:-}" in
	*vgpreload*)
		KM_CLI_REEXEC=1 KMIRROR_UNDER_VALGRIND=1 exec /bin/bash "$0" "$@"
		;;
	esac
fi
set -uo pipefail
: "${KMIRROR_CLI:?KMIRROR_CLI is set by tests/hostile/meson.build}"
TNAME=$(basename "$0" .sh)
VG=${KMIRROR_UNDER_VALGRIND:+1}
VG=${VG:-0}
KM=("$KMIRROR_CLI")
KM_TIMEOUT=10
if [ "$VG" = 1 ]; then
	KM=(valgrind --error-exitcode=99 --leak-check=full --show-leak-kinds=all
	    --errors-for-leak-kinds=all --quiet "$KMIRROR_CLI")
	KM_TIMEOUT=60
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/kmcli-$TNAME.XXXXXX")
trap 'rm -rf "$T"' EXIT

ok() { echo "ok - $*"; }
fail() { echo "FAIL: $TNAME: $*"; exit 1; }
skip() { echo "SKIP: $TNAME: $*"; exit 77; }

# Can kmirror run in $1 KiB of address space at all?  Not under valgrind
# or AddressSanitizer, which reserve far more: there the time bound alone
# keeps what must stay bounded.
vmem_ok() {
	[ "$VG" = 0 ] &&
		bash -c 'ulimit -v "$0" && exec "$@"' "$1" "$KMIRROR_CLI" --help \
			>/dev/null 2>&1
}

# With $KM_VMEM set, kmirror gets that many KiB of address space, where
# vmem_ok says it can.
km() {
	local -a cap=()
	rc=0
	[ -z "${KM_VMEM:-}" ] || ! vmem_ok "$KM_VMEM" ||
		cap=(bash -c 'ulimit -v "$0" && exec "$@"' "$KM_VMEM")
	timeout -k 5 "$KM_TIMEOUT" "${cap[@]}" "${KM[@]}" "$@" >"$T/out" \
		2>"$T/err" || rc=$?
	out=$(head -c 4096 "$T/out")
	err=$(head -c 4096 "$T/err")
	[ "$rc" != 99 ] || [ "$VG" != 1 ] || fail "memcheck: kmirror $*: $err"
}

# refused WHAT: the last km call ended within its bound with exit 2 and
# one "error: " line on stderr holding no control character.
refused() {
	[ "$rc" != 124 ] && [ "$rc" != 137 ] || fail "$1: still running after ${KM_TIMEOUT}s"
	[ "$rc" = 2 ] || fail "$1: exit $rc, want 2 (stderr: $err)"
	[ "$(wc -l <"$T/err")" = 1 ] && [[ $err == error:* ]] ||
		fail "$1: not one error line: $(cat -A "$T/err" | head -n 3)"
	LC_ALL=C grep -q '[[:cntrl:]]' <(tr -d '\n' <"$T/err") &&
		fail "$1: control characters in the message: $(cat -A "$T/err")"
	ok "$1: $err"
}
