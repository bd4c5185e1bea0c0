// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cachefiles directory and file names (kmc_layout.h), against
 * layout.vec, whose first block is every object of a cache written by
 * Linux 6.1: a KUnit suite in the kernel, and run by cmocka in userspace
 * (tests/kernel-shim).
 */
#include <kunit/test.h>

#include "kmc_cookie.h"
#include "kmc_key.h"
#include "kmc_kunit.h"
#include "kmc_layout.h"
#include "kmc_volume.h"
#include "kmv_tables.h"

static const struct kmv_layout *kmv_layout;
static unsigned int kmv_layout_n;

/* Each case starts with the rows of layout.vec. */
static int kmc_layout_test_init(struct kunit *test)
{
	kmv_layout = kmv_load(test, &kmv_layout_table, &kmv_layout_n);
	return kmv_layout ? 0 : -EINVAL;
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
static int build(struct kunit *test, const struct kmv_layout *v, char *path,
		 size_t size)
{
	size_t vlen = strlen(v->vkey);
	char *vkey = kmk_exact(test, v->vkey, vlen);
	u8 *key = kmk_exact(test, v->key, v->key_len);
	int ret;

	ret = kmc_object_path(vkey, vlen, cookie_hash(v), key, v->key_len,
			      path, size);
	kunit_kfree(test, vkey);
	kunit_kfree(test, key);
	return ret;
}

/* Every vector path, the fixture's written by Linux 6.1, is rebuilt. */
static void test_object_path_vectors(struct kunit *test)
{
	char path[KMC_OBJECT_PATH_SIZE];
	unsigned int i;
	int ret, want;

	for (i = 0; i < kmv_layout_n; i++) {
		const struct kmv_layout *v = &kmv_layout[i];

		path[0] = '\0';
		ret = build(test, v, path, sizeof(path));
		want = kmk_errno(test, v->err, "layout.vec", v->line);
		if (want) {
			KUNIT_EXPECT_EQ_MSG(test, ret, want,
					    "layout.vec line %d", v->line);
			continue;
		}
		KUNIT_EXPECT_EQ_MSG(test, ret, (int)strlen(v->path),
				    "layout.vec line %d", v->line);
		KUNIT_EXPECT_STREQ_MSG(test, path, v->path,
				       "layout.vec line %d", v->line);
	}
	KUNIT_EXPECT_GT(test, kmv_layout_n, 60);
}

/* Walk a path "cache/I<vol>/@xx/<name>" back with the parsers. */
static void parse_back(struct kunit *test, const struct kmv_layout *v)
{
	const char *p = v->path + strlen(KMC_CACHE_DIR "/"), *s1, *s2, *vk;
	u8 key[KMC_UNCOOKED_MAX];
	size_t vlen;
	int len;

	s1 = strchr(p, '/');
	s2 = s1 ? strchr(s1 + 1, '/') : NULL;
	KUNIT_ASSERT_NOT_NULL_MSG(test, s2, "layout.vec line %d: path",
				  v->line);
	KUNIT_ASSERT_EQ_MSG(test, kmc_parse_volume_dir(p, s1 - p, &vk, &vlen),
			    0, "layout.vec line %d: volume", v->line);
	KUNIT_EXPECT_TRUE_MSG(test, vlen == strlen(v->vkey) &&
			      !memcmp(vk, v->vkey, vlen),
			      "layout.vec line %d: volume parsed wrong",
			      v->line);
	KUNIT_EXPECT_EQ_MSG(test, kmc_parse_fanout(s1 + 1, s2 - s1 - 1),
			    (int)kmc_fanout_index(cookie_hash(v)),
			    "layout.vec line %d: fan-out", v->line);
	len = kmc_parse_object_name(s2 + 1, strlen(s2 + 1), key, sizeof(key));
	KUNIT_EXPECT_TRUE_MSG(test, len >= (int)v->key_len &&
			      !memcmp(key, v->key, v->key_len),
			      "layout.vec line %d: key parsed wrong (%d)",
			      v->line, len);
}

/* Every good vector path parses back to its volume, fan-out and key. */
static void test_parse_vectors(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < kmv_layout_n; i++)
		if (!strcmp(kmv_layout[i].err, "ok"))
			parse_back(test, &kmv_layout[i]);
}

/* The 256 fan-outs are "@00".."@ff", and only those parse. */
static void test_fanout_names(struct kunit *test)
{
	char name[8], want[8];
	unsigned int i;

	for (i = 0; i < KMC_FANOUT_NR; i++) {
		snprintf(want, sizeof(want), "@%02x", i);
		KUNIT_EXPECT_EQ(test, kmc_fanout_name(i, name, sizeof(name)),
				3);
		KUNIT_EXPECT_STREQ(test, name, want);
		KUNIT_EXPECT_EQ(test, kmc_parse_fanout(name, 3), (int)i);
	}
	KUNIT_EXPECT_EQ(test, kmc_fanout_name(256, name, sizeof(name)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, kmc_fanout_name(1, name, 3), -ENOSPC);
	KUNIT_EXPECT_EQ(test, kmc_parse_fanout("@AB", 3), -EINVAL);
	KUNIT_EXPECT_EQ(test, kmc_parse_fanout("@1", 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, kmc_parse_fanout("@100", 4), -EINVAL);
	KUNIT_EXPECT_EQ(test, kmc_parse_fanout("#00", 3), -EINVAL);
	KUNIT_EXPECT_EQ(test, kmc_parse_fanout("@0g", 3), -EINVAL);
}

/* The fan-out is the low byte of the cookie hash. */
static void test_fanout_index(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, kmc_fanout_index(0x12345678), 0x78);
	KUNIT_EXPECT_EQ(test, kmc_fanout_index(0xffffff00), 0);
	KUNIT_EXPECT_EQ(test, kmc_fanout_index(0xff), 0xff);
}

/* Volume directories are "I" + key; "" gives "I"; '/' and NUL: -EACCES. */
static void test_volume_dir_names(struct kunit *test)
{
	char name[KMC_VOLUME_DIR_SIZE], big[KMC_VOLUME_KEY_DIR_MAX + 2];

	KUNIT_EXPECT_EQ(test, kmc_volume_dir_name("9p,src,", 7, name,
						  sizeof(name)), 8);
	KUNIT_EXPECT_STREQ(test, name, "I9p,src,");
	KUNIT_EXPECT_EQ(test, kmc_volume_dir_name("", 0, name, sizeof(name)),
			1);
	KUNIT_EXPECT_STREQ(test, name, "I");
	KUNIT_EXPECT_EQ(test, kmc_volume_dir_name("a/b", 3, name,
						  sizeof(name)), -EACCES);
	KUNIT_EXPECT_EQ(test, kmc_volume_dir_name("a\0b", 3, name,
						  sizeof(name)), -EACCES);
	KUNIT_EXPECT_EQ(test, kmc_volume_dir_name("abc", 3, name, 4), -ENOSPC);
	KUNIT_EXPECT_EQ(test, kmc_volume_dir_name("abc", 3, name, 5), 4);
	memset(big, 'v', sizeof(big));
	KUNIT_EXPECT_EQ(test, kmc_volume_dir_name(big, KMC_VOLUME_KEY_DIR_MAX,
						  name, sizeof(name)),
			NAME_MAX);
	KUNIT_EXPECT_EQ(test, kmc_volume_dir_name(big,
						  KMC_VOLUME_KEY_DIR_MAX + 1,
						  name, sizeof(name)),
			-ENAMETOOLONG);
}

/* Volume directory parsing wants the 'I' and gives the rest as the key. */
static void test_parse_volume_dir(struct kunit *test)
{
	const char *vk = NULL;
	size_t vlen = 99;

	KUNIT_EXPECT_EQ(test, kmc_parse_volume_dir("I9p,a", 5, &vk, &vlen), 0);
	KUNIT_EXPECT_EQ(test, vlen, 4);
	KUNIT_EXPECT_EQ(test, memcmp(vk, "9p,a", 4), 0);
	KUNIT_EXPECT_EQ(test, kmc_parse_volume_dir("I", 1, &vk, &vlen), 0);
	KUNIT_EXPECT_EQ(test, vlen, 0);
	KUNIT_EXPECT_EQ(test, kmc_parse_volume_dir("", 0, &vk, &vlen),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, kmc_parse_volume_dir("i9p", 3, &vk, &vlen),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, kmc_parse_volume_dir("@00", 3, &vk, &vlen),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, kmc_parse_volume_dir("Ia/b", 4, &vk, &vlen),
			-EINVAL);
}

/* Graves are "%08x%08x" of (seconds, counter), and parse back. */
static void test_grave_names(struct kunit *test)
{
	char name[KMC_GRAVE_NAME_LEN + 1];
	u32 s = 0, c = 0;

	KUNIT_EXPECT_EQ(test, kmc_grave_name(0x6552d1a0, 1, name,
					     sizeof(name)), 16);
	KUNIT_EXPECT_STREQ(test, name, "6552d1a000000001");
	KUNIT_EXPECT_EQ(test, kmc_parse_grave_name(name, 16, &s, &c), 0);
	KUNIT_EXPECT_EQ(test, s, 0x6552d1a0);
	KUNIT_EXPECT_EQ(test, c, 1);
	KUNIT_EXPECT_EQ(test, kmc_grave_name(0xffffffff, 0xdeadbeef, name,
					     sizeof(name)), 16);
	KUNIT_EXPECT_STREQ(test, name, "ffffffffdeadbeef");
	KUNIT_EXPECT_EQ(test, kmc_grave_name(1, 1, name, 16), -ENOSPC);
	KUNIT_EXPECT_EQ(test, kmc_parse_grave_name("6552D1A000000001", 16, &s,
						   &c), -EINVAL);
	KUNIT_EXPECT_EQ(test, kmc_parse_grave_name("6552d1a0000001", 14, &s,
						   &c), -EINVAL);
	KUNIT_EXPECT_EQ(test, kmc_parse_grave_name("6552d1a00000000x", 16, &s,
						   &c), -EINVAL);
}

/* Object names are exactly the names cachefiles' cooking produces. */
static void test_parse_object_name(struct kunit *test)
{
	u8 key[KMC_UNCOOKED_MAX];
	char long_name[NAME_MAX + 2];

	KUNIT_EXPECT_EQ(test, kmc_parse_object_name("Tabc0d3,", 8, key,
						    sizeof(key)), 8);
	KUNIT_EXPECT_EQ(test, key[0], 0xd3);
	KUNIT_EXPECT_EQ(test, kmc_parse_object_name("Dhello", 6, key,
						    sizeof(key)), 5);
	KUNIT_EXPECT_EQ(test, kmc_parse_object_name("", 0, key, sizeof(key)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, kmc_parse_object_name("Xabc", 4, key,
						    sizeof(key)), -EINVAL);
	KUNIT_EXPECT_EQ(test, kmc_parse_object_name("@fa", 3, key,
						    sizeof(key)), -EINVAL);
	memset(long_name, 'k', sizeof(long_name));
	long_name[0] = 'D';
	KUNIT_EXPECT_EQ(test, kmc_parse_object_name(long_name, NAME_MAX + 1,
						    key, sizeof(key)),
			-EINVAL);
}

/*
 * The path of "9p,src," and key d3c0ab0000000000 (hash 0xfa), built into a
 * buffer of exactly @size bytes, so that KASAN or valgrind catch a write
 * past it; on success the buffer holds the path.
 */
static int path_in(struct kunit *test, size_t size)
{
	static const u8 key[8] = { 0xd3, 0xc0, 0xab };
	char *path = kunit_kmalloc(test, size ? size : 1, GFP_KERNEL);
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, path);
	ret = kmc_object_path("9p,src,", 7, 0xfa, key, 8, path, size);
	if (ret >= 0)
		KUNIT_EXPECT_STREQ_MSG(test, path, "cache/I9p,src,/@fa/Tabc0d3,",
				       "size %zu", size);
	kunit_kfree(test, path);
	return ret;
}

/*
 * A too-small path buffer is -ENOSPC at every component, and nothing is
 * written past it; the path and its NUL are all a buffer needs.
 */
static void test_object_path_nospace(struct kunit *test)
{
	size_t size;
	int full;

	full = path_in(test, KMC_OBJECT_PATH_SIZE);
	KUNIT_ASSERT_EQ(test, full,
			(int)strlen("cache/I9p,src,/@fa/Tabc0d3,"));
	for (size = 0; size <= (size_t)full; size++)
		KUNIT_EXPECT_EQ_MSG(test, path_in(test, size), -ENOSPC,
				    "size %zu", size);
	KUNIT_EXPECT_EQ(test, path_in(test, full + 1), full);
}

/* The longest names fit KMC_OBJECT_PATH_SIZE. */
static void test_object_path_longest(struct kunit *test)
{
	char *vkey = kunit_kmalloc(test, KMC_VOLUME_KEY_DIR_MAX, GFP_KERNEL);
	u8 *key = kunit_kmalloc(test, KMC_KEY_MAX, GFP_KERNEL);
	char path[KMC_OBJECT_PATH_SIZE];

	KUNIT_ASSERT_NOT_NULL(test, vkey);
	KUNIT_ASSERT_NOT_NULL(test, key);
	memset(vkey, 'v', KMC_VOLUME_KEY_DIR_MAX);
	memset(key, 'k', KMC_KEY_MAX);
	KUNIT_EXPECT_EQ(test, kmc_object_path(vkey, KMC_VOLUME_KEY_DIR_MAX, 0,
					      key, KMC_KEY_MAX, path,
					      sizeof(path)),
			6 + 255 + 1 + 3 + 1 + 253);
}

static struct kunit_case kmc_layout_cases[] = {
	KUNIT_CASE(test_object_path_vectors),
	KUNIT_CASE(test_parse_vectors),
	KUNIT_CASE(test_fanout_names),
	KUNIT_CASE(test_fanout_index),
	KUNIT_CASE(test_volume_dir_names),
	KUNIT_CASE(test_parse_volume_dir),
	KUNIT_CASE(test_grave_names),
	KUNIT_CASE(test_parse_object_name),
	KUNIT_CASE(test_object_path_nospace),
	KUNIT_CASE(test_object_path_longest),
	{}
};

static struct kunit_suite kmc_layout_suite = {
	.name = "kmc_layout",
	.init = kmc_layout_test_init,
	.test_cases = kmc_layout_cases,
};

kunit_test_suite(kmc_layout_suite);
