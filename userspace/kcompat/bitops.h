/* SPDX-License-Identifier: GPL-2.0-only */
/* <linux/bitops.h>, <linux/log2.h>, <linux/hash.h>: duplicated. */
#ifndef KMIRROR_KCOMPAT_BITOPS_H
#define KMIRROR_KCOMPAT_BITOPS_H

#define BIT(nr) (1UL << (nr))

static inline u32 rol32(u32 word, unsigned int shift)
{
	return (word << (shift & 31)) | (word >> ((-shift) & 31));
}

/* ilog2(0) is undefined in the kernel too; callers check first. */
static inline int ilog2(u32 x)
{
	return 31 - __builtin_clz(x);
}

#define GOLDEN_RATIO_32 0x61C88647

static inline u32 __hash_32(u32 val)
{
	return val * GOLDEN_RATIO_32;
}

#endif
