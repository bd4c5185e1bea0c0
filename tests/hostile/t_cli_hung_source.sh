#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Bug: with the source hung, the commands that ask the daemon through its
# control socket blocked without end, even with -o source_timeout: the
# control thread resolved paths in the source with plain openat(), and
# the CLI waited forever for the reply.  Now the control verbs make their
# source calls through the timed source-call machinery (srccall.c), so
# each answers within source_timeout with a clear error, and the CLI gives
# up on a daemon that does not answer after --timeout seconds.
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/../fuse/lib.sh"

need_root "FUSE mounts of a FUSE source"
[ -x "${KMIRROR_FLAKY:-}" ] || skip "flaky_source is not built"
[ "$VG" = 1 ] &&
	skip "memcheck stops every thread when one stat hangs (t_offline.sh)"

src=$T/src mnt=$T/mnt cache=$T/cache ctl=$T/ctl flaky=$T/flaky
K=$KMIRROR_CLI
BOUND=12	# seconds: source_timeout=2, one stall, and a slow machine
mkfile "$src/a" 100000
mkfile "$src/b" 100000
settle
echo ok >"$ctl"
bg_mount "$flaky" "$KMIRROR_FLAKY" "$ctl" "$src" "$flaky" -f
cfs_mount "$flaky" "$mnt" "$cache" source_timeout=2
tm "$K" cache pin "$cache" "$mnt/a" >/dev/null || fail "pin with the source up"
cache_whole "$cache" "$src/a" "$mnt/a"
ok "a pinned and cached, the source answering"

# bounded WHAT WANT_RC REGEX CMD...: CMD ends within BOUND seconds, with
# exit status WANT_RC ("nonzero": any failure) and REGEX on stderr.
bounded() {
	local what=$1 want=$2 re=$3 rc=0 t0 secs
	shift 3
	t0=$EPOCHREALTIME
	timeout -k 2 $((BOUND * 2)) "$@" >"$T/out" 2>"$T/err" || rc=$?
	secs=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
	[ "$rc" != 124 ] && [ "$rc" != 137 ] ||
		fail "$what: still blocked after $((BOUND * 2)) s"
	awk -v s="$secs" -v b="$BOUND" 'BEGIN { exit !(s < b) }' ||
		fail "$what: took $secs s (bound $BOUND s)"
	if [ "$want" = nonzero ]; then
		[ "$rc" != 0 ] || fail "$what: succeeded: $(cat "$T/out")"
	else
		[ "$rc" = "$want" ] ||
			fail "$what: exit $rc, want $want: $(cat "$T/err")"
	fi
	[ -z "$re" ] || grep -Eq "$re" "$T/err" ||
		fail "$what: stderr not /$re/: $(cat "$T/err")"
	ok "$what: exit $rc in $secs s${re:+: $(head -n 1 "$T/err")}"
}

echo hang >"$ctl"
bounded "pins, source hung" nonzero "source .*(answer|offline)" \
	"$K" cache pins "$cache"
bounded "evict, source hung" nonzero "source .*(answer|offline)" \
	"$K" cache evict "$cache" "$mnt/a"
bounded "unpin --gone, source hung" nonzero "source .*(answer|offline)" \
	"$K" cache unpin "$cache" --gone
bounded "top, source hung" 0 "" "$K" cache top "$cache" -n 1 -d 0.1
grep -q "^reads/s: " "$T/out" || fail "top printed no view: $(cat "$T/out")"
bounded "check --repair, source hung" 0 "" \
	"$K" cache check "$cache" --repair
grep -q "0 damaged" "$T/out" || fail "check: $(cat "$T/out")"

# Nothing was lost meanwhile: back online, the pin is still there.
echo ok >"$ctl"
wait_stat "$cache" offline_left 1
tm "$K" cache pins "$cache" >"$T/pins" || fail "pins after the return"
grep -q "^cached [0-9]* a$" "$T/pins" || fail "pins after the return: $(cat "$T/pins")"
ok "back online: the pin is kept"

# A daemon that accepts and never answers: --timeout bounds the wait.
d=$T/mute
mkdir "$d"
python3 - "$d/kmirror.sock" <<'PY' &
import socket, sys, time
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1])
s.listen(8)
held = []
while True:
    c, _ = s.accept()
    held.append(c)
PY
for ((i = 0; i < 100; i++)); do
	[ -S "$d/kmirror.sock" ] && break
	sleep 0.05
done
BOUND=5 bounded "--timeout 1, a mute daemon" 1 "did not answer within 1 s" \
	"$K" cache pins "$d" --timeout 1
BOUND=5 bounded "--timeout 1 before the verb" 1 "did not answer within 1 s" \
	"$K" cache --timeout 1 unpin "$d" --gone
"$K" cache pins "$d" --timeout 0 >/dev/null 2>"$T/err" && fail "--timeout 0 taken"
grep -q "timeout" "$T/err" || fail "--timeout 0: $(cat "$T/err")"
ok "--timeout 0 refused: $(cat "$T/err")"
cfs_umount "$mnt"
