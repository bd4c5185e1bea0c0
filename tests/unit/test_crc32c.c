// SPDX-License-Identifier: GPL-2.0-only
/* kmirror-cachefs's CRC32C (fuse-demo/format/crc32c.c): known vectors,
 * and the CPU's instruction agreeing with the table on odd lengths. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "crc32c.h"

static void test_vectors(void **state)
{
	static const uint8_t zeros[32], ones[32] = {
		[0 ... 31] = 0xff };
	uint8_t inc[32];
	int i;

	(void)state;
	for (i = 0; i < 32; i++)
		inc[i] = i;
	assert_int_equal(kc_crc32c(0, "123456789", 9), 0xE3069283u);
	assert_int_equal(kc_crc32c_sw(0, "123456789", 9), 0xE3069283u);
	/* RFC 3720 B.4 */
	assert_int_equal(kc_crc32c(0, zeros, 32), 0x8A9136AAu);
	assert_int_equal(kc_crc32c(0, ones, 32), 0x62A8AB43u);
	assert_int_equal(kc_crc32c(0, inc, 32), 0x46DD794Eu);
	assert_int_equal(kc_crc32c(0, "", 0), 0);
	/* continued in two parts */
	assert_int_equal(kc_crc32c(kc_crc32c(0, "1234", 4), "56789", 5),
			 0xE3069283u);
}

static void test_hw_agrees(void **state)
{
	size_t len, off;
	uint8_t *buf;
	int i;

	(void)state;
	buf = malloc(300000);
	assert_non_null(buf);
	srand(42);
	for (i = 0; i < 300000; i++)
		buf[i] = rand();
	/* a whole 256 KiB granule, and around the 3 x 4 KiB lanes' block */
	assert_int_equal(kc_crc32c(0, buf + 3, 262144),
			 kc_crc32c_sw(0, buf + 3, 262144));
	for (len = 12280; len < 12300; len++)
		assert_int_equal(kc_crc32c(0x1234, buf, len),
				 kc_crc32c_sw(0x1234, buf, len));
	for (i = 0; i < 300; i++) {
		len = rand() % 65536;
		off = rand() % 17;
		assert_int_equal(kc_crc32c(0, buf + off, len),
				 kc_crc32c_sw(0, buf + off, len));
	}
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vectors),
		cmocka_unit_test(test_hw_agrees),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
