// SPDX-License-Identifier: GPL-2.0-only
/* Specification of the kcompat allocator: counting, injection, NOFAIL. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <time.h>
#include <cmocka.h>

#include "kcompat.h"

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* Every allocation is counted until it is freed. */
static void test_alloc_counts_live_objects(void **state)
{
	long base = kmc_alloc_live();
	void *a = kmalloc(10, GFP_KERNEL), *b = kzalloc(0, GFP_KERNEL);

	assert_non_null(a);
	assert_non_null(b);
	assert_int_equal(kmc_alloc_live(), base + 2);
	kfree(a);
	kfree(b);
	kfree(NULL);
	assert_int_equal(kmc_alloc_live(), base);
}

/* An injected failure makes a plain allocation return NULL, once. */
static void test_injected_failure_returns_null(void **state)
{
	void *p;

	kmc_alloc_fail_next(1);
	assert_null(kmalloc(16, GFP_KERNEL));
	p = kmalloc(16, GFP_KERNEL);
	assert_non_null(p);
	kfree(p);
}

/*
 * __GFP_NOFAIL: after N injected failures the call still returns valid,
 * zeroed memory, after exactly N retries, having slept a jiffy between
 * attempts.
 */
static void test_nofail_retries_then_succeeds(void **state)
{
	const unsigned int n = 5;
	unsigned long retries = kmc_alloc_nofail_retries();
	double t0 = now_us(), elapsed;
	unsigned char *p;
	unsigned int i;

	kmc_alloc_fail_next(n);
	p = kvzalloc(4096, GFP_KERNEL | __GFP_NOFAIL);
	elapsed = now_us() - t0;
	assert_non_null(p);
	for (i = 0; i < 4096; i++)
		assert_int_equal(p[i], 0);
	assert_int_equal(kmc_alloc_nofail_retries() - retries, n);
	assert_true(elapsed >= n * KMC_NOFAIL_SLEEP_US);
	kvfree(p);
}

/* With no failure pending, NOFAIL costs no retry and no sleep. */
static void test_nofail_fast_path(void **state)
{
	unsigned long retries = kmc_alloc_nofail_retries();
	void *p = kmalloc(8, GFP_KERNEL | __GFP_NOFAIL);

	assert_non_null(p);
	assert_int_equal(kmc_alloc_nofail_retries(), retries);
	kfree(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alloc_counts_live_objects),
		cmocka_unit_test(test_injected_failure_returns_null),
		cmocka_unit_test(test_nofail_retries_then_succeeds),
		cmocka_unit_test(test_nofail_fast_path),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
