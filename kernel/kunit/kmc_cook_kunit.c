// SPDX-License-Identifier: GPL-2.0-only
/*
 * Cachefiles key cooking (kmc_key.h), against cook.vec: a KUnit suite in
 * the kernel, and run by cmocka in userspace (tests/kernel-shim).
 */
#include <kunit/test.h>

#include "kmc_key.h"
#include "kmc_kunit.h"
#include "kmv_tables.h"

static const struct kmv_cook *kmv_cook;
static unsigned int kmv_cook_n;

/* Each case starts with the rows of cook.vec. */
static int kmc_cook_test_init(struct kunit *test)
{
	kmv_cook = kmv_load(test, &kmv_cook_table, &kmv_cook_n);
	return kmv_cook ? 0 : -EINVAL;
}

/* Cook from an exact-size copy: the core may not read past the key. */
static int cook(struct kunit *test, const u8 *key, unsigned int len,
		char *name)
{
	u8 *exact = kmk_exact(test, key, len);
	int ret;

	ret = kmc_cook_key(exact, len, name, KMC_COOKED_MAX + 1);
	kunit_kfree(test, exact);
	return ret;
}

/* Every vector, cooked by the 6.1 tree's cachefiles_cook_key(), matches. */
static void test_cook_vectors(struct kunit *test)
{
	char name[KMC_COOKED_MAX + 1];
	unsigned int i;
	int ret;

	for (i = 0; i < kmv_cook_n; i++) {
		const struct kmv_cook *v = &kmv_cook[i];

		name[0] = '\0';
		ret = cook(test, v->key, v->key_len, name);
		KUNIT_EXPECT_EQ_MSG(test, ret, (int)strlen(v->name),
				    "cook.vec line %d", v->line);
		KUNIT_EXPECT_STREQ_MSG(test, name, v->name,
				       "cook.vec line %d", v->line);
		/* what a caller allocates for it, told beforehand */
		KUNIT_EXPECT_EQ_MSG(test, kmc_cooked_len(v->key, v->key_len),
				    (int)strlen(v->name), "cook.vec line %d",
				    v->line);
	}
	KUNIT_EXPECT_GT(test, kmv_cook_n, 50);
}

/* Uncooking a vector's name gives its key (S/T: padded to whole words). */
static void test_uncook_vectors(struct kunit *test)
{
	u8 key[KMC_UNCOOKED_MAX];
	unsigned int i;
	int len;

	for (i = 0; i < kmv_cook_n; i++) {
		const struct kmv_cook *v = &kmv_cook[i];

		len = kmc_uncook_key(v->name, strlen(v->name), key,
				     sizeof(key));
		KUNIT_EXPECT_GE_MSG(test, len, (int)v->key_len,
				    "cook.vec line %d: uncook %s", v->line,
				    v->name);
		if (len >= (int)v->key_len)
			KUNIT_EXPECT_EQ_MSG(test,
					    memcmp(key, v->key, v->key_len), 0,
					    "cook.vec line %d: uncook %s",
					    v->line, v->name);
	}
}

/* The 9p cookies of the kernel-written fixture: inode numbers, LE. */
static void test_9p_inode_key(struct kunit *test)
{
	const u8 key[8] = { 0xd3, 0xc0, 0xab, 0, 0, 0, 0, 0 };
	char name[KMC_COOKED_MAX + 1];
	u8 back[KMC_UNCOOKED_MAX];

	KUNIT_EXPECT_EQ(test, cook(test, key, 8, name), 8);
	KUNIT_EXPECT_STREQ(test, name, "Tabc0d3,");
	KUNIT_ASSERT_EQ(test, kmc_uncook_key("Tabc0d3,", 8, back,
					     sizeof(back)), 8);
	KUNIT_EXPECT_EQ(test, memcmp(back, key, 8), 0);
}

/* cachefiles BUG()s on keys longer than NAME_MAX - 3; the core refuses. */
static void test_cook_refuses_long_key(struct kunit *test)
{
	static const u8 key[KMC_KEY_MAX + 1];
	char name[KMC_COOKED_MAX + 1];

	KUNIT_EXPECT_EQ(test, cook(test, key, KMC_KEY_MAX + 1, name),
			-ENAMETOOLONG);
	KUNIT_EXPECT_EQ(test, kmc_cooked_len(key, KMC_KEY_MAX + 1),
			-ENAMETOOLONG);
	KUNIT_EXPECT_GT(test, cook(test, key, KMC_KEY_MAX, name), 0);
}

/* A too-small output buffer is an error, never an overflow. */
static void test_cook_small_buffer(struct kunit *test)
{
	const u8 key[3] = { 'a', 'b', 'c' };
	char name[5];

	KUNIT_EXPECT_EQ(test, kmc_cook_key(key, 3, name, sizeof(name) - 1),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, kmc_cook_key(key, 3, name, sizeof(name)), 4);
	KUNIT_EXPECT_STREQ(test, name, "Dabc");
}

/* Names cachefiles would never write are rejected. */
static void test_uncook_rejects_malformed(struct kunit *test)
{
	static const char *const bad[] = {
		"",		/* empty */
		"X123",		/* unknown type */
		"S0",		/* leading zero */
		"S123456789",	/* more than 8 digits */
		"SAB",		/* upper-case hex */
		"S,g",		/* not hex */
		"E3abcd",	/* pad digit out of range */
		"E0abc",	/* not whole groups */
		"E0",		/* no group */
		"E0ab*d",	/* not in the charmap */
		"T",		/* a zero word cooks as S (S wins ties) */
		"T,",		/* the same for two words */
		"E1000000",	/* would cook as S */
	};
	u8 key[KMC_UNCOOKED_MAX];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, kmc_uncook_key(bad[i], strlen(bad[i]),
							 key, sizeof(key)),
				    -EINVAL, "'%s' accepted", bad[i]);
	/* fine as D ... */
	KUNIT_EXPECT_EQ(test, kmc_uncook_key("Dhello", 6, key, sizeof(key)),
			5);
}

/* Uncooking into a small buffer fails cleanly. */
static void test_uncook_small_buffer(struct kunit *test)
{
	u8 key[4];

	KUNIT_EXPECT_EQ(test, kmc_uncook_key("Dhello", 6, key, sizeof(key)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, kmc_uncook_key("Tabc0d3,", 8, key, sizeof(key)),
			-EINVAL);
}

static struct kunit_case kmc_cook_cases[] = {
	KUNIT_CASE(test_cook_vectors),
	KUNIT_CASE(test_uncook_vectors),
	KUNIT_CASE(test_9p_inode_key),
	KUNIT_CASE(test_cook_refuses_long_key),
	KUNIT_CASE(test_cook_small_buffer),
	KUNIT_CASE(test_uncook_rejects_malformed),
	KUNIT_CASE(test_uncook_small_buffer),
	{}
};

static struct kunit_suite kmc_cook_suite = {
	.name = "kmc_cook",
	.init = kmc_cook_test_init,
	.test_cases = kmc_cook_cases,
};

kunit_test_suite(kmc_cook_suite);
