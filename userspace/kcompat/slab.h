/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * <linux/slab.h>, <linux/vmalloc.h>: custom.  Allocations go through
 * kmc_alloc(), which counts live objects (tests assert zero after teardown)
 * and can be told to fail the next N calls, so that error paths are
 * exercised like the kernel's fault-injection framework does.
 *
 * __GFP_NOFAIL: the kernel side passes it to the allocator as is.  Here, as
 * in mm/vmalloc.c's retry loop, a failed attempt sleeps about one jiffy
 * (KMC_NOFAIL_SLEEP_US) and tries again, warns once per process, never
 * spins hot and never returns NULL.  Use it only where the kernel would: on
 * paths that cannot fail, such as relinquish.
 */
#ifndef KMIRROR_KCOMPAT_SLAB_H
#define KMIRROR_KCOMPAT_SLAB_H

#include <stddef.h>

typedef unsigned int gfp_t;

#define GFP_KERNEL	0x0u
#define GFP_NOFS	0x0u
#define __GFP_ZERO	0x100u
#define __GFP_NOFAIL	0x8000u

/* One jiffy at HZ=1000, the kernel's schedule_timeout_uninterruptible(1). */
#define KMC_NOFAIL_SLEEP_US	1000

void *kmc_alloc(size_t size, gfp_t gfp);
/* @align a power of two, @size a multiple of it (a kmem_cache's blocks). */
void *kmc_alloc_aligned(size_t size, size_t align, gfp_t gfp);
void kmc_free(const void *p);

/* Test hooks: fail the next @n allocation attempts; live allocations. */
void kmc_alloc_fail_next(unsigned int n);
long kmc_alloc_live(void);
/* Attempts that __GFP_NOFAIL retried since the process started. */
unsigned long kmc_alloc_nofail_retries(void);

static inline void *kmalloc(size_t size, gfp_t gfp)
{
	return kmc_alloc(size, gfp);
}

static inline void *kzalloc(size_t size, gfp_t gfp)
{
	return kmc_alloc(size, gfp | __GFP_ZERO);
}

static inline void kfree(const void *p)
{
	kmc_free(p);
}

/* vmalloc-backed in the kernel; the same heap here. */
static inline void *kvmalloc(size_t size, gfp_t gfp)
{
	return kmc_alloc(size, gfp);
}

static inline void *kvzalloc(size_t size, gfp_t gfp)
{
	return kmc_alloc(size, gfp | __GFP_ZERO);
}

static inline void kvfree(const void *p)
{
	kmc_free(p);
}

#endif
