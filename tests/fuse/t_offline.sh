#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Offline mode: kmirror-cachefs over flaky_source (tests/fuse/flaky_source.c,
# a passthrough that fails or hangs on command).  With the source failing
# (ENOTCONN, then EIO and ESTALE) a cached file still reads, byte for byte;
# a file not cached fails with EIO, a write with EROFS; the counters say
# so.  With the source hanging and source_timeout=1, reads of cached files
# answer within a few seconds and uncached ones fail, nothing hangs.  A
# file changed at the source while offline is served new once the source
# answers again.
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/lib.sh"

need_root "FUSE mounts of a FUSE source"
[ -x "${KMIRROR_FLAKY:-}" ] || skip "flaky_source is not built"

src=$T/src mnt=$T/mnt cache=$T/cache ctl=$T/ctl flaky=$T/flaky
size=$((3 << 20))
[ "$VG" = 1 ] && size=$((1 << 20))
mkfile "$src/a" "$size"
mkfile "$src/b" 100000
mkfile "$src/dir/c" 5000
settle
echo ok >"$ctl"
bg_mount "$flaky" "$KMIRROR_FLAKY" "$ctl" "$src" "$flaky" -f
cfs_mount "$flaky" "$mnt" "$cache" source_timeout=1

# back_online: the source answers; wait until the daemon says so (one
# more offline_left than before).
LEFT=0
back_online() {
	echo ok >"$ctl"
	LEFT=$((LEFT + 1))
	wait_stat "$cache" offline_left "$LEFT"
	[ "$(stat_get "$cache" offline)" = 0 ] || fail "offline after return"
	[ "$(stat_get "$cache" offline_entered)" = "$LEFT" ] ||
		fail "offline_entered $(stat_get "$cache" offline_entered), not $LEFT"
}

# expect_err ERRTEXT WHAT CMD...: CMD fails, saying ERRTEXT, in time.
expect_err() {
	local want=$1 what=$2 rc=0
	shift 2
	OP_TIMEOUT=20 tm "$@" >/dev/null 2>"$T/err" || rc=$?
	[ "$rc" != 0 ] || fail "$what: succeeded offline"
	[ "$rc" != 124 ] && [ "$rc" != 137 ] || fail "$what: hung offline"
	grep -q "$want" "$T/err" ||
		fail "$what: not '$want': $(cat "$T/err")"
	ok "$what: $want"
}

cache_whole "$cache" "$src/a" "$mnt/a"
stat "$mnt/b" >/dev/null	# known by name, never read
ok "a cached whole"

echo "fail ENOTCONN" >"$ctl"
drop_pages "$mnt/a"
OP_TIMEOUT=20 tm cmp "$src/a" "$mnt/a" ||
	fail "cached file differs (or fails) with the source failing"
ok "source ENOTCONN: the cached file reads, bytes identical"
stats_fresh "$cache"
[ "$(stat_get "$cache" offline)" = 1 ] || fail "offline not reported"
[ "$(stat_get "$cache" offline_entered)" = 1 ] ||
	fail "offline_entered: $(stat_get "$cache" offline_entered)"
grep -q "offline, serving cached files read-only" "$T/daemon.2.log" ||
	fail "going offline was not logged"
expect_err "Input/output error" "uncached file" cat "$mnt/b"
expect_err "Input/output error" "unknown name" stat "$mnt/nosuch"
expect_err "Read-only file system" "append" sh -c "echo x >>'$mnt/a'"
expect_err "Read-only file system" "unlink" rm -f "$mnt/a"
expect_err "Read-only file system" "chmod" chmod 600 "$mnt/a"
expect_err "Input/output error" "listing" ls "$mnt/dir"
[ "$(stat -c %s "$mnt/a")" = "$size" ] || fail "stat of a offline"
ok "stat of a cached file answers offline"
stats_fresh "$cache"
served=$(stat_get "$cache" offline_served)
refused=$(stat_get "$cache" offline_refused)
[ "$served" -ge 2 ] || fail "offline_served: $served"
[ "$refused" -ge 6 ] || fail "offline_refused: $refused"
ok "offline_served $served, offline_refused $refused"

# Changed behind the daemon's back while offline: new bytes on return.
mkfile "$T/new" "$size"
cp "$T/new" "$src/a"
back_online
grep -q "answers again; online" "$T/daemon.2.log" || fail "return not logged"
drop_pages "$mnt/a"
tm cmp "$src/a" "$mnt/a" || fail "old bytes served after the source came back"
ok "changed while offline: the new bytes after return"

# One file's EIO or ESTALE (a bad block, a file deleted by another NFS
# client) is that file's: the mount stays online, writes go on.
for e in EIO ESTALE; do
	echo "fail $e b" >"$ctl"
	expect_err "" "one file's $e" cat "$mnt/b"
	echo "x$e" >>"$mnt/dir/c" || fail "write beside one file's $e"
	stats_fresh "$cache"
	[ "$(stat_get "$cache" offline)" = 0 ] || fail "one file's $e: offline"
	[ "$(stat_get "$cache" offline_entered)" = "$LEFT" ] ||
		fail "one file's $e: offline_entered"
done
echo ok >"$ctl"
ok "one file's EIO or ESTALE: still online"

# EIO and ESTALE of the whole source take it offline.
settle
cache_whole "$cache" "$src/a" "$mnt/a"
for e in EIO ESTALE; do
	echo "fail $e" >"$ctl"
	drop_pages "$mnt/a"
	OP_TIMEOUT=20 tm cmp "$src/a" "$mnt/a" || fail "source $e: cached read"
	expect_err "Input/output error" "source $e: uncached" cat "$mnt/b"
	back_online
done
ok "EIO and ESTALE: offline and back"

# A hanging source: source_timeout=1 bounds every wait.  Not under
# valgrind: memcheck makes a stat (not one of its blocking calls) holding
# its lock, so a stat stuck in the source stops every thread.
if [ "$VG" = 1 ]; then
	say "the hanging source is not tried under valgrind"
	cfs_umount "$mnt"
	fusermount3 -u "$flaky"
	daemon_wait "${DPID[$flaky]}" || fail "flaky_source did not exit"
	unset "DPID[$flaky]"
	exit 0
fi
cache_whole "$cache" "$src/a" "$mnt/a"
echo hang >"$ctl"
t0=$(date +%s.%N)
drop_pages "$mnt/a"
OP_TIMEOUT=20 tm cmp "$src/a" "$mnt/a" || fail "cached read, source hanging"
t1=$(date +%s.%N)
secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
[ "$VG" = 1 ] || awk -v s="$secs" 'BEGIN { exit !(s < 5) }' ||
	fail "cached read took ${secs}s with the source hanging"
ok "source hanging: the cached file reads in ${secs}s"
expect_err "Input/output error" "source hanging: uncached" cat "$mnt/b"
expect_err "Read-only file system" "source hanging: append" \
	sh -c "echo x >>'$mnt/a'"
grep -q "no answer within source_timeout" "$T/daemon.2.log" ||
	fail "the stall was not logged"
back_online
tm cmp "$src/a" "$mnt/a" || fail "after the hang"
tm cmp "$src/b" "$mnt/b" || fail "uncached file after the hang"
ok "source back after the hang: all files read"

# statfs (df) as the first call to meet the hang: bounded too (it hung).
echo hang >"$ctl"
expect_err "Input/output error" "statfs, source hanging" stat -f "$mnt"
back_online

# Without source_timeout, offline by ENOTCONN, then hanging: the probe
# that hangs must not hold up the housekeeper, whose statistics go on
# (a probe waited 5 s in it, and the statistics with it).
cfs_umount "$mnt"
mnt=$T/mnt2 cache=$T/cache2 LEFT=0
cfs_mount "$flaky" "$mnt" "$cache"
cache_whole "$cache" "$src/a" "$mnt/a"
echo "fail ENOTCONN" >"$ctl"
drop_pages "$mnt/a"
OP_TIMEOUT=20 tm cmp "$src/a" "$mnt/a" || fail "no timeout: cached read"
stats_fresh "$cache"
served=$(stat_get "$cache" offline_served)
echo hang >"$ctl"
sleep 1.2			# a probe is out, hanging
drop_pages "$mnt/a"
OP_TIMEOUT=20 tm cmp "$src/a" "$mnt/a" || fail "no timeout, hanging: cached read"
t0=$(date +%s.%N)
STATS_WAIT=$([ "$VG" = 1 ] && echo 30 || echo 3) \
	wait_stat "$cache" offline_served $((served + 1))
t1=$(date +%s.%N)
secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
ok "source hanging, no timeout: statistics current within ${secs}s"
back_online
cfs_umount "$mnt"
fusermount3 -u "$flaky"
daemon_wait "${DPID[$flaky]}" || fail "flaky_source did not exit"
unset "DPID[$flaky]"
ok "unmounted cleanly"
