/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kmirror/ptc.h - the Linux page-table check (mm/page_table_check.c of
 * Linux 6.1) over a userspace model of physical memory.
 *
 * A ptc space holds two counters (anonymous and named mappings) for every
 * page frame number of the 64-bit PFN range; only the pages ever mapped
 * take memory.  Operations are the kernel's hooks:
 *
 *   kernel hook                              here
 *   page_table_check_alloc(page, order)      kmirror_ptc_alloc()
 *   page_table_check_free(page, order)       kmirror_ptc_free()
 *   page_table_check_{pte,pmd,pud}_set()     kmirror_ptc_set()
 *   page_table_check_{pte,pmd,pud}_clear()   kmirror_ptc_clear()
 *
 * Each returns the verdict: KMIRROR_PTC_OK, or the rule the kernel would
 * BUG() on, with the counters left as the kernel leaves them at that
 * BUG() (pages before the offending one updated, see core/kmc_ptc.h); or
 * a negative errno: -EINVAL for a level or order out of range or a PFN not
 * aligned to the entry or block size (hardware and the buddy allocator
 * cannot produce one), -ENOMEM or -ENOSPC (over the cap set with
 * kmirror_ptc_set_mem_max(); nothing was counted).
 *
 * "anon" is PageAnon() of the page at the time of the call, as the kernel
 * reads it (of the first page, for the whole entry): a property of the
 * page, not of the mapping.  Every PFN is memory with a page_ext here; the
 * hooks' own filters (init_mm, special and non-user entries, the huge zero
 * page) are the caller's: an operation is an entry that passed them.
 *
 * Every function is thread-safe, except kmirror_ptc_destroy(), which must
 * be the last call on a space.
 */
#ifndef KMIRROR_PTC_H
#define KMIRROR_PTC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

enum kmirror_ptc_level {
	KMIRROR_PTC_PTE = 0,		/* 1 page */
	KMIRROR_PTC_PMD = 1,		/* 512 pages (2 MiB) */
	KMIRROR_PTC_PUD = 2,		/* 262144 pages (1 GiB) */
};

/* Largest alloc/free order (a 1 GiB block). */
#define KMIRROR_PTC_MAX_ORDER	18

/* The verdicts; kmirror_ptc_rule_name() gives the stable names. */
enum kmirror_ptc_verdict {
	KMIRROR_PTC_OK = 0,
	KMIRROR_PTC_ANON_MAP_OF_FILE_MAPPED = 1,
	KMIRROR_PTC_ANON_RW_DOUBLE_MAP = 2,
	KMIRROR_PTC_FILE_MAP_OF_ANON_MAPPED = 3,
	KMIRROR_PTC_FILE_MAP_OVERFLOW = 4,
	KMIRROR_PTC_ANON_UNMAP_OF_FILE_MAPPED = 5,
	KMIRROR_PTC_ANON_UNMAP_UNDERFLOW = 6,
	KMIRROR_PTC_FILE_UNMAP_OF_ANON_MAPPED = 7,
	KMIRROR_PTC_FILE_UNMAP_UNDERFLOW = 8,
	KMIRROR_PTC_STILL_ANON_MAPPED = 9,
	KMIRROR_PTC_STILL_FILE_MAPPED = 10,
};

enum kmirror_ptc_opcode {
	KMIRROR_PTC_ALLOC = 0,
	KMIRROR_PTC_FREE = 1,
	KMIRROR_PTC_SET = 2,
	KMIRROR_PTC_CLEAR = 3,
};

/* One operation: one line of a trace. */
struct kmirror_ptc_op {
	enum kmirror_ptc_opcode code;
	enum kmirror_ptc_level level;	/* set, clear */
	unsigned int order;		/* alloc, free */
	uint64_t pfn;			/* first page */
	bool anon;			/* set, clear: PageAnon() of the page */
	bool rw;			/* set: the new entry is writable */
};

struct kmirror_ptc;

/* A space with every counter at zero.  0, or -ENOMEM. */
int kmirror_ptc_create(struct kmirror_ptc **ptc);
void kmirror_ptc_destroy(struct kmirror_ptc *ptc);

/*
 * Cap the memory the counters of @ptc may take at @bytes (0: no cap, the
 * default), so that a trace from anyone cannot take memory without
 * bound: each 4 KiB holds the counters of 512 pages, a PUD set needs 2
 * MiB.  An operation that would pass the cap fails with -ENOSPC.  Call
 * it before any operation.
 */
void kmirror_ptc_set_mem_max(struct kmirror_ptc *ptc, size_t bytes);

/*
 * Apply @op.  Returns the verdict (>= 0) or a negative errno (above).  On
 * a violation, *@where (if not NULL) is the PFN of the offending page.
 */
int kmirror_ptc_apply(struct kmirror_ptc *ptc,
		      const struct kmirror_ptc_op *op, uint64_t *where);

int kmirror_ptc_set(struct kmirror_ptc *ptc, enum kmirror_ptc_level level,
		    uint64_t pfn, bool anon, bool rw);
int kmirror_ptc_clear(struct kmirror_ptc *ptc, enum kmirror_ptc_level level,
		      uint64_t pfn, bool anon);
int kmirror_ptc_alloc(struct kmirror_ptc *ptc, uint64_t pfn,
		      unsigned int order);
int kmirror_ptc_free(struct kmirror_ptc *ptc, uint64_t pfn,
		     unsigned int order);

/* The counters of page @pfn (zero for a page never mapped). */
void kmirror_ptc_counts(const struct kmirror_ptc *ptc, uint64_t pfn,
			int *anon_map_count, int *file_map_count);

/* "ok", "anon-rw-double-map", ...; NULL for anything else. */
const char *kmirror_ptc_rule_name(int verdict);

/*
 * The trace format: one operation a line, '#' starts a comment, fields
 * separated by spaces or tabs, a line ending in "\r\n" is accepted:
 *
 *   alloc PFN ORDER                        (ORDER 0..18)
 *   free PFN ORDER
 *   set pte|pmd|pud PFN anon|file rw|ro
 *   clear pte|pmd|pud PFN anon|file
 *
 * PFN is decimal (no leading zeros) or hexadecimal with 0x, at most 64
 * bits, aligned to the entry (512, 262144 pages) or block (2^ORDER pages).
 * Lines are at most KMIRROR_PTC_LINE_MAX bytes; NUL bytes and other
 * control characters are errors.
 */
#define KMIRROR_PTC_LINE_MAX	4096

/*
 * Parse one line (@len bytes, without its '\n').  1: *@op holds the
 * operation; 0: blank or comment only; -EINVAL: malformed, @why (of @size
 * bytes) says why, e.g. "unknown operation 'map'".
 */
int kmirror_ptc_parse_line(const char *line, size_t len,
			   struct kmirror_ptc_op *op, char *why, size_t size);

/* Where a replay stopped. */
struct kmirror_ptc_replay {
	unsigned long line;	/* violation or error line; else lines read */
	int verdict;		/* KMIRROR_PTC_OK or the first violation */
	uint64_t pfn;		/* the offending page of a violation */
	int error;		/* 0, -EINVAL (bad line), -EIO, -ENOMEM,
				 * -ENOSPC (over the memory cap) */
	char why[160];		/* the error in words */
};

/*
 * Replay a trace into @ptc, stopping at the first violation or bad line,
 * whichever comes first (like the kernel, which BUG()s on the spot).
 * Returns 0 when every line replayed clean, 1 on a violation, or the
 * negative errno of @res->error.
 */
int kmirror_ptc_replay(struct kmirror_ptc *ptc, FILE *in,
		       struct kmirror_ptc_replay *res);
int kmirror_ptc_replay_buf(struct kmirror_ptc *ptc, const char *buf,
			   size_t len, struct kmirror_ptc_replay *res);

#ifdef __cplusplus
}
#endif

#endif /* KMIRROR_PTC_H */
