// SPDX-License-Identifier: GPL-2.0-only
/* Specification of the cachefiles directory and file names. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "kmc_cookie.h"
#include "kmc_key.h"
#include "kmc_layout.h"
#include "kmc_volume.h"
#include "kmv_layout.h"

static int want_err(const struct kmv_layout *v)
{
	static const struct { const char *w; int e; } t[] = {
		{ "ok", 0 }, { "ENAMETOOLONG", -ENAMETOOLONG },
		{ "EACCES", -EACCES }, { "EINVAL", -EINVAL },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(t); i++)
		if (!strcmp(t[i].w, v->err))
			return t[i].e;
	fail_msg("layout.vec line %d: unknown err %s", v->line, v->err);
	return 1;
}

/* The cookie hash as fscache computes it; 0 if fscache refuses the key. */
static u32 cookie_hash(const struct kmv_layout *v)
{
	u32 vh = 0, kh = 0;

	if (kmc_volume_hash(v->vkey, strlen(v->vkey), &vh) < 0 ||
	    kmc_cookie_hash(vh, v->key, v->key_len, &kh) < 0)
		return 0;
	return kh;
}

/* Build the path of one vector from exact-size copies of its keys. */
static int build(const struct kmv_layout *v, char *path, size_t size)
{
	size_t vlen = strlen(v->vkey);
	char *vkey = malloc(vlen ? vlen : 1);
	u8 *key = malloc(v->key_len ? v->key_len : 1);
	int ret;

	memcpy(vkey, v->vkey, vlen);
	memcpy(key, v->key, v->key_len);
	ret = kmc_object_path(vkey, vlen, cookie_hash(v), key, v->key_len,
			      path, size);
	free(vkey);
	free(key);
	return ret;
}

/* Every vector path, the fixture's written by Linux 6.1, is rebuilt. */
static void test_object_path_vectors(void **state)
{
	char path[KMC_OBJECT_PATH_SIZE];
	unsigned int i;
	int ret, want;

	for (i = 0; i < ARRAY_SIZE(kmv_layout); i++) {
		const struct kmv_layout *v = &kmv_layout[i];

		ret = build(v, path, sizeof(path));
		want = want_err(v);
		if (want && ret != want)
			fail_msg("layout.vec line %d: got %d want %s", v->line,
				 ret, v->err);
		if (!want && (ret != (int)strlen(v->path) ||
			      strcmp(path, v->path)))
			fail_msg("layout.vec line %d: got %s (%d)", v->line,
				 ret < 0 ? "" : path, ret);
	}
	assert_true(ARRAY_SIZE(kmv_layout) > 60);
}

/* Walk a path "cache/I<vol>/@xx/<name>" back with the parsers. */
static void parse_back(const struct kmv_layout *v)
{
	const char *p = v->path + strlen(KMC_CACHE_DIR "/"), *s1, *s2, *vk;
	u8 key[KMC_UNCOOKED_MAX];
	size_t vlen;
	int len;

	s1 = strchr(p, '/');
	s2 = s1 ? strchr(s1 + 1, '/') : NULL;
	assert_non_null(s2);
	assert_int_equal(kmc_parse_volume_dir(p, s1 - p, &vk, &vlen), 0);
	if (vlen != strlen(v->vkey) || memcmp(vk, v->vkey, vlen))
		fail_msg("layout.vec line %d: volume parsed wrong", v->line);
	assert_int_equal(kmc_parse_fanout(s1 + 1, s2 - s1 - 1),
			 kmc_fanout_index(cookie_hash(v)));
	len = kmc_parse_object_name(s2 + 1, strlen(s2 + 1), key, sizeof(key));
	if (len < (int)v->key_len || memcmp(key, v->key, v->key_len))
		fail_msg("layout.vec line %d: key parsed wrong", v->line);
}

/* Every good vector path parses back to its volume, fan-out and key. */
static void test_parse_vectors(void **state)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kmv_layout); i++)
		if (!strcmp(kmv_layout[i].err, "ok"))
			parse_back(&kmv_layout[i]);
}

/* The 256 fan-outs are "@00".."@ff", and only those parse. */
static void test_fanout_names(void **state)
{
	char name[8], want[8];
	unsigned int i;

	for (i = 0; i < KMC_FANOUT_NR; i++) {
		snprintf(want, sizeof(want), "@%02x", i);
		assert_int_equal(kmc_fanout_name(i, name, sizeof(name)), 3);
		assert_string_equal(name, want);
		assert_int_equal(kmc_parse_fanout(name, 3), (int)i);
	}
	assert_int_equal(kmc_fanout_name(256, name, sizeof(name)), -EINVAL);
	assert_int_equal(kmc_fanout_name(1, name, 3), -ENOSPC);
	assert_int_equal(kmc_parse_fanout("@AB", 3), -EINVAL);
	assert_int_equal(kmc_parse_fanout("@1", 2), -EINVAL);
	assert_int_equal(kmc_parse_fanout("@100", 4), -EINVAL);
	assert_int_equal(kmc_parse_fanout("#00", 3), -EINVAL);
	assert_int_equal(kmc_parse_fanout("@0g", 3), -EINVAL);
}

/* The fan-out is the low byte of the cookie hash. */
static void test_fanout_index(void **state)
{
	assert_int_equal(kmc_fanout_index(0x12345678), 0x78);
	assert_int_equal(kmc_fanout_index(0xffffff00), 0);
	assert_int_equal(kmc_fanout_index(0xff), 0xff);
}

/* Volume directories are "I" + key; "" gives "I"; '/' and NUL: -EACCES. */
static void test_volume_dir_names(void **state)
{
	char name[KMC_VOLUME_DIR_SIZE], big[KMC_VOLUME_KEY_DIR_MAX + 2];

	assert_int_equal(kmc_volume_dir_name("9p,src,", 7, name,
					     sizeof(name)), 8);
	assert_string_equal(name, "I9p,src,");
	assert_int_equal(kmc_volume_dir_name("", 0, name, sizeof(name)), 1);
	assert_string_equal(name, "I");
	assert_int_equal(kmc_volume_dir_name("a/b", 3, name, sizeof(name)),
			 -EACCES);
	assert_int_equal(kmc_volume_dir_name("a\0b", 3, name, sizeof(name)),
			 -EACCES);
	assert_int_equal(kmc_volume_dir_name("abc", 3, name, 4), -ENOSPC);
	assert_int_equal(kmc_volume_dir_name("abc", 3, name, 5), 4);
	memset(big, 'v', sizeof(big));
	assert_int_equal(kmc_volume_dir_name(big, KMC_VOLUME_KEY_DIR_MAX, name,
					     sizeof(name)), NAME_MAX);
	assert_int_equal(kmc_volume_dir_name(big, KMC_VOLUME_KEY_DIR_MAX + 1,
					     name, sizeof(name)),
			 -ENAMETOOLONG);
}

/* Volume directory parsing wants the 'I' and gives the rest as the key. */
static void test_parse_volume_dir(void **state)
{
	const char *vk = NULL;
	size_t vlen = 99;

	assert_int_equal(kmc_parse_volume_dir("I9p,a", 5, &vk, &vlen), 0);
	assert_int_equal(vlen, 4);
	assert_memory_equal(vk, "9p,a", 4);
	assert_int_equal(kmc_parse_volume_dir("I", 1, &vk, &vlen), 0);
	assert_int_equal(vlen, 0);
	assert_int_equal(kmc_parse_volume_dir("", 0, &vk, &vlen), -EINVAL);
	assert_int_equal(kmc_parse_volume_dir("i9p", 3, &vk, &vlen), -EINVAL);
	assert_int_equal(kmc_parse_volume_dir("@00", 3, &vk, &vlen), -EINVAL);
	assert_int_equal(kmc_parse_volume_dir("Ia/b", 4, &vk, &vlen),
			 -EINVAL);
}

/* Graves are "%08x%08x" of (seconds, counter), and parse back. */
static void test_grave_names(void **state)
{
	char name[KMC_GRAVE_NAME_LEN + 1];
	u32 s = 0, c = 0;

	assert_int_equal(kmc_grave_name(0x6552d1a0, 1, name, sizeof(name)),
			 16);
	assert_string_equal(name, "6552d1a000000001");
	assert_int_equal(kmc_parse_grave_name(name, 16, &s, &c), 0);
	assert_int_equal(s, 0x6552d1a0);
	assert_int_equal(c, 1);
	assert_int_equal(kmc_grave_name(0xffffffff, 0xdeadbeef, name,
					sizeof(name)), 16);
	assert_string_equal(name, "ffffffffdeadbeef");
	assert_int_equal(kmc_grave_name(1, 1, name, 16), -ENOSPC);
	assert_int_equal(kmc_parse_grave_name("6552D1A000000001", 16, &s, &c),
			 -EINVAL);
	assert_int_equal(kmc_parse_grave_name("6552d1a0000001", 14, &s, &c),
			 -EINVAL);
	assert_int_equal(kmc_parse_grave_name("6552d1a00000000x", 16, &s, &c),
			 -EINVAL);
}

/* Object names are exactly the names cachefiles' cooking produces. */
static void test_parse_object_name(void **state)
{
	u8 key[KMC_UNCOOKED_MAX];
	char long_name[NAME_MAX + 2];

	assert_int_equal(kmc_parse_object_name("Tabc0d3,", 8, key,
					       sizeof(key)), 8);
	assert_int_equal(key[0], 0xd3);
	assert_int_equal(kmc_parse_object_name("Dhello", 6, key, sizeof(key)),
			 5);
	assert_int_equal(kmc_parse_object_name("", 0, key, sizeof(key)),
			 -EINVAL);
	assert_int_equal(kmc_parse_object_name("Xabc", 4, key, sizeof(key)),
			 -EINVAL);
	assert_int_equal(kmc_parse_object_name("@fa", 3, key, sizeof(key)),
			 -EINVAL);
	memset(long_name, 'k', sizeof(long_name));
	long_name[0] = 'D';
	assert_int_equal(kmc_parse_object_name(long_name, NAME_MAX + 1, key,
					       sizeof(key)), -EINVAL);
}

/* A too-small path buffer is -ENOSPC at every component. */
static void test_object_path_nospace(void **state)
{
	const u8 key[8] = { 0xd3, 0xc0, 0xab };
	char path[KMC_OBJECT_PATH_SIZE];
	size_t size;
	int full;

	full = kmc_object_path("9p,src,", 7, 0xfa, key, 8, path, sizeof(path));
	assert_int_equal(full, (int)strlen("cache/I9p,src,/@fa/Tabc0d3,"));
	assert_string_equal(path, "cache/I9p,src,/@fa/Tabc0d3,");
	for (size = 0; size <= (size_t)full; size++)
		assert_int_equal(kmc_object_path("9p,src,", 7, 0xfa, key, 8,
						 path, size), -ENOSPC);
	assert_int_equal(kmc_object_path("9p,src,", 7, 0xfa, key, 8, path,
					 full + 1), full);
}

/* The longest names fit KMC_OBJECT_PATH_SIZE. */
static void test_object_path_longest(void **state)
{
	char vkey[KMC_VOLUME_KEY_DIR_MAX], path[KMC_OBJECT_PATH_SIZE];
	u8 key[KMC_KEY_MAX];

	memset(vkey, 'v', sizeof(vkey));
	memset(key, 'k', sizeof(key));
	assert_int_equal(kmc_object_path(vkey, sizeof(vkey), 0, key,
					 sizeof(key), path, sizeof(path)),
			 6 + 255 + 1 + 3 + 1 + 253);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_object_path_vectors),
		cmocka_unit_test(test_parse_vectors),
		cmocka_unit_test(test_fanout_names),
		cmocka_unit_test(test_fanout_index),
		cmocka_unit_test(test_volume_dir_names),
		cmocka_unit_test(test_parse_volume_dir),
		cmocka_unit_test(test_grave_names),
		cmocka_unit_test(test_parse_object_name),
		cmocka_unit_test(test_object_path_nospace),
		cmocka_unit_test(test_object_path_longest),
	};

	return cmocka_run_group_tests_name("layout", tests, NULL, NULL);
}
