/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cachefiles on-disk layout of the 6.1 tree, relative to the cache root
 * (the directory given to the daemon's "dir" command):
 *
 *   cache/                       live objects (cache.c: cache->store)
 *   cache/I<volume key>/         one per volume (cachefiles_acquire_volume)
 *   cache/I<volume key>/@xx/     256 fan-outs, "@%02x" of (u8)cookie key_hash
 *   cache/I<volume key>/@xx/<cooked key>   one data object (a regular file)
 *   graveyard/                   buried directories (cachefiles_bury_object)
 *   graveyard/%08x%08x           seconds since the epoch, gravecounter
 *
 * Only names are built and parsed here; the caller does the I/O.  Every
 * builder returns the name's length (without the NUL it always writes) or a
 * negative errno, and writes nothing useful on error.  Every parser takes a
 * (name, length) pair that need not be NUL-terminated.
 */
#ifndef KMC_LAYOUT_H
#define KMC_LAYOUT_H

#include "kcompat.h"

#define KMC_CACHE_DIR		"cache"
#define KMC_GRAVEYARD_DIR	"graveyard"
#define KMC_VOLUME_PREFIX	'I'
#define KMC_FANOUT_PREFIX	'@'
#define KMC_FANOUT_NR		256
#define KMC_FANOUT_NAME_LEN	3	/* "@xx" */
#define KMC_GRAVE_NAME_LEN	16	/* "%08x%08x" */

/*
 * Longest volume key that still gives a usable directory name: "I" + key
 * must fit NAME_MAX.  fscache accepts 255-byte keys; the kernel then fails
 * the lookup with -ENAMETOOLONG, the core refuses up front.
 */
#define KMC_VOLUME_KEY_DIR_MAX	(NAME_MAX - 1)
/* Buffer sizes, NUL included. */
#define KMC_VOLUME_DIR_SIZE	(NAME_MAX + 1)
#define KMC_OBJECT_PATH_SIZE	(sizeof(KMC_CACHE_DIR) + NAME_MAX + 1 + \
				 KMC_FANOUT_NAME_LEN + 1 + NAME_MAX + 1)

/* The fan-out directory an object with cookie hash @key_hash lives in. */
static inline unsigned int kmc_fanout_index(u32 key_hash)
{
	return (u8)key_hash;
}

/*
 * "I" + volume key, accepted as kmc_volume_key_check_cachefiles() does:
 * -EACCES for a '/' or NUL in the key (lookup_one_len() refuses it),
 * -ENAMETOOLONG past KMC_VOLUME_KEY_DIR_MAX; -ENOSPC: @size too small.
 * The empty key is the kernel's directory "I".
 */
int kmc_volume_dir_name(const char *vkey, size_t vkeylen, char *name,
			size_t size);
/* "@%02x" of @index (0..255); -EINVAL past 255, -ENOSPC if @size < 4. */
int kmc_fanout_name(unsigned int index, char *name, size_t size);
/*
 * "cache/I<vkey>/@xx/<cooked key>", @key_hash being the cookie's hash
 * (kmc_hash salted with the volume hash over the zero-padded key).
 * -ENAMETOOLONG if the cooked name exceeds NAME_MAX (the kernel truncates
 * it to a u8 length instead), other errors as the builders above and
 * kmc_cook_key().
 */
int kmc_object_path(const char *vkey, size_t vkeylen, u32 key_hash,
		    const u8 *key, unsigned int keylen, char *path,
		    size_t size);
/* "%08x%08x": the name cachefiles_bury_object() gives a buried directory. */
int kmc_grave_name(u32 seconds, u32 counter, char *name, size_t size);

/*
 * Parsers.  A volume directory yields its key (pointing into @name, maybe
 * empty);
 * a fan-out its index 0..255 (lower-case hex only, as "%02x" writes it);
 * an object name its uncooked key (length returned, see kmc_uncook_key());
 * a grave its two numbers.  -EINVAL for a name that is not of that kind.
 */
int kmc_parse_volume_dir(const char *name, size_t len, const char **vkey,
			 size_t *vkeylen);
int kmc_parse_fanout(const char *name, size_t len);
int kmc_parse_object_name(const char *name, size_t len, u8 *key,
			  size_t size);
int kmc_parse_grave_name(const char *name, size_t len, u32 *seconds,
			 u32 *counter);

#endif
