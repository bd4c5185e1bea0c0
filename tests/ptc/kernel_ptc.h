/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The tree's page-table check as the tests call it (kernel_ptc.c), and the
 * same loops with the core's per-page rules, as the kernel patch shapes
 * them (kernel_core_ptc.c).  Both run under tests/kernel-shim/ (kshim.h); PageAnon()
 * comes from kshim_set_anon().
 */
#ifndef KMIRROR_KERNEL_PTC_H
#define KMIRROR_KERNEL_PTC_H

#include <linux/mm.h>
#include <linux/page_table_check.h>

/* A user address space (the hooks skip init_mm). */
extern struct mm_struct kptc_user_mm;

/* The tree's static page_table_check_set()/clear(). */
void kptc_set(unsigned long pfn, unsigned long pgcnt, bool rw);
void kptc_clear(unsigned long pfn, unsigned long pgcnt);

/* The same with the core's kmc_ptc_set_one()/clear_one()/zero_one(). */
void kcore_set(unsigned long pfn, unsigned long pgcnt, bool rw);
void kcore_clear(unsigned long pfn, unsigned long pgcnt);
void kcore_zero(struct page *page, unsigned int order);

#endif
