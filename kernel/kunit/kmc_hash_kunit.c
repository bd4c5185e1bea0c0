// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: the fscache index hash (kmc_hash.h) against hash.vec, the
 * vectors the userspace cmocka suite reads.
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

static struct kunit_case kmc_hash_cases[] = {
	KUNIT_CASE(kmc_hash_vectors),
	KUNIT_CASE(kmc_hash_padded_agrees),
	{}
};

static struct kunit_suite kmc_hash_suite = {
	.name = "kmc_hash",
	.init = kmc_hash_test_init,
	.test_cases = kmc_hash_cases,
};

kunit_test_suite(kmc_hash_suite);
