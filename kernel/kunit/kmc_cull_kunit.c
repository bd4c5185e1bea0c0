// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cachefiles culling policy (kmc_cull.h), against cull.vec: a KUnit
 * suite in the kernel, and run by cmocka in userspace (tests/kernel-shim).
 */
#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/kstrtox.h>
#include <linux/prandom.h>

#include "kmc_cull.h"
#include "kmc_kunit.h"
#include "kmv_tables.h"

static const struct kmv_cull *kmv_cull;
static unsigned int kmv_cull_n;

/* Each case starts with the rows of cull.vec. */
static int kmc_cull_test_init(struct kunit *test)
{
	kmv_cull = kmv_load(test, &kmv_cull_table, &kmv_cull_n);
	return kmv_cull ? 0 : -EINVAL;
}

/* The next comma-separated field of *@s into @tok, NUL-terminated. */
static void next_field(struct kunit *test, const char **s, char *tok,
		       size_t size, bool last, int line)
{
	size_t len = strcspn(*s, ",");

	KUNIT_ASSERT_LT_MSG(test, len, size, "cull.vec line %d: long field",
			    line);
	KUNIT_ASSERT_EQ_MSG(test, (*s)[len], last ? '\0' : ',',
			    "cull.vec line %d: bad list", line);
	memcpy(tok, *s, len);
	tok[len] = '\0';
	*s += len + !last;
}

/* Exactly @n comma-separated decimal numbers (u64 range), or fail. */
static void parse_list(struct kunit *test, const char *s, u64 *out,
		       unsigned int n, int line)
{
	unsigned int i;
	char tok[24];

	for (i = 0; i < n; i++) {
		next_field(test, &s, tok, sizeof(tok), i + 1 == n, line);
		KUNIT_ASSERT_EQ_MSG(test, kstrtou64(tok, 10, &out[i]), 0,
				    "cull.vec line %d: bad number '%s'", line,
				    tok);
	}
}

static const char *const limit_names[KMC_CULL_LIMIT_NR] = {
	"frun", "fcull", "fstop", "brun", "bcull", "bstop"
};

static void set_percents(struct kmc_cull *c, const u64 *p)
{
	c->frun_percent = p[0];
	c->fcull_percent = p[1];
	c->fstop_percent = p[2];
	c->brun_percent = p[3];
	c->bcull_percent = p[4];
	c->bstop_percent = p[5];
}

static void get_percents(const struct kmc_cull *c, u64 *p)
{
	unsigned int i;

	for (i = 0; i < KMC_CULL_LIMIT_NR; i++)
		p[i] = kmc_cull_percent(c, i);
}

/* "set": LIMIT=VALUE on the given percents, the errno, the percents after */
static void run_set(struct kunit *test, const struct kmv_cull *v)
{
	const char *eq = strchr(v->input, '=');
	u64 pct[6], want[6], got[6], value = 0;
	unsigned int which;
	struct kmc_cull c;
	int ret;

	kmc_cull_init(&c);
	parse_list(test, v->state, pct, 6, v->line);
	parse_list(test, v->result, want, 6, v->line);
	set_percents(&c, pct);
	KUNIT_ASSERT_NOT_NULL_MSG(test, eq, "cull.vec line %d", v->line);
	for (which = 0; which < KMC_CULL_LIMIT_NR; which++)
		if (strlen(limit_names[which]) == (size_t)(eq - v->input) &&
		    !strncmp(v->input, limit_names[which], eq - v->input))
			break;
	KUNIT_ASSERT_LT_MSG(test, which, KMC_CULL_LIMIT_NR,
			    "cull.vec line %d: limit", v->line);
	KUNIT_ASSERT_EQ_MSG(test, kstrtou64(eq + 1, 10, &value), 0,
			    "cull.vec line %d: value", v->line);
	ret = kmc_cull_set_percent(&c, which, value);
	get_percents(&c, got);
	KUNIT_EXPECT_EQ_MSG(test, ret,
			    kmk_errno(test, v->ret, "cull.vec", v->line),
			    "cull.vec line %d: set %s", v->line, v->input);
	KUNIT_EXPECT_EQ_MSG(test, memcmp(got, want, sizeof(got)), 0,
			    "cull.vec line %d: percents after %s", v->line,
			    v->input);
}

/* The absolute limits a successful bind leaves, against the result. */
static void check_limits(struct kunit *test, const struct kmv_cull *v,
			 const struct kmc_cull *c)
{
	u64 want[8];

	parse_list(test, v->result, want, 8, v->line);
	KUNIT_EXPECT_EQ_MSG(test, c->frun, want[0], "cull.vec line %d: frun",
			    v->line);
	KUNIT_EXPECT_EQ_MSG(test, c->fcull, want[1],
			    "cull.vec line %d: fcull", v->line);
	KUNIT_EXPECT_EQ_MSG(test, c->fstop, want[2],
			    "cull.vec line %d: fstop", v->line);
	KUNIT_EXPECT_EQ_MSG(test, c->brun, want[3], "cull.vec line %d: brun",
			    v->line);
	KUNIT_EXPECT_EQ_MSG(test, c->bcull, want[4],
			    "cull.vec line %d: bcull", v->line);
	KUNIT_EXPECT_EQ_MSG(test, c->bstop, want[5],
			    "cull.vec line %d: bstop", v->line);
	KUNIT_EXPECT_EQ_MSG(test, (u64)c->bsize, want[6],
			    "cull.vec line %d: bsize", v->line);
	KUNIT_EXPECT_EQ_MSG(test, (u64)c->bshift, want[7],
			    "cull.vec line %d: bshift", v->line);
}

/* "bind": bsize,blocks,files on the given percents, errno and limits. */
static void run_bind(struct kunit *test, const struct kmv_cull *v)
{
	struct kmc_statfs st = { 0 };
	struct kmc_cull c, before;
	const char *s = v->input;
	u64 pct[6], in[2];
	char tok[24];
	int ret;

	kmc_cull_init(&c);
	parse_list(test, v->state, pct, 6, v->line);
	set_percents(&c, pct);
	next_field(test, &s, tok, sizeof(tok), false, v->line);
	KUNIT_ASSERT_EQ_MSG(test, kstrtol(tok, 10, &st.f_bsize), 0,
			    "cull.vec line %d: bsize", v->line);
	parse_list(test, s, in, 2, v->line);
	st.f_blocks = in[0];
	st.f_files = in[1];
	memcpy(&before, &c, sizeof(c));
	ret = kmc_cull_bind(&c, &st);
	KUNIT_EXPECT_EQ_MSG(test, ret,
			    kmk_errno(test, v->ret, "cull.vec", v->line),
			    "cull.vec line %d: bind", v->line);
	if (ret)	/* nothing is set up by a failed bind */
		KUNIT_EXPECT_EQ_MSG(test, memcmp(&c, &before, sizeof(c)), 0,
				    "cull.vec line %d: failed bind changed",
				    v->line);
	else
		check_limits(test, v, &c);
}

/* "space": limits and culling, the free space and request, the verdict. */
static void run_space(struct kunit *test, const struct kmv_cull *v)
{
	struct kmc_statfs st = { .f_bsize = 4096 };
	u64 lim[7], in[6], want[2];
	unsigned int events;
	struct kmc_cull c;
	int ret;

	kmc_cull_init(&c);
	parse_list(test, v->state, lim, 7, v->line);
	parse_list(test, v->input, in, 6, v->line);
	parse_list(test, v->result, want, 2, v->line);
	c.frun = lim[0];
	c.fcull = lim[1];
	c.fstop = lim[2];
	c.brun = lim[3];
	c.bcull = lim[4];
	c.bstop = lim[5];
	c.culling = lim[6];
	st.f_ffree = in[0];
	st.f_bavail = in[1];
	ret = kmc_cull_has_space(&c, &st, in[2], in[3], in[4], in[5], &events);
	KUNIT_EXPECT_EQ_MSG(test, ret,
			    kmk_errno(test, v->ret, "cull.vec", v->line),
			    "cull.vec line %d: has_space", v->line);
	KUNIT_EXPECT_EQ_MSG(test, (u64)c.culling, want[0],
			    "cull.vec line %d: culling", v->line);
	KUNIT_EXPECT_EQ_MSG(test, (u64)events, want[1],
			    "cull.vec line %d: events", v->line);
}

/* Every cull.vec case: setters, bind conversion and has-space verdicts. */
static void test_cull_vectors(struct kunit *test)
{
	unsigned int i, n[3] = { 0, 0, 0 };

	for (i = 0; i < kmv_cull_n; i++) {
		const struct kmv_cull *v = &kmv_cull[i];

		if (!strcmp(v->kind, "set")) {
			run_set(test, v);
			n[0]++;
		} else if (!strcmp(v->kind, "bind")) {
			run_bind(test, v);
			n[1]++;
		} else if (!strcmp(v->kind, "space")) {
			run_space(test, v);
			n[2]++;
		} else {
			KUNIT_FAIL(test, "cull.vec line %d: kind %s", v->line,
				   v->kind);
		}
	}
	KUNIT_EXPECT_GT(test, n[0], 30);
	KUNIT_EXPECT_GT(test, n[1], 10);
	KUNIT_EXPECT_GT(test, n[2], 30);
}

/* A fresh cache has cachefiles_daemon_open()'s 7% / 5% / 1% limits. */
static void test_cull_defaults(struct kunit *test)
{
	struct kmc_cull c;

	memset(&c, 0xa5, sizeof(c));
	kmc_cull_init(&c);
	KUNIT_EXPECT_EQ(test, c.frun_percent, 7);
	KUNIT_EXPECT_EQ(test, c.fcull_percent, 5);
	KUNIT_EXPECT_EQ(test, c.fstop_percent, 1);
	KUNIT_EXPECT_EQ(test, c.brun_percent, 7);
	KUNIT_EXPECT_EQ(test, c.bcull_percent, 5);
	KUNIT_EXPECT_EQ(test, c.bstop_percent, 1);
	KUNIT_EXPECT_FALSE(test, c.culling);
	KUNIT_EXPECT_EQ(test, c.frun | c.fcull | c.fstop | c.brun | c.bcull |
			c.bstop, 0);
	KUNIT_EXPECT_EQ(test, kmc_cull_validate(&c), 0);
}

/* The order rule each setter applies, written out independently. */
static bool rule_allows(const u64 *p, unsigned int which, u64 v)
{
	unsigned int base = which - which % 3;

	switch (which % 3) {
	case 0:
		return v > p[base + 1] && v < 100;
	case 1:
		return v > p[base + 2] && v < p[base];
	default:
		return v < p[base + 1];
	}
}

/* Random set sequences: each setter obeys its rule, order always holds. */
static void test_cull_setters_keep_order(struct kunit *test)
{
	unsigned int i, which, accepted = 0;
	u64 before[6], after[6], v;
	struct rnd_state rnd;
	struct kmc_cull c;
	int ret;

	prandom_seed_state(&rnd, 2061);
	kmc_cull_init(&c);
	for (i = 0; i < 100000; i++) {
		which = prandom_u32_state(&rnd) % KMC_CULL_LIMIT_NR;
		if (prandom_u32_state(&rnd) % 8)
			v = prandom_u32_state(&rnd) % 102;
		else
			v = (u64)prandom_u32_state(&rnd) << 32 |
			    prandom_u32_state(&rnd);
		get_percents(&c, before);
		ret = kmc_cull_set_percent(&c, which, v);
		get_percents(&c, after);
		KUNIT_ASSERT_EQ_MSG(test, ret,
				    rule_allows(before, which, v) ? 0 : -EINVAL,
				    "round %u: %s=%llu", i,
				    limit_names[which], (unsigned long long)v);
		before[which] = ret ? before[which] : v;
		KUNIT_ASSERT_EQ_MSG(test, memcmp(before, after, sizeof(after)),
				    0, "round %u", i);
		KUNIT_ASSERT_EQ_MSG(test, kmc_cull_validate(&c), 0,
				    "round %u", i);
		accepted += !ret;
	}
	KUNIT_EXPECT_GT(test, accepted, 1000);
}

/* bind's re-check: -ERANGE for each broken inequality, files or blocks. */
static void test_cull_validate_erange(struct kunit *test)
{
	static const u64 bad[][6] = {
		{ 7, 5, 5, 7, 5, 1 }, { 7, 7, 1, 7, 5, 1 },
		{ 100, 5, 1, 7, 5, 1 }, { 7, 5, 6, 7, 5, 1 },
		{ 7, 5, 1, 7, 5, 5 }, { 7, 5, 1, 5, 5, 1 },
		{ 7, 5, 1, 100, 5, 1 }, { 7, 5, 1, 7, 8, 1 },
	};
	static const u64 good[6] = { 99, 1, 0, 99, 98, 97 };
	struct kmc_cull c;
	unsigned int i;

	kmc_cull_init(&c);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		set_percents(&c, bad[i]);
		KUNIT_EXPECT_EQ_MSG(test, kmc_cull_validate(&c), -ERANGE,
				    "case %u", i);
	}
	set_percents(&c, good);
	KUNIT_EXPECT_EQ(test, kmc_cull_validate(&c), 0);
}

/* An invalid limit index is refused and named "?". */
static void test_cull_bad_limit(struct kunit *test)
{
	struct kmc_cull c;

	kmc_cull_init(&c);
	KUNIT_EXPECT_EQ(test, kmc_cull_set_percent(&c, KMC_CULL_LIMIT_NR, 3),
			-EINVAL);
	KUNIT_EXPECT_EQ(test,
			kmc_cull_set_percent(&c, (enum kmc_cull_limit)-1, 3),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, kmc_cull_percent(&c, KMC_CULL_LIMIT_NR), 0);
	KUNIT_EXPECT_STREQ(test, kmc_cull_limit_name(KMC_CULL_LIMIT_NR), "?");
	KUNIT_EXPECT_STREQ(test, kmc_cull_limit_name(KMC_BCULL), "bcull");
	KUNIT_EXPECT_STREQ(test, kmc_cull_limit_name(KMC_FRUN), "frun");
}

/* A check of the space on @st: the verdict; *@ev gets the events. */
static int space(struct kmc_cull *c, const struct kmc_statfs *st,
		 enum kmc_space_for reason, unsigned int *ev)
{
	return kmc_cull_has_space(c, st, 0, 0, 0, reason, ev);
}

/* Culling starts below cull, holds in between, stops at run (both). */
static void test_cull_hysteresis(struct kunit *test)
{
	struct kmc_statfs st = {
		.f_bsize = 4096, .f_blocks = 100000, .f_files = 10000,
		.f_bavail = 100000, .f_ffree = 10000,
	};
	struct kmc_cull c;
	unsigned int ev;

	kmc_cull_init(&c);
	KUNIT_ASSERT_EQ(test, kmc_cull_bind(&c, &st), 0);
	/* limits: files 700/500/100, blocks 7000/5000/1000 */
	KUNIT_EXPECT_EQ(test, space(&c, &st, KMC_SPACE_CHECK, &ev), 0);
	KUNIT_EXPECT_EQ(test, ev, 0);
	st.f_bavail = 4999;
	KUNIT_EXPECT_EQ(test, space(&c, &st, KMC_SPACE_CHECK, &ev), 0);
	KUNIT_EXPECT_EQ(test, ev, KMC_CULL_BEGIN);
	KUNIT_EXPECT_TRUE(test, c.culling);
	st.f_bavail = 6999;	/* above cull, below run: keeps culling */
	KUNIT_EXPECT_EQ(test, space(&c, &st, KMC_SPACE_CHECK, &ev), 0);
	KUNIT_EXPECT_EQ(test, ev, 0);
	KUNIT_EXPECT_TRUE(test, c.culling);
	st.f_bavail = 7000;
	st.f_ffree = 699;	/* blocks at run, files not: keeps culling */
	KUNIT_EXPECT_EQ(test, space(&c, &st, KMC_SPACE_CHECK, &ev), 0);
	KUNIT_EXPECT_TRUE(test, c.culling);
	st.f_ffree = 700;
	KUNIT_EXPECT_EQ(test, space(&c, &st, KMC_SPACE_CHECK, &ev), 0);
	KUNIT_EXPECT_EQ(test, ev, KMC_CULL_CEASE);
	KUNIT_EXPECT_FALSE(test, c.culling);
	st.f_ffree = 99;
	KUNIT_EXPECT_EQ(test, space(&c, &st, KMC_SPACE_FOR_CREATE, &ev),
			-ENOBUFS);
	KUNIT_EXPECT_EQ(test, ev, KMC_CULL_BEGIN | KMC_CULL_NO_CREATE);
	KUNIT_EXPECT_EQ(test, space(&c, &st, KMC_SPACE_FOR_WRITE, &ev),
			-ENOBUFS);
	KUNIT_EXPECT_EQ(test, ev, KMC_CULL_NO_WRITE);
}

/* The level follows the kernel's order: stop, cull, run, else hold. */
static void test_cull_levels(struct kunit *test)
{
	struct kmc_cull c;

	kmc_cull_init(&c);
	c.frun = 70;
	c.fcull = 50;
	c.fstop = 10;
	c.brun = 700;
	c.bcull = 500;
	c.bstop = 100;
	KUNIT_EXPECT_EQ(test, kmc_cull_level(&c, 9, 10000), KMC_LEVEL_STOP);
	KUNIT_EXPECT_EQ(test, kmc_cull_level(&c, 100, 99), KMC_LEVEL_STOP);
	KUNIT_EXPECT_EQ(test, kmc_cull_level(&c, 10, 100), KMC_LEVEL_CULL);
	KUNIT_EXPECT_EQ(test, kmc_cull_level(&c, 49, 10000), KMC_LEVEL_CULL);
	KUNIT_EXPECT_EQ(test, kmc_cull_level(&c, 50, 500), KMC_LEVEL_HOLD);
	KUNIT_EXPECT_EQ(test, kmc_cull_level(&c, 69, 10000), KMC_LEVEL_HOLD);
	KUNIT_EXPECT_EQ(test, kmc_cull_level(&c, 70, 700), KMC_LEVEL_RUN);
	KUNIT_EXPECT_EQ(test, kmc_cull_level(&c, U64_MAX, U64_MAX),
			KMC_LEVEL_RUN);
}

/* Free space is reduced by in-flight writes and the request, floor 0. */
static void test_cull_avail_saturates(struct kunit *test)
{
	struct kmc_statfs st = { .f_bavail = 10, .f_ffree = 3 };
	u64 ffree, bavail;

	kmc_cull_avail(&st, 4, 2, 5, &ffree, &bavail);
	KUNIT_EXPECT_EQ(test, ffree, 1);
	KUNIT_EXPECT_EQ(test, bavail, 1);
	kmc_cull_avail(&st, 10, 3, 0, &ffree, &bavail);
	KUNIT_EXPECT_EQ(test, ffree, 0);
	KUNIT_EXPECT_EQ(test, bavail, 0);
	kmc_cull_avail(&st, U64_MAX, 4, 1, &ffree, &bavail);
	KUNIT_EXPECT_EQ(test, ffree, 0);
	KUNIT_EXPECT_EQ(test, bavail, 0);
}

/* Requests count whole pages, rounded down. */
static void test_cull_write_pages(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, kmc_cull_write_pages(0), 0);
	KUNIT_EXPECT_EQ(test, kmc_cull_write_pages(PAGE_SIZE - 1), 0);
	KUNIT_EXPECT_EQ(test, kmc_cull_write_pages(PAGE_SIZE), 1);
	KUNIT_EXPECT_EQ(test, kmc_cull_write_pages(3 * PAGE_SIZE - 1), 2);
}

/* In-flight writes count backing blocks, rounded up by ilog2(bsize). */
static void test_cull_writing_blocks(struct kunit *test)
{
	struct kmc_statfs st = { .f_bsize = 1024 };
	struct kmc_cull c;

	kmc_cull_init(&c);
	KUNIT_ASSERT_EQ(test, kmc_cull_bind(&c, &st), 0);
	KUNIT_EXPECT_EQ(test, kmc_cull_writing_blocks(&c, 0), 0);
	KUNIT_EXPECT_EQ(test, kmc_cull_writing_blocks(&c, 1), 1);
	KUNIT_EXPECT_EQ(test, kmc_cull_writing_blocks(&c, 1024), 1);
	KUNIT_EXPECT_EQ(test, kmc_cull_writing_blocks(&c, 1025), 2);
	KUNIT_EXPECT_EQ(test, kmc_cull_writing_blocks(&c, PAGE_SIZE),
			PAGE_SIZE / 1024);
	st.f_bsize = 3000;	/* not a power of two: shift 11 */
	KUNIT_ASSERT_EQ(test, kmc_cull_bind(&c, &st), 0);
	KUNIT_EXPECT_EQ(test, c.bshift, 11);
	KUNIT_EXPECT_EQ(test, kmc_cull_writing_blocks(&c, 2048), 1);
	KUNIT_EXPECT_EQ(test, kmc_cull_writing_blocks(&c, 2049), 2);
}

/* Bind keeps the culling state and percentages; only limits change. */
static void test_cull_bind_keeps_state(struct kunit *test)
{
	struct kmc_statfs st = {
		.f_bsize = 4096, .f_blocks = 1000, .f_files = 1000,
	};
	struct kmc_cull c;

	kmc_cull_init(&c);
	c.culling = true;
	KUNIT_ASSERT_EQ(test, kmc_cull_set_percent(&c, KMC_BRUN, 40), 0);
	KUNIT_ASSERT_EQ(test, kmc_cull_bind(&c, &st), 0);
	KUNIT_EXPECT_TRUE(test, c.culling);
	KUNIT_EXPECT_EQ(test, c.brun_percent, 40);
	KUNIT_EXPECT_EQ(test, c.brun, 400);
	/* A later percent change does not move the bound limits. */
	KUNIT_EXPECT_EQ(test, kmc_cull_set_percent(&c, KMC_BRUN, 50), 0);
	KUNIT_EXPECT_EQ(test, c.brun, 400);
}

static struct kunit_case kmc_cull_cases[] = {
	KUNIT_CASE(test_cull_vectors),
	KUNIT_CASE(test_cull_defaults),
	KUNIT_CASE(test_cull_setters_keep_order),
	KUNIT_CASE(test_cull_validate_erange),
	KUNIT_CASE(test_cull_bad_limit),
	KUNIT_CASE(test_cull_hysteresis),
	KUNIT_CASE(test_cull_levels),
	KUNIT_CASE(test_cull_avail_saturates),
	KUNIT_CASE(test_cull_write_pages),
	KUNIT_CASE(test_cull_writing_blocks),
	KUNIT_CASE(test_cull_bind_keeps_state),
	{}
};

static struct kunit_suite kmc_cull_suite = {
	.name = "kmc_cull",
	.init = kmc_cull_test_init,
	.test_cases = kmc_cull_cases,
};

kunit_test_suite(kmc_cull_suite);
