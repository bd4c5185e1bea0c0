// SPDX-License-Identifier: GPL-2.0-only
/*
 * The public calls over the core's keys and names: fscache's hash and
 * volume key hash (kmirror/fscache.h), cachefiles' cooked object names and
 * volume directories, and the hex decoder the core and kcompat use
 * (kmirror/cache.h).  Thin wrappers: the core keeps its kmc_ names to
 * itself.
 */
#include "kcompat.h"
#include "kmc_hash.h"
#include "kmc_key.h"
#include "kmc_layout.h"
#include "kmc_volume.h"
#include "kmirror/cache.h"
#include "kmirror/fscache.h"

_Static_assert(FSCACHE_VOLUME_KEY_MAX == KMC_VOLUME_KEY_MAX, "volume key");
_Static_assert(KMIRROR_CACHE_KEY_MAX == KMC_KEY_MAX, "cookie key");
_Static_assert(KMIRROR_CACHE_COOKED_MAX == KMC_COOKED_MAX, "cooked name");
_Static_assert(KMIRROR_CACHE_UNCOOKED_MAX == KMC_UNCOOKED_MAX, "uncooked");
_Static_assert(KMIRROR_CACHE_VOLUME_KEY_MAX == KMC_VOLUME_KEY_CACHEFILES_MAX,
	       "volume directory");
_Static_assert(KMIRROR_CACHE_PATH_SIZE == KMC_OBJECT_PATH_SIZE, "path");

uint32_t fscache_key_hash(uint32_t salt, const void *data, size_t len)
{
	return kmc_hash(salt, data, len);
}

int fscache_volume_key_hash(const char *volume_key, size_t len,
			    uint32_t *hash)
{
	return kmc_volume_hash(volume_key, len, hash);
}

int kmirror_cache_cook_key(const void *key, size_t key_len, char *name,
			   size_t size)
{
	if (key_len > KMC_KEY_MAX)
		return -ENAMETOOLONG;
	return kmc_cook_key(key, (unsigned int)key_len, name, size);
}

int kmirror_cache_uncook_key(const char *name, size_t len, void *key,
			     size_t size)
{
	return kmc_uncook_key(name, len, key, size);
}

int kmirror_cache_volume_dir(const char *volume, char *name, size_t size)
{
	return kmc_volume_dir_name(volume, strlen(volume), name, size);
}

int kmirror_hex_to_bin(unsigned char ch)
{
	return hex_to_bin(ch);
}

int kmirror_hex2bin(uint8_t *dst, const char *src, size_t count)
{
	return hex2bin(dst, src, count);
}
