#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# build-guest-progs.sh OUT_DIR [TREE]
#
# The guest's test programs, static, laid out for
# `mkinitramfs.sh INITRD OUT_DIR` (which copies OUT_DIR onto the root):
#   OUT_DIR/opt/mm/   mm selftests of the stock 6.1 tree
#                     (tools/testing/selftests/vm), run by jobs/mm.sh
#   OUT_DIR/opt/bin/  ptc_stress, ptc_bench, mm_probe (kernel/guest/src)
# TREE is the unpacked stock tree (default $KMIRROR_KERNEL_OUT/src/linux-6.1).
# The selftests are compiled from it in place, output under OUT_DIR only:
# nothing is written into the tree, nothing of it is copied.
#
# Static glibc comes with libc6-dev; mlock-random-test and memfd_secret
# link libcap statically (libcap-dev).  KMIRROR_GUEST_CC picks the
# compiler (default gcc).
#
# The selftests are the ones that build statically and run in the
# busybox guest (tinyconfig + kernel/config/kmirror.config, 1 GiB, one
# CPU, TCG).  Left out, because the guest kernel lacks what they test:
# the hugetlb ones (hugepage-*, map_hugetlb, hugetlb-madvise, thuge-gen,
# write_to_hugetlbfs, compaction_test: no HUGETLBFS), userfaultfd (no
# USERFAULTFD), ksm_tests (no KSM, needs libnuma), migration (NUMA),
# hmm-tests (the test_hmm module), protection_keys (the TCG CPU has no
# PKU).  Built but skipped by mm.sh on these kernels, so that a kernel
# with the options runs them: soft-dirty (CHECKPOINT_RESTORE),
# memfd_secret (SECRETMEM), va_128TBswitch (a CPU with la57).
#
# split_huge_page_test is built from a copy with the fix of upstream
# commit dd63bd7df41a ("selftests/mm: fix split huge page tests"): 6.1's
# expects 1 huge page where it maps 4 and fails a successful split.
set -eu
[ $# -ge 1 ] && [ $# -le 2 ] ||
	{ echo "usage: build-guest-progs.sh OUT_DIR [TREE]" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
src=$here/../guest/src
out=$1
tree=${2:-${KMIRROR_KERNEL_OUT:-}/src/linux-6.1}
vm=$tree/tools/testing/selftests/vm
cc=${KMIRROR_GUEST_CC:-gcc}
[ -f "$vm/mremap_test.c" ] ||
	{ echo "build-guest-progs: no 6.1 selftests in '$tree' (give TREE or set KMIRROR_KERNEL_OUT)" >&2; exit 1; }
libdir=$($cc -print-file-name=libc.a)
[ "$libdir" != libc.a ] ||
	{ echo "build-guest-progs: no static glibc (apt-get install libc6-dev)" >&2; exit 1; }
[ "$($cc -print-file-name=libcap.a)" != libcap.a ] ||
	{ echo "build-guest-progs: no static libcap (apt-get install libcap-dev)" >&2; exit 1; }

mkdir -p "$out/opt/mm" "$out/opt/bin"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/build-guest-progs.XXXXXX")
log=$tmp/log
trap 'rm -rf "$tmp"' EXIT

# cc_static OUT SOURCE... [-- FLAGS...]: one static program; the
# compiler's words go to the log, and to stderr when it fails.
cc_static() {
	dst=$1
	shift
	# The build's paths mapped away: the same sources give the same
	# bytes in every build dir (the guest runs of stock 6.1 are kept by
	# a hash of the initramfs, tests/qemu/lib.sh).
	if ! "$cc" -static -s -O2 -ffile-prefix-map="$tree"=linux-6.1 \
		-ffile-prefix-map="$tmp"=. -ffile-prefix-map="$src"=guest \
		"$@" -o "$dst.tmp" >>"$log" 2>&1; then
		echo "build-guest-progs: building $(basename "$dst") failed:" >&2
		tail -n 20 "$log" >&2
		rm -f "$dst.tmp"
		exit 1
	fi
	mv "$dst.tmp" "$dst"
}

# split_test_fixed: split_huge_page_test.c with dd63bd7df41a's three
# changes (both checks after writing 4 huge pages count 4, and the check
# that the split left none is negated), in the temporary dir; its path.
split_test_fixed() {
	f=$tmp/split_huge_page_test.c
	sed -e 's/check_huge_anon(one_page, 1, pmd_pagesize)/check_huge_anon(one_page, 4, pmd_pagesize)/' \
		-e 's/if (check_huge_anon(one_page, 0, pmd_pagesize))/if (!check_huge_anon(one_page, 0, pmd_pagesize))/' \
		"$vm/split_huge_page_test.c" >"$f"
	if [ "$(grep -c 'check_huge_anon(one_page, 4, pmd_pagesize)' "$f")" != 2 ] ||
		[ "$(grep -c 'if (!check_huge_anon(one_page, 0,' "$f")" != 1 ]; then
		echo "build-guest-progs: split_huge_page_test.c is not the 6.1 one the fix is for" >&2
		exit 1
	fi
	echo "$f"
}

# The selftests, with the Makefile's flags (-Wall -I top_srcdir, -lrt
# -lpthread, vm_util.c and -lcap where it adds them); the headers are the
# system's (linux-libc-dev 6.1) rather than a headers_install.
for t in map_fixed_noreplace map_populate mlock2-tests mlock-random-test \
	mrelease_test mremap_dontunmap mremap_test on-fault-limit \
	virtual_address_range va_128TBswitch madv_populate soft-dirty \
	memfd_secret gup_test khugepaged transhuge-stress \
	split_huge_page_test; do
	extra='' libs='-lrt -lpthread'
	case $t in
	khugepaged | madv_populate | soft-dirty | split_huge_page_test)
		extra=$vm/vm_util.c ;;
	mlock-random-test | memfd_secret)
		libs="$libs -lcap" ;;
	mrelease_test)
		# It tests #ifndef __NR_process_mrelease and falls back to
		# -1 (ENOSYS, a skip) without <sys/syscall.h>, which the
		# tree's build gets through its headers.
		extra="-include sys/syscall.h" ;;
	esac
	file=$vm/$t.c
	if [ $t = split_huge_page_test ]; then
		file=$(split_test_fixed) || exit 1
	fi
	echo "# $t" >>"$log"
	# shellcheck disable=SC2086
	cc_static "$out/opt/mm/$t" -Wall -I "$tree" -I "$vm" -no-pie $extra \
		"$file" $libs
done

for p in ptc_stress ptc_bench mm_probe; do
	echo "# $p" >>"$log"
	cc_static "$out/opt/bin/$p" -std=c11 -Wall -Wextra -Werror "$src/$p.c"
done
echo "build-guest-progs: $(ls "$out/opt/mm" | wc -l) selftests in $out/opt/mm, $(ls "$out/opt/bin" | wc -l) programs in $out/opt/bin" >&2
