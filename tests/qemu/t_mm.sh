#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# t_mm.sh: the 6.1 tree's mm selftests and ptc_stress in the booted
# kernels, page_table_check=on (kernel/guest/jobs/mm.sh).  The patched
# kernel, whose page-table check counts through the kmirror core, and the
# stock one, so that a failure can be told the patches' or not.  Fails on
# any failed selftest, a stress failure or a kernel complaint (BUG from
# the page-table check, WARNING, Oops: qemu-run.sh's console check) in
# either kernel.
#
# The initramfs must carry the programs (kernel/scripts/build-guest-progs.sh);
# if $KMIRROR_KERNEL_OUT/initramfs.cpio.gz does not, this script builds
# them from $KMIRROR_KERNEL_OUT/src/linux-6.1 into a private initramfs.
# KMIRROR_MM_STRESS_SECS: ptc_stress's duration in each kernel (60).
# A kernel's run is kept and not booted again while its inputs stay the
# same (kept_key in lib.sh).
. "$(dirname "$0")/lib.sh"
secs=${KMIRROR_MM_STRESS_SECS:-60}
initrd=$K/initramfs.cpio.gz
if ! gzip -dc "$initrd" | cpio -t --quiet 2>/dev/null |
	grep -q '^opt/mm/mremap_test$'; then
	echo "# $initrd has no mm selftests: building them"
	"$S/build-guest-progs.sh" "$T/progs" || fail "build-guest-progs.sh"
	"$S/mkinitramfs.sh" "$T/initramfs.cpio.gz" "$T/progs" ||
		fail "mkinitramfs.sh"
	initrd=$T/initramfs.cpio.gz
	# The accelerator probed for the shared initramfs holds for this one.
	export KMIRROR_ACCEL_CACHE="${KMIRROR_ACCEL_CACHE:-$K/qemu-accel}"
fi

echo "$secs" >"$T/secs"
bad=
for k in patched-gcc stock-gcc; do
	log=$K/mm-$k.log
	verdict=ok booted=
	kept_key $k mm "$T/secs" "$initrd"
	if ! kept_restore "$log" "$T/$k.verdict"; then
		echo "# $k: job mm (stress ${secs}s), console in $log"
		"$S/qemu-run.sh" -t $((secs + 900)) -a "kmirror.stress=$secs" \
			"$K/$k.bzImage" "$initrd" mm "$log" >"$T/$k.verdict" ||
			verdict=fail
		[ $verdict = ok ] || bad="$bad $k"
		booted=$k
	fi
	grep -E '^mm: ' "$log" | grep -v -E ' ok \(rc=' || true
	grep -E '^mm: [^ ]+ (ok|fail|skip) \(rc=' "$log" |
		sed 's/^mm: \([^ ]*\) \([a-z]*\) .*/\1 \2/' | LC_ALL=C sort \
		>"$T/$k.results"
	grep -q '^ptc_stress ' "$T/$k.results" || {
		verdict=fail
		case " $bad " in *" $k "*) ;; *) bad="$bad $k" ;; esac
		echo "$k: the job did not get to ptc_stress"
	}
	if [ "$verdict" = ok ]; then
		echo "ok $k: $(grep -c ' ok$' "$T/$k.results") ok, $(grep -c ' skip$' "$T/$k.results") skipped, no kernel complaint"
		[ -z "$booted" ] || kept_keep "$log" "$T/$k.verdict"
	else
		cat "$T/$k.verdict"
		echo "not ok $k"
	fi
done

echo "# test: patched-gcc stock-gcc"
join -a 1 -a 2 -e - -o 0,1.2,2.2 "$T/patched-gcc.results" \
	"$T/stock-gcc.results" | sed 's/^/# /'
if [ -n "$bad" ]; then
	case $bad in
	" patched-gcc") fail "patched-gcc only: the kmirror patches are to blame" ;;
	" stock-gcc") fail "stock-gcc only: not the patches (the stock kernel or the test)" ;;
	*) fail "both kernels: not the patches' doing (the test, its setup or 6.1)" ;;
	esac
fi
echo "ok mm: both kernels pass"
