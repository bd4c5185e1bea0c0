// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fscache index hash (kmc_hash.h), against hash.vec: a KUnit suite in
 * the kernel, and run by cmocka in userspace (tests/kernel-shim).
 */
#include <kunit/test.h>

#include "kmc_hash.h"
#include "kmv_tables.h"

static const struct kmv_hash *kmv_hash;
static unsigned int kmv_hash_n;

/* Each case starts with the rows of hash.vec. */
static int kmc_hash_test_init(struct kunit *test)
{
	kmv_hash = kmv_load(test, &kmv_hash_table, &kmv_hash_n);
	return kmv_hash ? 0 : -EINVAL;
}

/* Every vector, computed by the 6.1 tree's fscache_hash(), matches. */
static void kmc_hash_vectors(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < kmv_hash_n; i++) {
		const struct kmv_hash *v = &kmv_hash[i];

		KUNIT_EXPECT_EQ_MSG(test, kmc_hash(v->salt, v->data,
						   v->data_len),
				    v->hash, "hash.vec line %d", v->line);
	}
	KUNIT_EXPECT_GT(test, kmv_hash_n, 50);
}

/*
 * The key without its zero padding, hashed by kmc_hash_padded(), gives
 * the hash of the padded buffer (how fscache hashes cookie keys).
 */
static void kmc_hash_padded_agrees(struct kunit *test)
{
	unsigned int i, len;

	for (i = 0; i < kmv_hash_n; i++) {
		const struct kmv_hash *v = &kmv_hash[i];

		len = v->data_len;
		while (len && len + 3 > v->data_len && !v->data[len - 1])
			len--;
		KUNIT_EXPECT_EQ_MSG(test, kmc_hash_padded(v->salt, v->data,
							  len),
				    v->hash, "hash.vec line %d", v->line);
	}
}

/* A trailing partial word is not hashed: callers pad to 4 first. */
static void kmc_hash_ignores_partial_word(struct kunit *test)
{
	static const u8 key[7] = { 1, 2, 3, 4, 5, 6, 7 };

	KUNIT_EXPECT_EQ(test, kmc_hash(0, key, 7), kmc_hash(0, key, 4));
	KUNIT_EXPECT_NE(test, kmc_hash(0, key, 4), kmc_hash(0, key, 0));
}

/* The salt (a volume's hash for cookies) changes every hash. */
static void kmc_hash_salt_matters(struct kunit *test)
{
	static const u8 key[4] = { 'a', 'b', 'c', 'd' };

	KUNIT_EXPECT_NE(test, kmc_hash(0, key, 4), kmc_hash(1, key, 4));
}

static struct kunit_case kmc_hash_cases[] = {
	KUNIT_CASE(kmc_hash_vectors),
	KUNIT_CASE(kmc_hash_padded_agrees),
	KUNIT_CASE(kmc_hash_ignores_partial_word),
	KUNIT_CASE(kmc_hash_salt_matters),
	{}
};

static struct kunit_suite kmc_hash_suite = {
	.name = "kmc_hash",
	.init = kmc_hash_test_init,
	.test_cases = kmc_hash_cases,
};

kunit_test_suite(kmc_hash_suite);
