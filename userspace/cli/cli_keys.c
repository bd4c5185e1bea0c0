// SPDX-License-Identifier: GPL-2.0-only
/*
 * Keys as the CLI takes them: hex strings, cookie keys and volume keys,
 * each checked against what fscache and cachefiles can hold before any
 * command uses it, so that a refused key never touches a cache.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "cli.h"
#include "kmirror/cache.h"
#include "kmirror/fscache.h"

long km_parse_hex(const char *hex, uint8_t *buf, size_t size)
{
	size_t len = strlen(hex), i;

	if (len % 2)
		return -EINVAL;
	for (i = 0; i < len; i++)
		if (kmirror_hex_to_bin((unsigned char)hex[i]) < 0)
			return -EINVAL;
	if (len / 2 > size)
		return -E2BIG;
	return kmirror_hex2bin(buf, hex, len / 2) ?: (long)(len / 2);
}

void km_print_hex(FILE *f, const uint8_t *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		fprintf(f, "%02x", buf[i]);
}

int km_parse_u32_hex(const char *s, uint32_t *out)
{
	uint32_t v = 0;
	size_t n;
	int d;

	if (!strncmp(s, "0x", 2) || !strncmp(s, "0X", 2))
		s += 2;
	n = strlen(s);
	if (n < 1 || n > 8)
		return -1;
	for (; *s; s++) {
		d = kmirror_hex_to_bin((unsigned char)*s);
		if (d < 0)
			return -1;
		v = v << 4 | (uint32_t)d;
	}
	*out = v;
	return 0;
}

/*
 * Parse the cookie key @hex into @key (KMIRROR_CACHE_KEY_MAX bytes), its
 * length in *@len, and cook it into @name (@size bytes).  The key must be
 * what fscache takes (1 to 252 bytes) and its cooked name a file name
 * cachefiles can make (NAME_MAX bytes at most: lookup_one_len() refuses
 * longer).  KM_EXIT_OK, or the error printed (after @where, e.g.
 * "line 3: ") and KM_EXIT_USAGE.
 */
int km_parse_cookie_key(const char *where, const char *hex, uint8_t *key,
			size_t *len, char *name, size_t size)
{
	long n = km_parse_hex(hex, key, KMIRROR_CACHE_KEY_MAX);

	if (n == -EINVAL)
		return km_error("%s'%s' is not a cookie key: malformed hex (pairs of hex digits)",
				where, hex);
	if (n == -E2BIG)
		return km_error("%scookie key of %zu bytes is too long (cachefiles takes 1 to %d)",
				where, strlen(hex) / 2, KMIRROR_CACHE_KEY_MAX);
	if (!n)
		return km_error("%sempty cookie key (fscache refuses it)", where);
	if (kmirror_cache_cook_key(key, (size_t)n, name, size) < 0)
		return km_error("%scannot cook a key of %ld bytes", where, n);
	if (strlen(name) > NAME_MAX)
		return km_error("%scookie key of %ld bytes cooks to a name of %zu bytes, which would exceed NAME_MAX (%d): cachefiles cannot store it",
				where, n, strlen(name), NAME_MAX);
	*len = (size_t)n;
	return KM_EXIT_OK;
}

/*
 * Check the volume key @vkey: 1 to 255 bytes as fscache takes it, and
 * when it names a cachefiles directory (@dir), at most 254 bytes and no
 * '/'.  KM_EXIT_OK, or the error printed and KM_EXIT_USAGE.
 */
int km_check_volume_key(const char *vkey, bool dir)
{
	char dir_name[NAME_MAX + 1];
	size_t len = strlen(vkey);
	int ret;

	if (!len)
		return km_error("empty volume key (a netfs names its volume)");
	if (len > FSCACHE_VOLUME_KEY_MAX)
		return km_error("volume key of %zu bytes is too long (fscache takes at most %d)",
				len, FSCACHE_VOLUME_KEY_MAX);
	ret = dir ? kmirror_cache_volume_dir(vkey, dir_name,
					     sizeof(dir_name)) : 0;
	if (ret == -ENAMETOOLONG)
		return km_error("volume key of %zu bytes is too long for a cachefiles directory (at most %d)",
				len, KMIRROR_CACHE_VOLUME_KEY_MAX);
	if (ret < 0)
		return km_error("volume key '%s' contains '/': cachefiles cannot name its directory",
				vkey);
	return KM_EXIT_OK;
}
