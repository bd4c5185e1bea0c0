#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# POSIX behaviour for a second user (nobody, through setpriv) on a mount
# run by root with allow_other: kmirror-cachefs against libfuse's
# passthrough_ll (the anchor: it acts on the source as root, the kernel
# checking every access, default_permissions) and a plain directory of
# the same filesystem (Linux itself), the same steps on each.  The
# kmirror-cachefs result must be the anchor's wherever the anchor's is
# Linux's, and Linux's where the anchor's is not (said as it runs).
#
# t_posix.sh CASE [PASSTHROUGH_LL] (tests/fuse/meson.build), CASE one of
#   suid_kill          a non-owner writes, appends to, truncates, opens
#                      with O_TRUNC, or fallocates (allocates, punches,
#                      zeroes) a world-writable set-user-ID or
#                      set-group-ID file: done, and the bits the kernel
#                      kills are gone, no other; the non-owner's own
#                      chmod stays refused
#   dir_read_no_search a directory its user may read but not search
#                      (0600, and root's 0744 for others): it is listed,
#                      its files are not reached; from the source and from
#                      the metadata store
#   exec_only          a non-owner runs an execute-only program (0711) but
#                      cannot read it; a 0700 one not at all
# shellcheck source=tests/fuse/lib.sh
. "$(dirname "$0")/lib.sh"
CASE=${1:?which case}
PTL=${2:-}
need_root "a second user through setpriv, allow_other"
command -v setpriv >/dev/null || skip "setpriv missing (Debian: util-linux)"
if [ ! -x "$PTL" ]; then
	say "passthrough_ll not built (libfuse3-dev's examples missing):" \
	    "compared with Linux alone"
	PTL=
fi

NOGROUP=65534
as_nobody() { setpriv --reuid=65534 --regid=$NOGROUP --clear-groups -- "$@"; }

# The targets: name, the directory the steps run in, and where its files
# really are (their modes are read there, past any attribute cache).
chmod 0755 "$T"
mkdir -p "$T/linux" "$T/psrc" "$T/csrc"
declare -A RUN=([linux]=$T/linux [anchor]=$T/pmnt [cachefs]=$T/cmnt)
declare -A SRC=([linux]=$T/linux [anchor]=$T/psrc [cachefs]=$T/csrc)
TARGETS=(linux cachefs)
if [ -n "$PTL" ]; then
	TARGETS=(linux anchor cachefs)
	bg_mount "$T/pmnt" "$PTL" -f -o \
		"source=$T/psrc,allow_other,default_permissions" "$T/pmnt"
fi
# dir_read_no_search lists from the metadata store too, once it has one.
opts=allow_other
[ "$CASE" != dir_read_no_search ] || opts+=,meta_timeout=1h
cfs_mount "$T/csrc" "$T/cmnt" "$T/cache" "$opts"

# compare WHAT: the results R[target] of one step, as described above.
declare -A R
compare() {
	local want=${R[linux]}
	if [ -n "$PTL" ] && [ "${R[anchor]}" != "$want" ]; then
		say "$1: the anchor differs from Linux (${R[anchor]});" \
		    "kmirror-cachefs must do as Linux ($want)"
	elif [ -n "$PTL" ]; then
		want=${R[anchor]}
	fi
	[ "${R[cachefs]}" = "$want" ] ||
		fail "$1: kmirror-cachefs: ${R[cachefs]}; expected $want"
	ok "$1: $want"
}

# as_step DIR CMD: run CMD (shell) as nobody in DIR; its exit status.
as_step() {
	local rc=0
	(cd "$1" && tm setpriv --reuid=65534 --regid=$NOGROUP --clear-groups \
		-- sh -c "$2") >"$T/out" 2>&1 || rc=$?
	echo "$rc"
}

# suid_run TARGET: through TARGET, root makes a file per step of STEPS
# ("MODE:GROUP|what|command on $F"), then nobody runs every step in one
# shell (a process or two less per step: the machine is shared); what
# came of step i goes to RES[TARGET,i].
declare -A RES
suid_run() {
	local d=${RUN[$1]} s=${SRC[$1]} i key script='' n a b c
	local -A attr=() rc=() st=()
	for ((i = 0; i < ${#STEPS[@]}; i++)); do
		echo hello >"$d/f$i"
		key=${STEPS[i]%%|*}
		attr[$key]+=" $d/f$i"
		script+="F=f$i; (${STEPS[i]##*|}) >/dev/null 2>&1; echo f$i \$?
"
	done
	for key in "${!attr[@]}"; do
		# shellcheck disable=SC2086 # a list of names without blanks
		chown "0:${key#*:}" ${attr[$key]}
		# shellcheck disable=SC2086
		chmod "${key%:*}" ${attr[$key]}
	done
	as_step "$d" "$script" >/dev/null
	while read -r n a; do rc[$n]=$a; done <"$T/out"
	while read -r n a b; do
		st[${n##*/}]="mode $a, $b bytes"
	done < <(stat -c '%n %a %s' "$s"/f*)
	while read -r a b c; do
		n=${c##*/}
		RES[$1,${n#f}]="exit ${rc[$n]:-?}, ${st[$n]}, cksum $a"
	done < <(cksum "$s"/f*)
}

case_suid_kill() {
	local t i m op what
	local -a ops=(
		"write|dd if=/dev/zero of=\$F bs=1 count=1 conv=notrunc status=none"
		"append|echo x >>\$F"
		"truncate|truncate -s 2 \$F"
		"O_TRUNC open|: >\$F"
		"fallocate|fallocate -l 8192 \$F"
		"punch hole|fallocate -p -o 0 -l 1 \$F"
		"zero range|fallocate -z -o 0 -l 1 \$F"
		"its own chmod u-s|chmod u-s \$F")
	# 6766 is nogroup's, nobody's group: Linux keeps S_ISGID without
	# group execute for a member, and FUSE's kill leaves it to all.
	STEPS=()
	for m in 4777:0 2777:0 6766:$NOGROUP; do
		for op in "${ops[@]}"; do
			STEPS+=("$m|$op")
		done
	done
	for t in "${TARGETS[@]}"; do
		suid_run "$t"
	done
	for ((i = 0; i < ${#STEPS[@]}; i++)); do
		for t in "${TARGETS[@]}"; do
			R[$t]=${RES[$t,$i]}
		done
		IFS='|' read -r m what _ <<<"${STEPS[i]}"
		compare "${m%:*} file of group ${m#*:}, $what"
	done
}

# dir_step NAME CMD: CMD run by nobody in each target; exit and output.
dir_step() {
	local t rc
	for t in "${TARGETS[@]}"; do
		rc=$(as_step "${RUN[$t]}" "$2")
		R[$t]="exit $rc: $(sed 's/^[^:]*: //' "$T/out" | sort | tr '\n' ' ')"
	done
	compare "$1"
}

case_dir_read_no_search() {
	local t d
	# Made in the sources: nothing stored yet, the source is asked.
	for t in "${TARGETS[@]}"; do
		d=${SRC[$t]}
		mkdir "$d/mine" "$d/roots"
		touch "$d/mine/a" "$d/mine/b" "$d/roots/c"
		chown -R 65534 "$d/mine"
		chmod 0600 "$d/mine"
		chmod 0744 "$d/roots"
	done
	dir_step "its own 0600 directory listed" "ls mine"
	dir_step "root's 0744 directory listed" "ls roots"
	dir_step "a file in its own 0600 directory" "cat mine/a"
	dir_step "a file in root's 0744 directory" "cat roots/c"
	dir_step "its own 0600 directory listed long" "ls -l mine"
}

case_exec_only() {
	local t d
	for t in "${TARGETS[@]}"; do
		d=${RUN[$t]}
		cp /bin/true "$d/x"
		cp /bin/true "$d/y"
		chmod 0711 "$d/x"
		chmod 0700 "$d/y"
	done
	dir_step "an execute-only 0711 program run" "./x"
	dir_step "the 0711 program read" "cat x >/dev/null"
	dir_step "the 0711 program run again" "./x"
	dir_step "a 0700 program run" "./y"
}

case $CASE in
suid_kill) case_suid_kill ;;
dir_read_no_search)
	case_dir_read_no_search
	# Again from the metadata store: root's listings, kept.
	ls "$T/cmnt" "$T/cmnt/mine" "$T/cmnt/roots" >/dev/null
	stats_fresh "$T/cache"
	hits=$(stat_get "$T/cache" meta_hits)
	misses=$(stat_get "$T/cache" meta_misses)
	dir_step "its own 0600 directory listed from the store" "ls mine"
	dir_step "root's 0744 directory listed from the store" "ls roots"
	dir_step "a file in its own 0600 directory, stored" "cat mine/a"
	stats_fresh "$T/cache"
	if [ "$(stat_get "$T/cache" meta_hits)" -lt $((hits + 2)) ] ||
	   [ "$(stat_get "$T/cache" meta_misses)" != "$misses" ]; then
		fail "not from the store: $(grep meta_ "$T/cache/kmirror-stats")"
	fi
	;;
exec_only) case_exec_only ;;
*) fail "no case $CASE" ;;
esac
cfs_umount "$T/cmnt"
if [ -n "$PTL" ]; then
	fusermount3 -u "$T/pmnt"
	daemon_wait "${DPID[$T/pmnt]}" || fail "passthrough_ll did not exit"
	unset "DPID[$T/pmnt]"
fi
