/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The harness side of the shim under which tests/ptc compiles the tree's
 * mm/page_table_check.c unmodified (see linux/mm.h): a window of
 * KSHIM pages with a struct page and a page_ext each, and a BUG() that
 * records which BUG_ON fired and unwinds to the caller.
 */
#ifndef KMIRROR_KSHIM_H
#define KMIRROR_KSHIM_H

#include <setjmp.h>
#include <stdbool.h>

/* What the last BUG_ON() that fired said (its function and condition). */
struct kshim_bug {
	const char *func;
	const char *cond;
};

/*
 * Set up @nr_pages pages (mem_map and page_ext, page_table_check's
 * counters at their page_ext offset).  0 or -ENOMEM.
 */
int kshim_init(unsigned long nr_pages);
void kshim_exit(void);
unsigned long kshim_nr_pages(void);

/* PageAnon() of page @pfn from now on (page->mapping's anon bit). */
void kshim_set_anon(unsigned long pfn, bool anon);

/* page_table_check's counters of page @pfn. */
void kshim_counts(unsigned long pfn, int *anon, int *file);
void kshim_set_counts(unsigned long pfn, int anon, int file);

/* Zero the counters and flags of [@pfn, @pfn + @n). */
void kshim_reset(unsigned long pfn, unsigned long n);

/*
 * BUG() unwinds to the innermost armed jmp_buf of this thread, after
 * recording itself; with none armed it aborts the process.
 */
extern _Thread_local jmp_buf *kshim_bug_jmp;
extern _Thread_local struct kshim_bug kshim_last_bug;
/* page_ext_get() nesting (the RCU read side it stands for). */
extern _Thread_local int kshim_rcu_depth;

_Noreturn void kshim_bug(const char *func, const char *cond);

#endif
