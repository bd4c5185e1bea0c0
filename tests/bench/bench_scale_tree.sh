#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bench_scale_tree.sh: a source tree of N files (KMIRROR_SCALE_TREE_N,
# default 15000; 1000 a directory) walked through kmirror-cachefs and
# through libfuse's passthrough_ll (the anchor), each freshly mounted:
# `find MNT` and then `ls -lR MNT`, the time of each and the daemon's
# VmRSS/VmHWM after both.  Goals (issue 14): time within 1.2x of
# passthrough_ll, RSS within 2x.  Two pairs: with extended attributes
# (passthrough_ll -o xattr, kmirror-cachefs as by default: ls -l asks
# each file for an ACL and a security label) and without
# (passthrough_ll's default, kmirror-cachefs -o no_xattr: the kernel
# stops asking).  Best of KMIRROR_BENCH_ROUNDS (2) rounds, interleaved.
# Timings are reported, never judged.
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/../fuse/lib.sh"

N=${KMIRROR_SCALE_TREE_N:-15000}
ROUNDS=${KMIRROR_BENCH_ROUNDS:-2}
PTL=${KMIRROR_PASSTHROUGH_LL:-}
[ -x "$PTL" ] || skip "passthrough_ll not built (libfuse3-dev examples missing)"
src=$T/src mnt=$T/mnt

now() { echo "$EPOCHREALTIME"; }
vm() { awk -v k="$2:" '$1 == k { printf "%.1f", $2 / 1000 }' "/proc/$1/status"; }
best() { awk -v a="$1" -v b="$2" 'BEGIN { print (b == "" || a < b) ? a : b }'; }

t0=$(now)
for ((d = 0; d * 1000 < N; d++)); do
	mkdir -p "$src/d$d"
	n=$((N - d * 1000 < 1000 ? N - d * 1000 : 1000))
	(cd "$src/d$d" && eval "touch f{1..$n}")
done
say "source: $N files in $d directories, made in $(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }') s"
find "$src" >/dev/null	# the source's own dentries and inodes warm

declare -A V=()
# walk FS CMD...: mount FS, time `find` then `ls -lR`, keep the best.
walk() {
	local fs=$1 pid t n
	shift
	bg_mount "$mnt" "$@"
	pid=${DPID[$mnt]}
	t=$(now)
	n=$(tm find "$mnt" | wc -l)
	[ "$n" = $((N + d + 1)) ] || fail "$fs: find saw $n entries, want $((N + d + 1))"
	V[find $fs]=$(best "$(awk -v a="$t" -v b="$(now)" 'BEGIN { print b - a }')" "${V[find $fs]:-}")
	t=$(now)
	tm ls -lR "$mnt" >/dev/null
	V[ls $fs]=$(best "$(awk -v a="$t" -v b="$(now)" 'BEGIN { print b - a }')" "${V[ls $fs]:-}")
	V[rss $fs]=$(vm "$pid" VmRSS) V[hwm $fs]=$(vm "$pid" VmHWM)
	cfs_umount "$mnt"
}

# passthrough_ll keeps a descriptor for every inode the kernel holds and
# does not raise its own limit (kmirror-cachefs raises its soft limit to
# the hard one and closes descriptors beyond a budget): give both room for
# the whole tree, as an operator would (root may raise the hard limit).
ulimit -n $((N + 4096)) 2>/dev/null || ulimit -n "$(ulimit -Hn)"
fss=(ptl kmc ptlx kmcx)
if (($(ulimit -n) < N + 1000)); then
	say "passthrough_ll left out: it needs a descriptor for each of the" \
	    "$N inodes, and the limit here is $(ulimit -n)"
	fss=(kmc kmcx)
fi
declare -A NAME=([ptl]="passthrough_ll (anchor)"
		 [kmc]="kmirror-cachefs no_xattr"
		 [ptlx]="passthrough_ll -o xattr"
		 [kmcx]="kmirror-cachefs")
mkdir -p "$mnt"
for ((r = 1; r <= ROUNDS; r++)); do
	for fs in "${fss[@]}"; do
		case $fs in
		ptl) walk ptl "$PTL" -f -o "source=$src" "$mnt" ;;
		ptlx) walk ptlx "$PTL" -f -o "source=$src,xattr" "$mnt" ;;
		kmc*)
			rm -rf "$T/cache" && mkdir "$T/cache"
			walk "$fs" "$KMIRROR_CACHEFS" "$src" "$mnt" -f -o \
				"cache=$T/cache$([ "$fs" = kmc ] && echo ,no_xattr)"
			;;
		esac
	done
done

printf '# walking %s files (%s directories), best of %s fresh mounts\n' \
	"$N" "$d" "$ROUNDS"
printf '%-26s %10s %10s %10s %10s\n' "" "find s" "ls -lR s" "VmRSS MB" \
	"VmHWM MB"
for fs in "${fss[@]}"; do
	printf '%-26s %10.2f %10.2f %10s %10s\n' "${NAME[$fs]}" \
		"${V[find $fs]}" "${V[ls $fs]}" "${V[rss $fs]}" "${V[hwm $fs]}"
done
[ "${fss[0]}" = ptl ] || exit 0
# ratio A B: kmirror-cachefs A against passthrough_ll B.
ratio() {
	awk -v f1="${V[find $1]}" -v f0="${V[find $2]}" -v l1="${V[ls $1]}" \
	    -v l0="${V[ls $2]}" -v r1="${V[rss $1]}" -v r0="${V[rss $2]}" \
	    -v what="$3" \
	    'BEGIN { printf "ratio %s: find %.2f, ls -lR %.2f (goal <= 1.2), VmRSS %.2f (goal <= 2)\n", what, f1 / f0, l1 / l0, r1 / r0 }'
}
ratio kmc ptl "without xattrs (kmirror-cachefs -o no_xattr / passthrough_ll)"
ratio kmcx ptlx "with xattrs (kmirror-cachefs / passthrough_ll -o xattr)"
