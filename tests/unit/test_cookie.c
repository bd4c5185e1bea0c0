// SPDX-License-Identifier: GPL-2.0-only
/*
 * Specification of kmc_cookie against the kernel-written cache of
 * tests/fixtures: userspace only, as it reads a file ($KMIRROR_FIXTURES),
 * which a KUnit case can not.  Every other case of kmc_cookie is in
 * kernel/kunit/kmc_cookie_kunit.c, run in the kernel and here (kunit_cookie).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kmc_cookie.h"

/*
 * One line of the .expected file: volume key, key hex, size, path.  The
 * path must be cache/I<volume>/@xx/<name> with xx the cookie hash's low
 * byte.
 */
static void check_fixture_line(const char *line, int lineno)
{
	char vkey[300], khex[600], path[1024], want[320];
	u8 key[KMC_COOKIE_KEY_MAX];
	unsigned long long size;
	size_t klen;
	u8 fan;
	u32 vhash, hash = 0;

	if (sscanf(line, "%299s %599s %llu %1023s", vkey, khex, &size,
		   path) != 4)
		fail_msg("fixture line %d: unreadable: %s", lineno, line);
	klen = strlen(khex) / 2;
	if (strlen(khex) % 2 || klen == 0 || klen > sizeof(key) ||
	    hex2bin(key, khex, klen))
		fail_msg("fixture line %d: bad key %s", lineno, khex);
	snprintf(want, sizeof(want), "cache/I%s/@", vkey);
	if (strncmp(path, want, strlen(want)))
		fail_msg("fixture line %d: path %s not under %s", lineno,
			 path, want);
	if (hex2bin(&fan, path + strlen(want), 1))
		fail_msg("fixture line %d: no fan-out in %s", lineno, path);
	assert_int_equal(kmc_volume_key_check_cachefiles(vkey, strlen(vkey)),
			 0);
	assert_int_equal(kmc_volume_hash(vkey, strlen(vkey), &vhash), 0);
	assert_int_equal(kmc_cookie_hash(vhash, key, klen, &hash), 0);
	if (kmc_cookie_fanout(hash) != fan)
		fail_msg("fixture line %d: @%02x, kernel wrote @%02x (%s)",
			 lineno, kmc_cookie_fanout(hash), fan, path);
}

/*
 * The kernel-written cache's .expected: every object's fan-out directory
 * is the low byte of its cookie hash salted with its volume hash.
 */
static void test_cookie_kernel_fixture(void **state)
{
	const char *dir = getenv("KMIRROR_FIXTURES");
	char path[1024], line[2048];
	int lineno = 0, checked = 0;
	FILE *f;

	if (!dir)
		fail_msg("KMIRROR_FIXTURES is not set");
	snprintf(path, sizeof(path), "%s/kernel61-cachefiles-9p.expected",
		 dir);
	f = fopen(path, "r");
	if (!f)
		fail_msg("cannot open %s", path);
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		check_fixture_line(line, lineno);
		checked++;
	}
	fclose(f);
	assert_true(checked >= 40);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cookie_kernel_fixture),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
