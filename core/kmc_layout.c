// SPDX-License-Identifier: GPL-2.0-only
/*
 * cachefiles directory and file names (see kmc_layout.h for the tree).
 * Names are built by hand rather than with sprintf() so that every write is
 * bounds-checked against the caller's buffer.
 */
#include "kcompat.h"
#include "kmc_key.h"
#include "kmc_layout.h"
#include "kmc_volume.h"

static const char kmc_hex_lower[] = "0123456789abcdef";

/* Write @n lower-case hex digits of @v at @p (the caller checked room). */
static void kmc_put_hex_fixed(char *p, u32 v, unsigned int n)
{
	while (n--) {
		p[n] = kmc_hex_lower[v & 15];
		v >>= 4;
	}
}

/*
 * Parse exactly @n lower-case hex digits, as "%x" writes them, at @p into
 * *@v (_tolower() leaves those, and only those, of hex_to_bin()'s as they are).
 */
static int kmc_get_hex_fixed(const char *p, unsigned int n, u32 *v)
{
	int d;

	for (*v = 0; n--; p++) {
		d = hex_to_bin(*p);
		if (d < 0 || _tolower(*p) != *p)
			return -EINVAL;
		*v = (*v << 4) | (u32)d;
	}
	return 0;
}

/* True if @s[0..@len) can be one path component: no '/' and no NUL. */
static bool kmc_name_chars_ok(const char *s, size_t len)
{
	return !memchr(s, '/', len) && !memchr(s, '\0', len);
}

/*
 * cachefiles_acquire_volume(): 'I' then the volume key's bytes.  The kernel
 * takes them from the key buffer ([len][key]\0...), which is the same bytes.
 * (For the empty key it kmallocs 3 bytes and later sprintf()s the 4-byte
 * "@xx" fan-out names into them; the name itself is plain "I".)
 */
int kmc_volume_dir_name(const char *vkey, size_t vkeylen, char *name,
			size_t size)
{
	int ret = kmc_volume_key_check_cachefiles(vkey, vkeylen);

	if (ret < 0)
		return ret;
	if (size < vkeylen + 2)
		return -ENOSPC;
	name[0] = KMC_VOLUME_PREFIX;
	memcpy(name + 1, vkey, vkeylen);
	name[vkeylen + 1] = '\0';
	return (int)vkeylen + 1;
}
EXPORT_SYMBOL_IF_KUNIT(kmc_volume_dir_name);

/* sprintf(name, "@%02x", i) of cachefiles_acquire_volume(). */
int kmc_fanout_name(unsigned int index, char *name, size_t size)
{
	if (index >= KMC_FANOUT_NR)
		return -EINVAL;
	if (size < KMC_FANOUT_NAME_LEN + 1)
		return -ENOSPC;
	name[0] = KMC_FANOUT_PREFIX;
	kmc_put_hex_fixed(name + 1, index, 2);
	name[KMC_FANOUT_NAME_LEN] = '\0';
	return KMC_FANOUT_NAME_LEN;
}
EXPORT_SYMBOL(kmc_fanout_name);

/*
 * Append component @s (@len bytes) and a '/' at *@off.  Invariant: on
 * success *@off stays below @size, so there is always room for a NUL.
 */
static int kmc_path_add(char *path, size_t size, size_t *off, const char *s,
			size_t len)
{
	if (size - *off < len + 2)
		return -ENOSPC;
	memcpy(path + *off, s, len);
	*off += len;
	path[(*off)++] = '/';
	return 0;
}

/*
 * "I<vkey>/" at *@off, the name written in place: a copy would take
 * KMC_VOLUME_DIR_SIZE bytes of stack.  Same invariant as kmc_path_add().
 */
static int kmc_path_add_volume(char *path, size_t size, size_t *off,
			       const char *vkey, size_t vkeylen)
{
	int len = kmc_volume_dir_name(vkey, vkeylen, path + *off, size - *off);

	if (len < 0)
		return len;
	if (size - *off < (size_t)len + 2)
		return -ENOSPC;
	*off += len;
	path[(*off)++] = '/';
	return 0;
}

/* "cache/I<vkey>/@xx/" at the start of @path; returns its length. */
static int kmc_object_dir(const char *vkey, size_t vkeylen, u32 key_hash,
			  char *path, size_t size)
{
	char fanout[KMC_FANOUT_NAME_LEN + 1];
	size_t off = 0;
	int ret;

	ret = kmc_path_add(path, size, &off, KMC_CACHE_DIR,
			   sizeof(KMC_CACHE_DIR) - 1);
	if (ret < 0)
		return ret;
	ret = kmc_path_add_volume(path, size, &off, vkey, vkeylen);
	if (ret < 0)
		return ret;
	kmc_fanout_name(kmc_fanout_index(key_hash), fanout, sizeof(fanout));
	ret = kmc_path_add(path, size, &off, fanout, KMC_FANOUT_NAME_LEN);
	return ret < 0 ? ret : (int)off;
}

/*
 * The object's path relative to the cache root.  The cooked name goes
 * straight into @path; one longer than NAME_MAX is refused, where the kernel
 * would store its length in the u8 cachefiles_object.d_name_len.
 */
int kmc_object_path(const char *vkey, size_t vkeylen, u32 key_hash,
		    const u8 *key, unsigned int keylen, char *path,
		    size_t size)
{
	int off, ret;

	if (!keylen)
		return -EINVAL;
	off = kmc_object_dir(vkey, vkeylen, key_hash, path, size);
	if (off < 0)
		return off;
	ret = kmc_cook_key(key, keylen, path + off, size - (size_t)off);
	if (ret < 0)
		return ret;
	if (ret > NAME_MAX)
		return -ENAMETOOLONG;
	return off + ret;
}
EXPORT_SYMBOL_IF_KUNIT(kmc_object_path);

/* sprintf(nbuffer, "%08x%08x", seconds, gravecounter) of bury_object(). */
int kmc_grave_name(u32 seconds, u32 counter, char *name, size_t size)
{
	if (size < KMC_GRAVE_NAME_LEN + 1)
		return -ENOSPC;
	kmc_put_hex_fixed(name, seconds, 8);
	kmc_put_hex_fixed(name + 8, counter, 8);
	name[KMC_GRAVE_NAME_LEN] = '\0';
	return KMC_GRAVE_NAME_LEN;
}
EXPORT_SYMBOL(kmc_grave_name);

/* Inverse of kmc_volume_dir_name(): *@vkey points into @name. */
int kmc_parse_volume_dir(const char *name, size_t len, const char **vkey,
			 size_t *vkeylen)
{
	if (len < 1 || len > NAME_MAX || name[0] != KMC_VOLUME_PREFIX)
		return -EINVAL;
	if (!kmc_name_chars_ok(name + 1, len - 1))
		return -EINVAL;
	*vkey = name + 1;
	*vkeylen = len - 1;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(kmc_parse_volume_dir);

/* Inverse of kmc_fanout_name(): exactly "@" and two lower-case digits. */
int kmc_parse_fanout(const char *name, size_t len)
{
	u32 v;

	if (len != KMC_FANOUT_NAME_LEN || name[0] != KMC_FANOUT_PREFIX)
		return -EINVAL;
	if (kmc_get_hex_fixed(name + 1, 2, &v) < 0)
		return -EINVAL;
	return (int)v;
}
EXPORT_SYMBOL_IF_KUNIT(kmc_parse_fanout);

/* An object name is any name kmc_uncook_key() accepts (it re-cooks). */
int kmc_parse_object_name(const char *name, size_t len, u8 *key,
			  size_t size)
{
	if (!len || len > NAME_MAX)
		return -EINVAL;
	return kmc_uncook_key(name, len, key, size);
}
EXPORT_SYMBOL_IF_KUNIT(kmc_parse_object_name);

/* Inverse of kmc_grave_name(): sixteen lower-case hex digits. */
int kmc_parse_grave_name(const char *name, size_t len, u32 *seconds,
			 u32 *counter)
{
	u32 s, c;

	if (len != KMC_GRAVE_NAME_LEN)
		return -EINVAL;
	if (kmc_get_hex_fixed(name, 8, &s) < 0 ||
	    kmc_get_hex_fixed(name + 8, 8, &c) < 0)
		return -EINVAL;
	*seconds = s;
	*counter = c;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(kmc_parse_grave_name);
