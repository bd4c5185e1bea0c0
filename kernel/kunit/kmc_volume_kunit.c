// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fscache volume keys and coherency data (kmc_volume.h), against
 * volume.vec: a KUnit suite in the kernel, and run by cmocka in userspace
 * (tests/kernel-shim).
 */
#include <kunit/test.h>

#include "kmc_kunit.h"
#include "kmc_volume.h"
#include "kmv_tables.h"

static const struct kmv_volume *kmv_volume;
static unsigned int kmv_volume_n;

/* Each case starts with the rows of volume.vec. */
static int kmc_volume_test_init(struct kunit *test)
{
	kmv_volume = kmv_load(test, &kmv_volume_table, &kmv_volume_n);
	return kmv_volume ? 0 : -EINVAL;
}

/* A refused key: the builders give the refusal and write no hash. */
static void check_refused(struct kunit *test, const struct kmv_volume *v,
			  int want)
{
	size_t klen = strlen(v->key);
	u8 buf[KMC_VOLUME_BUF_MAX + 8];
	u32 hash = 0x1234;

	KUNIT_EXPECT_EQ_MSG(test, kmc_volume_key_build(v->key, klen, buf,
						       sizeof(buf)),
			    want, "volume.vec line %d: build", v->line);
	KUNIT_EXPECT_EQ_MSG(test, kmc_volume_hash(v->key, klen, &hash), want,
			    "volume.vec line %d: hash", v->line);
	KUNIT_EXPECT_EQ_MSG(test, hash, 0x1234U,
			    "volume.vec line %d: hash written", v->line);
}

/* An accepted key: its buffer and the kernel's hash, both ways. */
static void check_built(struct kunit *test, const struct kmv_volume *v)
{
	size_t klen = strlen(v->key);
	u8 buf[KMC_VOLUME_BUF_MAX + 8];
	u32 hash = 0;
	int ret;

	ret = kmc_volume_key_build(v->key, klen, buf, sizeof(buf));
	KUNIT_EXPECT_EQ_MSG(test, ret, (int)v->hlen,
			    "volume.vec line %d: hlen", v->line);
	KUNIT_ASSERT_EQ_MSG(test, v->buf_len, v->hlen,
			    "volume.vec line %d: malformed row", v->line);
	if (ret != (int)v->hlen)
		return;
	KUNIT_EXPECT_EQ_MSG(test, memcmp(buf, v->buf, v->hlen), 0,
			    "volume.vec line %d: buffer", v->line);
	KUNIT_EXPECT_EQ_MSG(test, kmc_volume_key_hash(buf, ret), v->hash,
			    "volume.vec line %d: key hash", v->line);
	KUNIT_EXPECT_EQ_MSG(test, kmc_volume_hash(v->key, klen, &hash), 0,
			    "volume.vec line %d", v->line);
	KUNIT_EXPECT_EQ_MSG(test, hash, v->hash, "volume.vec line %d: hash",
			    v->line);
}

/* Every vector: both layers' verdicts, the buffer and the kernel's hash. */
static void test_volume_vectors(struct kunit *test)
{
	unsigned int i;
	int fscache;

	for (i = 0; i < kmv_volume_n; i++) {
		const struct kmv_volume *v = &kmv_volume[i];
		size_t klen = strlen(v->key);

		fscache = kmk_errno(test, v->fscache, "volume.vec", v->line);
		KUNIT_EXPECT_EQ_MSG(test, kmc_volume_key_check(v->key, klen),
				    fscache, "volume.vec line %d: fscache",
				    v->line);
		KUNIT_EXPECT_EQ_MSG(test,
				    kmc_volume_key_check_cachefiles(v->key,
								    klen),
				    kmk_errno(test, v->cachefiles,
					      "volume.vec", v->line),
				    "volume.vec line %d: cachefiles", v->line);
		if (fscache)
			check_refused(test, v, fscache);
		else
			check_built(test, v);
	}
	KUNIT_EXPECT_GE(test, kmv_volume_n, 25);
}

/* The buffer is [klen][key]\0 padded with zeros to round_up(klen + 2, 4). */
static void test_volume_buffer_layout(struct kunit *test)
{
	char key[KMC_VOLUME_KEY_MAX];
	u8 buf[KMC_VOLUME_BUF_MAX];
	size_t klen, j;
	int ret;

	memset(key, 'k', sizeof(key));
	for (klen = 0; klen <= KMC_VOLUME_KEY_MAX; klen++) {
		memset(buf, 0xa5, sizeof(buf));
		ret = kmc_volume_key_build(key, klen, buf, sizeof(buf));
		KUNIT_ASSERT_EQ(test, ret, (int)((klen + 2 + 3) / 4) * 4);
		KUNIT_ASSERT_EQ(test, ret, (int)KMC_VOLUME_BUF_LEN(klen));
		KUNIT_ASSERT_EQ(test, buf[0], klen);
		for (j = 1; j <= klen; j++)
			KUNIT_ASSERT_EQ(test, buf[j], 'k');
		for (j = klen + 1; j < (size_t)ret; j++)
			KUNIT_ASSERT_EQ(test, buf[j], 0);
	}
	KUNIT_EXPECT_EQ(test, KMC_VOLUME_BUF_MAX, 260);
}

/* A buffer smaller than hlen is refused and left untouched. */
static void test_volume_build_enospc(struct kunit *test)
{
	u8 buf[8];

	memset(buf, 0xa5, sizeof(buf));
	KUNIT_EXPECT_EQ(test, kmc_volume_key_build("abcdefg", 7, buf, 11),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, kmc_volume_key_build("abc", 3, buf, 7), -ENOSPC);
	KUNIT_EXPECT_EQ(test, kmc_volume_key_build("abc", 3, NULL, 8),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, buf[0], 0xa5);
	KUNIT_EXPECT_EQ(test, kmc_volume_key_build("abc", 3, buf, 8), 8);
}

/* A NUL cannot be inside a C-string key: fscache -EINVAL, cachefiles -EACCES */
static void test_volume_key_nul(struct kunit *test)
{
	u32 hash = 0x1234;

	KUNIT_EXPECT_EQ(test, kmc_volume_key_check("a\0b", 3), -EINVAL);
	KUNIT_EXPECT_EQ(test, kmc_volume_key_check("\0", 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, kmc_volume_key_check_cachefiles("a\0b", 3),
			-EACCES);
	KUNIT_EXPECT_EQ(test, kmc_volume_hash("ab\0", 3, &hash), -EINVAL);
	KUNIT_EXPECT_EQ(test, hash, 0x1234);
}

/* A NULL key is only the empty key; with a length it is refused. */
static void test_volume_key_null(struct kunit *test)
{
	u8 buf[4];

	KUNIT_EXPECT_EQ(test, kmc_volume_key_check(NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, kmc_volume_key_check(NULL, 3), -EINVAL);
	KUNIT_EXPECT_EQ(test, kmc_volume_key_check_cachefiles(NULL, 3),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, kmc_volume_key_build(NULL, 0, buf, sizeof(buf)),
			4);
	KUNIT_EXPECT_EQ(test, buf[0], 0);
}

/* fscache refuses only klen > 255; cachefiles also 255 ("I" + key > 255). */
static void test_volume_key_lengths(struct kunit *test)
{
	char key[300];

	memset(key, 'v', sizeof(key));
	KUNIT_EXPECT_EQ(test, kmc_volume_key_check(key, 255), 0);
	KUNIT_EXPECT_EQ(test, kmc_volume_key_check(key, 256), -ENAMETOOLONG);
	KUNIT_EXPECT_EQ(test, kmc_volume_key_check(key, 300), -ENAMETOOLONG);
	KUNIT_EXPECT_EQ(test, kmc_volume_key_check_cachefiles(key, 254), 0);
	KUNIT_EXPECT_EQ(test, kmc_volume_key_check_cachefiles(key, 255),
			-ENAMETOOLONG);
	KUNIT_EXPECT_EQ(test, kmc_volume_key_check_cachefiles(key, 256),
			-ENAMETOOLONG);
	/* '/' is refused by lookup_one_len() before the fs sees the length */
	key[10] = '/';
	KUNIT_EXPECT_EQ(test, kmc_volume_key_check_cachefiles(key, 255),
			-EACCES);
	KUNIT_EXPECT_EQ(test, kmc_volume_key_check(key, 255), 0);
}

/* Only '/' and NUL are refused by cachefiles; ".", ".." and "" are fine. */
static void test_volume_cachefiles_chars(struct kunit *test)
{
	char key[2] = { 0, 'x' };
	int c;

	for (c = 1; c < 256; c++) {
		key[0] = (char)c;
		KUNIT_EXPECT_EQ_MSG(test,
				    kmc_volume_key_check_cachefiles(key, 2),
				    c == '/' ? -EACCES : 0, "byte 0x%02x", c);
	}
	KUNIT_EXPECT_EQ(test, kmc_volume_key_check_cachefiles("", 0), 0);
	KUNIT_EXPECT_EQ(test, kmc_volume_key_check_cachefiles(".", 1), 0);
	KUNIT_EXPECT_EQ(test, kmc_volume_key_check_cachefiles("..", 2), 0);
}

/* Build a key buffer on the heap at its exact size. */
static u8 *build(struct kunit *test, const char *key, u32 *hash)
{
	size_t klen = strlen(key);
	u8 *buf = kunit_kmalloc(test, KMC_VOLUME_BUF_LEN(klen), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_EQ(test, kmc_volume_key_build(key, klen, buf,
						   KMC_VOLUME_BUF_LEN(klen)),
			(int)KMC_VOLUME_BUF_LEN(klen));
	*hash = kmc_volume_key_hash(buf, KMC_VOLUME_BUF_LEN(klen));
	return buf;
}

/* Same hash, same length byte and same bytes make the same volume. */
static void test_volume_same(struct kunit *test)
{
	u32 ha, hb, hc, hd;
	u8 *a = build(test, "9p,src,", &ha), *b = build(test, "9p,src,", &hb);
	u8 *c = build(test, "9p,src.", &hc), *d = build(test, "9p,src,x", &hd);

	KUNIT_EXPECT_TRUE(test, kmc_volume_same(a, ha, b, hb));
	KUNIT_EXPECT_FALSE(test, kmc_volume_same(a, ha, c, hc));
	KUNIT_EXPECT_FALSE(test, kmc_volume_same(a, ha, d, hd));
	/* the hash is compared first: a stale hash never matches */
	KUNIT_EXPECT_FALSE(test, kmc_volume_same(a, ha, b, hb ^ 1));
	/* equal bytes with a forged equal hash still differ by length */
	KUNIT_EXPECT_FALSE(test, kmc_volume_same(a, ha, d, ha));
}

/*
 * fscache_volume_same() compares round_up(klen + 1, 4) bytes: for klen 3
 * that is the length byte and the key, the trailing NUL word is not read.
 */
static void test_volume_same_span(struct kunit *test)
{
	u8 a[8] = { 3, 'a', 'b', 'c', 0, 0, 0, 0 };
	u8 b[8] = { 3, 'a', 'b', 'c', 9, 9, 9, 9 };
	u8 c[8] = { 4, 'a', 'b', 'c', 'd', 0, 0, 0 };
	u8 d[8] = { 4, 'a', 'b', 'c', 'd', 0, 0, 9 };

	KUNIT_EXPECT_TRUE(test, kmc_volume_same(a, 7, b, 7));
	KUNIT_EXPECT_FALSE(test, kmc_volume_same(c, 7, d, 7));
}

/* A live same-key volume refuses the candidate, a relinquished one waits. */
static void test_volume_hash_verdict(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, kmc_volume_hash_verdict(false, false),
			KMC_HASH_CONTINUE);
	KUNIT_EXPECT_EQ(test, kmc_volume_hash_verdict(false, true),
			KMC_HASH_CONTINUE);
	KUNIT_EXPECT_EQ(test, kmc_volume_hash_verdict(true, false),
			KMC_HASH_DUPLICATE);
	KUNIT_EXPECT_EQ(test, kmc_volume_hash_verdict(true, true),
			KMC_HASH_WAIT);
}

/* Coherency data: NULL means none, up to 255 bytes kept, more refused. */
static void test_volume_coherency_len(struct kunit *test)
{
	static const u8 data[300];

	KUNIT_EXPECT_EQ(test, kmc_volume_coherency_len(NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, kmc_volume_coherency_len(NULL, 40), 0);
	KUNIT_EXPECT_EQ(test, kmc_volume_coherency_len(data, 0), 0);
	KUNIT_EXPECT_EQ(test, kmc_volume_coherency_len(data, 8), 8);
	KUNIT_EXPECT_EQ(test, kmc_volume_coherency_len(data, 255), 255);
	KUNIT_EXPECT_EQ(test, kmc_volume_coherency_len(data, 256), -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, kmc_volume_coherency_len(data, 300), -EMSGSIZE);
}

/* Setting copies exactly the kept length and checks the destination. */
static void test_volume_coherency_set(struct kunit *test)
{
	const u8 src[5] = { 1, 2, 3, 4, 5 };
	u8 dst[6];

	memset(dst, 0xee, sizeof(dst));
	KUNIT_EXPECT_EQ(test, kmc_volume_coherency_set(src, 5, dst, 5), 5);
	KUNIT_EXPECT_EQ(test, memcmp(dst, src, 5), 0);
	KUNIT_EXPECT_EQ(test, dst[5], 0xee);
	KUNIT_EXPECT_EQ(test, kmc_volume_coherency_set(src, 5, dst, 4),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, kmc_volume_coherency_set(NULL, 5, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, kmc_volume_coherency_set(src, 256, dst, 6),
			-EMSGSIZE);
}

/* Relinquish: invalidate wins, NULL keeps, new data has the old length. */
static void test_volume_coherency_update(struct kunit *test)
{
	u8 cur[4] = { 1, 1, 1, 1 };
	const u8 upd[8] = { 2, 2, 2, 2, 2, 2, 2, 2 };

	KUNIT_EXPECT_FALSE(test, kmc_volume_coherency_update(cur, 4, upd,
							     true));
	KUNIT_EXPECT_EQ(test, cur[0], 1);
	KUNIT_EXPECT_FALSE(test, kmc_volume_coherency_update(cur, 4, NULL,
							     false));
	KUNIT_EXPECT_TRUE(test, kmc_volume_coherency_update(cur, 3, upd,
							    false));
	KUNIT_EXPECT_EQ(test, cur[2], 2);
	KUNIT_EXPECT_EQ(test, cur[3], 1);
	KUNIT_EXPECT_TRUE(test, kmc_volume_coherency_update(NULL, 0, upd,
							    false));
}

static struct kunit_case kmc_volume_cases[] = {
	KUNIT_CASE(test_volume_vectors),
	KUNIT_CASE(test_volume_buffer_layout),
	KUNIT_CASE(test_volume_build_enospc),
	KUNIT_CASE(test_volume_key_nul),
	KUNIT_CASE(test_volume_key_null),
	KUNIT_CASE(test_volume_key_lengths),
	KUNIT_CASE(test_volume_cachefiles_chars),
	KUNIT_CASE(test_volume_same),
	KUNIT_CASE(test_volume_same_span),
	KUNIT_CASE(test_volume_hash_verdict),
	KUNIT_CASE(test_volume_coherency_len),
	KUNIT_CASE(test_volume_coherency_set),
	KUNIT_CASE(test_volume_coherency_update),
	{}
};

static struct kunit_suite kmc_volume_suite = {
	.name = "kmc_volume",
	.init = kmc_volume_test_init,
	.test_cases = kmc_volume_cases,
};

kunit_test_suite(kmc_volume_suite);
