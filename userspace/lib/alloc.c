// SPDX-License-Identifier: GPL-2.0-only
/*
 * Userspace backing for kcompat/slab.h: counted, fault-injectable kmalloc
 * with the kernel's __GFP_NOFAIL contract.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kcompat.h"

static atomic_long live_allocs;
static atomic_uint fail_next;
static atomic_ulong nofail_retries;
static atomic_flag nofail_warned = ATOMIC_FLAG_INIT;

void kmc_alloc_fail_next(unsigned int n)
{
	atomic_store(&fail_next, n);
}

long kmc_alloc_live(void)
{
	return atomic_load(&live_allocs);
}

unsigned long kmc_alloc_nofail_retries(void)
{
	return atomic_load(&nofail_retries);
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

static void *kmc_alloc_once(size_t size, size_t align, gfp_t gfp)
{
	void *p;

	if (kmc_alloc_should_fail())
		return NULL;
	if (!size)
		size = 1;
	if (!align)
		return (gfp & __GFP_ZERO) ? calloc(1, size) : malloc(size);
	p = aligned_alloc(align, size);
	if (p && (gfp & __GFP_ZERO))
		memset(p, 0, size);
	return p;
}

/* One failed __GFP_NOFAIL attempt: warn the first time, sleep a jiffy. */
static void kmc_alloc_nofail_backoff(size_t size)
{
	struct timespec ts = { 0, KMC_NOFAIL_SLEEP_US * 1000L };

	if (!atomic_flag_test_and_set(&nofail_warned))
		fprintf(stderr,
			"warning: kmirror: __GFP_NOFAIL allocation of %zu bytes failed, retrying\n",
			size);
	atomic_fetch_add(&nofail_retries, 1);
	while (nanosleep(&ts, &ts))
		;
}

static void *kmc_alloc_align(size_t size, size_t align, gfp_t gfp)
{
	void *p;

	while (!(p = kmc_alloc_once(size, align, gfp))) {
		if (!(gfp & __GFP_NOFAIL))
			return NULL;
		kmc_alloc_nofail_backoff(size);
	}
	atomic_fetch_add(&live_allocs, 1);
	return p;
}

void *kmc_alloc(size_t size, gfp_t gfp)
{
	return kmc_alloc_align(size, 0, gfp);
}

void *kmc_alloc_aligned(size_t size, size_t align, gfp_t gfp)
{
	return kmc_alloc_align(size, align, gfp);
}

void kmc_free(const void *p)
{
	if (!p)
		return;
	atomic_fetch_sub(&live_allocs, 1);
	free((void *)p);
}
