/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * <linux/bitops.h>: the kernel's bit operations on one unsigned long, for
 * test shims that run the tree's own code in one thread (tests/fuzz/kref,
 * tests/cookie): the atomic ones need no atomicity there.
 */
#ifndef KMIRROR_TEST_BITOPS_1T_H
#define KMIRROR_TEST_BITOPS_1T_H

#include <stdbool.h>

static inline bool test_bit(int nr, const unsigned long *a)
{
	return *a & (1UL << nr);
}
static inline void set_bit(int nr, unsigned long *a) { *a |= 1UL << nr; }
static inline void clear_bit(int nr, unsigned long *a) { *a &= ~(1UL << nr); }
static inline bool test_and_set_bit(int nr, unsigned long *a)
{
	bool old = test_bit(nr, a);

	set_bit(nr, a);
	return old;
}
static inline bool test_and_clear_bit(int nr, unsigned long *a)
{
	bool old = test_bit(nr, a);

	clear_bit(nr, a);
	return old;
}

#endif
