/* SPDX-License-Identifier: GPL-2.0-only */
/* <linux/bitops.h>, <linux/hash.h>: duplicated (fls() in log2.h). */
#ifndef KMIRROR_KCOMPAT_BITOPS_H
#define KMIRROR_KCOMPAT_BITOPS_H

#define BIT(nr) (1UL << (nr))

static inline u32 rol32(u32 word, unsigned int shift)
{
	return (word << (shift & 31)) | (word >> ((-shift) & 31));
}

#define GOLDEN_RATIO_32 0x61C88647

static inline u32 __hash_32(u32 val)
{
	return val * GOLDEN_RATIO_32;
}

#endif
