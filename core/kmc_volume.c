// SPDX-License-Identifier: GPL-2.0-only
/*
 * fscache volume keys and coherency data: fs/fscache/volume.c of the 6.1
 * tree (fscache_alloc_volume(), fscache_volume_same(),
 * fscache_hash_volume(), __fscache_relinquish_volume()) and the naming
 * rules of fs/cachefiles/volume.c.  See kmc_volume.h for who rejects what.
 */
#include "kcompat.h"
#include "kmc_hash.h"
#include "kmc_volume.h"

/*
 * fscache_alloc_volume(): the key is a C string of at most NAME_MAX bytes.
 * A (buffer, length) pair is that string only if it holds no NUL.
 */
int kmc_volume_key_check(const char *key, size_t klen)
{
	if (klen > KMC_VOLUME_KEY_MAX)
		return -ENAMETOOLONG;
	if (klen && !key)
		return -EINVAL;
	if (klen && memchr(key, '\0', klen))
		return -EINVAL;
	return 0;
}
EXPORT_SYMBOL(kmc_volume_key_check);

/*
 * cachefiles_acquire_volume(): "I" + key goes through lookup_one_len(),
 * which refuses '/' and NUL with -EACCES (lookup_one_common()); the
 * backing filesystem refuses a 256-byte name with -ENAMETOOLONG.  The
 * leading 'I' keeps the name from being empty, "." or "..".
 */
int kmc_volume_key_check_cachefiles(const char *key, size_t klen)
{
	int ret = kmc_volume_key_check(key, klen);

	if (ret == -EINVAL && key)
		return -EACCES;	/* a NUL: lookup_one_common() */
	if (ret)
		return ret;
	if (klen && memchr(key, '/', klen))
		return -EACCES;	/* checked before the fs sees the length */
	if (klen > KMC_VOLUME_KEY_CACHEFILES_MAX)
		return -ENAMETOOLONG;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(kmc_volume_key_check_cachefiles);

/*
 * fscache_alloc_volume(): buf[0] = klen, the key, a NUL, zeros up to
 * round_up(1 + klen + 1, 4).  Invariant: every byte of the returned
 * length is written.
 */
int kmc_volume_key_build(const char *key, size_t klen, u8 *buf, size_t size)
{
	size_t hlen;
	int ret;

	ret = kmc_volume_key_check(key, klen);
	if (ret)
		return ret;
	hlen = KMC_VOLUME_BUF_LEN(klen);
	if (!buf || size < hlen)
		return -ENOSPC;
	memset(buf, 0, hlen);
	buf[0] = (u8)klen;
	if (klen)
		memcpy(buf + 1, key, klen);
	return (int)hlen;
}
EXPORT_SYMBOL(kmc_volume_key_build);

/* fscache_alloc_volume(): volume->key_hash = fscache_hash(0, key, hlen). */
u32 kmc_volume_key_hash(const u8 *buf, size_t hlen)
{
	return kmc_hash(0, buf, hlen);
}
EXPORT_SYMBOL(kmc_volume_key_hash);

/* Byte @i of the key buffer kmc_volume_key_build() makes for @key. */
static u8 kmc_volume_key_byte(const char *key, size_t klen, size_t i)
{
	if (!i)
		return (u8)klen;
	return i <= klen ? (u8)key[i - 1] : 0;
}

/*
 * kmc_volume_key_hash() of the built buffer, a word at a time from the
 * key itself: a built copy would take 260 bytes of stack.
 */
int kmc_volume_hash(const char *key, size_t klen, u32 *hash)
{
	u32 a, x = 0, y = 0;	/* kmc_hash() with salt 0 */
	size_t hlen, i, j;
	int ret;

	ret = kmc_volume_key_check(key, klen);
	if (ret)
		return ret;
	hlen = KMC_VOLUME_BUF_LEN(klen);
	for (i = 0; i < hlen; i += sizeof(__le32)) {
		for (a = 0, j = 0; j < sizeof(__le32); j++)
			a |= (u32)kmc_volume_key_byte(key, klen, i + j) <<
			     (8 * j);
		kmc_hash_mix(&x, &y, a);
	}
	*hash = kmc_fold_hash(x, y);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(kmc_volume_hash);

/*
 * fscache_volume_same(): hash, length byte, then round_up(key[0] + 1, 4)
 * bytes.  That span never passes the buffer: it is at most
 * round_up(key[0] + 2, 4), the built length.
 */
bool kmc_volume_same(const u8 *a, u32 a_hash, const u8 *b, u32 b_hash)
{
	size_t klen;

	if (a_hash != b_hash || a[0] != b[0])
		return false;
	klen = round_up((size_t)a[0] + 1, sizeof(__le32));
	return memcmp(a, b, klen) == 0;
}
EXPORT_SYMBOL(kmc_volume_same);

/*
 * fscache_hash_volume(): a live match is a collision (-EBUSY), a
 * relinquished one is waited for (FSCACHE_VOLUME_ACQUIRE_PENDING).
 */
enum kmc_hash_verdict kmc_volume_hash_verdict(bool same, bool relinquished)
{
	if (!same)
		return KMC_HASH_CONTINUE;
	return relinquished ? KMC_HASH_WAIT : KMC_HASH_DUPLICATE;
}
EXPORT_SYMBOL(kmc_volume_hash_verdict);

/*
 * fscache_alloc_volume(): "if (!coherency_data) coherency_len = 0;", then
 * the length goes into a u8.  The kernel truncates; the core refuses.
 */
int kmc_volume_coherency_len(const void *data, size_t len)
{
	if (!data)
		return 0;
	if (len > KMC_VOLUME_COHERENCY_MAX)
		return -EMSGSIZE;
	return (int)len;
}
EXPORT_SYMBOL(kmc_volume_coherency_len);

/* Copy the coherency data the volume keeps; returns its length. */
int kmc_volume_coherency_set(const void *data, size_t len, u8 *dst,
			     size_t size)
{
	int n = kmc_volume_coherency_len(data, len);

	if (n <= 0)
		return n;
	if (!dst || size < (size_t)n)
		return -ENOSPC;
	memcpy(dst, data, n);
	return n;
}
EXPORT_SYMBOL(kmc_volume_coherency_set);

/*
 * __fscache_relinquish_volume(): invalidate wins over new data; new data
 * replaces exactly the length fixed at acquire.
 */
bool kmc_volume_coherency_update(u8 *cur, unsigned int cur_len,
				 const void *data, bool invalidate)
{
	if (invalidate || !data)
		return false;
	if (cur_len)
		memcpy(cur, data, cur_len);
	return true;
}
EXPORT_SYMBOL(kmc_volume_coherency_update);
