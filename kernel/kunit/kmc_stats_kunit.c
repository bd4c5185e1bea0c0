// SPDX-License-Identifier: GPL-2.0-only
/*
 * The /proc/fs/fscache/stats text (kmc_stats.h), against stats.vec: a
 * KUnit suite in the kernel, and run by cmocka in userspace
 * (tests/kernel-shim).
 */
#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/slab.h>
#include <linux/string.h>

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
	KUNIT_EXPECT_GE(test, kmv_stats_n, 5);
}

/*
 * The widest counters (and a 64-bit lru_timer) fit KMC_FSCACHE_STATS_MAX,
 * written whole into a buffer of exactly that size.
 */
static void kmc_stats_max_fits(struct kunit *test)
{
	char *buf = kunit_kmalloc(test, KMC_FSCACHE_STATS_MAX, GFP_KERNEL);
	struct kmc_fscache_stats st;
	int n;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	memset(&st, 0xff, sizeof(st));
	st.n[KMC_STAT_COOKIES] = (u32)INT_MIN;
	st.n[KMC_STAT_VOLUMES] = (u32)INT_MIN;
	st.lru_timer = LONG_MIN;
	n = kmc_fscache_stats_format(&st, buf, KMC_FSCACHE_STATS_MAX);
	KUNIT_EXPECT_LT(test, n, KMC_FSCACHE_STATS_MAX);
	KUNIT_EXPECT_EQ(test, (int)strlen(buf), n);
}

/*
 * A short buffer gets a NUL-terminated prefix and the full length, as
 * snprintf() does; no buffer at all gets the length only.
 */
static void kmc_stats_truncates(struct kunit *test)
{
	char *buf = kunit_kmalloc(test, KMC_FSCACHE_STATS_MAX, GFP_KERNEL);
	char *shortbuf = kunit_kmalloc(test, 8, GFP_KERNEL);
	struct kmc_fscache_stats st;
	int n;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_NOT_NULL(test, shortbuf);
	kmc_stats_fill(&st, 0, 0);
	n = kmc_fscache_stats_format(&st, buf, KMC_FSCACHE_STATS_MAX);
	KUNIT_EXPECT_EQ(test, kmc_fscache_stats_format(&st, shortbuf, 8), n);
	KUNIT_EXPECT_STREQ(test, shortbuf, "FS-Cach");
	KUNIT_EXPECT_EQ(test, kmc_fscache_stats_format(&st, NULL, 0), n);
}

static struct kunit_case kmc_stats_cases[] = {
	KUNIT_CASE(kmc_stats_vectors),
	KUNIT_CASE(kmc_stats_max_fits),
	KUNIT_CASE(kmc_stats_truncates),
	{}
};

static struct kunit_suite kmc_stats_suite = {
	.name = "kmc_stats",
	.init = kmc_stats_test_init,
	.test_cases = kmc_stats_cases,
};

kunit_test_suite(kmc_stats_suite);
