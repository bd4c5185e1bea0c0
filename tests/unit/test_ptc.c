// SPDX-License-Identifier: GPL-2.0-only
/*
 * Specification of the page-table check's userspace library
 * (kmirror/ptc.h): the sparse space over the whole 64-bit PFN range and
 * the trace format.  The core rules (kmc_ptc.h) are specified once, for
 * the kernel and for userspace, by kernel/kunit/kmc_ptc_kunit.c; what
 * stays here is userspace-only: the library is not in the kernel, and its
 * cases use allocation fault injection (kmc_alloc_fail_next()), leak
 * counts (kmc_alloc_live()), threads and stdio streams.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <pthread.h>
#include <unistd.h>
#include <cmocka.h>

#include "kcompat.h"
#include "kmirror/ptc.h"
#include "ptc_vec.h"

/* ---- vectors, on the library ------------------------------------------ */

/* Run the vectors on a library space with every PFN offset by @base. */
static void run_vectors_lib(const struct kmv_ptc *kmv_ptc, unsigned int n,
			    uint64_t base)
{
	struct kmirror_ptc *ptc = NULL;
	struct ptc_vec_row r;
	unsigned int i;
	int v, anon, file;

	for (i = 0; i < n; i++) {
		const struct kmv_ptc *k = &kmv_ptc[i];

		assert_int_equal(ptc_vec_decode(k, &r), 0);
		if (ptc_vec_new_case(kmv_ptc, i)) {
			kmirror_ptc_destroy(ptc);
			assert_int_equal(kmirror_ptc_create(&ptc), 0);
		}
		r.op.pfn += base;
		v = r.probe_only ? 0 : kmirror_ptc_apply(ptc, &r.op, NULL);
		kmirror_ptc_counts(ptc, base + k->probe, &anon, &file);
		if (v != r.verdict || anon != k->anon || file != k->file)
			fail_msg("ptc.vec line %d at base %#llx: %d, %d/%d",
				 k->line, (unsigned long long)base, v, anon,
				 file);
	}
	kmirror_ptc_destroy(ptc);
}

/* The library agrees with every row, low and high in the 64-bit range. */
static void test_vectors_lib(void **state)
{
	struct kunit vec = { .name = "test_vectors_lib" };
	const struct kmv_ptc *rows;
	unsigned int n;

	rows = kmv_load(&vec, &kmv_ptc_table, &n);
	assert_non_null(rows);
	run_vectors_lib(rows, n, 0);
	run_vectors_lib(rows, n, 1ULL << 27);	/* first PFN off the fast path */
	run_vectors_lib(rows, n, 0x123456ULL << 18);
	run_vectors_lib(rows, n, 1ULL << 63);
	run_vectors_lib(rows, n, 0ULL - (2ULL << 18));	/* ends at 2^64 - 1 */
	kunit_cleanup(&vec);
	assert_int_equal(kmc_alloc_live(), 0);
}

/* ---- the library space ------------------------------------------------ */

/* Misaligned PFNs, unknown levels and orders above 18: -EINVAL, no effect. */
static void test_lib_einval(void **state)
{
	struct kmirror_ptc_op op = { .code = KMIRROR_PTC_SET, .anon = true };
	struct kmirror_ptc *ptc;
	int anon, file;

	assert_int_equal(kmirror_ptc_create(&ptc), 0);
	assert_int_equal(kmirror_ptc_set(ptc, KMIRROR_PTC_PMD, 256, true,
					 true), -EINVAL);
	assert_int_equal(kmirror_ptc_clear(ptc, KMIRROR_PTC_PUD, 512, false),
			 -EINVAL);
	assert_int_equal(kmirror_ptc_alloc(ptc, 2, 2), -EINVAL);
	assert_int_equal(kmirror_ptc_free(ptc, 0, 19), -EINVAL);
	op.level = (enum kmirror_ptc_level)3;
	assert_int_equal(kmirror_ptc_apply(ptc, &op, NULL), -EINVAL);
	op.code = (enum kmirror_ptc_opcode)7;
	op.level = KMIRROR_PTC_PTE;
	assert_int_equal(kmirror_ptc_apply(ptc, &op, NULL), -EINVAL);
	kmirror_ptc_counts(ptc, 256, &anon, &file);
	assert_int_equal(anon | file, 0);
	kmirror_ptc_destroy(ptc);
	/* the library names no verdict the core does not have */
	assert_null(kmirror_ptc_rule_name(-1));
}

/* Out of memory counts nothing, even half-way through a PUD. */
static void test_lib_enomem(void **state)
{
	struct kmirror_ptc *ptc;
	uint64_t pfn = 5ULL << 18;
	int anon, file;

	assert_int_equal(kmirror_ptc_create(&ptc), 0);
	kmc_alloc_fail_next(1);
	assert_int_equal(kmirror_ptc_set(ptc, KMIRROR_PTC_PTE, 7, true, true),
			 -ENOMEM);
	kmirror_ptc_counts(ptc, 7, &anon, &file);
	assert_int_equal(anon, 0);
	/* the first leaves succeed, a later one fails */
	assert_int_equal(kmirror_ptc_set(ptc, KMIRROR_PTC_PMD, pfn, false,
					 true), 0);
	kmc_alloc_fail_next(1);
	assert_int_equal(kmirror_ptc_set(ptc, KMIRROR_PTC_PUD, pfn, false,
					 true), -ENOMEM);
	kmirror_ptc_counts(ptc, pfn, &anon, &file);
	assert_int_equal(file, 1);
	kmirror_ptc_counts(ptc, pfn + 512, &anon, &file);
	assert_int_equal(file, 0);
	assert_int_equal(kmirror_ptc_set(ptc, KMIRROR_PTC_PUD, pfn, false,
					 true), 0);
	kmirror_ptc_counts(ptc, pfn + 262143, &anon, &file);
	assert_int_equal(file, 1);
	kmirror_ptc_destroy(ptc);
	assert_int_equal(kmc_alloc_live(), 0);
}

/*
 * The memory cap: a trace cannot make the counters grow without bound.
 * PFN 0 takes a level-1 node and a leaf (8 KiB); a cap there refuses the
 * next leaf with -ENOSPC, counting nothing, and the pages already there
 * still work.  A replay names the cap in its error.
 */
static void test_lib_mem_max(void **state)
{
	struct kmirror_ptc_replay res;
	struct kmirror_ptc *ptc;
	int anon, file;

	assert_int_equal(kmirror_ptc_create(&ptc), 0);
	kmirror_ptc_set_mem_max(ptc, 8192);
	assert_int_equal(kmirror_ptc_set(ptc, KMIRROR_PTC_PTE, 0, true, false),
			 0);
	assert_int_equal(kmirror_ptc_set(ptc, KMIRROR_PTC_PTE, 512, true,
					 false), -ENOSPC);
	assert_int_equal(kmirror_ptc_set(ptc, KMIRROR_PTC_PUD, 1 << 18, false,
					 false), -ENOSPC);
	kmirror_ptc_counts(ptc, 512, &anon, &file);
	assert_int_equal(anon, 0);
	assert_int_equal(kmirror_ptc_set(ptc, KMIRROR_PTC_PTE, 1, true, false),
			 0);
	assert_int_equal(kmirror_ptc_replay_buf(ptc, "set pte 0 anon ro\n"
						"set pmd 512 file ro\n", 38,
						&res), -ENOSPC);
	assert_int_equal(res.line, 2);
	assert_string_equal(res.why, "the page counters would take more than "
			    "8192 bytes: the trace maps too much memory");
	kmirror_ptc_destroy(ptc);
	assert_int_equal(kmc_alloc_live(), 0);
}

/* A violation reports the PFN of the offending page, anywhere in 2^64. */
static void test_lib_where(void **state)
{
	uint64_t top = 0ULL - (1ULL << 18), where = 0;
	struct kmirror_ptc_op op = { .code = KMIRROR_PTC_SET, .pfn = top,
				     .level = KMIRROR_PTC_PUD, .anon = true,
				     .rw = true };
	struct kmirror_ptc *ptc;
	int anon, file;

	assert_int_equal(kmirror_ptc_create(&ptc), 0);
	assert_int_equal(kmirror_ptc_set(ptc, KMIRROR_PTC_PTE, UINT64_MAX,
					 true, false), 0);
	assert_int_equal(kmirror_ptc_apply(ptc, &op, &where),
			 KMIRROR_PTC_ANON_RW_DOUBLE_MAP);
	assert_true(where == UINT64_MAX);
	kmirror_ptc_counts(ptc, UINT64_MAX, &anon, &file);
	assert_int_equal(anon, 2);
	kmirror_ptc_counts(ptc, UINT64_MAX - 1, &anon, &file);
	assert_int_equal(anon, 1);
	assert_int_equal(kmirror_ptc_free(ptc, top, 18),
			 KMIRROR_PTC_STILL_ANON_MAPPED);
	/* never-touched pages read as zero and pass the zero check */
	kmirror_ptc_counts(ptc, 1ULL << 40, &anon, &file);
	assert_int_equal(anon | file, 0);
	assert_int_equal(kmirror_ptc_alloc(ptc, 1ULL << 40, 18), 0);
	kmirror_ptc_destroy(ptc);
}

#define THREADS		4
#define THREAD_ROUNDS	2000

struct hammer {
	struct kmirror_ptc *ptc;
	uint64_t pfn;
	int bad;
};

/* Shares every page read-only, then unmaps it again, many times. */
static void *hammer_thread(void *arg)
{
	struct hammer *h = arg;
	int i;

	for (i = 0; i < THREAD_ROUNDS; i++) {
		h->bad |= kmirror_ptc_set(h->ptc, KMIRROR_PTC_PMD, h->pfn, true,
					  false);
		h->bad |= kmirror_ptc_set(h->ptc, KMIRROR_PTC_PTE,
					  h->pfn + (unsigned int)i % 512, true,
					  false);
		h->bad |= kmirror_ptc_clear(h->ptc, KMIRROR_PTC_PTE,
					    h->pfn + (unsigned int)i % 512,
					    true);
		if (i % 2)
			h->bad |= kmirror_ptc_clear(h->ptc, KMIRROR_PTC_PMD,
						    h->pfn, true);
	}
	return NULL;
}

/* Concurrent mappers of the same pages lose no update. */
static void test_lib_threads(void **state)
{
	struct hammer h[THREADS];
	pthread_t t[THREADS];
	int i, anon, file;
	uint64_t pfn;

	assert_int_equal(kmirror_ptc_create(&h[0].ptc), 0);
	for (i = 0; i < THREADS; i++) {
		h[i] = (struct hammer){ h[0].ptc, (uint64_t)(i % 2) << 40, 0 };
		assert_int_equal(pthread_create(&t[i], NULL, hammer_thread,
						&h[i]), 0);
	}
	for (i = 0; i < THREADS; i++) {
		pthread_join(t[i], NULL);
		assert_int_equal(h[i].bad, 0);
	}
	for (pfn = 0; pfn < 512; pfn += 73) {
		kmirror_ptc_counts(h[0].ptc, pfn, &anon, &file);
		assert_int_equal(anon, THREADS / 2 * THREAD_ROUNDS / 2);
		kmirror_ptc_counts(h[0].ptc, pfn + (1ULL << 40), &anon, &file);
		assert_int_equal(anon, THREADS / 2 * THREAD_ROUNDS / 2);
	}
	kmirror_ptc_destroy(h[0].ptc);
}

/* ---- the trace format ------------------------------------------------- */

struct parse_case {
	const char *line;
	int ret;		/* 1 op, 0 nothing, -EINVAL */
	const char *why;	/* start of the message, for errors */
};

static const struct parse_case parse_cases[] = {
	{ "alloc 0 0", 1, NULL },
	{ "  free\t0x200  9  # comment", 1, NULL },
	{ "set pte 18446744073709551615 anon rw", 1, NULL },
	{ "set pud 0xFFFFFFFFFFFC0000 file ro", 1, NULL },
	{ "clear pmd 512 file", 1, NULL },
	{ "set pte 1 anon rw\r", 1, NULL },
	{ "", 0, NULL },
	{ "   \t ", 0, NULL },
	{ "# set pte 1 anon rw", 0, NULL },
	{ "#", 0, NULL },
	{ "map pte 1 anon rw", -EINVAL, "unknown operation 'map'" },
	{ "SET pte 1 anon rw", -EINVAL, "unknown operation 'SET'" },
	{ "set pte 1 anon", -EINVAL, "set: expected" },
	{ "set pte 1 anon rw rw", -EINVAL, "set: expected" },
	{ "set pte 1 anon rw x y", -EINVAL, "too many fields" },
	{ "clear pte 1 anon ro", -EINVAL, "clear: expected" },
	{ "alloc 0", -EINVAL, "alloc: expected 'alloc PFN ORDER'" },
	{ "free 0 0 0", -EINVAL, "free: expected" },
	{ "set pxe 1 anon rw", -EINVAL, "unknown entry size 'pxe'" },
	{ "set pte -1 anon rw", -EINVAL, "bad PFN '-1'" },
	{ "set pte +1 anon rw", -EINVAL, "bad PFN" },
	{ "set pte 010 anon rw", -EINVAL, "bad PFN '010'" },
	{ "set pte 0x anon rw", -EINVAL, "bad PFN '0x'" },
	{ "set pte 0xg anon rw", -EINVAL, "bad PFN" },
	{ "set pte 1a anon rw", -EINVAL, "bad PFN" },
	{ "set pte 18446744073709551616 anon rw", -EINVAL,
	  "PFN '18446744073709551616' does not fit in 64 bits" },
	{ "set pte 0x10000000000000000 anon rw", -EINVAL, "PFN" },
	{ "set pte 1 anonymous rw", -EINVAL,
	  "'anonymous' is neither anon nor file" },
	{ "set pte 1 anon wr", -EINVAL, "'wr' is neither rw nor ro" },
	{ "set pmd 0x201 anon rw", -EINVAL,
	  "pmd PFN 0x201 is not aligned to 512 pages" },
	{ "clear pud 512 file", -EINVAL,
	  "pud PFN 0x200 is not aligned to 262144 pages" },
	{ "alloc 2 2", -EINVAL, "alloc PFN 0x2 is not aligned to its 4 pages" },
	{ "alloc 0 19", -EINVAL, "bad ORDER '19' (0 to 18)" },
	{ "alloc 0 01", -EINVAL, "bad ORDER" },
	{ "alloc 0 0x1", -EINVAL, "bad ORDER" },
	{ "alloc 0 999999999999", -EINVAL, "bad ORDER" },
	{ "set pte 1 anon rw\r\r", -EINVAL, "control character 0x0d" },
	{ "set\vpte 1 anon rw", -EINVAL, "control character 0x0b at column 4" },
	{ "set pte 1 anon rw # \x7f", -EINVAL, "control character 0x7f" },
};

/* Each line parses to an operation, to nothing, or to one clear reason. */
static void test_parse_lines(void **state)
{
	struct kmirror_ptc_op op;
	char why[160];
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(parse_cases); i++) {
		const struct parse_case *c = &parse_cases[i];

		why[0] = '\0';
		ret = kmirror_ptc_parse_line(c->line, strlen(c->line), &op,
					     why, sizeof(why));
		if (ret != c->ret ||
		    (c->why && strncmp(why, c->why, strlen(c->why))))
			fail_msg("'%s': %d '%s'", c->line, ret, why);
	}
}

/* Fields land where the format says. */
static void test_parse_fields(void **state)
{
	const char *l = "set pud 0xffffffffc0000 file rw";
	struct kmirror_ptc_op op;
	char why[8];

	assert_int_equal(kmirror_ptc_parse_line(l, strlen(l), &op, why,
						sizeof(why)), 1);
	assert_int_equal(op.code, KMIRROR_PTC_SET);
	assert_int_equal(op.level, KMIRROR_PTC_PUD);
	assert_true(op.pfn == 0xffffffffc0000ULL);
	assert_false(op.anon);
	assert_true(op.rw);
	l = "free 4096 12";
	assert_int_equal(kmirror_ptc_parse_line(l, strlen(l), &op, why,
						sizeof(why)), 1);
	assert_int_equal(op.code, KMIRROR_PTC_FREE);
	assert_int_equal(op.order, 12);
	assert_true(op.pfn == 4096);
	/* a short message buffer truncates, never overflows */
	l = "bogus";
	assert_int_equal(kmirror_ptc_parse_line(l, 5, &op, why, sizeof(why)),
			 -EINVAL);
	assert_int_equal(strlen(why), sizeof(why) - 1);
	assert_int_equal(kmirror_ptc_parse_line(l, 5, &op, NULL, 0), -EINVAL);
}

/* NUL bytes are errors (they are counted in the line's length). */
static void test_parse_nul(void **state)
{
	static const char l[] = "set pte 1 anon rw\0# hidden";
	struct kmirror_ptc_op op;
	char why[160];

	assert_int_equal(kmirror_ptc_parse_line(l, sizeof(l) - 1, &op, why,
						sizeof(why)), -EINVAL);
	assert_string_equal(why, "NUL byte at column 18");
	assert_int_equal(kmirror_ptc_parse_line(l, 17, &op, why, sizeof(why)),
			 1);
}

static int replay(const char *text, struct kmirror_ptc_replay *res)
{
	struct kmirror_ptc *ptc;
	int ret;

	assert_int_equal(kmirror_ptc_create(&ptc), 0);
	ret = kmirror_ptc_replay_buf(ptc, text, strlen(text), res);
	kmirror_ptc_destroy(ptc);
	return ret;
}

/* Replay stops at the first violation; lines count comments and blanks. */
static void test_replay_first_violation(void **state)
{
	struct kmirror_ptc_replay res;

	assert_int_equal(replay("alloc 0 0\n# fork\n\nset pte 0 anon rw\n"
				"set pte 0 anon ro\nset pte 0 anon rw\n"
				"set pte 0 file rw\nnonsense\n", &res), 1);
	assert_int_equal(res.line, 6);
	assert_int_equal(res.verdict, KMIRROR_PTC_ANON_RW_DOUBLE_MAP);
	assert_true(res.pfn == 0);
	assert_int_equal(res.error, 0);
}

/* A clean trace replays to the end: 0, and the number of lines read. */
static void test_replay_clean(void **state)
{
	struct kmirror_ptc_replay res;

	assert_int_equal(replay("alloc 512 9\nset pmd 512 anon rw\r\n"
				"clear pmd 512 anon\nfree 512 9", &res), 0);
	assert_int_equal(res.line, 4);
	assert_int_equal(res.verdict, KMIRROR_PTC_OK);
	assert_int_equal(replay("", &res), 0);
	assert_int_equal(res.line, 0);
	assert_int_equal(replay("\n", &res), 0);
	assert_int_equal(res.line, 1);
}

/* A malformed line before any violation ends the replay with -EINVAL. */
static void test_replay_bad_line(void **state)
{
	struct kmirror_ptc_replay res;

	assert_int_equal(replay("set pte 3 anon rw\nset pte 3\n"
				"set pte 3 anon rw\n", &res), -EINVAL);
	assert_int_equal(res.line, 2);
	assert_int_equal(res.error, -EINVAL);
	assert_string_equal(res.why,
			    "set: expected 'set pte|pmd|pud PFN anon|file rw|ro'");
}

/* From a stream: lines over KMIRROR_PTC_LINE_MAX bytes are refused. */
static void test_replay_stream(void **state)
{
	struct kmirror_ptc_replay res;
	struct kmirror_ptc *ptc;
	FILE *f = tmpfile();
	int i;

	assert_non_null(f);
	fputs("set pte 9 file ro\n#", f);
	for (i = 0; i < KMIRROR_PTC_LINE_MAX - 1; i++)
		fputc('x', f);
	fputs("\nset pte 9 anon ro\n", f);
	rewind(f);
	assert_int_equal(kmirror_ptc_create(&ptc), 0);
	assert_int_equal(kmirror_ptc_replay(ptc, f, &res), 1);
	assert_int_equal(res.line, 3);
	assert_int_equal(res.verdict, KMIRROR_PTC_ANON_MAP_OF_FILE_MAPPED);
	kmirror_ptc_destroy(ptc);
	rewind(f);
	assert_int_equal(ftruncate(fileno(f), 0), 0);
	fputs("#", f);
	for (i = 0; i < KMIRROR_PTC_LINE_MAX; i++)
		fputc('y', f);
	fputs("\nset pte 9 anon ro\n", f);
	rewind(f);
	assert_int_equal(kmirror_ptc_create(&ptc), 0);
	assert_int_equal(kmirror_ptc_replay(ptc, f, &res), -EINVAL);
	assert_int_equal(res.line, 1);
	assert_string_equal(res.why, "line longer than 4096 bytes");
	kmirror_ptc_destroy(ptc);
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vectors_lib),
		cmocka_unit_test(test_lib_einval),
		cmocka_unit_test(test_lib_enomem),
		cmocka_unit_test(test_lib_mem_max),
		cmocka_unit_test(test_lib_where),
		cmocka_unit_test(test_lib_threads),
		cmocka_unit_test(test_parse_lines),
		cmocka_unit_test(test_parse_fields),
		cmocka_unit_test(test_parse_nul),
		cmocka_unit_test(test_replay_first_violation),
		cmocka_unit_test(test_replay_clean),
		cmocka_unit_test(test_replay_bad_line),
		cmocka_unit_test(test_replay_stream),
	};

	return cmocka_run_group_tests_name("ptc", tests, NULL, NULL);
}
