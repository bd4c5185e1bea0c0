/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fscache index hash, bit-identical to fscache_hash() in
 * fs/fscache/main.c (derived from full_name_hash(), fixed so that it is the
 * same on every architecture).  Its low byte picks the cachefiles fan-out
 * directory, so it is on-disk format: never change it.
 *
 * Inline: every cookie lookup hashes its key, and the kernel pays nothing
 * for sharing the definition.
 */
#ifndef KMC_HASH_H
#define KMC_HASH_H

#include "kcompat.h"

/* HASH_MIX() of fs/fscache/main.c, as a function. */
static inline void kmc_hash_mix(u32 *x, u32 *y, u32 a)
{
	*x ^= a;
	*y ^= *x;
	*x = rol32(*x, 7);
	*x += *y;
	*y = rol32(*y, 20);
	*y *= 9;
}

static inline u32 kmc_fold_hash(u32 x, u32 y)
{
	return __hash_32(y ^ __hash_32(x));
}

/*
 * Hash @len bytes of @data, taken as little-endian 32-bit words.  Like the
 * kernel, a trailing partial word is ignored: callers pad keys to a multiple
 * of four with zeros first.  @data need not be aligned.
 */
static inline u32 kmc_hash(u32 salt, const void *data, size_t len)
{
	const u8 *p = data;
	u32 a, x = 0, y = salt;
	size_t n = len / sizeof(__le32);

	for (; n; n--, p += sizeof(__le32)) {
		a = get_unaligned_le32(p);
		kmc_hash_mix(&x, &y, a);
	}
	return kmc_fold_hash(x, y);
}

/*
 * The hash of @len bytes zero-padded to a multiple of four, as fscache
 * pads keys, without copying them: reads exactly @len bytes.
 */
static inline u32 kmc_hash_padded(u32 salt, const void *data, size_t len)
{
	const u8 *p = data;
	u32 a, x = 0, y = salt;
	size_t n = len / sizeof(__le32), i, tail = len % sizeof(__le32);

	for (; n; n--, p += sizeof(__le32)) {
		a = get_unaligned_le32(p);
		kmc_hash_mix(&x, &y, a);
	}
	if (tail) {
		for (a = 0, i = 0; i < tail; i++)
			a |= (u32)p[i] << (8 * i);
		kmc_hash_mix(&x, &y, a);
	}
	return kmc_fold_hash(x, y);
}

#endif
