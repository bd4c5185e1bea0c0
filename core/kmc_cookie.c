// SPDX-License-Identifier: GPL-2.0-only
/*
 * fscache cookie keys, aux data and object size: __fscache_acquire_cookie(),
 * fscache_set_key(), fscache_cookie_same(), fscache_hash_cookie() of
 * fs/fscache/cookie.c and fscache_update_aux() of include/linux/fscache.h
 * (6.1 tree).
 */
#include "kcompat.h"
#include "kmc_hash.h"
#include "kmc_cookie.h"

/* The key half of __fscache_acquire_cookie()'s check. */
/*
 * __fscache_acquire_cookie(): "!index_key || !index_key_len ||
 * index_key_len > 255 || aux_data_len > 255" returns NULL.  The aux
 * pointer is not looked at here, exactly as in the kernel.
 */
int kmc_cookie_check(const void *key, size_t klen, const void *aux,
		     size_t auxlen)
{
	int ret = kmc_cookie_key_check(key, klen);

	if (ret)
		return ret;
	if (auxlen > KMC_COOKIE_AUX_MAX)
		return -EMSGSIZE;
	return 0;
}
EXPORT_SYMBOL(kmc_cookie_check);

/* "if (!aux_data || !aux_data_len) { aux_data = NULL; aux_data_len = 0; }" */
unsigned int kmc_cookie_aux_len(const void *aux, size_t auxlen)
{
	if (!aux || auxlen > KMC_COOKIE_AUX_MAX)
		return 0;
	return (unsigned int)auxlen;
}
EXPORT_SYMBOL(kmc_cookie_aux_len);

/*
 * fscache_set_key(): key into a zeroed buffer of round_up(klen, 4) bytes.
 * Invariant: every byte of the returned length is written.
 */
int kmc_cookie_key_build(const void *key, size_t klen, u8 *buf, size_t size)
{
	size_t buf_size;
	int ret;

	ret = kmc_cookie_key_check(key, klen);
	if (ret)
		return ret;
	buf_size = KMC_COOKIE_BUF_LEN(klen);
	if (!buf || size < buf_size)
		return -ENOSPC;
	memset(buf + buf_size - sizeof(__le32), 0, sizeof(__le32));
	memcpy(buf, key, klen);
	return (int)buf_size;
}
EXPORT_SYMBOL(kmc_cookie_key_build);

/*
 * fscache_update_aux(): the aux length never changes after acquire, so a
 * new aux buffer must hold at least @aux_len bytes.
 */
void kmc_cookie_update_aux(u8 *aux, unsigned int aux_len, s64 *size,
			   const void *new_aux, const s64 *new_size)
{
	if (new_aux && aux_len)
		memcpy(aux, new_aux, aux_len);
	if (new_size)
		*size = *new_size;
}
EXPORT_SYMBOL_IF_KUNIT(kmc_cookie_update_aux);
