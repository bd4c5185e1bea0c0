// SPDX-License-Identifier: GPL-2.0-only
/* Specification of kmc_volume: fscache volume keys and coherency data. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kmt_errno.h"

#include "kmc_volume.h"
#include "kmv_volume.h"

/* Every vector: both layers' verdicts, the buffer and the kernel's hash. */
static void test_volume_vectors(void **state)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kmv_volume); i++) {
		const struct kmv_volume *v = &kmv_volume[i];
		size_t klen = strlen(v->key);
		u8 buf[KMC_VOLUME_BUF_MAX + 8];
		u32 hash = 0;
		int ret;

		ret = kmc_volume_key_check(v->key, klen);
		if (ret != kmt_errno(v->fscache, "volume.vec", v->line))
			fail_msg("volume.vec line %d: fscache %d", v->line, ret);
		ret = kmc_volume_key_check_cachefiles(v->key, klen);
		if (ret != kmt_errno(v->cachefiles, "volume.vec", v->line))
			fail_msg("volume.vec line %d: cachefiles %d", v->line,
				 ret);
		ret = kmc_volume_key_build(v->key, klen, buf, sizeof(buf));
		if (kmt_errno(v->fscache, "volume.vec", v->line)) {
			assert_int_equal(ret, kmt_errno(v->fscache, "volume.vec", v->line));
			assert_int_equal(kmc_volume_hash(v->key, klen, &hash),
					 ret);
			continue;
		}
		if (ret != (int)v->hlen || v->buf_len != v->hlen ||
		    memcmp(buf, v->buf, v->hlen))
			fail_msg("volume.vec line %d: buffer", v->line);
		if (kmc_volume_key_hash(buf, ret) != v->hash)
			fail_msg("volume.vec line %d: hash %08x want %08x",
				 v->line, kmc_volume_key_hash(buf, ret),
				 v->hash);
		assert_int_equal(kmc_volume_hash(v->key, klen, &hash), 0);
		assert_int_equal(hash, v->hash);
	}
	assert_true(ARRAY_SIZE(kmv_volume) >= 25);
}

/* The buffer is [klen][key]\0 padded with zeros to round_up(klen + 2, 4). */
static void test_volume_buffer_layout(void **state)
{
	char key[KMC_VOLUME_KEY_MAX];
	u8 buf[KMC_VOLUME_BUF_MAX];
	size_t klen, j;
	int ret;

	memset(key, 'k', sizeof(key));
	for (klen = 0; klen <= KMC_VOLUME_KEY_MAX; klen++) {
		memset(buf, 0xa5, sizeof(buf));
		ret = kmc_volume_key_build(key, klen, buf, sizeof(buf));
		assert_int_equal(ret, ((klen + 2 + 3) / 4) * 4);
		assert_int_equal(ret, KMC_VOLUME_BUF_LEN(klen));
		assert_int_equal(buf[0], klen);
		for (j = 1; j <= klen; j++)
			assert_int_equal(buf[j], 'k');
		for (j = klen + 1; j < (size_t)ret; j++)
			assert_int_equal(buf[j], 0);
	}
	assert_int_equal(KMC_VOLUME_BUF_MAX, 260);
}

/* A buffer smaller than hlen is refused and left untouched. */
static void test_volume_build_enospc(void **state)
{
	u8 buf[8];

	memset(buf, 0xa5, sizeof(buf));
	assert_int_equal(kmc_volume_key_build("abcdefg", 7, buf, 11),
			 -ENOSPC);
	assert_int_equal(kmc_volume_key_build("abc", 3, buf, 7), -ENOSPC);
	assert_int_equal(kmc_volume_key_build("abc", 3, NULL, 8), -ENOSPC);
	assert_int_equal(buf[0], 0xa5);
	assert_int_equal(kmc_volume_key_build("abc", 3, buf, 8), 8);
}

/* A NUL cannot be inside a C-string key: fscache -EINVAL, cachefiles -EACCES. */
static void test_volume_key_nul(void **state)
{
	u32 hash = 0x1234;

	assert_int_equal(kmc_volume_key_check("a\0b", 3), -EINVAL);
	assert_int_equal(kmc_volume_key_check("\0", 1), -EINVAL);
	assert_int_equal(kmc_volume_key_check_cachefiles("a\0b", 3), -EACCES);
	assert_int_equal(kmc_volume_hash("ab\0", 3, &hash), -EINVAL);
	assert_int_equal(hash, 0x1234);
}

/* A NULL key is only the empty key; with a length it is refused. */
static void test_volume_key_null(void **state)
{
	u8 buf[4];

	assert_int_equal(kmc_volume_key_check(NULL, 0), 0);
	assert_int_equal(kmc_volume_key_check(NULL, 3), -EINVAL);
	assert_int_equal(kmc_volume_key_check_cachefiles(NULL, 3), -EINVAL);
	assert_int_equal(kmc_volume_key_build(NULL, 0, buf, sizeof(buf)), 4);
	assert_int_equal(buf[0], 0);
}

/* fscache refuses only klen > 255; cachefiles also 255 ("I" + key > 255). */
static void test_volume_key_lengths(void **state)
{
	char key[300];

	memset(key, 'v', sizeof(key));
	assert_int_equal(kmc_volume_key_check(key, 255), 0);
	assert_int_equal(kmc_volume_key_check(key, 256), -ENAMETOOLONG);
	assert_int_equal(kmc_volume_key_check(key, 300), -ENAMETOOLONG);
	assert_int_equal(kmc_volume_key_check_cachefiles(key, 254), 0);
	assert_int_equal(kmc_volume_key_check_cachefiles(key, 255),
			 -ENAMETOOLONG);
	assert_int_equal(kmc_volume_key_check_cachefiles(key, 256),
			 -ENAMETOOLONG);
	/* '/' is refused by lookup_one_len() before the fs sees the length */
	key[10] = '/';
	assert_int_equal(kmc_volume_key_check_cachefiles(key, 255), -EACCES);
	assert_int_equal(kmc_volume_key_check(key, 255), 0);
}

/* Only '/' and NUL are refused by cachefiles; ".", ".." and "" are fine. */
static void test_volume_cachefiles_chars(void **state)
{
	char key[2] = { 0, 'x' };
	int c;

	for (c = 1; c < 256; c++) {
		key[0] = (char)c;
		assert_int_equal(kmc_volume_key_check_cachefiles(key, 2),
				 c == '/' ? -EACCES : 0);
	}
	assert_int_equal(kmc_volume_key_check_cachefiles("", 0), 0);
	assert_int_equal(kmc_volume_key_check_cachefiles(".", 1), 0);
	assert_int_equal(kmc_volume_key_check_cachefiles("..", 2), 0);
}

/* Build a key buffer on the heap at its exact size. */
static u8 *build(const char *key, u32 *hash)
{
	size_t klen = strlen(key);
	u8 *buf = malloc(KMC_VOLUME_BUF_LEN(klen));

	assert_non_null(buf);
	assert_int_equal(kmc_volume_key_build(key, klen, buf,
					      KMC_VOLUME_BUF_LEN(klen)),
			 KMC_VOLUME_BUF_LEN(klen));
	*hash = kmc_volume_key_hash(buf, KMC_VOLUME_BUF_LEN(klen));
	return buf;
}

/* Same hash, same length byte and same bytes make the same volume. */
static void test_volume_same(void **state)
{
	u32 ha, hb, hc, hd;
	u8 *a = build("9p,src,", &ha), *b = build("9p,src,", &hb);
	u8 *c = build("9p,src.", &hc), *d = build("9p,src,x", &hd);

	assert_true(kmc_volume_same(a, ha, b, hb));
	assert_false(kmc_volume_same(a, ha, c, hc));
	assert_false(kmc_volume_same(a, ha, d, hd));
	/* the hash is compared first: a stale hash never matches */
	assert_false(kmc_volume_same(a, ha, b, hb ^ 1));
	/* equal bytes with a forged equal hash still differ by length */
	assert_false(kmc_volume_same(a, ha, d, ha));
	free(a);
	free(b);
	free(c);
	free(d);
}

/*
 * fscache_volume_same() compares round_up(klen + 1, 4) bytes: for klen 3
 * that is the length byte and the key, the trailing NUL word is not read.
 */
static void test_volume_same_span(void **state)
{
	u8 a[8] = { 3, 'a', 'b', 'c', 0, 0, 0, 0 };
	u8 b[8] = { 3, 'a', 'b', 'c', 9, 9, 9, 9 };
	u8 c[8] = { 4, 'a', 'b', 'c', 'd', 0, 0, 0 };
	u8 d[8] = { 4, 'a', 'b', 'c', 'd', 0, 0, 9 };

	assert_true(kmc_volume_same(a, 7, b, 7));
	assert_false(kmc_volume_same(c, 7, d, 7));
}

/* A live same-key volume refuses the candidate, a relinquished one waits. */
static void test_volume_hash_verdict(void **state)
{
	assert_int_equal(kmc_volume_hash_verdict(false, false),
			 KMC_HASH_CONTINUE);
	assert_int_equal(kmc_volume_hash_verdict(false, true),
			 KMC_HASH_CONTINUE);
	assert_int_equal(kmc_volume_hash_verdict(true, false),
			 KMC_HASH_DUPLICATE);
	assert_int_equal(kmc_volume_hash_verdict(true, true), KMC_HASH_WAIT);
}

/* Coherency data: NULL means none, up to 255 bytes kept, more refused. */
static void test_volume_coherency_len(void **state)
{
	u8 data[300] = { 0 };

	assert_int_equal(kmc_volume_coherency_len(NULL, 0), 0);
	assert_int_equal(kmc_volume_coherency_len(NULL, 40), 0);
	assert_int_equal(kmc_volume_coherency_len(data, 0), 0);
	assert_int_equal(kmc_volume_coherency_len(data, 8), 8);
	assert_int_equal(kmc_volume_coherency_len(data, 255), 255);
	assert_int_equal(kmc_volume_coherency_len(data, 256), -EMSGSIZE);
	assert_int_equal(kmc_volume_coherency_len(data, 300), -EMSGSIZE);
}

/* Setting copies exactly the kept length and checks the destination. */
static void test_volume_coherency_set(void **state)
{
	const u8 src[5] = { 1, 2, 3, 4, 5 };
	u8 dst[6];

	memset(dst, 0xee, sizeof(dst));
	assert_int_equal(kmc_volume_coherency_set(src, 5, dst, 5), 5);
	assert_memory_equal(dst, src, 5);
	assert_int_equal(dst[5], 0xee);
	assert_int_equal(kmc_volume_coherency_set(src, 5, dst, 4), -ENOSPC);
	assert_int_equal(kmc_volume_coherency_set(NULL, 5, NULL, 0), 0);
	assert_int_equal(kmc_volume_coherency_set(src, 256, dst, 6),
			 -EMSGSIZE);
}

/* Relinquish: invalidate wins, NULL keeps, new data has the old length. */
static void test_volume_coherency_update(void **state)
{
	u8 cur[4] = { 1, 1, 1, 1 };
	const u8 upd[8] = { 2, 2, 2, 2, 2, 2, 2, 2 };

	assert_false(kmc_volume_coherency_update(cur, 4, upd, true));
	assert_int_equal(cur[0], 1);
	assert_false(kmc_volume_coherency_update(cur, 4, NULL, false));
	assert_true(kmc_volume_coherency_update(cur, 3, upd, false));
	assert_int_equal(cur[2], 2);
	assert_int_equal(cur[3], 1);
	assert_true(kmc_volume_coherency_update(NULL, 0, upd, false));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_volume_vectors),
		cmocka_unit_test(test_volume_buffer_layout),
		cmocka_unit_test(test_volume_build_enospc),
		cmocka_unit_test(test_volume_key_nul),
		cmocka_unit_test(test_volume_key_null),
		cmocka_unit_test(test_volume_key_lengths),
		cmocka_unit_test(test_volume_cachefiles_chars),
		cmocka_unit_test(test_volume_same),
		cmocka_unit_test(test_volume_same_span),
		cmocka_unit_test(test_volume_hash_verdict),
		cmocka_unit_test(test_volume_coherency_len),
		cmocka_unit_test(test_volume_coherency_set),
		cmocka_unit_test(test_volume_coherency_update),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
