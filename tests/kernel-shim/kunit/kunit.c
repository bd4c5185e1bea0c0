// SPDX-License-Identifier: GPL-2.0-only
/*
 * The userspace runner of the KUnit suites (test.h): every suite the
 * program registers runs as one cmocka group, each case as one cmocka
 * test with its own struct kunit, the suite's init before it and exit and
 * the freeing of its memory after it, whether it passed or not.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include <kunit/test.h>

/* One block of kunit_kmalloc(), on its case's list. */
struct kunit_resource {
	struct kunit_resource *next;
	void *p;
};

#define KUNIT_MAX_SUITES 8

static struct kunit_suite *suites[KUNIT_MAX_SUITES];
static unsigned int nsuites;

void kunit_register_suite(struct kunit_suite *suite)
{
	if (nsuites == KUNIT_MAX_SUITES) {
		fprintf(stderr, "kunit: more than %d suites\n",
			KUNIT_MAX_SUITES);
		exit(2);
	}
	suites[nsuites++] = suite;
}

void *kunit_kmalloc(struct kunit *test, size_t size, gfp_t gfp)
{
	struct kunit_resource *r = malloc(sizeof(*r));

	if (!r)
		return NULL;
	r->p = kmalloc(size, gfp);
	if (!r->p) {
		free(r);
		return NULL;
	}
	r->next = test->resources;
	test->resources = r;
	return r->p;
}

void kunit_kfree(struct kunit *test, const void *p)
{
	struct kunit_resource **pp, *r;

	for (pp = &test->resources; (r = *pp); pp = &r->next) {
		if (r->p == p) {
			*pp = r->next;
			kfree(r->p);
			free(r);
			return;
		}
	}
	kunit_fail_at(test, false, __FILE__, __LINE__, "kunit_kfree",
		      ": %p was not kunit_kmalloc()ed", p);
}

void kunit_fail_at(struct kunit *test, bool fatal, const char *file,
		   int line, const char *what, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "# %s: %s:%d: %s", test->name, file, line, what);
	if (strcmp(fmt, ": ")) {
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
	}
	fputc('\n', stderr);
	test->failed = true;
	if (fatal)
		fail();
}

/* The suite running now, and a case as it runs. */
static struct kunit_suite *running;

struct kunit_run {
	struct kunit test;
	const struct kunit_case *c;
};

static int kunit_setup(void **state)
{
	struct kunit_run *run = calloc(1, sizeof(*run));

	if (!run)
		return -1;
	run->c = *state;
	run->test.name = run->c->name;
	*state = run;
	if (running->init && running->init(&run->test)) {
		fprintf(stderr, "# %s: the suite's init failed\n",
			run->c->name);
		run->test.failed = true;
	}
	return 0;
}

static void kunit_run(void **state)
{
	struct kunit_run *run = *state;

	if (!run->test.failed)
		run->c->run_case(&run->test);
	if (run->test.failed)
		fail();
}

void kunit_cleanup(struct kunit *test)
{
	struct kunit_resource *r;

	while ((r = test->resources)) {
		test->resources = r->next;
		kfree(r->p);
		free(r);
	}
}

static int kunit_teardown(void **state)
{
	struct kunit_run *run = *state;

	if (running->exit)
		running->exit(&run->test);
	kunit_cleanup(&run->test);
	free(run);
	return 0;
}

static int kunit_run_suite(struct kunit_suite *suite)
{
	struct CMUnitTest *tests;
	unsigned int n = 0, i;
	int failed;

	while (suite->test_cases[n].run_case)
		n++;
	tests = calloc(n, sizeof(*tests));
	if (!tests)
		return 1;
	for (i = 0; i < n; i++) {
		tests[i].name = suite->test_cases[i].name;
		tests[i].test_func = kunit_run;
		tests[i].setup_func = kunit_setup;
		tests[i].teardown_func = kunit_teardown;
		tests[i].initial_state = &suite->test_cases[i];
	}
	running = suite;
	if (suite->suite_init && suite->suite_init(suite)) {
		fprintf(stderr, "# %s: suite_init failed\n", suite->name);
		free(tests);
		return 1;
	}
	failed = _cmocka_run_group_tests(suite->name, tests, n, NULL, NULL);
	if (suite->suite_exit)
		suite->suite_exit(suite);
	free(tests);
	return failed;
}

int kunit_run_all(void)
{
	unsigned int i;
	int failed = 0;

	if (!nsuites) {
		fprintf(stderr, "kunit: no suite registered\n");
		return 1;
	}
	for (i = 0; i < nsuites; i++)
		failed += kunit_run_suite(suites[i]);
	return failed ? 1 : 0;
}
