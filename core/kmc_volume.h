/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fscache volume keys, as fs/fscache/volume.c of the 6.1 tree builds,
 * hashes, compares and accepts them, plus the volume coherency data.
 *
 * Key buffer (fscache_alloc_volume()):
 *
 *   buf[0] = klen, buf[1..klen] = key, buf[klen+1] = NUL, zeros up to
 *   hlen = round_up(1 + klen + 1, 4) bytes; key_hash = fscache_hash(0, buf,
 *   hlen).
 *
 * Who rejects what (a volume key is a C string in the kernel):
 *
 *   fscache layer, __fscache_acquire_volume() -> fscache_alloc_volume():
 *     klen > NAME_MAX (255)            refused; the kernel returns
 *                                      ERR_PTR(-ENOMEM) for it (every
 *                                      alloc failure is -ENOMEM there),
 *                                      kmc_volume_key_check() says
 *                                      -ENAMETOOLONG.
 *     anything else, even "" or '/'    accepted.
 *     a NUL inside the key             cannot be expressed (strlen()), so
 *                                      kmc_volume_key_check() refuses a
 *                                      (buffer, length) pair holding one
 *                                      with -EINVAL.
 *     same key, same cache, still live fscache_hash_volume(): -EBUSY
 *                                      (kmc_volume_hash_verdict()).
 *   cachefiles layer, cachefiles_acquire_volume() names the directory
 *   "I" + key and looks it up with lookup_one_len():
 *     '/' or NUL in the key            -EACCES (lookup_one_common())
 *     klen > NAME_MAX - 1              -ENAMETOOLONG (the backing fs, e.g.
 *                                      ext4_lookup(), refuses 256 bytes)
 *     "" is fine: the directory is "I".
 *   Failure there is silent for the netfs: the volume stays acquired but
 *   uncached (volume->cache_priv stays NULL, cookies stay QUIESCENT).
 *   kmc_volume_key_check_cachefiles() gives that second verdict.
 *
 * Coherency data (fscache_acquire_volume()'s coherency_data/len):
 *   struct fscache_volume keeps coherency_len in a u8, but
 *   fscache_alloc_volume() does not check the size_t it is given: a length
 *   over 255 is silently truncated to len & 0xff (volume.c:239), and
 *   cachefiles_set_volume_xattr() then stores only that many bytes.  The
 *   core refuses such a length (-EMSGSIZE) instead.  NULL data means length
 *   0.  __fscache_relinquish_volume() may overwrite the data, always with
 *   exactly coherency_len bytes: the length cannot change after acquire.
 *   The on-disk form (be32 0 + data) and its check live in kmc_xattr.h.
 */
#ifndef KMC_VOLUME_H
#define KMC_VOLUME_H

#include "kcompat.h"

/* fscache_alloc_volume(): klen > NAME_MAX is refused. */
#define KMC_VOLUME_KEY_MAX		NAME_MAX
/* Longest key cachefiles can make a directory of ("I" + key). */
#define KMC_VOLUME_KEY_CACHEFILES_MAX	(NAME_MAX - 1)
/* Size of the key buffer for a key of @klen bytes (klen <= 255). */
#define KMC_VOLUME_BUF_LEN(klen)	round_up(1 + (klen) + 1, 4)
/* Largest key buffer: 260 bytes. */
#define KMC_VOLUME_BUF_MAX		KMC_VOLUME_BUF_LEN(KMC_VOLUME_KEY_MAX)
/* struct fscache_volume: u8 coherency_len. */
#define KMC_VOLUME_COHERENCY_MAX	255

/*
 * What an index does with a candidate when it meets an entry of the same
 * bucket (fscache_hash_volume() and fscache_hash_cookie() share the rule).
 * The kernel walks a head-inserted bucket and stops at the first entry
 * with the same key, i.e. the newest one; an index must decide on that
 * same entry.
 */
enum kmc_hash_verdict {
	KMC_HASH_CONTINUE,	/* not the same key: look further */
	KMC_HASH_WAIT,		/* relinquished: insert, wait for it to go */
	KMC_HASH_DUPLICATE,	/* same key, live: refuse the candidate */
};

/*
 * fscache layer acceptance (fscache_alloc_volume()).  0, -ENAMETOOLONG
 * if @klen > KMC_VOLUME_KEY_MAX, -EINVAL for a NUL inside or a NULL @key
 * with @klen != 0.
 */
int kmc_volume_key_check(const char *key, size_t klen);
/*
 * cachefiles layer acceptance (cachefiles_acquire_volume()), for a key the
 * fscache layer accepted.  0, -EACCES for '/' or NUL (lookup_one_len()),
 * -ENAMETOOLONG if @klen > KMC_VOLUME_KEY_CACHEFILES_MAX, plus the errors
 * of kmc_volume_key_check().
 */
int kmc_volume_key_check_cachefiles(const char *key, size_t klen);

/*
 * Build the key buffer into @buf (@size bytes, at least
 * KMC_VOLUME_BUF_LEN(klen)).  Returns hlen, or the errors of
 * kmc_volume_key_check(), or -ENOSPC.  Nothing is written on error.
 */
int kmc_volume_key_build(const char *key, size_t klen, u8 *buf, size_t size);
/* key_hash of a built buffer of @hlen bytes: fscache_hash(0, buf, hlen). */
u32 kmc_volume_key_hash(const u8 *buf, size_t hlen);
/* Build + hash without a caller buffer; errors as kmc_volume_key_build(). */
int kmc_volume_hash(const char *key, size_t klen, u32 *hash);

/*
 * fscache_volume_same() without the cache pointer comparison, which is the
 * caller's (volumes of different caches never match).  @a and @b are built
 * key buffers with their hashes; reads at most round_up(buf[0] + 1, 4)
 * bytes of each, which a built buffer always has.
 */
bool kmc_volume_same(const u8 *a, u32 a_hash, const u8 *b, u32 b_hash);
/*
 * fscache_hash_volume()'s decision for one bucket entry: @same from
 * kmc_volume_same() (and the same cache), @relinquished from the entry's
 * FSCACHE_VOLUME_RELINQUISHED bit.  DUPLICATE makes acquire fail -EBUSY;
 * WAIT: set COLLIDED_WITH on the old entry, ACQUIRE_PENDING on the
 * candidate, insert it, and wait until the old one is unhashed.
 */
enum kmc_hash_verdict kmc_volume_hash_verdict(bool same, bool relinquished);

/*
 * Coherency data.  kmc_volume_coherency_len(): the length the kernel
 * keeps, 0 for NULL @data, -EMSGSIZE past KMC_VOLUME_COHERENCY_MAX.
 * kmc_volume_coherency_set(): copy @len bytes into @dst (@size bytes),
 * returns the length kept or -EMSGSIZE/-ENOSPC.
 * kmc_volume_coherency_update(): __fscache_relinquish_volume(): copies
 * exactly @cur_len bytes of @data over @cur unless @invalidate or @data is
 * NULL; returns true if it copied.
 */
int kmc_volume_coherency_len(const void *data, size_t len);
int kmc_volume_coherency_set(const void *data, size_t len, u8 *dst,
			     size_t size);
bool kmc_volume_coherency_update(u8 *cur, unsigned int cur_len,
				 const void *data, bool invalidate);

#endif
