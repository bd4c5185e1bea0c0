/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * <linux/mm.h> as mm/page_table_check.c of the 6.1 tree needs it, so that
 * the tree's file compiles unmodified for the differential test and the
 * benchmark.  Atomics come from the userspace kcompat (C11).
 *   duplicated: x86-64 entry bits and *_user_accessible_page(), the
 *               page_ext layout (flags word, then each user's data at its
 *               offset, page_ext_next() by page_ext_size), IS_ENABLED()
 *   custom:     CONFIG_PAGE_TABLE_CHECK=y (and nothing else),
 *               struct page (one flags word: anon, slab), pfn_valid() and
 *               page_ext_get() over the harness's window of pages,
 *               page_ext_get/put() counting the RCU read side they hold,
 *               BUG_ON() recording and unwinding (kshim.h), strtobool()
 *   stubbed:    __init/__initdata, early_param (kept referenced only),
 *               pte_offset_map() (the tests never walk a PTE table; it
 *               aborts if called)
 */
#ifndef KMIRROR_KSHIM_MM_H
#define KMIRROR_KSHIM_MM_H

#include "kcompat.h"
#include "kshim.h"

/* ---- kernel basics ------------------------------------------------- */

#define CONFIG_PAGE_TABLE_CHECK 1	/* the configuration under test */

#define __init
#define __initdata
#define early_param(str, fn) \
	static int (*const kshim_early_##fn)(char *) __attribute__((unused)) = fn

#include "linux/kconfig.h"

#define BUG_ON(cond)							\
	do {								\
		if (unlikely(cond))					\
			kshim_bug(__func__, #cond);			\
	} while (0)

int strtobool(const char *s, bool *res);

struct mm_struct {
	int kshim_id;
};
extern struct mm_struct init_mm;

/* ---- struct page over the harness's window --------------------------- */

#define KSHIM_PG_ANON	0x1UL	/* PAGE_MAPPING_ANON in page->mapping */
#define KSHIM_PG_SLAB	0x2UL

struct page {
	unsigned long flags;
};

extern struct page *kshim_mem_map;
extern unsigned long kshim_pages;
extern unsigned long kshim_huge_zero_pfn;

#define pfn_valid(pfn)		((unsigned long)(pfn) < kshim_pages)
#define pfn_to_page(pfn)	(kshim_mem_map + (pfn))
#define page_to_pfn(page)	((unsigned long)((page) - kshim_mem_map))
#define PageAnon(page)		(!!((page)->flags & KSHIM_PG_ANON))
#define PageSlab(page)		(!!((page)->flags & KSHIM_PG_SLAB))
#define is_huge_zero_page(page)	(page_to_pfn(page) == kshim_huge_zero_pfn)

/* ---- <linux/page_ext.h> ---------------------------------------------- */

struct page_ext_operations {
	size_t offset;
	size_t size;
	bool (*need)(void);
	void (*init)(void);
};

struct page_ext {
	unsigned long flags;
};

extern unsigned long page_ext_size;
extern char *kshim_page_ext;

static inline struct page_ext *page_ext_get(struct page *page)
{
	kshim_rcu_depth++;
	return (struct page_ext *)(kshim_page_ext +
				   page_ext_size * page_to_pfn(page));
}

static inline void page_ext_put(struct page_ext *page_ext)
{
	if (unlikely(!page_ext))
		return;
	kshim_rcu_depth--;
}

static inline struct page_ext *page_ext_next(struct page_ext *curr)
{
	return (struct page_ext *)((char *)curr + page_ext_size);
}

/* ---- x86-64 page-table entries ----------------------------------------- */

#define _PAGE_PRESENT	0x001UL
#define _PAGE_RW	0x002UL
#define _PAGE_USER	0x004UL
#define _PAGE_ACCESSED	0x020UL
#define _PAGE_DIRTY	0x040UL
#define _PAGE_PSE	0x080UL
#define _PAGE_SPECIAL	0x200UL
#define _KERNPG_TABLE	(_PAGE_PRESENT | _PAGE_RW | _PAGE_ACCESSED | \
			 _PAGE_DIRTY)
#define KSHIM_PFN_MASK	0x000ffffffffff000UL

#define PMD_SIZE	(PAGE_SIZE << 9)
#define PUD_SIZE	(PAGE_SIZE << 18)
#define PTRS_PER_PTE	512

typedef struct { unsigned long pte; } pte_t;
typedef struct { unsigned long pmd; } pmd_t;
typedef struct { unsigned long pud; } pud_t;

#define pte_val(x)	((x).pte)
#define pmd_val(x)	((x).pmd)
#define pud_val(x)	((x).pud)

#define pte_pfn(x)	((pte_val(x) & KSHIM_PFN_MASK) >> PAGE_SHIFT)
#define pmd_pfn(x)	((pmd_val(x) & KSHIM_PFN_MASK) >> PAGE_SHIFT)
#define pud_pfn(x)	((pud_val(x) & KSHIM_PFN_MASK) >> PAGE_SHIFT)
#define pte_write(x)	(!!(pte_val(x) & _PAGE_RW))
#define pmd_write(x)	(!!(pmd_val(x) & _PAGE_RW))
#define pud_write(x)	(!!(pud_val(x) & _PAGE_RW))
#define pte_special(x)	(!!(pte_val(x) & _PAGE_SPECIAL))
#define pmd_leaf(x)	(!!(pmd_val(x) & _PAGE_PSE))
#define pud_leaf(x)	(!!(pud_val(x) & _PAGE_PSE))
#define pmd_bad(x)	((pmd_val(x) & ~KSHIM_PFN_MASK & ~_PAGE_USER) != \
			 _KERNPG_TABLE)

static inline bool pte_user_accessible_page(pte_t pte)
{
	return (pte_val(pte) & _PAGE_PRESENT) && (pte_val(pte) & _PAGE_USER);
}

static inline bool pmd_user_accessible_page(pmd_t pmd)
{
	return pmd_leaf(pmd) && (pmd_val(pmd) & _PAGE_PRESENT) &&
	       (pmd_val(pmd) & _PAGE_USER);
}

static inline bool pud_user_accessible_page(pud_t pud)
{
	return pud_leaf(pud) && (pud_val(pud) & _PAGE_PRESENT) &&
	       (pud_val(pud) & _PAGE_USER);
}

pte_t *kshim_pte_offset_map(pmd_t *pmd, unsigned long addr);
#define pte_offset_map(pmd, addr)	kshim_pte_offset_map(pmd, addr)
#define pte_unmap(pte)			((void)(pte))

#endif
