# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# tests/fuse/lib.sh: sourced by every test of the 'fuse' suite.
#
# Each test mounts kmirror-cachefs for real on /dev/fuse, in its own temp
# dir, and leaves nothing behind: an EXIT trap lazily unmounts every FUSE
# and tmpfs mount it made, kills every daemon it started and removes the
# temp dir, also when the test fails half-way.
#
# Environment (tests/fuse/meson.build sets it):
#   KMIRROR_CACHEFS  the daemon (<builddir>/fuse-demo/cachefs/kmirror-cachefs)
#   KMIRROR_CLI      the kmirror CLI
#   KMIRROR_FSX      tests/fuse/fsx
#   KMIRROR_KEEP=1   keep the temp dir of a failed test (its path is printed)
# A test prints "SKIP: why" and exits 77 (meson's skip) when the daemon is
# not built, /dev/fuse or fusermount3 is missing, or it needs root and is
# not root.
#
# Under valgrind (meson test --setup=valgrind) the shell is not ours to
# check: the test leaves memcheck by exec'ing itself, and runs the daemon
# under memcheck instead (errors and definite/indirect leaks fail the test
# when the daemon exits after its unmount).  Tests shrink their data then.

# (valgrind's preload library in LD_PRELOAD tells, without a fork that
# memcheck would follow; valgrind drops it from the exec'ed environment.)
if [ -z "${KM_FUSE_REEXEC:-}" ]; then
	case "${LD_PRELOAD:-}" in
	*vgpreload*)
		KM_FUSE_REEXEC=1 KMIRROR_UNDER_VALGRIND=1 exec /bin/bash "$0" "$@"
		;;
	esac
fi
set -euo pipefail
export LC_ALL=C

TNAME=$(basename "$0" .sh)
VG=${KMIRROR_UNDER_VALGRIND:+1}
VG=${VG:-0}
MOUNT_WAIT=10
EXIT_WAIT=30
STATS_WAIT=5
STATS_QUIET=2
if [ "$VG" = 1 ]; then
	MOUNT_WAIT=120 EXIT_WAIT=300 STATS_WAIT=30 STATS_QUIET=10
fi

say() { echo "# $*"; }
ok() { echo "ok - $*"; }
skip() { echo "SKIP: $TNAME: $*"; exit 77; }

# Print the logs of every daemon this test started, then fail.
fail() {
	local l
	echo "FAIL: $TNAME: $*"
	for l in "${T:-/nonexistent}"/daemon.*.log "${T:-/nonexistent}"/valgrind.*.log; do
		[ -s "$l" ] || continue
		echo "--- $l (last 40 lines)"
		tail -n 40 "$l"
	done
	exit 1
}

: "${KMIRROR_CACHEFS:?KMIRROR_CACHEFS is set by tests/fuse/meson.build}"
[ -x "$KMIRROR_CACHEFS" ] ||
	skip "kmirror-cachefs is not built ($KMIRROR_CACHEFS)"
command -v fusermount3 >/dev/null || skip "fusermount3 missing (Debian: fuse3)"
[ -c /dev/fuse ] || skip "/dev/fuse missing"
{ : <>/dev/fuse; } 2>/dev/null || skip "/dev/fuse not usable by $(id -un)"
if [ "$VG" = 1 ] && ! command -v valgrind >/dev/null; then
	skip "valgrind run asked for, valgrind missing"
fi

need_root() {
	[ "$(id -u)" = 0 ] || skip "needs root ($1)"
}

T=$(mktemp -d "${TMPDIR:-/tmp}/kmfuse-$TNAME.XXXXXX")
T=$(realpath "$T")
declare -A DPID=()		# mountpoint -> daemon pid
declare -a OTHER_MOUNTS=()	# tmpfs and such, unmounted last
NMOUNT=0

# Is $1 a mount point right now?  (stat would hang or fail on a dead FUSE.)
is_mounted() {
	awk -v m="$1" '$5 == m { f = 1 } END { exit !f }' /proc/self/mountinfo
}

cleanup() {
	local rc=$? m p i
	set +e
	trap - EXIT
	for m in "${!DPID[@]}"; do
		fusermount3 -u -z "$m" 2>/dev/null
	done
	for p in "${DPID[@]}"; do
		kill -9 "$p" 2>/dev/null
	done
	for p in $(jobs -p); do
		kill -9 "$p" 2>/dev/null
	done
	for ((i = ${#OTHER_MOUNTS[@]} - 1; i >= 0; i--)); do
		umount -l "${OTHER_MOUNTS[i]}" 2>/dev/null
	done
	wait 2>/dev/null
	if grep -q " ${T}[/ ]" /proc/self/mountinfo; then
		echo "# $TNAME: mounts left under $T, not removing it" >&2
	elif [ "$rc" != 0 ] && [ "$rc" != 77 ] && [ -n "${KMIRROR_KEEP:-}" ]; then
		echo "# $TNAME: kept $T" >&2
	else
		rm -rf --one-file-system "$T"
	fi
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# Run a command that reads or writes through a mount, with a time bound.
tm() {
	timeout -k 5 "${OP_TIMEOUT:-$([ "$VG" = 1 ] && echo 900 || echo 120)}" "$@"
}

# cfs_mount SRC MNT CACHE [OPTIONS]: start kmirror-cachefs in the
# foreground (as a job of this shell) and wait until MNT is mounted.
# CACHE is made if missing (the daemon takes an empty dir or a cache).
# $CFS_WRAP, if set, is a command (words) the daemon runs under.
cfs_mount() {
	local src=$1 mnt=$2 cache=$3 opts=${4:-} log pid i
	local -a cmd
	NMOUNT=$((NMOUNT + 1))
	log=$T/daemon.$NMOUNT.log
	mkdir -p "$mnt" "$cache"
	cmd=("$KMIRROR_CACHEFS" "$src" "$mnt" -f -o "cache=$cache${opts:+,$opts}")
	if [ "$VG" = 1 ]; then
		# shellcheck disable=SC2054 # commas inside valgrind's options
		cmd=(valgrind --error-exitcode=99 --leak-check=full
		     --show-leak-kinds=definite,indirect
		     --errors-for-leak-kinds=definite,indirect --quiet
		     --log-file="$T/valgrind.$NMOUNT.log" "${cmd[@]}")
	fi
	# shellcheck disable=SC2206 # CFS_WRAP is words on purpose
	[ -z "${CFS_WRAP:-}" ] || cmd=($CFS_WRAP "${cmd[@]}")
	"${cmd[@]}" >"$log" 2>&1 &
	pid=$!
	DPID[$mnt]=$pid
	for ((i = 0; i < MOUNT_WAIT * 20; i++)); do
		# Mounted, and the statistics file written at mount is there.
		is_mounted "$mnt" && [ -f "$cache/kmirror-stats" ] && return 0
		if ! kill -0 "$pid" 2>/dev/null; then
			unset "DPID[$mnt]"
			fail "daemon exited before mounting $mnt: ${cmd[*]}"
		fi
		sleep 0.05
	done
	is_mounted "$mnt" || fail "$mnt not mounted after ${MOUNT_WAIT}s"
	fail "no $cache/kmirror-stats ${MOUNT_WAIT}s after mounting"
}

# index_wait CACHE: wait until the statistics of the daemon mounted on
# $mnt say its index is complete; prints the index state.
index_wait() {
	local i s=
	for ((i = 0; i < STATS_WAIT * 10; i++)); do
		if [ "$(stat_get "$1" pid)" = "${DPID[$mnt]}" ]; then
			s=$(stat_get "$1" index)
			case $s in complete*) echo "$s"; return 0 ;; esac
		fi
		sleep 0.1
	done
	fail "index still '$s' after ${STATS_WAIT}s"
}

# bg_mount MNT CMD...: any FUSE daemon (CMD runs in the foreground, as a
# job of this shell, its output in $T/daemon.N.log); wait until MNT is
# mounted, polling every 5 ms so that mount times can be measured.
bg_mount() {
	local mnt=$1 pid i log
	shift
	NMOUNT=$((NMOUNT + 1))
	log=$T/daemon.$NMOUNT.log
	mkdir -p "$mnt"
	"$@" >"$log" 2>&1 &
	pid=$!
	DPID[$mnt]=$pid
	for ((i = 0; i < MOUNT_WAIT * 200; i++)); do
		is_mounted "$mnt" && return 0
		if ! kill -0 "$pid" 2>/dev/null; then
			unset "DPID[$mnt]"
			fail "$* exited before mounting: $(tail -5 "$log")"
		fi
		sleep 0.005
	done
	fail "$mnt not mounted after ${MOUNT_WAIT}s: $*"
}

# daemon_wait PID: wait (bounded) for a daemon to exit; its exit status
# goes to DRC.  Returns 1 if it is still running after EXIT_WAIT seconds.
daemon_wait() {
	local pid=$1 i
	DRC=0
	for ((i = 0; i < EXIT_WAIT * 10; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	kill -0 "$pid" 2>/dev/null && return 1
	wait "$pid" || DRC=$?
	return 0
}

# cfs_umount MNT: fusermount3 -u, then the daemon must exit with status 0
# (and a clean memcheck log under valgrind).
cfs_umount() {
	local mnt=$1 pid=${DPID[$1]} i
	for ((i = 0; i < 40; i++)); do
		fusermount3 -u "$mnt" 2>"$T/fusermount.err" && break
		sleep 0.25
	done
	[ "$i" -lt 40 ] || fail "fusermount3 -u $mnt: $(cat "$T/fusermount.err")"
	daemon_wait "$pid" ||
		fail "daemon of $mnt still running ${EXIT_WAIT}s after unmount"
	unset "DPID[$mnt]"
	if [ "$DRC" = 99 ] && [ "$VG" = 1 ]; then
		fail "memcheck found errors in the daemon"
	fi
	[ "$DRC" = 0 ] || fail "daemon of $mnt exited with status $DRC after unmount"
}

# cfs_kill9 MNT: kill -9 the daemon, then clean the dead mount lazily.
cfs_kill9() {
	local mnt=$1 pid=${DPID[$1]}
	kill -9 "$pid"
	wait "$pid" 2>/dev/null || true
	fusermount3 -u -z "$mnt" 2>/dev/null || umount -l "$mnt"
	unset "DPID[$mnt]"
}

# mount_tmpfs DIR SIZE: a tmpfs of SIZE (root only), unmounted at exit.
mount_tmpfs() {
	need_root "tmpfs mounts"
	mkdir -p "$1"
	mount -t tmpfs -o "size=$2,mode=0755" kmfuse-test "$1"
	OTHER_MOUNTS+=("$1")
}

# mount_loop_ext4 DIR SIZE [MKFS_OPTION...]: a loop-mounted ext4 of SIZE,
# unmounted at exit.  Returns 1 (the caller SKIPs) without root,
# mkfs.ext4 or a loop device.
mount_loop_ext4() {
	local dir=$1 size=$2 img
	shift 2
	[ "$(id -u)" = 0 ] && command -v mkfs.ext4 >/dev/null || return 1
	img=$T/ext4.$(basename "$dir").img
	truncate -s "$size" "$img"
	mkfs.ext4 -q -F "$@" "$img" >/dev/null 2>&1 || return 1
	mkdir -p "$dir"
	mount -o loop "$img" "$dir" 2>/dev/null || return 1
	OTHER_MOUNTS+=("$dir")
}

# mount_coarse_ext4 DIR SIZE: a loop-mounted ext4 with 128-byte inodes,
# whose timestamps have whole seconds only (as sshfs, SMB, FAT), unmounted
# at exit.  Returns 1 (the caller SKIPs) without root, mkfs.ext4 or loop.
mount_coarse_ext4() {
	mount_loop_ext4 "$1" "$2" -I 128 || return 1
	touch "$1/.probe"
	[ "$(stat -c %y "$1/.probe" | cut -d. -f2 | cut -c1-9)" = 000000000 ] ||
		fail "ext4 -I 128 keeps nanoseconds here: not a coarse source"
	rm "$1/.probe"
}

# stat_get CACHE NAME: one value of CACHE/kmirror-stats ("name: value").
stat_get() {
	local v
	v=$(awk -F': *' -v n="$2" '$1 == n { print $2; exit }' "$1/kmirror-stats" 2>/dev/null) ||
		true
	if [ -z "$v" ]; then
		cp "$1/kmirror-stats" "$T/bad-stats" 2>/dev/null || true
		echo "no '$2' line in $1/kmirror-stats:" >&2
		cat -A "$T/bad-stats" >&2 || true
		fail "no '$2' line in $1/kmirror-stats"
	fi
	echo "$v"
}

# stats_fresh CACHE: wait until CACHE/kmirror-stats counts everything done
# before the call.  The daemon rewrites it within a second of any change
# (and only then): so either it is rewritten after this moment, or a
# quiet period of STATS_QUIET seconds shows there was nothing to count.
stats_fresh() {
	local f=$1/kmirror-stats mark i
	mark=$(date +%s.%N)
	for ((i = 0; i < STATS_QUIET * 20; i++)); do
		if [ -f "$f" ] &&
		   awk -v a="$(stat -c %.9Y "$f")" -v b="$mark" 'BEGIN { exit !(a > b) }'; then
			return 0
		fi
		sleep 0.05
	done
	[ -f "$f" ] || fail "no $f while mounted"
}

# wait_stat CACHE NAME MIN: wait until statistic NAME reaches MIN.
wait_stat() {
	local i v
	for ((i = 0; i < STATS_WAIT * 10; i++)); do
		v=$(stat_get "$1" "$2")
		[ "$v" -ge "$3" ] && return 0
		sleep 0.1
	done
	fail "statistic $2 stayed at $v (< $3)"
}

# source_dirs: set SRC, the directory kmirror-cachefs reads from, and
# WSRC, the same directory where a test changes files behind the cache's
# back.  Both are $T/src, unless KMIRROR_FUSE_SRC and KMIRROR_FUSE_WRITER
# name two mounts of one network file system (the ceph suite's two
# ceph-fuse clients): then a fresh directory under each, the writer being
# another client of the same files.
source_dirs() {
	local sub
	if [ -z "${KMIRROR_FUSE_SRC:-}" ]; then
		SRC=$T/src WSRC=$T/src
		return
	fi
	sub=$TNAME.$$.$RANDOM
	SRC=$KMIRROR_FUSE_SRC/$sub
	WSRC=${KMIRROR_FUSE_WRITER:-$KMIRROR_FUSE_SRC}/$sub
	mkdir "$SRC"
	# The second client sees the new directory (CephFS: at once).
	[ -d "$WSRC" ] || fail "$WSRC: the writer does not see $SRC"
}

# Wait until source files made or changed so far are old enough for
# kmirror-cachefs to cache what it reads of them: it serves younger ones
# uncached (KC_SETTLE_FINE_NS, 1 s, for nanosecond timestamps).
settle() {
	sleep 1.1
}

# Random content of SIZE bytes in PATH.
mkfile() {
	mkdir -p "$(dirname "$1")"
	head -c "$2" /dev/urandom >"$1"
}

# Drop the kernel's page cache of each FILE (fadvise DONTNEED), so that the
# next read goes to the daemon again.
drop_pages() {
	local f
	for f in "$@"; do
		dd if="$f" iflag=nocache count=0 status=none
	done
}

# read_counting CACHE SRCFILE MNTFILE: a fresh open of MNTFILE (its page
# cache dropped) must read as SRCFILE; FROM_SOURCE gets the bytes the
# daemon answered from the source meanwhile (bytes of a granule fetched
# for an earlier request of the same read count as from the cache).
read_counting() {
	local b0
	drop_pages "$3"
	stats_fresh "$1"
	b0=$(stat_get "$1" bytes_from_source)
	tm cmp "$2" "$3" || fail "$3 differs from the source"
	stats_fresh "$1"
	FROM_SOURCE=$(($(stat_get "$1" bytes_from_source) - b0))
}

# cache_whole CACHE SRCFILE MNTFILE: read MNTFILE until a read of it comes
# from the cache alone (what is filled behind a read lands a little later).
cache_whole() {
	local i
	for ((i = 0; i < 20; i++)); do
		read_counting "$1" "$2" "$3"
		[ "$FROM_SOURCE" = 0 ] && return 0
		sleep 0.2
	done
	fail "$3 still read from the source"
}

# drop_pages for every regular file under DIR.
drop_tree() {
	local f
	find "$1" -type f -print0 | while IFS= read -r -d '' f; do
		dd if="$f" iflag=nocache count=0 status=none
	done
}

# sha256 of LEN bytes of FILE at OFF.
range_sum() {
	tm dd if="$1" bs=64K iflag=skip_bytes,count_bytes skip="$2" count="$3" \
		status=none | sha256sum | cut -d' ' -f1
}

# Every regular file of DIR (but names matching $SUMS_EXCLUDE) with its sha256.
tree_sums() {
	(cd "$1" && find . -type f ! -name "${SUMS_EXCLUDE:-/}" -print0 |
		sort -z | tm xargs -0 -r sha256sum)
}

# Names, types, sizes of files, modes, owners and link targets of DIR.
tree_list() {
	(cd "$1" && find . -mindepth 1 \
		\( -type f -printf '%P f %s %m %U:%G %n\n' \) -o \
		\( ! -type f -printf '%P %y %m %U:%G %l\n' \) | sort)
}

# same_tree SRC MNT WHAT: listings and contents agree.
same_tree() {
	diff -u <(tree_list "$1") <(tree_list "$2") >"$T/list.diff" ||
		fail "$3: listing differs from the source: $(head -n 20 "$T/list.diff")"
	diff -u <(tree_sums "$1") <(tree_sums "$2") >"$T/sums.diff" ||
		fail "$3: content differs from the source: $(head -n 20 "$T/sums.diff")"
}

# Total size in bytes of the regular files of DIR.
tree_bytes() {
	find "$1" -type f -printf '%s\n' | awk '{ s += $1 } END { printf "%.0f\n", s }'
}

# refused WHAT REGEX ARGS...: the daemon, run with ARGS, exits non-zero
# within $REFUSE_WAIT (20) s without mounting $mnt, and its stderr matches
# REGEX (case-insensitive) in one line.
refused() {
	local what=$1 re=$2 rc=0 t=${REFUSE_WAIT:-20}
	local -a vg=()
	shift 2
	if [ "$VG" = 1 ]; then
		t=120
		# shellcheck disable=SC2054 # commas inside valgrind's options
		vg=(valgrind --error-exitcode=99 --leak-check=full
		    --show-leak-kinds=definite,indirect
		    --errors-for-leak-kinds=definite,indirect --quiet
		    --log-file="$T/valgrind.refused.log")
	fi
	timeout -k 5 "$t" "${vg[@]}" "$KMIRROR_CACHEFS" "$@" >"$T/out" 2>"$T/err" ||
		rc=$?
	if is_mounted "$mnt"; then
		fusermount3 -u -z "$mnt"
		fail "$what: mounted anyway"
	fi
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		fail "$what: still running after $t s"
	fi
	if [ "$VG" = 1 ] && [ "$rc" = 99 ]; then
		fail "$what: memcheck found errors: $(cat "$T/valgrind.refused.log")"
	fi
	[ "$rc" != 0 ] || fail "$what: exit status 0"
	[ -s "$T/err" ] || fail "$what: exit $rc but nothing on stderr"
	grep -Eqi "$re" "$T/err" ||
		fail "$what: message does not say why ($re): $(cat "$T/err")"
	[ "$(wc -l <"$T/err")" = 1 ] ||
		fail "$what: not one line: $(cat "$T/err")"
	ok "$what: exit $rc, \"$(head -n 1 "$T/err")\""
}

# pins_file FILE N VOLUME: a pins file as kmirror-cachefs writes it
# (fuse-demo/cachefs/pins.c) of N pins of VOLUME, 8-byte keys, paths
# "gone/NNNNNNN" (no such file).
pins_file() {
	python3 - "$@" <<'PY'
import struct, sys
path, n, vol = sys.argv[1], int(sys.argv[2]), sys.argv[3].encode()
with open(path, "wb") as f:
    f.write(b"kmirror-pins 1\n")
    for i in range(n):
        p = b"gone/%07d" % i
        f.write(struct.pack("<H", len(vol)) + vol)
        f.write(bytes([8]) + struct.pack("<Q", (i * 2654435761) % (1 << 64)))
        f.write(struct.pack("<H", len(p)) + p)
PY
}

# empty_tree DIR N: N empty files under DIR, in 100 directories.
empty_tree() {
	python3 - "$1" "$2" <<'PY'
import os, sys
d, m = sys.argv[1], int(sys.argv[2])
for i in range(m):
    sub = os.path.join(d, "d%03d" % (i % 100))
    os.makedirs(sub, exist_ok=True)
    open(os.path.join(sub, "f%06d" % i), "w").close()
PY
}

# volume_of CACHE: the key of the (first) volume in CACHE.
volume_of() {
	local v
	v=$(find "$1/cache" -mindepth 1 -maxdepth 1 -name 'I*' -printf '%f\n' |
		head -n 1)
	[ -n "$v" ] || fail "no volume directory in $1/cache"
	echo "${v#I}"
}
