// SPDX-License-Identifier: GPL-2.0-only
/*
 * The two cachefiles_cook_key() bugs that the front of kernel/patches
 * fixes, shown on the tree's own fs/cachefiles/key.c (stock) and on the
 * file as the whole series leaves it (series_cachefiles_cook_key()):
 *
 *   cachefiles_long_key_bug_on   a key of 253..255 bytes, which fscache
 *                                accepts, hits BUG_ON(keylen > NAME_MAX - 3)
 *   cachefiles_long_name_wraps   a binary key of 190+ bytes cooks into a
 *                                name over NAME_MAX, whose length wraps in
 *                                the u8 d_name_len: many keys, one file
 *
 * Each test asserts the stock bug (so that the test notices if the tree
 * changes under it) and that the series refuses the key instead; every
 * other key cooks to the same name in both.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "kmc_key.h"

bool series_cachefiles_cook_key(struct cachefiles_object *object);

int kmirror_diff_bugs;

struct cooked {
	bool ok;
	int bugs;		/* BUG_ON()s hit */
	char *name;
	unsigned int name_len;	/* d_name_len as the object keeps it */
};

static struct cooked cook(bool (*fn)(struct cachefiles_object *),
			  const u8 *key, unsigned int len)
{
	struct fscache_cookie cookie = { .key_len = len };
	struct cachefiles_object obj = { .cookie = &cookie };
	u8 padded[260] = { 0 };	/* fscache's zero padding */
	struct cooked c;
	int bugs = kmirror_diff_bugs;

	memcpy(padded, key, len);
	cookie.key = padded;
	c.ok = fn(&obj);
	c.bugs = kmirror_diff_bugs - bugs;
	c.name = c.ok ? obj.d_name : NULL;
	c.name_len = obj.d_name_len;
	return c;
}

static void fill(u8 *key, unsigned int len, unsigned int seed)
{
	unsigned int i;

	for (i = 0; i < len; i++)
		key[i] = (u8)(i * 131 + seed * 17 + 1);	/* not printable */
}

static int cachefiles_long_key_bug_on(void)
{
	unsigned int len;
	int bad = 0;
	u8 key[255];

	for (len = KMC_KEY_MAX + 1; len <= 255; len++) {
		struct cooked s, k;

		fill(key, len, len);
		s = cook(cachefiles_cook_key, key, len);
		k = cook(series_cachefiles_cook_key, key, len);
		if (s.bugs != 1) {
			fprintf(stderr, "stock: %u-byte key: no BUG_ON\n", len);
			bad = 1;
		}
		if (k.ok || k.bugs) {
			fprintf(stderr, "series: %u-byte key: %s\n", len,
				k.bugs ? "BUG_ON" : "accepted");
			bad = 1;
		}
	}
	printf("%s cachefiles_long_key_bug_on: keys of %d..255 bytes\n",
	       bad ? "not ok" : "ok", KMC_KEY_MAX + 1);
	return bad;
}

static int cachefiles_long_name_wraps(void)
{
	unsigned int len, wrapped = 0, refused = 0;
	int bad = 0;
	u8 key[KMC_KEY_MAX];

	for (len = 0; len <= KMC_KEY_MAX; len++) {
		struct cooked s, k;

		fill(key, len, len);
		s = cook(cachefiles_cook_key, key, len);
		k = cook(series_cachefiles_cook_key, key, len);
		if (!s.ok || s.bugs || k.bugs) {
			fprintf(stderr, "%u-byte key: stock %d, bugs %d/%d\n",
				len, s.ok, s.bugs, k.bugs);
			bad = 1;
		} else if (strlen(s.name) > NAME_MAX) {
			/* The stock length wrapped; the series refuses. */
			wrapped += s.name_len == strlen(s.name) % 256;
			refused += !k.ok;
			if (k.ok)
				fprintf(stderr, "series: %u-byte key named %zu characters\n",
					len, strlen(k.name));
		} else if (!k.ok || strcmp(s.name, k.name) ||
			   k.name_len != strlen(k.name)) {
			fprintf(stderr, "%u-byte key: stock %s, series %s\n",
				len, s.name, k.ok ? k.name : "(refused)");
			bad = 1;
		}
		kfree(s.name);
		kfree(k.name);
	}
	/* Keys of 190..252 bytes cook into 258..338 characters. */
	if (wrapped != KMC_KEY_MAX - 189 || refused != wrapped)
		bad = 1;
	printf("%s cachefiles_long_name_wraps: %u stock names wrapped, %u refused by the series\n",
	       bad ? "not ok" : "ok", wrapped, refused);
	return bad;
}

int main(void)
{
	int bad = cachefiles_long_key_bug_on();

	bad |= cachefiles_long_name_wraps();
	return bad;
}
