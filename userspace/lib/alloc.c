// SPDX-License-Identifier: GPL-2.0-only
/*
 * Userspace backing for kcompat/slab.h: counted, fault-injectable kmalloc.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "kcompat.h"

static atomic_long live_allocs;
static atomic_uint fail_next;

void kmc_alloc_fail_next(unsigned int n)
{
	atomic_store(&fail_next, n);
}

long kmc_alloc_live(void)
{
	return atomic_load(&live_allocs);
}

/* Consume one injected failure if any are pending. */
static bool kmc_alloc_should_fail(void)
{
	unsigned int n = atomic_load(&fail_next);

	while (n) {
		if (atomic_compare_exchange_weak(&fail_next, &n, n - 1))
			return true;
	}
	return false;
}

void *kmc_alloc(size_t size, gfp_t gfp)
{
	void *p;

	if (kmc_alloc_should_fail())
		return NULL;
	p = (gfp & __GFP_ZERO) ? calloc(1, size ? size : 1) :
				 malloc(size ? size : 1);
	if (p)
		atomic_fetch_add(&live_allocs, 1);
	return p;
}

void kmc_free(const void *p)
{
	if (!p)
		return;
	atomic_fetch_sub(&live_allocs, 1);
	free((void *)p);
}
