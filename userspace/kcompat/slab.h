/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * <linux/slab.h>: custom.  Allocations go through kmc_alloc(), which counts
 * live objects (tests assert zero after teardown) and can be told to fail the
 * next N calls, so that error paths are exercised like the kernel's
 * fault-injection framework does.
 */
#ifndef KMIRROR_KCOMPAT_SLAB_H
#define KMIRROR_KCOMPAT_SLAB_H

#include <stddef.h>

typedef unsigned int gfp_t;

#define GFP_KERNEL	0x0u
#define GFP_NOFS	0x0u
#define __GFP_ZERO	0x100u

void *kmc_alloc(size_t size, gfp_t gfp);
void kmc_free(const void *p);

/* Test hooks: fail the next @n allocations; count of live allocations. */
void kmc_alloc_fail_next(unsigned int n);
long kmc_alloc_live(void);

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

#endif
