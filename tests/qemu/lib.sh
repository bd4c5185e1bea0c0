# SPDX-License-Identifier: GPL-2.0-only
# Shared by the tests/qemu scripts (sourced).  Environment from meson:
#   KMIRROR_KERNEL_OUT  the kernel build dir (bzImages, initramfs, trees)
#   KMIRROR_CLI         the kmirror CLI
#   KMIRROR_SOURCE_ROOT the repository
set -eu
: "${KMIRROR_KERNEL_OUT:?}" "${KMIRROR_CLI:?}" "${KMIRROR_SOURCE_ROOT:?}"
K=$KMIRROR_KERNEL_OUT
S=$KMIRROR_SOURCE_ROOT/kernel/scripts
# shellcheck source=../../kernel/scripts/kstore.sh
. "$S/kstore.sh"
T=$(mktemp -d "${TMPDIR:-/tmp}/kmirror-qemu.XXXXXX")
trap 'rm -rf "$T"' EXIT

fail() {
	echo "FAIL: $*"
	exit 1
}

# initrd FLAVOUR: the initramfs FLAVOUR boots with (its own where it
# brings modules, as patched-debug).
initrd() {
	if [ -f "$K/$1.initramfs.cpio.gz" ]; then
		echo "$K/$1.initramfs.cpio.gz"
	else
		echo "$K/initramfs.cpio.gz"
	fi
}

# boot FLAVOUR JOB LOG [qemu-run options]: run a guest job; fail with the
# console's verdict.
boot() {
	flavour=$1 job=$2 log=$3
	shift 3
	echo "# $flavour: job $job, console in $log"
	"$S/qemu-run.sh" "$@" "$K/$flavour.bzImage" "$(initrd "$flavour")" \
		"$job" "$log" || fail "$flavour: job $job"
}

# make_share DIR: files of many sizes, empty, sub-directories, each file's
# bytes a function of its name, every mtime the same: the same share each
# time, so that a kept guest run read what a new one would.
make_share() {
	python3 - "$1" <<'EOF'
import os, random, sys
top = sys.argv[1]
files = {'empty': b'', 'sub/small': b'hello\n'}
for n in (1, 511, 4096, 4097, 65536, 300000, 1048577):
    files['f%d' % n] = n
files['sub/deeper/big'] = 2000000
for name, data in files.items():
    path = os.path.join(top, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if isinstance(data, int):
        data = random.Random(name).randbytes(data)
    with open(path, 'wb') as f:
        f.write(data)
EOF
	find "$1" -exec touch -h -d @1767225600 {} +
}

# kept_share: the dir of a share made by make_share once in the kernel
# store, read-only from then on, whose inode numbers (9p's cookie keys)
# and mtimes (its coherency data) stay the same between runs, so that a
# guest run kept with it can stand for a new one.  $T/share.list says
# what it is (inode, mtime, size, path), for kept_key.  With no store,
# a fresh one in $T.
kept_share() {
	store=$(kstore_dir)
	if [ "$store" = none ]; then
		share=$T/share
		make_share "$share"
	else
		share=$store/share
		if [ ! -d "$share" ]; then
			mkdir -p "$store"
			tmp=$(mktemp -d "$store/share.XXXXXX")
			make_share "$tmp"
			chmod -R a-w "$tmp"
			mv -T "$tmp" "$share" 2>/dev/null ||
				{ chmod -R u+w "$tmp"; rm -rf "$tmp"; }
		fi
	fi
	(cd "$share" && find . -printf '%i %T@ %s %p\n' | LC_ALL=C sort -k4) \
		>"$T/share.list"
	echo "$share"
}

# share_sums DIR: "SUM PATH" of every file, sorted by path.
share_sums() {
	(cd "$1" && find . -type f | LC_ALL=C sort | while read -r f; do
		sum=$(md5sum "$f")
		echo "${sum%% *} ${f#./}"
	done)
}

# guest_sums LOG PASS: the same from a guest's "md5 PASS SUM PATH" lines.
# (The serial console ends its lines with \r\n.)
guest_sums() {
	tr -d '\r' <"$1" | grep "^md5 $2 " | cut -d' ' -f3- | LC_ALL=C sort -k2
}

# stat_field LOG LINE FIELD: a number of /proc/fs/fscache/stats, e.g.
# stat_field LOG IO rd.
stat_field() {
	tr -d '\r' <"$1" |
		sed -n "/^--- \/proc\/fs\/fscache\/stats/,/^--- end stats/p" |
		grep "^$2 *:" | tr ' ' '\n' | sed -n "s/^$3=//p" | head -n 1
}

# stats_shape LOG: the first /proc/fs/fscache/stats of LOG with every
# number replaced by N: the text's lines and fields, not the counts.
stats_shape() {
	tr -d '\r' <"$1" |
		sed -n "/^--- \/proc\/fs\/fscache\/stats/,/^--- end stats/{p;/^--- end stats/q}" |
		sed 's/=-\{0,1\}[0-9][0-9]*/=N/g'
}

# cache_report IMG NAME: extract the cachefiles cache of the ext4 image IMG
# into $T/NAME and describe it for comparison: $T/NAME.json (`kmirror
# cache ls --json`), $T/NAME.names (type, size, path of every entry),
# $T/NAME.xattrs (every entry's xattrs).
cache_report() {
	python3 "$S/cache-image.py" extract "$1" /fsc "$T/$2" >/dev/null
	"$KMIRROR_CLI" cache ls "$T/$2/fsc" --json >"$T/$2.json" ||
		fail "$2: kmirror cache ls"
	(cd "$T/$2/fsc" && find . -printf '%y %s %p\n' | LC_ALL=C sort -k3) \
		>"$T/$2.names"
	(cd "$T/$2/fsc" && find . | LC_ALL=C sort |
		xargs -d '\n' getfattr -h -d -m - -e hex 2>/dev/null) >"$T/$2.xattrs"
}

# caches_equal A B: the cache_reports A and B are equal, or fail.
caches_equal() {
	diff -u "$T/$1.json" "$T/$2.json" ||
		fail "kmirror cache ls differs between $1 and $2"
	diff -u "$T/$1.names" "$T/$2.names" ||
		fail "the caches' trees differ (type, size, name) between $1 and $2"
	diff -u "$T/$1.xattrs" "$T/$2.xattrs" ||
		fail "names or xattrs differ between $1 and $2"
	echo "ok $2 cache == $1 cache: $(wc -l <"$T/$1.names") entries (type, size, name), $(grep -c '^# file' "$T/$1.xattrs") with xattrs, all equal"
}

# Kept guest runs.  A guest job's run follows from its inputs: the
# kernel (bzImage), the initramfs (reproducible: the guest's jobs,
# programs and modules), the accelerator, the test, this file, the
# scripts that boot and judge a guest, and the test's own INPUTs.  A run
# that passed its flavour's checks is kept in the kernel store
# (kernel/scripts/kstore.sh) under a hash of them all, and a later test
# with the same inputs reads the kept console log and results instead of
# booting; everything the test checks on the host runs as before.  A
# kernel that changed (a patch, a config) boots again; stock 6.1 does not.
# KMIRROR_REBOOT=1 boots every flavour anyway; KMIRROR_KERNEL_STORE=none
# keeps nothing.
#
# kept_key FLAVOUR NAME INPUT...: FLAVOUR's kept run of test NAME for
# these inputs, as a dir in $KEPT (empty with no store).
kept_key() {
	store=$(kstore_dir)
	KEPT=
	[ "$store" != none ] || return 0
	flavour=$1 name=$2
	shift 2
	key=$({ echo "$flavour ${KMIRROR_QEMU_ACCEL:-}"
		cat "$K/$flavour.bzImage" "$(initrd "$flavour")" \
			"$K/qemu-accel" "$0" \
			"$KMIRROR_SOURCE_ROOT/tests/qemu/lib.sh" \
			"$S/qemu-run.sh" "$S/qemu-accel.sh" \
			"$S/console-check.sh" "$@"; } | sha256sum | cut -c1-16)
	KEPT=$store/guest-runs/$name-$flavour-$key
	kept_said="$flavour: not booted"
}

# kept_source_key NAME PATHSPEC...: the same for a test that boots nothing
# and only reads the sources (the stack frames of the series' files): its
# run of test NAME keyed by the content of the files PATHSPEC selects (git
# ls-files, tracked or not), the test, this file and every installed
# package's version (the compilers, the linux-source tree), in $KEPT
# (empty with no store or outside a git checkout).
kept_source_key() {
	store=$(kstore_dir)
	KEPT=
	[ "$store" != none ] &&
		git -C "$KMIRROR_SOURCE_ROOT" rev-parse --git-dir \
			>/dev/null 2>&1 || return 0
	name=$1
	shift
	key=$({ cat "$0" "$KMIRROR_SOURCE_ROOT/tests/qemu/lib.sh"
		dpkg-query -W -f='${Package} ${Version}\n'
		git -C "$KMIRROR_SOURCE_ROOT" ls-files -z -co \
			--exclude-standard -- "$@" | LC_ALL=C sort -z |
			(cd "$KMIRROR_SOURCE_ROOT" && xargs -0 sha256sum)
	} | sha256sum | cut -c1-16)
	KEPT=$store/guest-runs/$name-$key
	kept_said="$name: not run"
}

# kept_restore FILE...: copy the kept run's FILEs (by base name) to where
# they go; false when there is no kept run.
kept_restore() {
	[ -n "$KEPT" ] && [ -f "$KEPT/complete" ] &&
		[ -z "${KMIRROR_REBOOT:-}" ] || return 1
	for f in "$@"; do
		cp "$KEPT/$(basename "$f")" "$f" || return 1
	done
	echo "# $kept_said: the run kept as ${KEPT##*/} had the same" \
		"kernel, initramfs, scripts and inputs"
}

# kept_keep FILE...: keep a run that passed (whole or not at all).
kept_keep() {
	[ -n "$KEPT" ] || return 0
	mkdir -p "${KEPT%/*}"
	rm -rf "$KEPT.new"
	mkdir "$KEPT.new"
	cp "$@" "$KEPT.new/"
	: >"$KEPT.new/complete"
	rm -rf "$KEPT"
	mv "$KEPT.new" "$KEPT"
}
