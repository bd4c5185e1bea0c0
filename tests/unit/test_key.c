// SPDX-License-Identifier: GPL-2.0-only
/* Specification of kmc_cook_key() and kmc_uncook_key(). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "kmc_key.h"
#include "kmv_cook.h"

static int cook(const u8 *key, unsigned int len, char *name)
{
	/* Exact-size copy: the core may not read past the key. */
	u8 *exact = malloc(len ? len : 1);
	int ret;

	memcpy(exact, key, len);
	ret = kmc_cook_key(exact, len, name, KMC_COOKED_MAX + 1);
	free(exact);
	return ret;
}

/* Every vector, cooked by the 6.1 tree's cachefiles_cook_key(), matches. */
static void test_cook_vectors(void **state)
{
	char name[KMC_COOKED_MAX + 1];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kmv_cook); i++) {
		const struct kmv_cook *v = &kmv_cook[i];

		if (cook(v->key, v->key_len, name) != (int)strlen(v->name) ||
		    strcmp(name, v->name))
			fail_msg("cook.vec line %d: got %s want %s", v->line,
				 name, v->name);
		/* what a caller allocates for it, told beforehand */
		if (kmc_cooked_len(v->key, v->key_len) != (int)strlen(v->name))
			fail_msg("cook.vec line %d: kmc_cooked_len %d", v->line,
				 kmc_cooked_len(v->key, v->key_len));
	}
	assert_true(ARRAY_SIZE(kmv_cook) > 50);
}

/* Uncooking a vector's name gives its key (S/T: padded to whole words). */
static void test_uncook_vectors(void **state)
{
	u8 key[KMC_UNCOOKED_MAX];
	unsigned int i;
	int len;

	for (i = 0; i < ARRAY_SIZE(kmv_cook); i++) {
		const struct kmv_cook *v = &kmv_cook[i];

		len = kmc_uncook_key(v->name, strlen(v->name), key,
				     sizeof(key));
		if (len < (int)v->key_len || memcmp(key, v->key, v->key_len))
			fail_msg("cook.vec line %d: uncook %s gave %d bytes",
				 v->line, v->name, len);
	}
}

/* The 9p cookies of the kernel-written fixture: inode numbers, LE. */
static void test_9p_inode_key(void **state)
{
	const u8 key[8] = { 0xd3, 0xc0, 0xab, 0, 0, 0, 0, 0 };
	char name[KMC_COOKED_MAX + 1];
	u8 back[KMC_UNCOOKED_MAX];

	assert_int_equal(cook(key, 8, name), 8);
	assert_string_equal(name, "Tabc0d3,");
	assert_int_equal(kmc_uncook_key("Tabc0d3,", 8, back, sizeof(back)), 8);
	assert_memory_equal(back, key, 8);
}

/* cachefiles BUG()s on keys longer than NAME_MAX - 3; the core refuses. */
static void test_cook_refuses_long_key(void **state)
{
	u8 key[KMC_KEY_MAX + 1] = { 0 };
	char name[KMC_COOKED_MAX + 1];

	assert_int_equal(cook(key, KMC_KEY_MAX + 1, name), -ENAMETOOLONG);
	assert_int_equal(kmc_cooked_len(key, KMC_KEY_MAX + 1), -ENAMETOOLONG);
	assert_true(cook(key, KMC_KEY_MAX, name) > 0);
}

/* A too-small output buffer is an error, never an overflow. */
static void test_cook_small_buffer(void **state)
{
	const u8 key[3] = { 'a', 'b', 'c' };
	char name[5];

	assert_int_equal(kmc_cook_key(key, 3, name, sizeof(name) - 1),
			 -ENOSPC);
	assert_int_equal(kmc_cook_key(key, 3, name, sizeof(name)), 4);
	assert_string_equal(name, "Dabc");
}

/* Names cachefiles would never write are rejected. */
static void test_uncook_rejects_malformed(void **state)
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
		"Dhello",	/* fine as D ... */
		"T",		/* a zero word cooks as S (S wins ties) */
		"T,",		/* the same for two words */
		"E1000000",	/* would cook as S */
	};
	u8 key[KMC_UNCOOKED_MAX];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		int ret = kmc_uncook_key(bad[i], strlen(bad[i]), key,
					 sizeof(key));

		if (i == 10)
			assert_int_equal(ret, 5);
		else if (ret != -EINVAL)
			fail_msg("'%s' accepted (%d)", bad[i], ret);
	}
}

/* Uncooking into a small buffer fails cleanly. */
static void test_uncook_small_buffer(void **state)
{
	u8 key[4];

	assert_int_equal(kmc_uncook_key("Dhello", 6, key, sizeof(key)),
			 -EINVAL);
	assert_int_equal(kmc_uncook_key("Tabc0d3,", 8, key, sizeof(key)),
			 -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cook_vectors),
		cmocka_unit_test(test_uncook_vectors),
		cmocka_unit_test(test_9p_inode_key),
		cmocka_unit_test(test_cook_refuses_long_key),
		cmocka_unit_test(test_cook_small_buffer),
		cmocka_unit_test(test_uncook_rejects_malformed),
		cmocka_unit_test(test_uncook_small_buffer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
