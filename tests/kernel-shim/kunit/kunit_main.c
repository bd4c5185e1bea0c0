// SPDX-License-Identifier: GPL-2.0-only
/*
 * main() of a KUnit suite run in userspace: the suites the program's
 * files registered (kunit_test_suite()), apart from kunit.c so that
 * programs with a main() of their own can use its vector loading.
 */
#include <kunit/test.h>

int main(void)
{
	return kunit_run_all();
}
