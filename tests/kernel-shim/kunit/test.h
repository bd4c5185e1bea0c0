/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * <kunit/test.h> in userspace: the KUnit suites of kernel/kunit/ compiled
 * as they are and run by cmocka (kunit.c), so that one test body serves
 * both runners, as tools/testing/radix-tree serves the kernel's radix tree.
 *
 * custom: the same calls and the same meaning as the kernel's KUnit.  An
 * expectation that fails marks the case failed and the case goes on; an
 * assertion that fails ends the case (cmocka's fail(), a longjmp).  Memory
 * from kunit_kmalloc() and friends is freed when the case ends.  Values
 * are compared as the kernel's macros compare them (typeof copies, then
 * the operator), so the suites build here without -Wsign-compare, as in
 * the kernel.
 */
#ifndef KMIRROR_SHIM_KUNIT_TEST_H
#define KMIRROR_SHIM_KUNIT_TEST_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "kcompat.h"

struct kunit_resource;

struct kunit {
	const char *name;		/* the case's */
	bool failed;
	void *priv;
	struct kunit_resource *resources;
};

struct kunit_case {
	void (*run_case)(struct kunit *test);
	const char *name;
};

struct kunit_suite {
	const char *name;
	int (*suite_init)(struct kunit_suite *suite);
	void (*suite_exit)(struct kunit_suite *suite);
	int (*init)(struct kunit *test);
	void (*exit)(struct kunit *test);
	struct kunit_case *test_cases;
};

#define KUNIT_CASE(f) { .run_case = f, .name = #f }

void kunit_register_suite(struct kunit_suite *suite);
/* Every registered suite, one cmocka group each; 0 if all passed. */
int kunit_run_all(void);

#define kunit_test_suite(s)						\
	static void __attribute__((constructor)) kunit_register_##s(void) \
	{								\
		kunit_register_suite(&s);				\
	}

void *kunit_kmalloc(struct kunit *test, size_t size, gfp_t gfp);
/*
 * Free what @test was given, as at the end of a case: for a program that
 * is not a suite but reads vectors with kmv_load() on a struct kunit of
 * its own (the differential tests).
 */
void kunit_cleanup(struct kunit *test);
void kunit_kfree(struct kunit *test, const void *p);

static inline void *kunit_kzalloc(struct kunit *test, size_t size, gfp_t gfp)
{
	return kunit_kmalloc(test, size, gfp | __GFP_ZERO);
}

static inline void *kunit_kcalloc(struct kunit *test, size_t n, size_t size,
				  gfp_t gfp)
{
	if (size && n > (size_t)-1 / size)
		return NULL;
	return kunit_kzalloc(test, n * size, gfp);
}

/*
 * Say @what failed and where, then the caller's own message if any;
 * @fatal ends the case.  The macros pass the message as ": " fmt, so that
 * a check without one passes ": " (a format can not be empty).
 */
void kunit_fail_at(struct kunit *test, bool fatal, const char *file,
		   int line, const char *what, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

#define KUNIT_FAIL_AT(test, fatal, what, ...)				\
	kunit_fail_at(test, fatal, __FILE__, __LINE__, what, ": " __VA_ARGS__)

#define KUNIT_CHECK(test, fatal, ok, what, ...)				\
	do {								\
		if (!(ok))						\
			KUNIT_FAIL_AT(test, fatal, what, __VA_ARGS__);	\
	} while (0)

/*
 * What a failed comparison saw, both sides as numbers (strings: their
 * first 160 bytes, so that the message always fits).
 */
#define KUNIT_BINARY(test, fatal, l, op, r, ...)			\
	do {								\
		const __typeof__(l) __l = (l);				\
		const __typeof__(r) __r = (r);				\
		char __w[256];						\
									\
		if (__l op __r)						\
			break;						\
		snprintf(__w, sizeof(__w),				\
			 "expected %s %s %s, got %lld (%#llx) and %lld (%#llx)", \
			 #l, #op, #r, (long long)__l,			\
			 (unsigned long long)__l, (long long)__r,	\
			 (unsigned long long)__r);			\
		KUNIT_FAIL_AT(test, fatal, __w, __VA_ARGS__);		\
	} while (0)

#define KUNIT_PTR(test, fatal, l, op, r, ...)				\
	do {								\
		const void *__l = (l), *__r = (r);			\
		char __w[256];						\
									\
		if (__l op __r)						\
			break;						\
		snprintf(__w, sizeof(__w), "expected %s %s %s, got %p and %p", \
			 #l, #op, #r, __l, __r);			\
		KUNIT_FAIL_AT(test, fatal, __w, __VA_ARGS__);		\
	} while (0)

#define KUNIT_STR(test, fatal, l, eq, r, ...)				\
	do {								\
		const char *__l = (l), *__r = (r);			\
		char __w[512];						\
									\
		if ((strcmp(__l, __r) == 0) == (eq))			\
			break;						\
		snprintf(__w, sizeof(__w),				\
			 "expected %s %s %s, got \"%.160s\" and \"%.160s\"", \
			 #l, (eq) ? "==" : "!=", #r, __l, __r);		\
		KUNIT_FAIL_AT(test, fatal, __w, __VA_ARGS__);		\
	} while (0)

#define KUNIT_FAIL(test, ...)	KUNIT_FAIL_AT(test, false, "failed", __VA_ARGS__)

#define KUNIT_EXPECT_TRUE(t, c)		KUNIT_CHECK(t, false, c, #c)
#define KUNIT_EXPECT_FALSE(t, c)	KUNIT_CHECK(t, false, !(c), "!(" #c ")")
#define KUNIT_EXPECT_TRUE_MSG(t, c, ...) \
	KUNIT_CHECK(t, false, c, #c, __VA_ARGS__)
#define KUNIT_EXPECT_FALSE_MSG(t, c, ...) \
	KUNIT_CHECK(t, false, !(c), "!(" #c ")", __VA_ARGS__)
#define KUNIT_ASSERT_TRUE(t, c)		KUNIT_CHECK(t, true, c, #c)
#define KUNIT_ASSERT_FALSE(t, c)	KUNIT_CHECK(t, true, !(c), "!(" #c ")")
#define KUNIT_ASSERT_TRUE_MSG(t, c, ...) \
	KUNIT_CHECK(t, true, c, #c, __VA_ARGS__)

#define KUNIT_EXPECT_EQ(t, l, r)	KUNIT_BINARY(t, false, l, ==, r)
#define KUNIT_EXPECT_NE(t, l, r)	KUNIT_BINARY(t, false, l, !=, r)
#define KUNIT_EXPECT_LT(t, l, r)	KUNIT_BINARY(t, false, l, <, r)
#define KUNIT_EXPECT_LE(t, l, r)	KUNIT_BINARY(t, false, l, <=, r)
#define KUNIT_EXPECT_GT(t, l, r)	KUNIT_BINARY(t, false, l, >, r)
#define KUNIT_EXPECT_GE(t, l, r)	KUNIT_BINARY(t, false, l, >=, r)
#define KUNIT_EXPECT_EQ_MSG(t, l, r, ...) \
	KUNIT_BINARY(t, false, l, ==, r, __VA_ARGS__)
#define KUNIT_EXPECT_NE_MSG(t, l, r, ...) \
	KUNIT_BINARY(t, false, l, !=, r, __VA_ARGS__)
#define KUNIT_EXPECT_GT_MSG(t, l, r, ...) \
	KUNIT_BINARY(t, false, l, >, r, __VA_ARGS__)
#define KUNIT_EXPECT_GE_MSG(t, l, r, ...) \
	KUNIT_BINARY(t, false, l, >=, r, __VA_ARGS__)
#define KUNIT_ASSERT_EQ(t, l, r)	KUNIT_BINARY(t, true, l, ==, r)
#define KUNIT_ASSERT_NE(t, l, r)	KUNIT_BINARY(t, true, l, !=, r)
#define KUNIT_ASSERT_LT(t, l, r)	KUNIT_BINARY(t, true, l, <, r)
#define KUNIT_ASSERT_LE(t, l, r)	KUNIT_BINARY(t, true, l, <=, r)
#define KUNIT_ASSERT_GT(t, l, r)	KUNIT_BINARY(t, true, l, >, r)
#define KUNIT_ASSERT_GE(t, l, r)	KUNIT_BINARY(t, true, l, >=, r)
#define KUNIT_ASSERT_EQ_MSG(t, l, r, ...) \
	KUNIT_BINARY(t, true, l, ==, r, __VA_ARGS__)
#define KUNIT_ASSERT_LT_MSG(t, l, r, ...) \
	KUNIT_BINARY(t, true, l, <, r, __VA_ARGS__)

#define KUNIT_EXPECT_PTR_EQ(t, l, r)	KUNIT_PTR(t, false, l, ==, r)
#define KUNIT_EXPECT_PTR_NE(t, l, r)	KUNIT_PTR(t, false, l, !=, r)
#define KUNIT_EXPECT_NULL(t, p)		KUNIT_PTR(t, false, p, ==, NULL)
#define KUNIT_EXPECT_NOT_NULL(t, p)	KUNIT_PTR(t, false, p, !=, NULL)
#define KUNIT_EXPECT_NULL_MSG(t, p, ...) \
	KUNIT_PTR(t, false, p, ==, NULL, __VA_ARGS__)
#define KUNIT_EXPECT_NOT_NULL_MSG(t, p, ...) \
	KUNIT_PTR(t, false, p, !=, NULL, __VA_ARGS__)
#define KUNIT_ASSERT_NOT_NULL(t, p)	KUNIT_PTR(t, true, p, !=, NULL)
#define KUNIT_ASSERT_NOT_NULL_MSG(t, p, ...) \
	KUNIT_PTR(t, true, p, !=, NULL, __VA_ARGS__)

#define KUNIT_EXPECT_STREQ(t, l, r)	KUNIT_STR(t, false, l, true, r)
#define KUNIT_EXPECT_STRNEQ(t, l, r)	KUNIT_STR(t, false, l, false, r)
#define KUNIT_EXPECT_STREQ_MSG(t, l, r, ...) \
	KUNIT_STR(t, false, l, true, r, __VA_ARGS__)
#define KUNIT_EXPECT_STRNEQ_MSG(t, l, r, ...) \
	KUNIT_STR(t, false, l, false, r, __VA_ARGS__)

#endif /* KMIRROR_SHIM_KUNIT_TEST_H */
