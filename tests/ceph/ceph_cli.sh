#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# `kmirror ceph parse` against its contract (DESIGN.md): key=value lines on
# stdout for a source the kernel accepts, "error: <why>" on stderr and exit
# 2 for one it refuses, --strict for the kernel's accidents.  TAP output.
#
# Under valgrind (meson test --setup=valgrind) the shell itself is not
# ours to check: the script leaves memcheck by exec'ing itself and runs
# every kmirror command under memcheck instead.

if [ -z "${KM_CLI_REEXEC:-}" ]; then
	case "$(readlink /proc/$$/exe 2>/dev/null)" in
	*valgrind*|*memcheck*)
		KM_CLI_REEXEC=1 KMIRROR_UNDER_VALGRIND=1 exec /bin/bash "$0" "$@"
		;;
	esac
fi
set -u

: "${KMIRROR_CLI:?KMIRROR_CLI is set by tests/meson.build}"
KM=("$KMIRROR_CLI")
if [ -n "${KMIRROR_UNDER_VALGRIND:-}" ]; then
	KM=(valgrind --error-exitcode=99 --leak-check=full
	    --show-leak-kinds=all --errors-for-leak-kinds=all --quiet
	    "$KMIRROR_CLI")
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/kmirror-ceph-cli.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

n=0
fails=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() {
	n=$((n + 1)); fails=$((fails + 1))
	echo "not ok $n - $1"
	shift
	for l in "$@"; do echo "#   $l"; done
}

# Run kmirror; stdout in $out, stderr in $err, exit status in $rc.
km() {
	out=$("${KM[@]}" "$@" 2>"$tmp/stderr")
	rc=$?
	err=$(cat "$tmp/stderr")
}

# accept NAME EXPECTED_STDOUT ARGS...: exit 0, exactly this output.
accept() {
	local name=$1 want=$2
	shift 2
	km ceph parse "$@"
	if [ $rc = 0 ] && [ "$out" = "$want" ]; then
		ok "$name"
	else
		not_ok "$name" "exit $rc" "got: $out" "want: $want" "stderr: $err"
	fi
}

# reject NAME ERROR_SUBSTRING ARGS...: exit 2, one "error: " line, no stdout.
reject() {
	local name=$1 want=$2
	shift 2
	km ceph parse "$@"
	if [ $rc = 2 ] && [ -z "$out" ] && [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] &&
	   [[ $err == "error: "* ]] && [[ $err == *"$want"* ]]; then
		ok "$name"
	else
		not_ok "$name" "exit $rc" "stdout: $out" "stderr: $err" "want: $want"
	fi
}

U=07fe3187-00d9-42a3-814b-72a4d5e7d5be

accept "new syntax, two monitors, fsc uniquifier" "syntax=new
name=admin
fsid=$U
fs_name=cephfs
path=/a/b
mon_addr=1.2.3.4:6789
mon_addr=[2001:db8::1]:3300
volume_key=ceph,$U,tag" "admin@$U.cephfs=//a//b/" -o mon_addr=1.2.3.4/[2001:db8:0::1]:3300,fsc=tag

accept "old syntax, no path: every key is printed, empty when unknown" "syntax=old
name=
fsid=
fs_name=
path=
mon_addr=1.2.3.4:6789
mon_addr=[::1]:6789
volume_key=" "1.2.3.4,[::1]:"

accept "several -o are joined with ','" "syntax=old
name=bob
fsid=$U
fs_name=
path=/
mon_addr=1.2.3.4:6789
volume_key=ceph,$U" 1.2.3.4:/ -o name=bob -ofsid=$U

accept "-- ends the options: a source may start with '-'" "syntax=new
name=-x
fsid=$U
fs_name=fs
path=/
mon_addr=1.2.3.4:6789
volume_key=ceph,$U" -o mon_addr=1.2.3.4 -- "-x@$U.fs=/"

accept "control bytes and backslashes are printed as \\xHH" "syntax=old
name=a\\x0ab\\x5c
fsid=
fs_name=
path=/
mon_addr=1.2.3.4:6789
volume_key=" 1.2.3.4:/ -o "name=a
b\\"

km ceph parse 1.2.3.4:4294967376:/
if [ $rc = 0 ] && [[ $out == *"mon_addr=1.2.3.4:80"* ]] &&
   [[ $err == "warning: "*"port above 65535"* ]]; then
	ok "a wrapped port is accepted like the kernel, with a warning"
else
	not_ok "a wrapped port is accepted like the kernel, with a warning" "exit $rc" "$out" "$err"
fi
reject "--strict refuses the kernel's accidents" "port above 65535" --strict 1.2.3.4:4294967376:/
reject "--strict: fsid with stray punctuation" "8-4-4-4-12" --strict "a@00:11:22:33:44:55:66:77:88:99:aa:bb:cc:dd:ee:ff.fs=/" -o mon_addr=1.2.3.4

reject "new syntax without mon_addr" "mon_addr" "admin@$U.cephfs=/"
reject "mds_namespace must match fs_name" "differs from the file system name" "admin@$U.cephfs=/" -o mon_addr=1.2.3.4,mds_namespace=other
reject "bad fsid" "16 pairs of hex digits" "admin@0123.cephfs=/"
reject "port over 65535" "port above 65535: ':65536'" 1.2.3.4:65536:/
reject "32 monitors" "more than 31 monitors" "$(printf '10.0.0.%d,' $(seq 1 31))10.0.0.32:/"
reject "hostnames need the DNS resolver Debian's 6.1 lacks" "not an IPv4 or IPv6" mon.example.com:/
reject "unknown option names its key" "unknown option 'bogus'" 1.2.3.4:/ -o bogus
reject "empty source" "empty source" ""
reject "only separators" "error: " ",,,,::::"
reject "stray brackets" "not an IPv4 or IPv6" "]]:[[:/"
reject "unbalanced bracket" "missing ']'" "[::1:/"
reject "empty monitor between separators" "empty monitor address" "1.2.3.4,,5.6.7.8:/"
reject "long source: one line, quoted text cut short" "..." "$(head -c 4095 /dev/zero | tr '\0' 'a')"
reject "source past 4095 bytes (mount(2)'s PATH_MAX)" "source of 100000 bytes is too long (at most 4095)" "$(head -c 100000 /dev/zero | tr '\0' 'a')"
reject "options past 4095 bytes (mount(2)'s page)" "options of 4097 bytes are too long" 1.2.3.4:/ -o "$(head -c 2048 /dev/zero | tr '\0' 'a')" -o "$(head -c 2048 /dev/zero | tr '\0' 'b')"
reject "no source" "no source given" 
reject "two sources" "more than one source" 1.2.3.4:/ 5.6.7.8:/
reject "-o without its argument" "-o needs an argument" 1.2.3.4:/ -o
reject "unknown flag" "unknown argument '--frob'" --frob 1.2.3.4:/

km ceph parse --help
if [ $rc = 0 ] && [[ $out == "usage: kmirror ceph parse"* ]] && [[ $out == *"--strict"* ]]; then
	ok "--help prints the usage"
else
	not_ok "--help prints the usage" "exit $rc" "$out"
fi
km ceph
if [ $rc = 2 ] && [[ $err$out == *parse* ]]; then
	ok "kmirror ceph without a subcommand lists parse"
else
	not_ok "kmirror ceph without a subcommand lists parse" "exit $rc" "$out" "$err"
fi

echo "1..$n"
[ $fails = 0 ]
