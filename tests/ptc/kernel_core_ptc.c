// SPDX-License-Identifier: GPL-2.0-only
/*
 * page_table_check_set/clear and __page_table_check_zero as the kernel
 * patch shapes them: the kernel's own walk over page_ext, and the core's
 * inline rule per page, BUG() on any verdict.  Compiled under the same
 * shim as the tree's file, so that the benchmark compares the rules and
 * nothing else.
 */
#include "kernel_ptc.h"
#include "kmc_ptc.h"

struct mm_struct kptc_user_mm;

/* The page_ext of @pfn, or NULL when the kernel would skip the page. */
static struct page_ext *kcore_ext(unsigned long pfn)
{
	struct page_ext *page_ext;
	struct page *page;

	if (!pfn_valid(pfn))
		return NULL;
	page = pfn_to_page(pfn);
	page_ext = page_ext_get(page);
	if (page_ext)
		BUG_ON(PageSlab(page));
	return page_ext;
}

static struct kmc_ptc_count *kcore_count(struct page_ext *page_ext)
{
	return (void *)((char *)page_ext + page_table_check_ops.offset);
}

_Noreturn static void kcore_bug(enum kmc_ptc_verdict v)
{
	kshim_bug("kmc_ptc", kmc_ptc_rule_name(v));
}

void kcore_set(unsigned long pfn, unsigned long pgcnt, bool rw)
{
	struct page_ext *page_ext = kcore_ext(pfn);
	enum kmc_ptc_verdict v;
	unsigned long i;
	bool anon;

	if (!page_ext)
		return;
	anon = PageAnon(pfn_to_page(pfn));
	for (i = 0; i < pgcnt; i++) {
		v = kmc_ptc_set_one(kcore_count(page_ext), anon, rw);
		if (unlikely(v))
			kcore_bug(v);
		page_ext = page_ext_next(page_ext);
	}
	page_ext_put(page_ext);
}

void kcore_clear(unsigned long pfn, unsigned long pgcnt)
{
	struct page_ext *page_ext = kcore_ext(pfn);
	enum kmc_ptc_verdict v;
	unsigned long i;
	bool anon;

	if (!page_ext)
		return;
	anon = PageAnon(pfn_to_page(pfn));
	for (i = 0; i < pgcnt; i++) {
		v = kmc_ptc_clear_one(kcore_count(page_ext), anon);
		if (unlikely(v))
			kcore_bug(v);
		page_ext = page_ext_next(page_ext);
	}
	page_ext_put(page_ext);
}

void kcore_zero(struct page *page, unsigned int order)
{
	struct page_ext *page_ext;
	enum kmc_ptc_verdict v;
	unsigned long i;

	BUG_ON(PageSlab(page));
	page_ext = page_ext_get(page);
	for (i = 0; i < (1UL << order); i++) {
		v = kmc_ptc_zero_one(kcore_count(page_ext));
		if (unlikely(v))
			kcore_bug(v);
		page_ext = page_ext_next(page_ext);
	}
	page_ext_put(page_ext);
}
