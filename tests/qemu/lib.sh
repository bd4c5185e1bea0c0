# SPDX-License-Identifier: GPL-2.0-only
# Shared by the tests/qemu scripts (sourced).  Environment from meson:
#   KMIRROR_KERNEL_OUT  the kernel build dir (bzImages, initramfs, trees)
#   KMIRROR_CLI         the kmirror CLI
#   KMIRROR_SOURCE_ROOT the repository
set -eu
: "${KMIRROR_KERNEL_OUT:?}" "${KMIRROR_CLI:?}" "${KMIRROR_SOURCE_ROOT:?}"
K=$KMIRROR_KERNEL_OUT
S=$KMIRROR_SOURCE_ROOT/kernel/scripts
T=$(mktemp -d "${TMPDIR:-/tmp}/kmirror-qemu.XXXXXX")
trap 'rm -rf "$T"' EXIT

fail() {
	echo "FAIL: $*"
	exit 1
}

# boot FLAVOUR JOB LOG [qemu-run options]: run a guest job; fail with the
# console's verdict.
boot() {
	flavour=$1 job=$2 log=$3
	shift 3
	echo "# $flavour: job $job, console in $log"
	"$S/qemu-run.sh" "$@" "$K/$flavour.bzImage" "$K/initramfs.cpio.gz" \
		"$job" "$log" || fail "$flavour: job $job"
}

# make_share DIR: files of many sizes, empty, sub-directories.
make_share() {
	mkdir -p "$1/sub/deeper"
	: >"$1/empty"
	echo hello >"$1/sub/small"
	for n in 1 511 4096 4097 65536 300000 1048577; do
		head -c "$n" /dev/urandom >"$1/f$n"
	done
	head -c 2000000 /dev/urandom >"$1/sub/deeper/big"
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
