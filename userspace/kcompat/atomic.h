/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * <linux/atomic.h>: custom, on C11 atomics, with the kernel's contract:
 *   - atomic_t is a struct, so plain arithmetic on it does not compile;
 *   - atomic_read()/atomic_set() are relaxed (READ_ONCE/WRITE_ONCE);
 *   - the value-returning read-modify-write operations are fully ordered;
 *   - arithmetic wraps in two's complement (the kernel builds with
 *     -fno-strict-overflow; C11 defines atomic signed arithmetic to wrap).
 * Only what the core uses is here.
 */
#ifndef KMIRROR_KCOMPAT_ATOMIC_H
#define KMIRROR_KCOMPAT_ATOMIC_H

#include <stdatomic.h>

typedef struct {
	_Atomic int counter;
} atomic_t;

#define ATOMIC_INIT(i)	{ (i) }

static inline int atomic_read(const atomic_t *v)
{
	return atomic_load_explicit(&v->counter, memory_order_relaxed);
}

static inline void atomic_set(atomic_t *v, int i)
{
	atomic_store_explicit(&v->counter, i, memory_order_relaxed);
}

/* The new value; computed unsigned so that INT_MAX + 1 wraps, not traps. */
static inline int atomic_add_return(int i, atomic_t *v)
{
	unsigned int old = (unsigned int)atomic_fetch_add(&v->counter, i);

	return (int)(old + (unsigned int)i);
}

static inline int atomic_inc_return(atomic_t *v)
{
	return atomic_add_return(1, v);
}

static inline int atomic_dec_return(atomic_t *v)
{
	return atomic_add_return(-1, v);
}

#endif
