// SPDX-License-Identifier: GPL-2.0-only
/* Specification of kmc_hash(): the fscache index hash. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "kmc_hash.h"
#include "kmv_hash.h"

/* Every vector, computed by the 6.1 tree's fscache_hash(), matches. */
static void test_hash_vectors(void **state)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kmv_hash); i++) {
		const struct kmv_hash *v = &kmv_hash[i];

		if (kmc_hash(v->salt, v->data, v->data_len) != v->hash)
			fail_msg("hash.vec line %d: got %08x want %08x", v->line,
				 kmc_hash(v->salt, v->data, v->data_len),
				 v->hash);
	}
	assert_true(ARRAY_SIZE(kmv_hash) > 50);
}

/* A trailing partial word is not hashed: callers pad to 4 first. */
static void test_hash_ignores_partial_word(void **state)
{
	const u8 key[7] = { 1, 2, 3, 4, 5, 6, 7 };

	assert_int_equal(kmc_hash(0, key, 7), kmc_hash(0, key, 4));
	assert_int_not_equal(kmc_hash(0, key, 4), kmc_hash(0, key, 0));
}

/* The salt (a volume's hash for cookies) changes every hash. */
static void test_hash_salt_matters(void **state)
{
	const u8 key[4] = { 'a', 'b', 'c', 'd' };

	assert_int_not_equal(kmc_hash(0, key, 4), kmc_hash(1, key, 4));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hash_vectors),
		cmocka_unit_test(test_hash_ignores_partial_word),
		cmocka_unit_test(test_hash_salt_matters),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
