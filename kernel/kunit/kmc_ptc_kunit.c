// SPDX-License-Identifier: GPL-2.0-only
/*
 * The page-table check's counting rules (kmc_ptc.h), against ptc.vec on a
 * dense array of counters as mm/page_table_check.c keeps them in
 * page_ext: a KUnit suite in the kernel, and run by cmocka in userspace
 * (tests/kernel-shim).  The library's sparse space and trace format are
 * specified by tests/unit/test_ptc.c.
 */
#include <kunit/test.h>
#include <linux/kstrtox.h>
#include <linux/limits.h>
#include <linux/prandom.h>
#include <linux/vmalloc.h>

#include "kmc_ptc.h"
#include "kmv_tables.h"

static const struct kmv_ptc *kmv_ptc;
static unsigned int kmv_ptc_n;

/* Each case starts with the rows of ptc.vec. */
static int kmc_ptc_test_init(struct kunit *test)
{
	kmv_ptc = kmv_load(test, &kmv_ptc_table, &kmv_ptc_n);
	return kmv_ptc ? 0 : -EINVAL;
}

/* Counters for the core: enough pages for every vector (4 MiB). */
#define DENSE_PAGES	(2UL << KMC_PTC_PUD_SHIFT)

enum op { OP_ALLOC, OP_FREE, OP_SET, OP_CLEAR, OP_PROBE };

/* One ptc.vec row as an operation on @pages counters from its pfn. */
struct row {
	enum op op;
	unsigned long pages;
	bool anon, rw;
	int verdict;
};

/* The index of @w in @words, or -1. */
static int word_index(const char *const *words, unsigned int n, const char *w)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!strcmp(words[i], w))
			return i;
	return -1;
}

/* Decode @v into @r, as tests/ptc/ptc_vec.h does.  0, or -EINVAL. */
static int decode(const struct kmv_ptc *v, struct row *r)
{
	static const char *const ops[] = { "alloc", "free", "set", "clear",
					   "probe" };
	static const char *const levels[] = { "pte", "pmd", "pud" };
	unsigned int order;
	int i;

	memset(r, 0, sizeof(*r));
	r->verdict = kmc_ptc_rule_parse(v->verdict, strlen(v->verdict));
	i = word_index(ops, ARRAY_SIZE(ops), v->op);
	if (i < 0 || r->verdict < 0)
		return -EINVAL;
	r->op = i;
	if (r->op == OP_PROBE)
		return r->verdict == KMC_PTC_OK ? 0 : -EINVAL;
	if (r->op <= OP_FREE) {
		if (kstrtouint(v->size, 10, &order) ||
		    order > KMC_PTC_MAX_ORDER)
			return -EINVAL;
		r->pages = 1UL << order;
		return 0;
	}
	i = word_index(levels, ARRAY_SIZE(levels), v->size);
	if (i < 0)
		return -EINVAL;
	r->pages = kmc_ptc_level_pages(i);
	r->anon = !strcmp(v->type, "anon");
	r->rw = !strcmp(v->perm, "rw");
	return 0;
}

/* Apply one decoded row to the counters from @at. */
static int core_apply(struct kmc_ptc_count *at, const struct row *r)
{
	unsigned long done;

	switch (r->op) {
	case OP_SET:
		return kmc_ptc_set_range(at, r->pages, r->anon, r->rw, &done);
	case OP_CLEAR:
		return kmc_ptc_clear_range(at, r->pages, r->anon, &done);
	case OP_PROBE:
		return KMC_PTC_OK;
	default:
		return kmc_ptc_zero_range(at, r->pages, &done);
	}
}

/* True when row @i starts a new case (fresh counters). */
static bool new_case(unsigned int i)
{
	return !i || strcmp(kmv_ptc[i].name, kmv_ptc[i - 1].name);
}

/* Every ptc.vec row gives its verdict and counters on the bare core. */
static void test_vectors_core(struct kunit *test)
{
	struct kmc_ptc_count *c = vzalloc(DENSE_PAGES * sizeof(*c));
	const struct kmc_ptc_count *p;
	unsigned int i;
	struct row r;

	KUNIT_ASSERT_NOT_NULL(test, c);
	for (i = 0; i < kmv_ptc_n; i++) {
		const struct kmv_ptc *k = &kmv_ptc[i];

		if (new_case(i))
			memset(c, 0, DENSE_PAGES * sizeof(*c));
		if (decode(k, &r) || k->pfn + r.pages > DENSE_PAGES ||
		    k->probe >= DENSE_PAGES) {
			KUNIT_FAIL(test, "ptc.vec line %d: malformed row",
				   k->line);
			continue;
		}
		p = &c[k->probe];
		KUNIT_EXPECT_EQ_MSG(test, core_apply(&c[k->pfn], &r),
				    r.verdict, "ptc.vec line %d: verdict",
				    k->line);
		KUNIT_EXPECT_EQ_MSG(test, atomic_read(&p->anon_map_count),
				    k->anon, "ptc.vec line %d: page %u anon",
				    k->line, k->probe);
		KUNIT_EXPECT_EQ_MSG(test, atomic_read(&p->file_map_count),
				    k->file, "ptc.vec line %d: page %u file",
				    k->line, k->probe);
	}
	vfree(c);
	KUNIT_EXPECT_GT(test, kmv_ptc_n, 80);
}

/* Allocation checks anon_map_count before file_map_count. */
static void test_zero_checks_anon_first(struct kunit *test)
{
	struct kmc_ptc_count c = { ATOMIC_INIT(1), ATOMIC_INIT(1) };

	KUNIT_EXPECT_EQ(test, kmc_ptc_zero_one(&c), KMC_PTC_STILL_ANON_MAPPED);
	atomic_set(&c.anon_map_count, 0);
	KUNIT_EXPECT_EQ(test, kmc_ptc_zero_one(&c), KMC_PTC_STILL_FILE_MAPPED);
	atomic_set(&c.anon_map_count, -1);
	atomic_set(&c.file_map_count, 0);
	KUNIT_EXPECT_EQ(test, kmc_ptc_zero_one(&c), KMC_PTC_STILL_ANON_MAPPED);
}

/* file_map_count wrapping past INT_MAX is a violation, left wrapped. */
static void test_file_overflow(struct kunit *test)
{
	struct kmc_ptc_count c = { ATOMIC_INIT(0), ATOMIC_INIT(INT_MAX - 1) };

	KUNIT_EXPECT_EQ(test, kmc_ptc_set_one(&c, false, true), KMC_PTC_OK);
	KUNIT_EXPECT_EQ(test, kmc_ptc_set_one(&c, false, false),
			KMC_PTC_FILE_MAP_OVERFLOW);
	KUNIT_EXPECT_EQ(test, atomic_read(&c.file_map_count), INT_MIN);
}

/* anon_map_count wraps unchecked: rw passes at INT_MIN, and back. */
static void test_anon_wraps_unchecked(struct kunit *test)
{
	struct kmc_ptc_count c = { ATOMIC_INIT(INT_MAX), ATOMIC_INIT(0) };

	KUNIT_EXPECT_EQ(test, kmc_ptc_set_one(&c, true, true), KMC_PTC_OK);
	KUNIT_EXPECT_EQ(test, atomic_read(&c.anon_map_count), INT_MIN);
	/* INT_MIN - 1 is INT_MAX: not below zero */
	KUNIT_EXPECT_EQ(test, kmc_ptc_clear_one(&c, true), KMC_PTC_OK);
	KUNIT_EXPECT_EQ(test, atomic_read(&c.anon_map_count), INT_MAX);
	KUNIT_EXPECT_EQ(test, kmc_ptc_set_one(&c, true, true), KMC_PTC_OK);
	KUNIT_EXPECT_EQ(test, kmc_ptc_set_one(&c, true, true), KMC_PTC_OK);
	KUNIT_EXPECT_EQ(test, atomic_read(&c.anon_map_count), INT_MIN + 1);
	KUNIT_EXPECT_EQ(test, kmc_ptc_clear_one(&c, true),
			KMC_PTC_ANON_UNMAP_UNDERFLOW);
	KUNIT_EXPECT_EQ(test, atomic_read(&c.anon_map_count), INT_MIN);
}

/* A range stops at the first bad page; *done names it. */
static void test_range_done_index(struct kunit *test)
{
	struct kmc_ptc_count c[8] = { 0 };
	unsigned long done = 99;

	atomic_set(&c[5].file_map_count, 1);
	KUNIT_EXPECT_EQ(test, kmc_ptc_set_range(c, 8, true, false, &done),
			KMC_PTC_ANON_MAP_OF_FILE_MAPPED);
	KUNIT_EXPECT_EQ(test, done, 5);
	KUNIT_EXPECT_EQ(test, atomic_read(&c[4].anon_map_count), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&c[6].anon_map_count), 0);
	KUNIT_EXPECT_EQ(test, kmc_ptc_zero_range(c, 4, &done),
			KMC_PTC_STILL_ANON_MAPPED);
	KUNIT_EXPECT_EQ(test, done, 0);
	KUNIT_EXPECT_EQ(test, kmc_ptc_clear_range(c, 5, true, &done),
			KMC_PTC_OK);
	KUNIT_EXPECT_EQ(test, done, 5);
}

/*
 * A run over counters @stride bytes apart (the kernel's page_ext entries)
 * gives the verdict, the index and the counters of the same operations
 * page by page with the _one rules, on random counters near the limits
 * (0, +-1, 2, INT_MIN, INT_MAX), and writes nothing between them.
 */
struct run_ext {
	unsigned long flags;
	struct kmc_ptc_count c;
	unsigned int other;
};

#define RUN_PAGES	64
#define RUN_ITERATIONS	200000

static int run_value(u32 r)
{
	static const int v[] = { 0, 0, 0, 0, 1, 1, -1, 2, INT_MIN, INT_MAX };

	return v[r % ARRAY_SIZE(v)];
}

/* Random counters in @ext, mostly clean pages so that runs also pass. */
static void run_fill(struct rnd_state *rnd, struct run_ext *ext,
		     struct kmc_ptc_count *one)
{
	unsigned int i;
	bool dirty;

	for (i = 0; i < RUN_PAGES; i++) {
		dirty = prandom_u32_state(rnd) % 8 == 0;
		ext[i].flags = ~0UL;
		ext[i].other = ~0U;
		atomic_set(&ext[i].c.anon_map_count,
			   dirty ? run_value(prandom_u32_state(rnd)) : 0);
		atomic_set(&ext[i].c.file_map_count,
			   dirty ? run_value(prandom_u32_state(rnd)) : 0);
		one[i] = ext[i].c;
	}
}

/* Operation @op of the _one rules on @n pages: the verdict, *@done. */
static enum kmc_ptc_verdict run_one(struct kmc_ptc_count *one,
				    unsigned int op, unsigned long n,
				    bool anon, bool rw, unsigned long *done)
{
	enum kmc_ptc_verdict w = KMC_PTC_OK;
	unsigned long i;

	for (i = 0; i < n; i++) {
		if (op == 0)
			w = kmc_ptc_set_one(&one[i], anon, rw);
		else if (op == 1)
			w = kmc_ptc_clear_one(&one[i], anon);
		else
			w = kmc_ptc_zero_one(&one[i]);
		if (w)
			break;
	}
	*done = i;
	return w;
}

/* The counters after the run are those of the _one rules, nothing else. */
static void run_check(struct kunit *test, const struct run_ext *ext,
		      const struct kmc_ptc_count *one, unsigned int iter)
{
	const struct kmc_ptc_count *c;
	unsigned int i;

	for (i = 0; i < RUN_PAGES; i++) {
		c = &ext[i].c;
		KUNIT_ASSERT_EQ_MSG(test, atomic_read(&c->anon_map_count),
				    atomic_read(&one[i].anon_map_count),
				    "iteration %u page %u", iter, i);
		KUNIT_ASSERT_EQ_MSG(test, atomic_read(&c->file_map_count),
				    atomic_read(&one[i].file_map_count),
				    "iteration %u page %u", iter, i);
		KUNIT_ASSERT_TRUE_MSG(test, ext[i].flags == ~0UL &&
				      ext[i].other == ~0U,
				      "iteration %u page %u", iter, i);
	}
}

static void test_run_matches_one(struct kunit *test)
{
	struct run_ext *ext;
	struct kmc_ptc_count *one;
	size_t stride = sizeof(*ext);
	struct rnd_state rnd;
	enum kmc_ptc_verdict v, w;
	unsigned long n, done, want;
	unsigned int iter, op;
	bool anon, rw;

	ext = kunit_kcalloc(test, RUN_PAGES, sizeof(*ext), GFP_KERNEL);
	one = kunit_kcalloc(test, RUN_PAGES, sizeof(*one), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ext);
	KUNIT_ASSERT_NOT_NULL(test, one);
	prandom_seed_state(&rnd, 1764900001);
	for (iter = 0; iter < RUN_ITERATIONS; iter++) {
		op = prandom_u32_state(&rnd) % 3;
		n = 1 + prandom_u32_state(&rnd) % RUN_PAGES;
		anon = prandom_u32_state(&rnd) & 1;
		rw = prandom_u32_state(&rnd) & 1;
		run_fill(&rnd, ext, one);
		done = 12345;
		if (op == 0)
			v = kmc_ptc_set_run(&ext[0].c, stride, n, anon, rw,
					    &done);
		else if (op == 1)
			v = kmc_ptc_clear_run(&ext[0].c, stride, n, anon,
					      &done);
		else
			v = kmc_ptc_zero_run(&ext[0].c, stride, n, &done);
		w = run_one(one, op, n, anon, rw, &want);
		KUNIT_ASSERT_EQ_MSG(test, v, w, "iteration %u", iter);
		KUNIT_ASSERT_EQ_MSG(test, done, want, "iteration %u", iter);
		run_check(test, ext, one, iter);
	}
}

/* Entry sizes are 1, 512 and 262144 pages. */
static void test_level_pages(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, kmc_ptc_level_pages(KMC_PTC_PTE), 1);
	KUNIT_EXPECT_EQ(test, kmc_ptc_level_pages(KMC_PTC_PMD), 512);
	KUNIT_EXPECT_EQ(test, kmc_ptc_level_pages(KMC_PTC_PUD), 262144);
}

/* Rule names are unique words that parse back; others are refused. */
static void test_rule_names(struct kunit *test)
{
	unsigned int v, w;
	const char *name;

	for (v = 0; v < KMC_PTC_VERDICT_NR; v++) {
		name = kmc_ptc_rule_name(v);
		KUNIT_ASSERT_NOT_NULL_MSG(test, name, "verdict %u", v);
		KUNIT_EXPECT_NULL_MSG(test, strpbrk(name, " \t"), "'%s'",
				      name);
		KUNIT_EXPECT_EQ_MSG(test, kmc_ptc_rule_parse(name,
							     strlen(name)),
				    (int)v, "'%s'", name);
		for (w = 0; w < v; w++)
			KUNIT_EXPECT_STRNEQ(test, name, kmc_ptc_rule_name(w));
	}
	KUNIT_EXPECT_STREQ(test, kmc_ptc_rule_name(KMC_PTC_ANON_RW_DOUBLE_MAP),
			   "anon-rw-double-map");
	KUNIT_EXPECT_NULL(test, kmc_ptc_rule_name(KMC_PTC_VERDICT_NR));
	KUNIT_EXPECT_EQ(test, kmc_ptc_rule_parse("ok!", 3), -EINVAL);
	KUNIT_EXPECT_EQ(test, kmc_ptc_rule_parse("o", 1), -EINVAL);
}

static struct kunit_case kmc_ptc_cases[] = {
	KUNIT_CASE(test_vectors_core),
	KUNIT_CASE(test_zero_checks_anon_first),
	KUNIT_CASE(test_file_overflow),
	KUNIT_CASE(test_anon_wraps_unchecked),
	KUNIT_CASE(test_range_done_index),
	KUNIT_CASE(test_run_matches_one),
	KUNIT_CASE(test_level_pages),
	KUNIT_CASE(test_rule_names),
	{}
};

static struct kunit_suite kmc_ptc_suite = {
	.name = "kmc_ptc",
	.init = kmc_ptc_test_init,
	.test_cases = kmc_ptc_cases,
};

kunit_test_suite(kmc_ptc_suite);
