/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Rows of tests/vectors/ptc.vec as operations: shared by the cmocka suite
 * (tests/unit/test_ptc.c) and the differential test against the tree's
 * mm/page_table_check.c (tests/ptc/diff_ptc.c).
 */
#ifndef KMIRROR_PTC_VEC_H
#define KMIRROR_PTC_VEC_H

#include <stdlib.h>
#include <string.h>

#include "kmc_ptc.h"
#include "kmirror/ptc.h"
#include "kmv_tables.h"

struct ptc_vec_row {
	struct kmirror_ptc_op op;
	bool probe_only;	/* op "probe": nothing to apply */
	unsigned long pages;	/* pages the operation covers */
	int verdict;		/* expected kmc_ptc_verdict */
};

/* True when row @i of @rows starts a new case (fresh counters). */
static inline bool ptc_vec_new_case(const struct kmv_ptc *rows,
				    unsigned int i)
{
	return !i || strcmp(rows[i].name, rows[i - 1].name);
}

/* Decode @v into @r.  0, or -1 if the row is malformed. */
static inline int ptc_vec_decode(const struct kmv_ptc *v,
				 struct ptc_vec_row *r)
{
	static const char *const codes[] = { "alloc", "free", "set", "clear" };
	static const char *const levels[] = { "pte", "pmd", "pud" };
	unsigned int i;

	memset(r, 0, sizeof(*r));
	r->verdict = kmc_ptc_rule_parse(v->verdict, strlen(v->verdict));
	r->op.pfn = v->pfn;
	r->probe_only = !strcmp(v->op, "probe");
	if (r->probe_only)
		return r->verdict == KMC_PTC_OK ? 0 : -1;
	for (i = 0; i < ARRAY_SIZE(codes) && strcmp(v->op, codes[i]); i++)
		;
	if (i == ARRAY_SIZE(codes) || r->verdict < 0)
		return -1;
	r->op.code = (enum kmirror_ptc_opcode)i;
	if (r->op.code <= KMIRROR_PTC_FREE) {
		r->op.order = (unsigned int)atoi(v->size);
		r->pages = 1UL << r->op.order;
		return r->op.order <= KMC_PTC_MAX_ORDER ? 0 : -1;
	}
	for (i = 0; i < ARRAY_SIZE(levels) && strcmp(v->size, levels[i]); i++)
		;
	if (i == ARRAY_SIZE(levels))
		return -1;
	r->op.level = (enum kmirror_ptc_level)i;
	r->pages = kmc_ptc_level_pages((enum kmc_ptc_level)i);
	r->op.anon = !strcmp(v->type, "anon");
	r->op.rw = !strcmp(v->perm, "rw");
	return 0;
}

#endif
