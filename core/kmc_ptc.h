/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Page-table check accounting, verdict for verdict the rules of
 * mm/page_table_check.c in the 6.1 tree.
 *
 * Every page carries two counters: how many user page-table entries map it
 * while it is an anonymous page, and how many while it is a named (file,
 * shmem, DAX, device) page.  "Anonymous" is a property of the page
 * (PageAnon of the first page of the range) at the time of the call, not of
 * the mapping.  The rules (page_table_check_set/clear and
 * __page_table_check_zero, checked in this order for each page):
 *
 *   set anon:   file count must be 0; then anon count += 1, and a writable
 *               mapping must leave it at 1 (a read-only one may share)
 *   set file:   anon count must be 0; then file count += 1 (must stay >= 0)
 *   clear anon: file count must be 0; then anon count -= 1 (must stay >= 0)
 *   clear file: anon count must be 0; then file count -= 1 (must stay >= 0)
 *   zero:       anon count, then file count, must be 0 (page allocated or
 *               freed)
 *
 * The kernel's reading of the "Double mapping detection logic" table is
 * narrower than the table: only the permission of the NEW mapping is
 * looked at.  A read-only anonymous mapping may join a writable one, and a
 * writable one is refused only when it is the second (or later) mapping.
 * anon_map_count is never checked for overflow; it wraps as atomic_t does.
 *
 * State after a violation.  The kernel BUG()s in the middle of its loop
 * over the pages of the range; the core stops at the same point and leaves
 * the counters exactly as the kernel does at its BUG():
 *   - pages before the offending one are fully updated;
 *   - the offending page is untouched when the type check failed
 *     (atomic_read of the other counter), and updated when the increment or
 *     decrement itself gave the verdict (it already happened);
 *   - pages after it are untouched.
 * Differential tests compare the counters, not only the verdicts.
 *
 * Everything on the hot path is static inline over a struct kmc_ptc_count
 * that the caller locates (the kernel in page_ext, userspace in its own
 * sparse space), so the kernel pays nothing for sharing.  The kernel build
 * BUG()s on any verdict other than KMC_PTC_OK; userspace returns it.
 */
#ifndef KMC_PTC_H
#define KMC_PTC_H

#include "kcompat.h"

/* Pages per entry: PAGE_SIZE, PMD_SIZE, PUD_SIZE >> PAGE_SHIFT on x86-64. */
#define KMC_PTC_PMD_SHIFT	9
#define KMC_PTC_PUD_SHIFT	18

enum kmc_ptc_level {
	KMC_PTC_PTE,
	KMC_PTC_PMD,
	KMC_PTC_PUD,
	KMC_PTC_LEVEL_NR
};

/*
 * Largest block the trace and userspace API take for alloc/free: the
 * buddy allocator stops at order MAX_ORDER - 1 = 10, but a 1 GiB page
 * (the largest thing a PUD maps) may be accounted as one block.
 */
#define KMC_PTC_MAX_ORDER	KMC_PTC_PUD_SHIFT

/* The kernel's struct page_table_check, field for field. */
struct kmc_ptc_count {
	atomic_t anon_map_count;
	atomic_t file_map_count;
};

/*
 * One value per BUG_ON() of mm/page_table_check.c that the counters can
 * trip.  Names (kmc_ptc_rule_name()) are stable: traces and scripts match
 * on them.  The PageSlab() and !page_ext BUG_ONs concern the page, not the
 * counters: the kernel keeps them as they are.
 */
enum kmc_ptc_verdict {
	KMC_PTC_OK = 0,
	KMC_PTC_ANON_MAP_OF_FILE_MAPPED,	/* set anon, file count != 0 */
	KMC_PTC_ANON_RW_DOUBLE_MAP,		/* set anon rw, anon count > 1 */
	KMC_PTC_FILE_MAP_OF_ANON_MAPPED,	/* set file, anon count != 0 */
	KMC_PTC_FILE_MAP_OVERFLOW,		/* set file, file count < 0 */
	KMC_PTC_ANON_UNMAP_OF_FILE_MAPPED,	/* clear anon, file count != 0 */
	KMC_PTC_ANON_UNMAP_UNDERFLOW,		/* clear anon, anon count < 0 */
	KMC_PTC_FILE_UNMAP_OF_ANON_MAPPED,	/* clear file, anon count != 0 */
	KMC_PTC_FILE_UNMAP_UNDERFLOW,		/* clear file, file count < 0 */
	KMC_PTC_STILL_ANON_MAPPED,		/* zero, anon count != 0 */
	KMC_PTC_STILL_FILE_MAPPED,		/* zero, file count != 0 */
	KMC_PTC_VERDICT_NR
};

/* "ok", "anon-rw-double-map", ...; NULL for a value out of range. */
const char *kmc_ptc_rule_name(unsigned int verdict);
/* The verdict named @name (@len bytes), or -EINVAL. */
int kmc_ptc_rule_parse(const char *name, size_t len);

/* Pages one entry of @level maps: 1, 512 or 262144 (@level is valid). */
static inline unsigned long kmc_ptc_level_pages(enum kmc_ptc_level level)
{
	BUILD_BUG_ON(KMC_PTC_PUD_SHIFT != 2 * KMC_PTC_PMD_SHIFT);
	return 1UL << (level * KMC_PTC_PMD_SHIFT);
}

/*
 * A user entry now maps the page of @ptc (page_table_check_set() for one
 * page).  On a verdict the counters are as the kernel leaves them at its
 * BUG_ON(): see the top of this file.
 */
static inline enum kmc_ptc_verdict
kmc_ptc_set_one(struct kmc_ptc_count *ptc, bool anon, bool rw)
{
	if (anon) {
		if (unlikely(atomic_read(&ptc->file_map_count)))
			return KMC_PTC_ANON_MAP_OF_FILE_MAPPED;
		if (unlikely(atomic_inc_return(&ptc->anon_map_count) > 1 && rw))
			return KMC_PTC_ANON_RW_DOUBLE_MAP;
		return KMC_PTC_OK;
	}
	if (unlikely(atomic_read(&ptc->anon_map_count)))
		return KMC_PTC_FILE_MAP_OF_ANON_MAPPED;
	if (unlikely(atomic_inc_return(&ptc->file_map_count) < 0))
		return KMC_PTC_FILE_MAP_OVERFLOW;
	return KMC_PTC_OK;
}

/* A user entry no longer maps the page (page_table_check_clear()). */
static inline enum kmc_ptc_verdict
kmc_ptc_clear_one(struct kmc_ptc_count *ptc, bool anon)
{
	if (anon) {
		if (unlikely(atomic_read(&ptc->file_map_count)))
			return KMC_PTC_ANON_UNMAP_OF_FILE_MAPPED;
		if (unlikely(atomic_dec_return(&ptc->anon_map_count) < 0))
			return KMC_PTC_ANON_UNMAP_UNDERFLOW;
		return KMC_PTC_OK;
	}
	if (unlikely(atomic_read(&ptc->anon_map_count)))
		return KMC_PTC_FILE_UNMAP_OF_ANON_MAPPED;
	if (unlikely(atomic_dec_return(&ptc->file_map_count) < 0))
		return KMC_PTC_FILE_UNMAP_UNDERFLOW;
	return KMC_PTC_OK;
}

/* The page is being allocated or freed: nothing may map it.  Reads only. */
static inline enum kmc_ptc_verdict
kmc_ptc_zero_one(const struct kmc_ptc_count *ptc)
{
	if (unlikely(atomic_read(&ptc->anon_map_count)))
		return KMC_PTC_STILL_ANON_MAPPED;
	if (unlikely(atomic_read(&ptc->file_map_count)))
		return KMC_PTC_STILL_FILE_MAPPED;
	return KMC_PTC_OK;
}

/* The counters of the page @stride bytes after those of @ptc. */
static inline struct kmc_ptc_count *kmc_ptc_next(struct kmc_ptc_count *ptc,
						 size_t stride)
{
	return (struct kmc_ptc_count *)((char *)ptc + stride);
}

/*
 * A run of @n pages counted at once: their counters lie @stride bytes
 * apart from @first on (the kernel's page_ext entries of one memory
 * section; sizeof(struct kmc_ptc_count) for a plain array), and @anon and
 * @rw hold for the whole run, as the kernel takes them from the first
 * page of a PMD or PUD.  Page by page, first page first, the rules of
 * kmc_ptc_set_one() and the rest, stopping at the first verdict like the
 * kernel's loop; *@done is the index of the offending page, or @n when all
 * passed.  The counters are then exactly as @n calls of the _one function
 * leave them.
 */
static inline enum kmc_ptc_verdict
kmc_ptc_set_run(struct kmc_ptc_count *first, size_t stride, unsigned long n,
		bool anon, bool rw, unsigned long *done)
{
	struct kmc_ptc_count *ptc = first;
	enum kmc_ptc_verdict v = KMC_PTC_OK;
	unsigned long i;

	/* Counted by index: a PTE's run of 1 compiles to no loop at all. */
	for (i = 0; i < n; i++, ptc = kmc_ptc_next(ptc, stride)) {
		v = kmc_ptc_set_one(ptc, anon, rw);
		if (unlikely(v))
			break;
	}
	*done = i;
	return v;
}

static inline enum kmc_ptc_verdict
kmc_ptc_clear_run(struct kmc_ptc_count *first, size_t stride,
		  unsigned long n, bool anon, unsigned long *done)
{
	struct kmc_ptc_count *ptc = first;
	enum kmc_ptc_verdict v = KMC_PTC_OK;
	unsigned long i;

	/* Counted by index: a PTE's run of 1 compiles to no loop at all. */
	for (i = 0; i < n; i++, ptc = kmc_ptc_next(ptc, stride)) {
		v = kmc_ptc_clear_one(ptc, anon);
		if (unlikely(v))
			break;
	}
	*done = i;
	return v;
}

/*
 * Both counters of a page at once: zero when nothing maps it.  One 8-byte
 * load where the compiler can; the verdict then comes from
 * kmc_ptc_zero_one(), which reads them one by one in the kernel's order.
 */
static inline u64 kmc_ptc_both(const struct kmc_ptc_count *ptc)
{
	u64 both;

	BUILD_BUG_ON(sizeof(*ptc) != sizeof(both));
	memcpy(&both, ptc, sizeof(both));
	return both;
}

static inline enum kmc_ptc_verdict
kmc_ptc_zero_run(const struct kmc_ptc_count *first, size_t stride,
		 unsigned long n, unsigned long *done)
{
	const char *at = (const char *)first;
	enum kmc_ptc_verdict v;
	unsigned long i = 0;

	/*
	 * Four pages a step while four are left (a block of order 2 or
	 * more): one test of their counters OR'ed together.  At the first
	 * non-zero one the loop below looks at those four page by page, so
	 * the verdict and *@done are the same.
	 */
	for (; n - i >= 4; i += 4, at += 4 * stride) {
		if (unlikely(kmc_ptc_both((const void *)at) |
			     kmc_ptc_both((const void *)(at + stride)) |
			     kmc_ptc_both((const void *)(at + 2 * stride)) |
			     kmc_ptc_both((const void *)(at + 3 * stride))))
			break;
	}
	/* Counted by index: a run of 1 (a single page) is one test. */
	for (; i < n; i++, at += stride) {
		if (likely(!kmc_ptc_both((const void *)at)))
			continue;
		v = kmc_ptc_zero_one((const void *)at);
		if (v) {
			*done = i;
			return v;
		}
	}
	*done = n;
	return KMC_PTC_OK;
}

/* The same over @n contiguous counters (a plain array). */
static inline enum kmc_ptc_verdict
kmc_ptc_set_range(struct kmc_ptc_count *ptc, unsigned long n, bool anon,
		  bool rw, unsigned long *done)
{
	return kmc_ptc_set_run(ptc, sizeof(*ptc), n, anon, rw, done);
}

static inline enum kmc_ptc_verdict
kmc_ptc_clear_range(struct kmc_ptc_count *ptc, unsigned long n, bool anon,
		    unsigned long *done)
{
	return kmc_ptc_clear_run(ptc, sizeof(*ptc), n, anon, done);
}

static inline enum kmc_ptc_verdict
kmc_ptc_zero_range(const struct kmc_ptc_count *ptc, unsigned long n,
		   unsigned long *done)
{
	return kmc_ptc_zero_run(ptc, sizeof(*ptc), n, done);
}

#endif /* KMC_PTC_H */
