// SPDX-License-Identifier: GPL-2.0-only
/*
 * fscache cookie keys, aux data and duplicates (kmc_cookie.h), against
 * cookie.vec: a KUnit suite in the kernel, and run by cmocka in userspace
 * (tests/kernel-shim).  tests/unit/test_cookie.c keeps the one check that
 * reads a file, the kernel-written cache's fan-out directories.
 */
#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "kmc_cookie.h"
#include "kmc_kunit.h"
#include "kmv_tables.h"

static const struct kmv_cookie *kmv_cookie;
static unsigned int kmv_cookie_n;

/* Each case starts with the rows of cookie.vec. */
static int kmc_cookie_test_init(struct kunit *test)
{
	kmv_cookie = kmv_load(test, &kmv_cookie_table, &kmv_cookie_n);
	return kmv_cookie ? 0 : -EINVAL;
}

/*
 * Every vector: the kernel's hash, through both the padded and raw paths,
 * the raw one reading the key from a buffer of exactly its length.
 */
static void test_cookie_vectors(struct kunit *test)
{
	u8 buf[KMC_COOKIE_BUF_MAX];
	u32 vhash, hash;
	unsigned int i;
	u8 *key;
	int n;

	for (i = 0; i < kmv_cookie_n; i++) {
		const struct kmv_cookie *v = &kmv_cookie[i];

		hash = 0;
		key = kmk_exact(test, v->key, v->key_len);
		KUNIT_ASSERT_EQ_MSG(test, kmc_volume_hash(v->vkey,
							  strlen(v->vkey),
							  &vhash), 0,
				    "cookie.vec line %d: volume", v->line);
		KUNIT_EXPECT_EQ_MSG(test, kmc_cookie_hash(vhash, key,
							  v->key_len, &hash),
				    0, "cookie.vec line %d", v->line);
		KUNIT_EXPECT_EQ_MSG(test, hash, v->hash,
				    "cookie.vec line %d: hash", v->line);
		n = kmc_cookie_key_build(v->key, v->key_len, buf, sizeof(buf));
		KUNIT_EXPECT_EQ_MSG(test, n,
				    (int)KMC_COOKIE_BUF_LEN(v->key_len),
				    "cookie.vec line %d: buffer", v->line);
		if (n > 0)
			KUNIT_EXPECT_EQ_MSG(test,
					    kmc_cookie_key_hash(vhash, buf, n),
					    v->hash,
					    "cookie.vec line %d: padded hash",
					    v->line);
		KUNIT_EXPECT_EQ_MSG(test, kmc_cookie_fanout(hash),
				    v->hash & 0xff,
				    "cookie.vec line %d: fan-out", v->line);
		kunit_kfree(test, key);
	}
	KUNIT_EXPECT_GE(test, kmv_cookie_n, 50);
}

/* No key, an empty key, or a key or aux over 255 bytes is refused. */
static void test_cookie_check_rejects(struct kunit *test)
{
	static const u8 key[300] = { 1 }, aux[300] = { 2 };

	KUNIT_EXPECT_EQ(test, kmc_cookie_check(NULL, 4, NULL, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, kmc_cookie_check(key, 0, NULL, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, kmc_cookie_check(key, 256, NULL, 0), -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, kmc_cookie_check(key, 300, aux, 8), -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, kmc_cookie_check(key, 8, aux, 256), -EMSGSIZE);
	/* the aux length is judged even without aux data, as the kernel does */
	KUNIT_EXPECT_EQ(test, kmc_cookie_check(key, 8, NULL, 256), -EMSGSIZE);
}

/* Keys of 1..255 bytes and aux of 0..255 bytes are accepted. */
static void test_cookie_check_accepts(struct kunit *test)
{
	static const u8 key[255], aux[255];
	size_t n;

	for (n = 1; n <= 255; n++)
		KUNIT_EXPECT_EQ_MSG(test, kmc_cookie_check(key, n, NULL, 0), 0,
				    "key of %zu bytes", n);
	for (n = 0; n <= 255; n++) {
		KUNIT_EXPECT_EQ_MSG(test, kmc_cookie_check(key, 1, aux, n), 0,
				    "aux of %zu bytes", n);
		KUNIT_EXPECT_EQ_MSG(test, kmc_cookie_check(key, 1, NULL, n), 0,
				    "no aux, length %zu", n);
	}
}

/* A NULL aux or a zero length both mean "no aux data". */
static void test_cookie_aux_len(struct kunit *test)
{
	static const u8 aux[8];

	KUNIT_EXPECT_EQ(test, kmc_cookie_aux_len(NULL, 8), 0);
	KUNIT_EXPECT_EQ(test, kmc_cookie_aux_len(aux, 0), 0);
	KUNIT_EXPECT_EQ(test, kmc_cookie_aux_len(aux, 8), 8);
	KUNIT_EXPECT_EQ(test, kmc_cookie_aux_len(aux, 255), 255);
	KUNIT_EXPECT_EQ(test, kmc_cookie_aux_len(aux, 256), 0);
}

/* The padded buffer is the key then zeros, round_up(klen, 4) long. */
static void test_cookie_key_build(struct kunit *test)
{
	u8 key[255], buf[KMC_COOKIE_BUF_MAX];
	size_t klen, j;

	memset(key, 0x5a, sizeof(key));
	for (klen = 1; klen <= 255; klen++) {
		memset(buf, 0xff, sizeof(buf));
		KUNIT_ASSERT_EQ(test, kmc_cookie_key_build(key, klen, buf,
							   sizeof(buf)),
				(int)(klen + 3) / 4 * 4);
		for (j = 0; j < klen; j++)
			KUNIT_ASSERT_EQ(test, buf[j], 0x5a);
		for (; j < KMC_COOKIE_BUF_LEN(klen); j++)
			KUNIT_ASSERT_EQ(test, buf[j], 0);
	}
	KUNIT_EXPECT_EQ(test, KMC_COOKIE_BUF_MAX, 256);
}

/* Building refuses bad keys and short buffers, writing nothing. */
static void test_cookie_key_build_errors(struct kunit *test)
{
	static const u8 key[256] = { 7 };
	u8 buf[8];
	u32 hash = 42;

	memset(buf, 0xcc, sizeof(buf));
	KUNIT_EXPECT_EQ(test, kmc_cookie_key_build(key, 5, buf, 7), -ENOSPC);
	KUNIT_EXPECT_EQ(test, kmc_cookie_key_build(key, 5, NULL, 8), -ENOSPC);
	KUNIT_EXPECT_EQ(test, kmc_cookie_key_build(key, 0, buf, 8), -EINVAL);
	KUNIT_EXPECT_EQ(test, kmc_cookie_key_build(NULL, 4, buf, 8), -EINVAL);
	KUNIT_EXPECT_EQ(test, kmc_cookie_key_build(key, 256, buf, 8),
			-EMSGSIZE);
	KUNIT_EXPECT_EQ(test, buf[0], 0xcc);
	KUNIT_EXPECT_EQ(test, kmc_cookie_hash(0, key, 256, &hash), -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, kmc_cookie_hash(0, key, 0, &hash), -EINVAL);
	KUNIT_EXPECT_EQ(test, hash, 42);
}

/*
 * kmc_cookie_hash() reads exactly klen bytes (exact-size heap buffers let
 * KASAN, valgrind and ASan see any over-read) and equals the padded hash.
 */
static void test_cookie_hash_exact_read(struct kunit *test)
{
	u8 buf[KMC_COOKIE_BUF_MAX];
	size_t klen, j;
	u32 h = 0, want;
	u8 *key;

	for (klen = 1; klen <= 255; klen++) {
		key = kunit_kmalloc(test, klen, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, key);
		for (j = 0; j < klen; j++)
			key[j] = (u8)(j * 37 + klen);
		KUNIT_ASSERT_EQ(test, kmc_cookie_hash(0xdeadbeef, key, klen,
						      &h), 0);
		kmc_cookie_key_build(key, klen, buf, sizeof(buf));
		want = kmc_cookie_key_hash(0xdeadbeef, buf,
					   KMC_COOKIE_BUF_LEN(klen));
		KUNIT_EXPECT_EQ_MSG(test, h, want, "key of %zu bytes", klen);
		kunit_kfree(test, key);
	}
}

/* The volume hash salts the cookie hash: same key, other volume, other hash */
static void test_cookie_hash_salted(struct kunit *test)
{
	const u8 key[8] = { 0xd3, 0xc0, 0xab, 0, 0, 0, 0, 0 };
	u32 v1, v2, h1, h2;

	KUNIT_ASSERT_EQ(test, kmc_volume_hash("9p,src,", 7, &v1), 0);
	KUNIT_ASSERT_EQ(test, kmc_volume_hash("9p,src2,second", 14, &v2), 0);
	KUNIT_ASSERT_EQ(test, kmc_cookie_hash(v1, key, 8, &h1), 0);
	KUNIT_ASSERT_EQ(test, kmc_cookie_hash(v2, key, 8, &h2), 0);
	KUNIT_EXPECT_NE(test, h1, h2);
}

/*
 * Zero padding makes trailing zero bytes hash alike ("d3c0ab" and
 * "d3c0ab00"), but fscache_cookie_same() still tells them apart by length.
 */
static void test_cookie_same_length_matters(struct kunit *test)
{
	const u8 k3[3] = { 0xd3, 0xc0, 0xab }, k4[4] = { 0xd3, 0xc0, 0xab, 0 };
	u32 h3, h4;

	KUNIT_ASSERT_EQ(test, kmc_cookie_hash(1, k3, 3, &h3), 0);
	KUNIT_ASSERT_EQ(test, kmc_cookie_hash(1, k4, 4, &h4), 0);
	KUNIT_EXPECT_EQ(test, h3, h4);
	KUNIT_EXPECT_FALSE(test, kmc_cookie_same(h3, k3, 3, h4, k4, 4));
	KUNIT_EXPECT_TRUE(test, kmc_cookie_same(h3, k3, 3, h3, k4, 3));
}

/* Same hash and bytes match; a different hash or byte does not. */
static void test_cookie_same(struct kunit *test)
{
	const u8 a[5] = { 1, 2, 3, 4, 5 }, b[5] = { 1, 2, 3, 4, 6 };

	KUNIT_EXPECT_TRUE(test, kmc_cookie_same(9, a, 5, 9, a, 5));
	KUNIT_EXPECT_FALSE(test, kmc_cookie_same(9, a, 5, 8, a, 5));
	KUNIT_EXPECT_FALSE(test, kmc_cookie_same(9, a, 5, 9, b, 5));
}

/* A live duplicate refuses; a relinquished one is waited for. */
static void test_cookie_hash_verdict(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, kmc_cookie_hash_verdict(false, false),
			KMC_HASH_CONTINUE);
	KUNIT_EXPECT_EQ(test, kmc_cookie_hash_verdict(false, true),
			KMC_HASH_CONTINUE);
	KUNIT_EXPECT_EQ(test, kmc_cookie_hash_verdict(true, false),
			KMC_HASH_DUPLICATE);
	KUNIT_EXPECT_EQ(test, kmc_cookie_hash_verdict(true, true),
			KMC_HASH_WAIT);
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
static enum kmc_hash_verdict acquire(struct kunit *test, struct entry *bucket,
				     int *n, int volume, const u8 *key,
				     unsigned int len)
{
	enum kmc_hash_verdict v = KMC_HASH_CONTINUE;
	struct entry c = { .volume = volume, .len = len };
	int i;

	memcpy(c.key, key, len);
	KUNIT_ASSERT_EQ(test, kmc_cookie_hash(volume, key, len, &c.hash), 0);
	for (i = *n - 1; i >= 0 && v == KMC_HASH_CONTINUE; i--)
		v = kmc_cookie_hash_verdict(bucket[i].volume == volume &&
					    kmc_cookie_same(c.hash, c.key,
							    c.len,
							    bucket[i].hash,
							    bucket[i].key,
							    bucket[i].len),
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
static void test_cookie_duplicate_outcomes(struct kunit *test)
{
	const u8 key[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct entry bucket[8];
	int n = 0;

	KUNIT_EXPECT_EQ(test, acquire(test, bucket, &n, 1, key, 8),
			KMC_HASH_CONTINUE);
	KUNIT_EXPECT_EQ(test, acquire(test, bucket, &n, 1, key, 8),
			KMC_HASH_DUPLICATE);
	KUNIT_EXPECT_EQ(test, n, 1);
	KUNIT_EXPECT_EQ(test, acquire(test, bucket, &n, 2, key, 8),
			KMC_HASH_CONTINUE);
	KUNIT_EXPECT_EQ(test, acquire(test, bucket, &n, 1, key, 7),
			KMC_HASH_CONTINUE);
	bucket[0].relinquished = true;
	KUNIT_EXPECT_EQ(test, acquire(test, bucket, &n, 1, key, 8),
			KMC_HASH_WAIT);
	KUNIT_EXPECT_EQ(test, n, 4);
	KUNIT_EXPECT_EQ(test, acquire(test, bucket, &n, 1, key, 8),
			KMC_HASH_DUPLICATE);
}

/* Updating aux copies exactly aux_len bytes; NULL arguments change nothing */
static void test_cookie_update_aux(struct kunit *test)
{
	u8 aux[4] = { 1, 1, 1, 1 };
	const u8 upd[8] = { 9, 9, 9, 9, 9, 9, 9, 9 };
	s64 size = 100, ns = -5;

	kmc_cookie_update_aux(aux, 3, &size, NULL, NULL);
	KUNIT_EXPECT_EQ(test, aux[0], 1);
	KUNIT_EXPECT_EQ(test, size, 100);
	kmc_cookie_update_aux(aux, 3, &size, upd, NULL);
	KUNIT_EXPECT_EQ(test, aux[2], 9);
	KUNIT_EXPECT_EQ(test, aux[3], 1);
	KUNIT_EXPECT_EQ(test, size, 100);
	kmc_cookie_update_aux(aux, 3, &size, NULL, &ns);
	KUNIT_EXPECT_EQ(test, size, -5);
	kmc_cookie_update_aux(NULL, 0, &size, upd, NULL);
	KUNIT_EXPECT_EQ(test, size, -5);
}

static struct kunit_case kmc_cookie_cases[] = {
	KUNIT_CASE(test_cookie_vectors),
	KUNIT_CASE(test_cookie_check_rejects),
	KUNIT_CASE(test_cookie_check_accepts),
	KUNIT_CASE(test_cookie_aux_len),
	KUNIT_CASE(test_cookie_key_build),
	KUNIT_CASE(test_cookie_key_build_errors),
	KUNIT_CASE(test_cookie_hash_exact_read),
	KUNIT_CASE(test_cookie_hash_salted),
	KUNIT_CASE(test_cookie_same_length_matters),
	KUNIT_CASE(test_cookie_same),
	KUNIT_CASE(test_cookie_hash_verdict),
	KUNIT_CASE(test_cookie_duplicate_outcomes),
	KUNIT_CASE(test_cookie_update_aux),
	{}
};

static struct kunit_suite kmc_cookie_suite = {
	.name = "kmc_cookie",
	.init = kmc_cookie_test_init,
	.test_cases = kmc_cookie_cases,
};

kunit_test_suite(kmc_cookie_suite);
