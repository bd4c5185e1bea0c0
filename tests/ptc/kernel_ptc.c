// SPDX-License-Identifier: GPL-2.0-only
/*
 * mm/page_table_check.c of the unpacked 6.1 tree, compiled unmodified
 * under tests/kernel-shim/ and #included (the tools/testing/vma way) so
 * that its static counting functions can be called directly, beside the
 * exported hooks.
 * The tree is never copied: meson puts it on the quote include path.
 */
#include "mm/page_table_check.c"

#include "kernel_ptc.h"

void kptc_set(unsigned long pfn, unsigned long pgcnt, bool rw)
{
	page_table_check_set(&kptc_user_mm, 0, pfn, pgcnt, rw);
}

void kptc_clear(unsigned long pfn, unsigned long pgcnt)
{
	page_table_check_clear(&kptc_user_mm, 0, pfn, pgcnt);
}
