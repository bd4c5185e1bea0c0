#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Offline mode over a real network source: sshfs to a private sshd on
# 127.0.0.1.  The sshd's session stopped (SIGSTOP: the connection stays,
# nothing answers) is a hung server: with source_timeout=1 cached files
# still read, uncached ones fail with EIO, nothing hangs; continued, the
# mount comes back and serves what changed meanwhile.  sshfs killed is a
# dead source (ENOTCONN): cached files still read, and the daemon
# unmounts cleanly.
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/lib.sh"

need_root "an sshd of its own"
command -v sshfs >/dev/null || skip "sshfs missing (Debian: sshfs)"
[ -x /usr/sbin/sshd ] || skip "sshd missing (Debian: openssh-server)"
command -v ssh-keygen >/dev/null || skip "ssh-keygen missing"

src=$T/src net=$T/net mnt=$T/mnt cache=$T/cache
mkfile "$src/a" $((2 << 20))
mkfile "$src/b" 100000
settle

# A private sshd: its own keys and config, 127.0.0.1 only.
ssh-keygen -q -t ed25519 -N '' -f "$T/hostkey"
ssh-keygen -q -t ed25519 -N '' -f "$T/userkey"
cp "$T/userkey.pub" "$T/authorized_keys"
mkdir -p /run/sshd
port=$((20000 + RANDOM % 20000))
cat >"$T/sshd_config" <<EOF
Port $port
ListenAddress 127.0.0.1
HostKey $T/hostkey
AuthorizedKeysFile $T/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
StrictModes no
UsePAM no
PidFile none
Subsystem sftp internal-sftp
EOF
/usr/sbin/sshd -D -f "$T/sshd_config" -E "$T/sshd.log" &
sshd_pid=$!
for ((i = 0; i < 100; i++)); do
	(exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
	kill -0 "$sshd_pid" 2>/dev/null || skip "sshd did not start: $(tail -3 "$T/sshd.log")"
	sleep 0.05
done

bg_mount "$net" sshfs -f "root@127.0.0.1:$src" "$net" -o "port=$port" \
	-o "IdentityFile=$T/userkey" -o StrictHostKeyChecking=no \
	-o UserKnownHostsFile=/dev/null -o dir_cache=no -o ServerAliveInterval=0
sshfs_pid=${DPID[$net]}
cfs_mount "$net" "$mnt" "$cache" source_timeout=1

# The sshd's processes serving our connection (its children's tree).
sessions() {
	local p q
	for p in $(ps -o pid= --ppid "$sshd_pid"); do
		echo "$p"
		for q in $(ps -o pid= --ppid "$p"); do echo "$q"; done
	done
}

cache_whole "$cache" "$src/a" "$mnt/a"
stat "$mnt/b" >/dev/null
ok "a cached whole over sshfs"

# A hung server (not under valgrind: see t_offline.sh).
hung_server() {
	local stopped rc=0
	stopped=$(sessions)
	[ -n "$stopped" ] || fail "no sshd session found"
	# shellcheck disable=SC2086 # pids
	kill -STOP $stopped
	drop_pages "$mnt/a"
	OP_TIMEOUT=20 tm cmp "$src/a" "$mnt/a" || fail "cached read, sshd stopped"
	ok "sshd stopped: the cached file reads"
	OP_TIMEOUT=20 tm cat "$mnt/b" >/dev/null 2>"$T/err" || rc=$?
	[ "$rc" != 124 ] && [ "$rc" != 137 ] || fail "uncached read hung"
	grep -q "Input/output error" "$T/err" || fail "uncached read: $(cat "$T/err")"
	ok "sshd stopped: the uncached file fails with EIO"
	wait_stat "$cache" offline 1
	echo "changed while the server was stopped" >"$src/a"
	# shellcheck disable=SC2086 # pids
	kill -CONT $stopped
	wait_stat "$cache" offline_left 1
	drop_pages "$mnt/a"
	tm cmp "$src/a" "$mnt/a" || fail "old bytes after the server came back"
	tm cmp "$src/b" "$mnt/b" || fail "b after the server came back"
	ok "sshd continued: online again, the changed file read new"
}
[ "$VG" = 1 ] || hung_server

# A dead source: sshfs killed, its mount answers ENOTCONN.
settle
cache_whole "$cache" "$src/a" "$mnt/a"
kill -9 "$sshfs_pid"
wait "$sshfs_pid" 2>/dev/null || true
drop_pages "$mnt/a"
OP_TIMEOUT=20 tm cmp "$src/a" "$mnt/a" || fail "cached read, sshfs dead"
wait_stat "$cache" offline_entered $(($(stat_get "$cache" offline_left) + 1))
ok "sshfs killed: offline, the cached file reads"
cfs_umount "$mnt"
fusermount3 -u -z "$net" 2>/dev/null || umount -l "$net"
unset "DPID[$net]"
ok "unmounted cleanly while offline"
