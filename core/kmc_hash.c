// SPDX-License-Identifier: GPL-2.0-only
/*
 * fscache_hash(), derived from full_name_hash() but fixed so that it is the
 * same on every architecture: bits of it appear on disk.
 */
#include "kcompat.h"
#include "kmc_hash.h"

#define KMC_HASH_MIX(x, y, a)	\
	(	x ^= (a),	\
	y ^= x,	x = rol32(x, 7),\
	x += y,	y = rol32(y, 20),\
	y *= 9			)

static inline u32 kmc_fold_hash(u32 x, u32 y)
{
	return __hash_32(y ^ __hash_32(x));
}

/*
 * Hash @len bytes of @data, taken as little-endian 32-bit words.  Like the
 * kernel, a trailing partial word is ignored: callers pad keys to a multiple
 * of four with zeros first.  @data need not be aligned.
 */
u32 kmc_hash(u32 salt, const void *data, size_t len)
{
	const u8 *p = data;
	u32 a, x = 0, y = salt;
	size_t n = len / sizeof(__le32);

	for (; n; n--, p += sizeof(__le32)) {
		a = get_unaligned_le32(p);
		KMC_HASH_MIX(x, y, a);
	}
	return kmc_fold_hash(x, y);
}
EXPORT_SYMBOL(kmc_hash);
