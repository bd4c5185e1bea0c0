// SPDX-License-Identifier: GPL-2.0-only
/* Specification of the cachefiles culling policy (kmc_cull). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <cmocka.h>

#include "kmt_errno.h"

#include "kmc_cull.h"
#include "kmv_cull.h"

/* Exactly @n comma-separated decimal numbers (u64 range), or fail. */
static void parse_list(const char *s, u64 *out, unsigned int n, int line)
{
	unsigned int i;
	char *end;

	for (i = 0; i < n; i++) {
		out[i] = strtoull(s, &end, 10);
		if (end == s || *end != (i + 1 < n ? ',' : '\0'))
			fail_msg("cull.vec line %d: bad list '%s'", line, s);
		s = end + 1;
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

static void run_set(const struct kmv_cull *v)
{
	u64 pct[6], want[6], got[6], value;
	const char *eq = strchr(v->input, '=');
	struct kmc_cull c;
	unsigned int which;
	int ret;

	kmc_cull_init(&c);
	parse_list(v->state, pct, 6, v->line);
	parse_list(v->result, want, 6, v->line);
	set_percents(&c, pct);
	assert_non_null(eq);
	for (which = 0; which < KMC_CULL_LIMIT_NR; which++)
		if (!strncmp(v->input, limit_names[which], eq - v->input) &&
		    strlen(limit_names[which]) == (size_t)(eq - v->input))
			break;
	assert_true(which < KMC_CULL_LIMIT_NR);
	value = strtoull(eq + 1, NULL, 10);
	ret = kmc_cull_set_percent(&c, which, value);
	get_percents(&c, got);
	if (ret != kmt_errno(v->ret, "cull.vec", v->line) || memcmp(got, want, sizeof(got)))
		fail_msg("cull.vec line %d: set %s gave %d", v->line, v->input,
			 ret);
}

static void run_bind(const struct kmv_cull *v)
{
	u64 pct[6], in[3], want[8];
	struct kmc_cull c, before;
	struct kmc_statfs st = { 0 };
	int ret;

	kmc_cull_init(&c);
	parse_list(v->state, pct, 6, v->line);
	set_percents(&c, pct);
	st.f_bsize = strtoll(v->input, NULL, 10);
	parse_list(strchr(v->input, ',') + 1, in + 1, 2, v->line);
	st.f_blocks = in[1];
	st.f_files = in[2];
	memcpy(&before, &c, sizeof(c));
	ret = kmc_cull_bind(&c, &st);
	if (ret != kmt_errno(v->ret, "cull.vec", v->line))
		fail_msg("cull.vec line %d: bind gave %d", v->line, ret);
	if (ret) {
		/* Nothing is set up by a failed bind. */
		assert_memory_equal(&c, &before, sizeof(c));
		return;
	}
	parse_list(v->result, want, 8, v->line);
	if (c.frun != want[0] || c.fcull != want[1] || c.fstop != want[2] ||
	    c.brun != want[3] || c.bcull != want[4] || c.bstop != want[5] ||
	    c.bsize != want[6] || c.bshift != want[7])
		fail_msg("cull.vec line %d: limits %llu,%llu,%llu,%llu,%llu,%llu,%u,%u",
			 v->line, (unsigned long long)c.frun,
			 (unsigned long long)c.fcull,
			 (unsigned long long)c.fstop,
			 (unsigned long long)c.brun,
			 (unsigned long long)c.bcull,
			 (unsigned long long)c.bstop, c.bsize, c.bshift);
}

static void run_space(const struct kmv_cull *v)
{
	u64 lim[7], in[6], want[2];
	struct kmc_statfs st = { .f_bsize = 4096 };
	struct kmc_cull c;
	unsigned int events;
	int ret;

	kmc_cull_init(&c);
	parse_list(v->state, lim, 7, v->line);
	parse_list(v->input, in, 6, v->line);
	parse_list(v->result, want, 2, v->line);
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
	if (ret != kmt_errno(v->ret, "cull.vec", v->line) || c.culling != want[0] ||
	    events != want[1])
		fail_msg("cull.vec line %d: has_space gave %d culling %d events %u",
			 v->line, ret, c.culling, events);
}

/* Every cull.vec case: setters, bind conversion and has-space verdicts. */
static void test_cull_vectors(void **state)
{
	unsigned int i, n[3] = { 0, 0, 0 };

	for (i = 0; i < ARRAY_SIZE(kmv_cull); i++) {
		const struct kmv_cull *v = &kmv_cull[i];

		if (!strcmp(v->kind, "set")) {
			run_set(v);
			n[0]++;
		} else if (!strcmp(v->kind, "bind")) {
			run_bind(v);
			n[1]++;
		} else if (!strcmp(v->kind, "space")) {
			run_space(v);
			n[2]++;
		} else {
			fail_msg("cull.vec line %d: kind %s", v->line, v->kind);
		}
	}
	assert_true(n[0] > 30 && n[1] > 10 && n[2] > 30);
}

/* A fresh cache has cachefiles_daemon_open()'s 7% / 5% / 1% limits. */
static void test_cull_defaults(void **state)
{
	struct kmc_cull c;

	memset(&c, 0xa5, sizeof(c));
	kmc_cull_init(&c);
	assert_int_equal(c.frun_percent, 7);
	assert_int_equal(c.fcull_percent, 5);
	assert_int_equal(c.fstop_percent, 1);
	assert_int_equal(c.brun_percent, 7);
	assert_int_equal(c.bcull_percent, 5);
	assert_int_equal(c.bstop_percent, 1);
	assert_false(c.culling);
	assert_int_equal(c.frun | c.fcull | c.fstop | c.brun | c.bcull |
			 c.bstop, 0);
	assert_int_equal(kmc_cull_validate(&c), 0);
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
static void test_cull_setters_keep_order(void **state)
{
	unsigned int seed = getenv("KMIRROR_SEED") ?
			    strtoul(getenv("KMIRROR_SEED"), NULL, 0) :
			    (unsigned int)time(NULL);
	struct kmc_cull c;
	u64 before[6], after[6], v;
	unsigned int i, which, accepted = 0;
	int ret;

	printf("seed %u (rerun with KMIRROR_SEED)\n", seed);
	srand(seed);
	kmc_cull_init(&c);
	for (i = 0; i < 200000; i++) {
		which = rand() % KMC_CULL_LIMIT_NR;
		v = rand() % 8 ? (u64)(rand() % 102) : ((u64)rand() << 32) + rand();
		get_percents(&c, before);
		ret = kmc_cull_set_percent(&c, which, v);
		get_percents(&c, after);
		assert_int_equal(ret, rule_allows(before, which, v) ? 0 : -EINVAL);
		before[which] = ret ? before[which] : v;
		assert_memory_equal(before, after, sizeof(after));
		assert_int_equal(kmc_cull_validate(&c), 0);
		accepted += !ret;
	}
	assert_true(accepted > 1000);
}

/* bind's re-check: -ERANGE for each broken inequality, files or blocks. */
static void test_cull_validate_erange(void **state)
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
		assert_int_equal(kmc_cull_validate(&c), -ERANGE);
	}
	set_percents(&c, good);
	assert_int_equal(kmc_cull_validate(&c), 0);
}

/* An invalid limit index is refused and named "?". */
static void test_cull_bad_limit(void **state)
{
	struct kmc_cull c;

	kmc_cull_init(&c);
	assert_int_equal(kmc_cull_set_percent(&c, KMC_CULL_LIMIT_NR, 3),
			 -EINVAL);
	assert_int_equal(kmc_cull_set_percent(&c, (enum kmc_cull_limit)-1, 3),
			 -EINVAL);
	assert_int_equal(kmc_cull_percent(&c, KMC_CULL_LIMIT_NR), 0);
	assert_string_equal(kmc_cull_limit_name(KMC_CULL_LIMIT_NR), "?");
	assert_string_equal(kmc_cull_limit_name(KMC_BCULL), "bcull");
	assert_string_equal(kmc_cull_limit_name(KMC_FRUN), "frun");
}

/* Culling starts below cull, holds in between, stops at run (both). */
static void test_cull_hysteresis(void **state)
{
	struct kmc_statfs st = {
		.f_bsize = 4096, .f_blocks = 100000, .f_files = 10000,
		.f_bavail = 100000, .f_ffree = 10000,
	};
	struct kmc_cull c;
	unsigned int ev;

	kmc_cull_init(&c);
	assert_int_equal(kmc_cull_bind(&c, &st), 0);
	/* limits: files 700/500/100, blocks 7000/5000/1000 */
	assert_int_equal(kmc_cull_has_space(&c, &st, 0, 0, 0, KMC_SPACE_CHECK,
					    &ev), 0);
	assert_int_equal(ev, 0);
	st.f_bavail = 4999;
	assert_int_equal(kmc_cull_has_space(&c, &st, 0, 0, 0, KMC_SPACE_CHECK,
					    &ev), 0);
	assert_int_equal(ev, KMC_CULL_BEGIN);
	assert_true(c.culling);
	st.f_bavail = 6999;	/* above cull, below run: keeps culling */
	assert_int_equal(kmc_cull_has_space(&c, &st, 0, 0, 0, KMC_SPACE_CHECK,
					    &ev), 0);
	assert_int_equal(ev, 0);
	assert_true(c.culling);
	st.f_bavail = 7000;
	st.f_ffree = 699;	/* blocks at run, files not: keeps culling */
	assert_int_equal(kmc_cull_has_space(&c, &st, 0, 0, 0, KMC_SPACE_CHECK,
					    &ev), 0);
	assert_true(c.culling);
	st.f_ffree = 700;
	assert_int_equal(kmc_cull_has_space(&c, &st, 0, 0, 0, KMC_SPACE_CHECK,
					    &ev), 0);
	assert_int_equal(ev, KMC_CULL_CEASE);
	assert_false(c.culling);
	st.f_ffree = 99;
	assert_int_equal(kmc_cull_has_space(&c, &st, 0, 0, 0,
					    KMC_SPACE_FOR_CREATE, &ev),
			 -ENOBUFS);
	assert_int_equal(ev, KMC_CULL_BEGIN | KMC_CULL_NO_CREATE);
	assert_int_equal(kmc_cull_has_space(&c, &st, 0, 0, 0,
					    KMC_SPACE_FOR_WRITE, &ev),
			 -ENOBUFS);
	assert_int_equal(ev, KMC_CULL_NO_WRITE);
}

/* The level follows the kernel's order: stop, cull, run, else hold. */
static void test_cull_levels(void **state)
{
	struct kmc_cull c;

	kmc_cull_init(&c);
	c.frun = 70;
	c.fcull = 50;
	c.fstop = 10;
	c.brun = 700;
	c.bcull = 500;
	c.bstop = 100;
	assert_int_equal(kmc_cull_level(&c, 9, 10000), KMC_LEVEL_STOP);
	assert_int_equal(kmc_cull_level(&c, 100, 99), KMC_LEVEL_STOP);
	assert_int_equal(kmc_cull_level(&c, 10, 100), KMC_LEVEL_CULL);
	assert_int_equal(kmc_cull_level(&c, 49, 10000), KMC_LEVEL_CULL);
	assert_int_equal(kmc_cull_level(&c, 50, 500), KMC_LEVEL_HOLD);
	assert_int_equal(kmc_cull_level(&c, 69, 10000), KMC_LEVEL_HOLD);
	assert_int_equal(kmc_cull_level(&c, 70, 700), KMC_LEVEL_RUN);
	assert_int_equal(kmc_cull_level(&c, UINT64_MAX, UINT64_MAX),
			 KMC_LEVEL_RUN);
}

/* Free space is reduced by in-flight writes and the request, floor 0. */
static void test_cull_avail_saturates(void **state)
{
	struct kmc_statfs st = { .f_bavail = 10, .f_ffree = 3 };
	u64 ffree, bavail;

	kmc_cull_avail(&st, 4, 2, 5, &ffree, &bavail);
	assert_int_equal(ffree, 1);
	assert_int_equal(bavail, 1);
	kmc_cull_avail(&st, 10, 3, 0, &ffree, &bavail);
	assert_int_equal(ffree, 0);
	assert_int_equal(bavail, 0);
	kmc_cull_avail(&st, UINT64_MAX, 4, 1, &ffree, &bavail);
	assert_int_equal(ffree, 0);
	assert_int_equal(bavail, 0);
}

/*
 * Requests count whole pages, rounded down; in-flight writes count backing
 * blocks, rounded up by ilog2(bsize).
 */
static void test_cull_units(void **state)
{
	struct kmc_cull c;
	struct kmc_statfs st = { .f_bsize = 1024 };

	assert_int_equal(kmc_cull_write_pages(0), 0);
	assert_int_equal(kmc_cull_write_pages(PAGE_SIZE - 1), 0);
	assert_int_equal(kmc_cull_write_pages(PAGE_SIZE), 1);
	assert_int_equal(kmc_cull_write_pages(3 * PAGE_SIZE - 1), 2);

	kmc_cull_init(&c);
	assert_int_equal(kmc_cull_bind(&c, &st), 0);
	assert_int_equal(kmc_cull_writing_blocks(&c, 0), 0);
	assert_int_equal(kmc_cull_writing_blocks(&c, 1), 1);
	assert_int_equal(kmc_cull_writing_blocks(&c, 1024), 1);
	assert_int_equal(kmc_cull_writing_blocks(&c, 1025), 2);
	assert_int_equal(kmc_cull_writing_blocks(&c, PAGE_SIZE),
			 PAGE_SIZE / 1024);
	st.f_bsize = 3000;	/* not a power of two: shift 11 */
	assert_int_equal(kmc_cull_bind(&c, &st), 0);
	assert_int_equal(c.bshift, 11);
	assert_int_equal(kmc_cull_writing_blocks(&c, 2048), 1);
	assert_int_equal(kmc_cull_writing_blocks(&c, 2049), 2);
}

/* Bind keeps the culling state and percentages; only limits change. */
static void test_cull_bind_keeps_state(void **state)
{
	struct kmc_statfs st = {
		.f_bsize = 4096, .f_blocks = 1000, .f_files = 1000,
	};
	struct kmc_cull c;

	kmc_cull_init(&c);
	c.culling = true;
	assert_int_equal(kmc_cull_set_percent(&c, KMC_BRUN, 40), 0);
	assert_int_equal(kmc_cull_bind(&c, &st), 0);
	assert_true(c.culling);
	assert_int_equal(c.brun_percent, 40);
	assert_int_equal(c.brun, 400);
	/* A later percent change does not move the bound limits. */
	assert_int_equal(kmc_cull_set_percent(&c, KMC_BRUN, 50), 0);
	assert_int_equal(c.brun, 400);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cull_vectors),
		cmocka_unit_test(test_cull_defaults),
		cmocka_unit_test(test_cull_setters_keep_order),
		cmocka_unit_test(test_cull_validate_erange),
		cmocka_unit_test(test_cull_bad_limit),
		cmocka_unit_test(test_cull_hysteresis),
		cmocka_unit_test(test_cull_levels),
		cmocka_unit_test(test_cull_avail_saturates),
		cmocka_unit_test(test_cull_units),
		cmocka_unit_test(test_cull_bind_keeps_state),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
