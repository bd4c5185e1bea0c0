// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: the /proc/fs/fscache/stats text (kmc_stats.h) against stats.vec,
 * the vectors the userspace cmocka suite reads.
 */
#include <kunit/test.h>

#include "kmc_stats.h"
#include "kmv_tables.h"

static const struct kmv_stats *kmv_stats;
static unsigned int kmv_stats_n;

/* Each case starts with the rows of stats.vec. */
static int kmc_stats_test_init(struct kunit *test)
{
	kmv_stats = kmv_load(test, &kmv_stats_table, &kmv_stats_n);
	return kmv_stats ? 0 : -EINVAL;
}

/* Counter i (enum kmc_stat) gets fill + i, as stats.vec says. */
static void kmc_stats_fill(struct kmc_fscache_stats *st, u32 fill, int at)
{
	unsigned int i;

	for (i = 0; i < KMC_STAT_COUNT; i++)
		st->n[i] = fill + i;
	st->lru_timer = at;
}

/* Every vector: the kernel's text, and its length returned. */
static void kmc_stats_vectors(struct kunit *test)
{
	char *buf = kunit_kmalloc(test, KMC_FSCACHE_STATS_MAX, GFP_KERNEL);
	struct kmc_fscache_stats st;
	unsigned int i;
	int n;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (i = 0; i < kmv_stats_n; i++) {
		const struct kmv_stats *v = &kmv_stats[i];

		kmc_stats_fill(&st, v->fill, v->at);
		n = kmc_fscache_stats_format(&st, buf, KMC_FSCACHE_STATS_MAX);
		KUNIT_EXPECT_EQ_MSG(test, n, (int)strlen(v->text),
				    "stats.vec line %d", v->line);
		KUNIT_EXPECT_STREQ_MSG(test, buf, v->text,
				       "stats.vec line %d", v->line);
	}
}

/* The widest counters (and a 64-bit lru_timer) fit KMC_FSCACHE_STATS_MAX. */
static void kmc_stats_max_fits(struct kunit *test)
{
	struct kmc_fscache_stats st;

	memset(&st, 0xff, sizeof(st));
	st.n[KMC_STAT_COOKIES] = (u32)INT_MIN;
	st.n[KMC_STAT_VOLUMES] = (u32)INT_MIN;
	st.lru_timer = LONG_MIN;
	KUNIT_EXPECT_LT(test, kmc_fscache_stats_format(&st, NULL, 0),
			KMC_FSCACHE_STATS_MAX);
}

static struct kunit_case kmc_stats_cases[] = {
	KUNIT_CASE(kmc_stats_vectors),
	KUNIT_CASE(kmc_stats_max_fits),
	{}
};

static struct kunit_suite kmc_stats_suite = {
	.name = "kmc_stats",
	.init = kmc_stats_test_init,
	.test_cases = kmc_stats_cases,
};

kunit_test_suite(kmc_stats_suite);
