// SPDX-License-Identifier: GPL-2.0-only
/* Specification of kmc_cookie: fscache cookie keys, aux data, duplicates. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kmc_cookie.h"
#include "kmv_cookie.h"

/* Hex string of @n digits into bytes; false if malformed. */
static bool unhex(const char *s, size_t n, u8 *out)
{
	return n % 2 == 0 && !hex2bin(out, s, n / 2);
}

/* Every vector: the kernel's hash, through both the padded and raw paths. */
static void test_cookie_vectors(void **state)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kmv_cookie); i++) {
		const struct kmv_cookie *v = &kmv_cookie[i];
		u8 buf[KMC_COOKIE_BUF_MAX];
		u32 vhash, hash = 0;
		int n;

		assert_int_equal(kmc_volume_hash(v->vkey, strlen(v->vkey),
						 &vhash), 0);
		assert_int_equal(kmc_cookie_hash(vhash, v->key, v->key_len,
						 &hash), 0);
		if (hash != v->hash)
			fail_msg("cookie.vec line %d: got %08x want %08x",
				 v->line, hash, v->hash);
		n = kmc_cookie_key_build(v->key, v->key_len, buf, sizeof(buf));
		assert_int_equal(n, KMC_COOKIE_BUF_LEN(v->key_len));
		assert_int_equal(kmc_cookie_key_hash(vhash, buf, n), v->hash);
		assert_int_equal(kmc_cookie_fanout(hash), v->hash & 0xff);
	}
	assert_true(ARRAY_SIZE(kmv_cookie) >= 50);
}

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
	u8 fan;
	u32 vhash, hash = 0;

	if (sscanf(line, "%299s %599s %llu %1023s", vkey, khex, &size,
		   path) != 4)
		fail_msg("fixture line %d: unreadable: %s", lineno, line);
	if (!unhex(khex, strlen(khex), key) || strlen(khex) / 2 == 0)
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
	assert_int_equal(kmc_cookie_hash(vhash, key, strlen(khex) / 2, &hash),
			 0);
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

/* No key, an empty key, or a key or aux over 255 bytes is refused. */
static void test_cookie_check_rejects(void **state)
{
	u8 key[300] = { 1 }, aux[300] = { 2 };

	assert_int_equal(kmc_cookie_check(NULL, 4, NULL, 0), -EINVAL);
	assert_int_equal(kmc_cookie_check(key, 0, NULL, 0), -EINVAL);
	assert_int_equal(kmc_cookie_check(key, 256, NULL, 0), -EMSGSIZE);
	assert_int_equal(kmc_cookie_check(key, 300, aux, 8), -EMSGSIZE);
	assert_int_equal(kmc_cookie_check(key, 8, aux, 256), -EMSGSIZE);
	/* the aux length is judged even without aux data, as the kernel does */
	assert_int_equal(kmc_cookie_check(key, 8, NULL, 256), -EMSGSIZE);
}

/* Keys of 1..255 bytes and aux of 0..255 bytes are accepted. */
static void test_cookie_check_accepts(void **state)
{
	u8 key[255] = { 0 }, aux[255] = { 0 };
	size_t n;

	for (n = 1; n <= 255; n++)
		assert_int_equal(kmc_cookie_check(key, n, NULL, 0), 0);
	for (n = 0; n <= 255; n++) {
		assert_int_equal(kmc_cookie_check(key, 1, aux, n), 0);
		assert_int_equal(kmc_cookie_check(key, 1, NULL, n), 0);
	}
}

/* A NULL aux or a zero length both mean "no aux data". */
static void test_cookie_aux_len(void **state)
{
	u8 aux[8] = { 0 };

	assert_int_equal(kmc_cookie_aux_len(NULL, 8), 0);
	assert_int_equal(kmc_cookie_aux_len(aux, 0), 0);
	assert_int_equal(kmc_cookie_aux_len(aux, 8), 8);
	assert_int_equal(kmc_cookie_aux_len(aux, 255), 255);
	assert_int_equal(kmc_cookie_aux_len(aux, 256), 0);
}

/* The padded buffer is the key then zeros, round_up(klen, 4) long. */
static void test_cookie_key_build(void **state)
{
	u8 key[255], buf[KMC_COOKIE_BUF_MAX];
	size_t klen, j;

	memset(key, 0x5a, sizeof(key));
	for (klen = 1; klen <= 255; klen++) {
		memset(buf, 0xff, sizeof(buf));
		assert_int_equal(kmc_cookie_key_build(key, klen, buf,
						      sizeof(buf)),
				 (klen + 3) / 4 * 4);
		for (j = 0; j < klen; j++)
			assert_int_equal(buf[j], 0x5a);
		for (; j < KMC_COOKIE_BUF_LEN(klen); j++)
			assert_int_equal(buf[j], 0);
	}
	assert_int_equal(KMC_COOKIE_BUF_MAX, 256);
}

/* Building refuses bad keys and short buffers, writing nothing. */
static void test_cookie_key_build_errors(void **state)
{
	u8 key[256] = { 7 }, buf[8];
	u32 hash = 42;

	memset(buf, 0xcc, sizeof(buf));
	assert_int_equal(kmc_cookie_key_build(key, 5, buf, 7), -ENOSPC);
	assert_int_equal(kmc_cookie_key_build(key, 5, NULL, 8), -ENOSPC);
	assert_int_equal(kmc_cookie_key_build(key, 0, buf, 8), -EINVAL);
	assert_int_equal(kmc_cookie_key_build(NULL, 4, buf, 8), -EINVAL);
	assert_int_equal(kmc_cookie_key_build(key, 256, buf, 8), -EMSGSIZE);
	assert_int_equal(buf[0], 0xcc);
	assert_int_equal(kmc_cookie_hash(0, key, 256, &hash), -EMSGSIZE);
	assert_int_equal(kmc_cookie_hash(0, key, 0, &hash), -EINVAL);
	assert_int_equal(hash, 42);
}

/*
 * kmc_cookie_hash() reads exactly klen bytes (exact-size heap buffers let
 * valgrind and ASan see any over-read) and equals the padded hash.
 */
static void test_cookie_hash_exact_read(void **state)
{
	u8 buf[KMC_COOKIE_BUF_MAX];
	size_t klen, j;
	u32 h;

	for (klen = 1; klen <= 255; klen++) {
		u8 *key = malloc(klen);

		assert_non_null(key);
		for (j = 0; j < klen; j++)
			key[j] = (u8)(j * 37 + klen);
		assert_int_equal(kmc_cookie_hash(0xdeadbeef, key, klen, &h), 0);
		kmc_cookie_key_build(key, klen, buf, sizeof(buf));
		assert_int_equal(h, kmc_cookie_key_hash(0xdeadbeef, buf,
							KMC_COOKIE_BUF_LEN(klen)));
		free(key);
	}
}

/* The volume hash salts the cookie hash: same key, other volume, other hash. */
static void test_cookie_hash_salted(void **state)
{
	const u8 key[8] = { 0xd3, 0xc0, 0xab, 0, 0, 0, 0, 0 };
	u32 v1, v2, h1, h2;

	assert_int_equal(kmc_volume_hash("9p,src,", 7, &v1), 0);
	assert_int_equal(kmc_volume_hash("9p,src2,second", 14, &v2), 0);
	assert_int_equal(kmc_cookie_hash(v1, key, 8, &h1), 0);
	assert_int_equal(kmc_cookie_hash(v2, key, 8, &h2), 0);
	assert_int_not_equal(h1, h2);
}

/*
 * Zero padding makes trailing zero bytes hash alike ("d3c0ab" and
 * "d3c0ab00"), but fscache_cookie_same() still tells them apart by length.
 */
static void test_cookie_same_length_matters(void **state)
{
	const u8 k3[3] = { 0xd3, 0xc0, 0xab }, k4[4] = { 0xd3, 0xc0, 0xab, 0 };
	u32 h3, h4;

	assert_int_equal(kmc_cookie_hash(1, k3, 3, &h3), 0);
	assert_int_equal(kmc_cookie_hash(1, k4, 4, &h4), 0);
	assert_int_equal(h3, h4);
	assert_false(kmc_cookie_same(h3, k3, 3, h4, k4, 4));
	assert_true(kmc_cookie_same(h3, k3, 3, h3, k4, 3));
}

/* Same hash and bytes match; a different hash or byte does not. */
static void test_cookie_same(void **state)
{
	const u8 a[5] = { 1, 2, 3, 4, 5 }, b[5] = { 1, 2, 3, 4, 6 };

	assert_true(kmc_cookie_same(9, a, 5, 9, a, 5));
	assert_false(kmc_cookie_same(9, a, 5, 8, a, 5));
	assert_false(kmc_cookie_same(9, a, 5, 9, b, 5));
}

/* A live duplicate refuses; a relinquished one is waited for. */
static void test_cookie_hash_verdict(void **state)
{
	assert_int_equal(kmc_cookie_hash_verdict(false, false),
			 KMC_HASH_CONTINUE);
	assert_int_equal(kmc_cookie_hash_verdict(false, true),
			 KMC_HASH_CONTINUE);
	assert_int_equal(kmc_cookie_hash_verdict(true, false),
			 KMC_HASH_DUPLICATE);
	assert_int_equal(kmc_cookie_hash_verdict(true, true), KMC_HASH_WAIT);
}

/* A bucket entry of a tiny head-inserted index, as fscache_hash_cookie's. */
struct entry {
	int volume;
	u32 hash;
	u8 key[8];
	unsigned int len;
	bool relinquished;
};

/* fscache_hash_cookie(): walk newest first; the first same key decides. */
static enum kmc_hash_verdict acquire(struct entry *bucket, int *n,
				     int volume, const u8 *key,
				     unsigned int len)
{
	enum kmc_hash_verdict v = KMC_HASH_CONTINUE;
	struct entry c = { .volume = volume, .len = len };
	int i;

	memcpy(c.key, key, len);
	assert_int_equal(kmc_cookie_hash(volume, key, len, &c.hash), 0);
	for (i = *n - 1; i >= 0 && v == KMC_HASH_CONTINUE; i--)
		v = kmc_cookie_hash_verdict(
			bucket[i].volume == volume &&
			kmc_cookie_same(c.hash, c.key, c.len, bucket[i].hash,
					bucket[i].key, bucket[i].len),
			bucket[i].relinquished);
	if (v != KMC_HASH_DUPLICATE)
		bucket[(*n)++] = c;
	return v;
}

/*
 * The kernel's outcomes: a second acquire of a live key is refused, the
 * same key in another volume is fine, and after relinquish the new cookie
 * goes in and waits; a third acquire then meets the waiting live one.
 */
static void test_cookie_duplicate_outcomes(void **state)
{
	const u8 key[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct entry bucket[8];
	int n = 0;

	assert_int_equal(acquire(bucket, &n, 1, key, 8), KMC_HASH_CONTINUE);
	assert_int_equal(acquire(bucket, &n, 1, key, 8), KMC_HASH_DUPLICATE);
	assert_int_equal(n, 1);
	assert_int_equal(acquire(bucket, &n, 2, key, 8), KMC_HASH_CONTINUE);
	assert_int_equal(acquire(bucket, &n, 1, key, 7), KMC_HASH_CONTINUE);
	bucket[0].relinquished = true;
	assert_int_equal(acquire(bucket, &n, 1, key, 8), KMC_HASH_WAIT);
	assert_int_equal(n, 4);
	assert_int_equal(acquire(bucket, &n, 1, key, 8), KMC_HASH_DUPLICATE);
}

/* Updating aux copies exactly aux_len bytes; NULL arguments change nothing. */
static void test_cookie_update_aux(void **state)
{
	u8 aux[4] = { 1, 1, 1, 1 };
	const u8 upd[8] = { 9, 9, 9, 9, 9, 9, 9, 9 };
	s64 size = 100, ns = -5;

	kmc_cookie_update_aux(aux, 3, &size, NULL, NULL);
	assert_int_equal(aux[0], 1);
	assert_int_equal(size, 100);
	kmc_cookie_update_aux(aux, 3, &size, upd, NULL);
	assert_int_equal(aux[2], 9);
	assert_int_equal(aux[3], 1);
	assert_int_equal(size, 100);
	kmc_cookie_update_aux(aux, 3, &size, NULL, &ns);
	assert_int_equal(size, -5);
	kmc_cookie_update_aux(NULL, 0, &size, upd, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cookie_vectors),
		cmocka_unit_test(test_cookie_kernel_fixture),
		cmocka_unit_test(test_cookie_check_rejects),
		cmocka_unit_test(test_cookie_check_accepts),
		cmocka_unit_test(test_cookie_aux_len),
		cmocka_unit_test(test_cookie_key_build),
		cmocka_unit_test(test_cookie_key_build_errors),
		cmocka_unit_test(test_cookie_hash_exact_read),
		cmocka_unit_test(test_cookie_hash_salted),
		cmocka_unit_test(test_cookie_same_length_matters),
		cmocka_unit_test(test_cookie_same),
		cmocka_unit_test(test_cookie_hash_verdict),
		cmocka_unit_test(test_cookie_duplicate_outcomes),
		cmocka_unit_test(test_cookie_update_aux),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
