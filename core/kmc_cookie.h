/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fscache data cookies: index keys, aux data and object size, as
 * fs/fscache/cookie.c and include/linux/fscache.h of the 6.1 tree accept,
 * pad, hash and compare them.  The state machine lives in
 * kmc_cookie_state.h.
 *
 * __fscache_acquire_cookie() refuses (returns NULL, silently):
 *   no key (NULL or length 0), key length > 255, aux length > 255.  The aux
 *   length is checked before a NULL aux pointer turns it into 0, so
 *   (NULL, 300) is refused too; (NULL, n) and (p, 0) mean "no aux".
 * fscache_set_key(): the key is copied into a zeroed buffer of
 *   round_up(klen, 4) bytes and key_hash = fscache_hash(volume key_hash,
 *   buf, round_up(klen, 4)).  Keys up to 16 bytes are kept inline, aux up
 *   to 8 bytes inline (a storage detail with no visible effect).
 * fscache_cookie_same(): same key_hash, same volume, same key_len, same
 *   key_len bytes.
 * fscache_hash_cookie(): a candidate whose key is the same as a cookie of
 *   the same volume that is not relinquished is a duplicate: the kernel
 *   prints "Duplicate cookie detected" and acquire returns NULL.  If that
 *   cookie is relinquished, the candidate is hashed anyway and waits until
 *   the old one reaches DROPPED.  See kmc_cookie_hash_verdict().
 * fscache_update_aux() / __fscache_update_cookie(): new aux data replaces
 *   exactly aux_len bytes (the length fixed at acquire); a new object size
 *   replaces the old one; the cookie gets NEEDS_UPDATE.  An object size of
 *   0 at acquire means "no data to read" (fscache_alloc_cookie()).  Sizes
 *   are loff_t: the kernel takes negative ones without complaint, and so
 *   does the core.
 */
#ifndef KMC_COOKIE_H
#define KMC_COOKIE_H

#include "kcompat.h"
#include "kmc_hash.h"
#include "kmc_volume.h"

/* __fscache_acquire_cookie(): index_key_len > 255 is refused. */
#define KMC_COOKIE_KEY_MAX		255
/* __fscache_acquire_cookie(): aux_data_len > 255 is refused. */
#define KMC_COOKIE_AUX_MAX		255
/* struct fscache_cookie inline_key[16] / inline_aux[8]. */
#define KMC_COOKIE_INLINE_KEY		16
#define KMC_COOKIE_INLINE_AUX		8
/* Size of the padded key buffer fscache_set_key() hashes. */
#define KMC_COOKIE_BUF_LEN(klen)	round_up((klen), 4)
#define KMC_COOKIE_BUF_MAX		KMC_COOKIE_BUF_LEN(KMC_COOKIE_KEY_MAX)

/*
 * __fscache_acquire_cookie()'s argument check.  0, or -EINVAL for a NULL
 * or empty key, -EMSGSIZE for a key or aux length over 255.  @aux may be
 * NULL with any @auxlen (only the length is judged, as in the kernel).
 */
int kmc_cookie_check(const void *key, size_t klen, const void *aux,
		     size_t auxlen);
/*
 * The aux length a cookie keeps: 0 if @aux is NULL, else @auxlen (0 too
 * for a length kmc_cookie_check() refuses).
 */
unsigned int kmc_cookie_aux_len(const void *aux, size_t auxlen);

/*
 * fscache_set_key(): copy @key into @buf (@size bytes, at least
 * KMC_COOKIE_BUF_LEN(klen)) and zero the padding.  Returns the padded
 * length, the errors of kmc_cookie_check() for the key, or -ENOSPC.
 */
int kmc_cookie_key_build(const void *key, size_t klen, u8 *buf, size_t size);
/* key_hash of a padded buffer: fscache_hash(volume_hash, buf, buflen). */
static inline u32 kmc_cookie_key_hash(u32 volume_hash, const u8 *buf,
				      size_t buflen)
{
	return kmc_hash(volume_hash, buf, buflen);
}

/*
 * key_hash straight from an unpadded key of @klen bytes (reads exactly
 * @klen bytes, pads virtually).  Errors as kmc_cookie_key_build(): the
 * length rule of fscache_acquire_cookie().
 */
static inline int kmc_cookie_key_check(const void *key, size_t klen)
{
	if (!key || !klen)
		return -EINVAL;
	if (klen > KMC_COOKIE_KEY_MAX)
		return -EMSGSIZE;
	return 0;
}

static inline int kmc_cookie_hash(u32 volume_hash, const void *key,
				  size_t klen, u32 *hash)
{
	int ret = kmc_cookie_key_check(key, klen);

	if (ret)
		return ret;
	*hash = kmc_hash_padded(volume_hash, key, klen);
	return 0;
}

/* The cachefiles fan-out directory of a cookie: (u8)key_hash. */
static inline unsigned int kmc_cookie_fanout(u32 key_hash)
{
	return (u8)key_hash;
}

/*
 * fscache_cookie_same() without the volume pointer comparison, which is
 * the caller's.  Reads @alen bytes of @a and @blen of @b (only if hashes
 * and lengths are equal).
 */
static inline bool kmc_cookie_same(u32 a_hash, const void *a,
				   unsigned int alen, u32 b_hash,
				   const void *b, unsigned int blen)
{
	if (a_hash != b_hash || alen != blen)
		return false;
	return memcmp(a, b, alen) == 0;
}

/*
 * fscache_hash_cookie()'s decision for one bucket entry: @same from
 * kmc_cookie_same() (same volume too), @relinquished from the entry's
 * FSCACHE_COOKIE_RELINQUISHED bit.  DUPLICATE: acquire returns NULL
 * ("Duplicate cookie detected"); WAIT: take a ref on the old cookie,
 * hash the candidate, then wait until the old cookie's state is DROPPED.
 */
static inline enum kmc_hash_verdict
kmc_cookie_hash_verdict(bool same, bool relinquished)
{
	if (!same)
		return KMC_HASH_CONTINUE;
	return relinquished ? KMC_HASH_WAIT : KMC_HASH_DUPLICATE;
}

/*
 * fscache_update_aux(): if @new_aux is not NULL, copy exactly @aux_len
 * bytes of it over @aux; if @new_size is not NULL, store it in *@size.
 * (The kernel's NULL check on the aux pointer never fires: fscache_get_aux()
 * always gives a buffer, even for aux_len 0.)
 */
void kmc_cookie_update_aux(u8 *aux, unsigned int aux_len, s64 *size,
			   const void *new_aux, const s64 *new_size);

#endif
