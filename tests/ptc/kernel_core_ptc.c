// SPDX-License-Identifier: GPL-2.0-only
/*
 * page_table_check_set/clear and __page_table_check_zero as the kernel
 * patch shapes them: the page_ext of the first page, then the core's
 * kmc_ptc_*_run() over the entries page_ext_size bytes apart, BUG() on
 * any verdict.  Compiled under the same
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
	unsigned long done;

	if (!page_ext)
		return;
	v = kmc_ptc_set_run(kcore_count(page_ext), page_ext_size, pgcnt,
			    PageAnon(pfn_to_page(pfn)), rw, &done);
	if (unlikely(v))
		kcore_bug(v);
	page_ext_put(page_ext);
}

void kcore_clear(unsigned long pfn, unsigned long pgcnt)
{
	struct page_ext *page_ext = kcore_ext(pfn);
	enum kmc_ptc_verdict v;
	unsigned long done;

	if (!page_ext)
		return;
	v = kmc_ptc_clear_run(kcore_count(page_ext), page_ext_size, pgcnt,
			      PageAnon(pfn_to_page(pfn)), &done);
	if (unlikely(v))
		kcore_bug(v);
	page_ext_put(page_ext);
}

void kcore_zero(struct page *page, unsigned int order)
{
	struct page_ext *page_ext;
	enum kmc_ptc_verdict v;
	unsigned long done;

	BUG_ON(PageSlab(page));
	page_ext = page_ext_get(page);
	v = kmc_ptc_zero_run(kcore_count(page_ext), page_ext_size, 1UL << order,
			     &done);
	if (unlikely(v))
		kcore_bug(v);
	page_ext_put(page_ext);
}
