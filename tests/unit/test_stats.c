// SPDX-License-Identifier: GPL-2.0-only
/* Specification of kmc_fscache_stats_format(): /proc/fs/fscache/stats. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "kmc_stats.h"
#include "kmv_stats.h"

/* Counter i (enum kmc_stat) gets fill + i, as stats.vec says. */
static void fill_stats(struct kmc_fscache_stats *st, u32 fill, int at)
{
	unsigned int i;

	for (i = 0; i < KMC_STAT_COUNT; i++)
		st->n[i] = fill + i;
	st->lru_timer = at;
}

/* Every vector: the kernel's text, and its length returned. */
static void test_stats_vectors(void **state)
{
	char buf[KMC_FSCACHE_STATS_MAX];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kmv_stats); i++) {
		const struct kmv_stats *v = &kmv_stats[i];
		struct kmc_fscache_stats st;
		int n;

		fill_stats(&st, v->fill, v->at);
		n = kmc_fscache_stats_format(&st, buf, sizeof(buf));
		if (n != (int)strlen(v->text) || strcmp(buf, v->text))
			fail_msg("stats.vec line %d: got\n%s", v->line, buf);
	}
	assert_true(ARRAY_SIZE(kmv_stats) >= 5);
}

/* The widest counters (and a 64-bit lru_timer) fit KMC_FSCACHE_STATS_MAX. */
static void test_stats_max_fits(void **state)
{
	struct kmc_fscache_stats st;
	char buf[KMC_FSCACHE_STATS_MAX];

	memset(&st, 0xff, sizeof(st));
	st.n[KMC_STAT_COOKIES] = (u32)INT_MIN;
	st.n[KMC_STAT_VOLUMES] = (u32)INT_MIN;
	st.lru_timer = LONG_MIN;
	assert_true(kmc_fscache_stats_format(&st, buf, sizeof(buf)) <
		    KMC_FSCACHE_STATS_MAX);
}

/* A short buffer gets a NUL-terminated prefix and the full length. */
static void test_stats_truncates(void **state)
{
	struct kmc_fscache_stats st;
	char buf[KMC_FSCACHE_STATS_MAX], shortbuf[8];
	int n;

	fill_stats(&st, 0, 0);
	n = kmc_fscache_stats_format(&st, buf, sizeof(buf));
	assert_int_equal(kmc_fscache_stats_format(&st, shortbuf,
						  sizeof(shortbuf)), n);
	assert_string_equal(shortbuf, "FS-Cach");
	assert_int_equal(kmc_fscache_stats_format(&st, NULL, 0), n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stats_vectors),
		cmocka_unit_test(test_stats_max_fits),
		cmocka_unit_test(test_stats_truncates),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
