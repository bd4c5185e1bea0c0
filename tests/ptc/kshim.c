// SPDX-License-Identifier: GPL-2.0-only
/*
 * Runtime of the shim under which the tree's mm/page_table_check.c runs
 * (tests/kernel-shim/linux/mm.h): the window of struct pages and page_exts, init_mm,
 * strtobool() and the recording BUG().
 */
#include <stdio.h>
#include <stdlib.h>

#include <linux/mm.h>
#include <linux/page_table_check.h>

struct mm_struct init_mm;
struct page *kshim_mem_map;
unsigned long kshim_pages;
unsigned long kshim_huge_zero_pfn = ~0UL;
unsigned long page_ext_size;
char *kshim_page_ext;

_Thread_local jmp_buf *kshim_bug_jmp;
_Thread_local struct kshim_bug kshim_last_bug;
_Thread_local int kshim_rcu_depth;

_Noreturn void kshim_bug(const char *func, const char *cond)
{
	kshim_last_bug.func = func;
	kshim_last_bug.cond = cond;
	if (kshim_bug_jmp)
		longjmp(*kshim_bug_jmp, 1);
	fprintf(stderr, "kernel BUG in %s: BUG_ON(%s)\n", func, cond);
	abort();
}

/* kstrtobool() of lib/kstrtox.c, for the page_table_check= parameter. */
int strtobool(const char *s, bool *res)
{
	if (!s)
		return -EINVAL;
	switch (s[0]) {
	case 'y': case 'Y': case '1':
		*res = true;
		return 0;
	case 'n': case 'N': case '0':
		*res = false;
		return 0;
	case 'o': case 'O':
		if ((s[1] | 0x20) == 'n' || (s[1] | 0x20) == 'f') {
			*res = (s[1] | 0x20) == 'n';
			return 0;
		}
		break;
	}
	return -EINVAL;
}

pte_t *kshim_pte_offset_map(pmd_t *pmd, unsigned long addr)
{
	fprintf(stderr, "kshim: pte_offset_map() is not simulated\n");
	abort();
}

/* page_ext_init(): page_table_check's data after the flags word. */
int kshim_init(unsigned long nr_pages)
{
	page_table_check_ops.offset = sizeof(struct page_ext);
	page_ext_size = sizeof(struct page_ext) + page_table_check_ops.size;
	kshim_mem_map = calloc(nr_pages, sizeof(*kshim_mem_map));
	kshim_page_ext = calloc(nr_pages, page_ext_size);
	if (!kshim_mem_map || !kshim_page_ext) {
		kshim_exit();
		return -ENOMEM;
	}
	kshim_pages = nr_pages;
	return 0;
}

void kshim_exit(void)
{
	free(kshim_mem_map);
	free(kshim_page_ext);
	kshim_mem_map = NULL;
	kshim_page_ext = NULL;
	kshim_pages = 0;
}

unsigned long kshim_nr_pages(void)
{
	return kshim_pages;
}

void kshim_set_anon(unsigned long pfn, bool anon)
{
	if (anon)
		kshim_mem_map[pfn].flags |= KSHIM_PG_ANON;
	else
		kshim_mem_map[pfn].flags &= ~KSHIM_PG_ANON;
}

static atomic_t *kshim_counter(unsigned long pfn, bool anon)
{
	char *ext = kshim_page_ext + page_ext_size * pfn +
		    page_table_check_ops.offset;

	return (atomic_t *)ext + (anon ? 0 : 1);
}

void kshim_counts(unsigned long pfn, int *anon, int *file)
{
	*anon = atomic_read(kshim_counter(pfn, true));
	*file = atomic_read(kshim_counter(pfn, false));
}

void kshim_set_counts(unsigned long pfn, int anon, int file)
{
	atomic_set(kshim_counter(pfn, true), anon);
	atomic_set(kshim_counter(pfn, false), file);
}

void kshim_reset(unsigned long pfn, unsigned long n)
{
	memset(kshim_page_ext + page_ext_size * pfn, 0, page_ext_size * n);
	memset(kshim_mem_map + pfn, 0, sizeof(*kshim_mem_map) * n);
}
