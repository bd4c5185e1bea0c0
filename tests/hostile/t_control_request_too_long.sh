#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Bug: a request on the control socket DIR/kmirror.sock longer than the
# daemon's buffer (4,160 bytes) got "malformed request" and then a
# connection reset (the daemon closed with the rest of the request
# unread: a large one lost even the reply, its sender EPIPE).  Now the
# daemon reads what the peer sends to its end and says what is wrong in
# one error line: a path too long, a request too long.  Raw requests, as
# any client may send them; the daemon serves the next one as ever.
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/../fuse/lib.sh"
command -v python3 >/dev/null || skip "python3 missing"

src=$T/src mnt=$T/mnt cache=$T/cache
mkfile "$src/a" 1000
cfs_mount "$src" "$mnt" "$cache"

# ask VERB ARG_BYTES: send "VERB\0" ARG_BYTES times 'a' "\0", read the
# whole reply; prints it, or "reset: ..." if the connection was reset.
ask() {
	timeout -k 2 20 python3 - "$cache/kmirror.sock" "$1" "$2" <<'PY'
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
data = b""
try:
    s.sendall(sys.argv[2].encode() + b"\0" + b"a" * int(sys.argv[3]) + b"\0")
    s.shutdown(socket.SHUT_WR)
    while True:
        d = s.recv(65536)
        if not d:
            break
        data += d
    print(data.decode(errors="replace").rstrip("\n"))
except OSError as e:
    print("reset: %s (after %r)" % (e, data))
PY
}

for n in 5000 70000 $((8 << 20)); do
	out=$(ask pin "$n")
	case $out in
	"error "*"too long"*) ok "pin with a $n-byte path: $out" ;;
	*) fail "pin with a $n-byte path: $out" ;;
	esac
	[ "$(printf '%s\n' "$out" | wc -l)" = 1 ] || fail "more than a line: $out"
done
out=$(ask where 0)
[ "$out" = "ok $mnt" ] || fail "next request: $out"
out=$(tm "$KMIRROR_CLI" cache pins "$cache") || fail "pins after: $out"
ok "the daemon serves on"
cfs_umount "$mnt"
