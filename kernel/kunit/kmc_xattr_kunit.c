// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cachefiles xattr codecs and coherency checks (kmc_xattr.h), against
 * xattr.vec: a KUnit suite in the kernel, and run by cmocka in userspace
 * (tests/kernel-shim).
 */
#include <kunit/test.h>
#include <linux/prandom.h>

#include "kmc_kunit.h"
#include "kmc_xattr.h"
#include "kmv_tables.h"

static const struct kmv_xattr *kmv_xattr;
static unsigned int kmv_xattr_n;

/* Each case starts with the rows of xattr.vec. */
static int kmc_xattr_test_init(struct kunit *test)
{
	kmv_xattr = kmv_load(test, &kmv_xattr_table, &kmv_xattr_n);
	return kmv_xattr ? 0 : -EINVAL;
}

/* The check column: a cachefiles_coherency_trace "check" value. */
static int reason(struct kunit *test, const char *w, int line)
{
	static const struct {
		const char *word;
		enum kmc_coherency why;
	} reasons[] = {
		{ "OK", KMC_COH_OK }, { "XATTR", KMC_COH_XATTR },
		{ "TYPE", KMC_COH_TYPE }, { "AUX", KMC_COH_AUX },
		{ "OBJSIZE", KMC_COH_OBJSIZE }, { "DIRTY", KMC_COH_DIRTY },
		{ "VOL_XATTR", KMC_COH_VOL_XATTR },
		{ "VOL_RESV", KMC_COH_VOL_RESV },
		{ "VOL_CMP", KMC_COH_VOL_CMP },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(reasons); i++)
		if (!strcmp(reasons[i].word, w))
			return reasons[i].why;
	KUNIT_FAIL(test, "xattr.vec line %d: unknown word %s", line, w);
	return -1;
}

static bool is_vol(const struct kmv_xattr *v)
{
	return !strcmp(v->kind, "vol");
}

/* Decode, and for a good value encode it back to the very same bytes. */
static void check_decode(struct kunit *test, const struct kmv_xattr *v)
{
	int want = kmk_errno(test, v->decode, "xattr.vec", v->line), ret, len;
	u8 *buf, out[KMC_XATTR_MAX + 8];
	struct kmc_vol_xattr vx;
	struct kmc_xattr x;

	if (want == -ENODATA)		/* no xattr: nothing to decode */
		return;
	buf = kmk_exact(test, v->stored, v->stored_len);
	if (is_vol(v))
		ret = kmc_vol_xattr_decode(buf, v->stored_len, &vx);
	else
		ret = kmc_xattr_decode(buf, v->stored_len, &x);
	KUNIT_EXPECT_EQ_MSG(test, ret, want, "xattr.vec line %d: decode",
			    v->line);
	if (!ret) {
		len = is_vol(v) ? kmc_vol_xattr_encode(&vx, out, sizeof(out)) :
				  kmc_xattr_encode(&x, out, sizeof(out));
		KUNIT_EXPECT_EQ_MSG(test, len, (int)v->stored_len,
				    "xattr.vec line %d: re-encode", v->line);
		if (len == (int)v->stored_len)
			KUNIT_EXPECT_EQ_MSG(test, memcmp(out, v->stored, len),
					    0, "xattr.vec line %d: re-encode",
					    v->line);
	}
	kunit_kfree(test, buf);
}

/*
 * What vfs_getxattr() gives cachefiles, which asks for exactly @tlen bytes:
 * the value, -ERANGE if it is longer, -ENODATA if there is none.
 */
static ssize_t getxattr_len(const struct kmv_xattr *v, size_t tlen)
{
	if (!strcmp(v->decode, "ENODATA"))
		return -ENODATA;
	if (v->stored_len > tlen)
		return -ERANGE;
	return (ssize_t)v->stored_len;
}

/* The kernel's verdict and reason for the value and the cookie's data. */
static void check_coherency(struct kunit *test, const struct kmv_xattr *v)
{
	size_t hdr = is_vol(v) ? KMC_VOL_XATTR_HDR_LEN : KMC_XATTR_HDR_LEN;
	ssize_t xlen = getxattr_len(v, hdr + v->aux_len);
	u8 *buf = kmk_exact(test, v->stored, xlen > 0 ? (size_t)xlen : 0);
	u8 *aux = kmk_exact(test, v->aux, v->aux_len);
	enum kmc_coherency why = KMC_COH_NR;
	int ret;

	if (is_vol(v)) {
		ret = kmc_vol_xattr_check(buf, xlen, aux, v->aux_len, &why);
	} else {
		KUNIT_ASSERT_EQ_MSG(test, v->size_len, 8,
				    "xattr.vec line %d: size", v->line);
		ret = kmc_xattr_check(buf, xlen, aux, v->aux_len,
				      get_unaligned_be64(v->size), &why);
	}
	KUNIT_EXPECT_EQ_MSG(test, ret,
			    kmk_errno(test, v->ret, "xattr.vec", v->line),
			    "xattr.vec line %d: check", v->line);
	KUNIT_EXPECT_EQ_MSG(test, (int)why, reason(test, v->check, v->line),
			    "xattr.vec line %d: reason %s, want %s", v->line,
			    kmc_coherency_str(why), v->check);
	kunit_kfree(test, buf);
	kunit_kfree(test, aux);
}

/* Every vector decodes as listed, and re-encodes to its own bytes. */
static void test_decode_vectors(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < kmv_xattr_n; i++)
		check_decode(test, &kmv_xattr[i]);
	KUNIT_EXPECT_GT(test, kmv_xattr_n, 30);
}

/* Every vector gets the kernel's coherency reason and return value. */
static void test_check_vectors(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < kmv_xattr_n; i++)
		check_coherency(test, &kmv_xattr[i]);
}

/* The encoder lays out be64 size, be64 zero point, type, content, aux. */
static void test_encode_layout(struct kunit *test)
{
	static const u8 want[] = {
		0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00,
		0x01, 0x03, 0xde, 0xad,
	};
	const u8 aux[] = { 0xde, 0xad };
	struct kmc_xattr x = {
		.object_size = 0x0102030405060708ULL, .zero_point = 0x1000,
		.type = KMC_XATTR_TYPE_DATA, .content = KMC_CONTENT_BACKFS_MAP,
		.aux = aux, .aux_len = 2,
	};
	u8 buf[sizeof(want)];

	KUNIT_ASSERT_EQ(test, kmc_xattr_encode(&x, buf, sizeof(buf)), 20);
	KUNIT_EXPECT_EQ(test, memcmp(buf, want, sizeof(want)), 0);
}

/* Too small a buffer is -ENOSPC and nothing is written. */
static void test_encode_nospace(struct kunit *test)
{
	const u8 coh[3] = { 1, 2, 3 };
	struct kmc_xattr x = { .type = KMC_XATTR_TYPE_DATA };
	struct kmc_vol_xattr v = { .coherency = coh, .coherency_len = 3 };
	u8 buf[32];

	memset(buf, 0x5a, sizeof(buf));
	KUNIT_EXPECT_EQ(test, kmc_xattr_encode(&x, buf, 17), -ENOSPC);
	KUNIT_EXPECT_EQ(test, kmc_vol_xattr_encode(&v, buf, 6), -ENOSPC);
	KUNIT_EXPECT_EQ(test, buf[0], 0x5a);
	KUNIT_EXPECT_EQ(test, kmc_vol_xattr_encode(&v, buf, 7), 7);
}

/* Aux and coherency data are limited to the kernel's u8 lengths. */
static void test_encode_limits(struct kunit *test)
{
	static u8 big[KMC_AUX_MAX + 1], buf[KMC_XATTR_MAX + 8];
	struct kmc_xattr x = { .aux = big, .aux_len = KMC_AUX_MAX };
	struct kmc_vol_xattr v = { .coherency = big, .coherency_len = 255 };

	KUNIT_EXPECT_EQ(test, kmc_xattr_encode(&x, buf, sizeof(buf)),
			KMC_XATTR_MAX);
	KUNIT_EXPECT_EQ(test, kmc_vol_xattr_encode(&v, buf, sizeof(buf)),
			KMC_VOL_XATTR_MAX);
	x.aux_len++;
	v.coherency_len++;
	KUNIT_EXPECT_EQ(test, kmc_xattr_encode(&x, buf, sizeof(buf)), -EINVAL);
	KUNIT_EXPECT_EQ(test, kmc_vol_xattr_encode(&v, buf, sizeof(buf)),
			-EINVAL);
	x.aux = NULL;
	x.aux_len = 1;
	KUNIT_EXPECT_EQ(test, kmc_xattr_encode(&x, buf, sizeof(buf)), -EINVAL);
}

/* A failed decode leaves the output untouched. */
static void test_decode_failure_keeps_output(struct kunit *test)
{
	const u8 bad[18] = { [16] = 2 };
	struct kmc_xattr x = { .object_size = 42 };

	KUNIT_EXPECT_EQ(test, kmc_xattr_decode(bad, sizeof(bad), &x), -EPROTO);
	KUNIT_EXPECT_EQ(test, x.object_size, 42);
	KUNIT_EXPECT_EQ(test, kmc_xattr_decode(bad, 0, &x), -EBADMSG);
}

/* Decoded aux data points into the buffer; no aux is a NULL pointer. */
static void test_decode_aux_pointer(struct kunit *test)
{
	u8 buf[20] = { [16] = 1, [18] = 7, [19] = 8 };
	struct kmc_xattr x;

	KUNIT_ASSERT_EQ(test, kmc_xattr_decode(buf, 20, &x), 0);
	KUNIT_EXPECT_PTR_EQ(test, x.aux, (const u8 *)buf + 18);
	KUNIT_EXPECT_EQ(test, x.aux_len, 2);
	KUNIT_ASSERT_EQ(test, kmc_xattr_decode(buf, 18, &x), 0);
	KUNIT_EXPECT_NULL(test, x.aux);
	KUNIT_EXPECT_EQ(test, x.aux_len, 0);
}

/* Every decode error and coherency reason has a printable name. */
static void test_strings(struct kunit *test)
{
	static const int errs[] = { -EBADMSG, -EMSGSIZE, -EPROTO, -EDOM,
				    -ENOTEMPTY, -ENODATA };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(errs); i++)
		KUNIT_EXPECT_STRNEQ_MSG(test, kmc_xattr_strerror(errs[i]),
					kmc_xattr_strerror(-12345),
					"error %d", errs[i]);
	for (i = 0; i < KMC_COH_NR; i++)
		KUNIT_EXPECT_STRNEQ_MSG(test, kmc_coherency_str(i), "?",
					"reason %u", i);
	KUNIT_EXPECT_STREQ(test, kmc_coherency_str(KMC_COH_NR), "?");
	KUNIT_EXPECT_STREQ(test, kmc_coherency_str(KMC_COH_AUX), "BAD aux");
	KUNIT_EXPECT_STREQ(test, kmc_content_str(KMC_CONTENT_DIRTY), "dirty");
	KUNIT_EXPECT_STREQ(test, kmc_content_str(KMC_CONTENT_NR), "?");
}

/* Random bytes of random length never crash a decoder or a check. */
static void test_random_values(struct kunit *test)
{
	unsigned int i, len, j;
	struct kmc_vol_xattr vx;
	enum kmc_coherency why;
	struct rnd_state rnd;
	struct kmc_xattr x;
	u8 *buf;

	prandom_seed_state(&rnd, 2061);
	for (i = 0; i < 2000; i++) {
		len = prandom_u32_state(&rnd) % (KMC_XATTR_MAX + 4);
		buf = kunit_kmalloc(test, len ? len : 1, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, buf);
		for (j = 0; j < len; j++)
			buf[j] = (u8)prandom_u32_state(&rnd);
		if (!kmc_xattr_decode(buf, len, &x))
			KUNIT_EXPECT_EQ(test, x.aux_len + KMC_XATTR_HDR_LEN,
					len);
		if (!kmc_vol_xattr_decode(buf, len, &vx))
			KUNIT_EXPECT_EQ(test, vx.coherency_len + 4, len);
		if (len >= KMC_XATTR_HDR_LEN)
			kmc_xattr_check(buf, len, buf + KMC_XATTR_HDR_LEN,
					len - KMC_XATTR_HDR_LEN, 0, &why);
		kunit_kfree(test, buf);
	}
}

static struct kunit_case kmc_xattr_cases[] = {
	KUNIT_CASE(test_decode_vectors),
	KUNIT_CASE(test_check_vectors),
	KUNIT_CASE(test_encode_layout),
	KUNIT_CASE(test_encode_nospace),
	KUNIT_CASE(test_encode_limits),
	KUNIT_CASE(test_decode_failure_keeps_output),
	KUNIT_CASE(test_decode_aux_pointer),
	KUNIT_CASE(test_strings),
	KUNIT_CASE(test_random_values),
	{}
};

static struct kunit_suite kmc_xattr_suite = {
	.name = "kmc_xattr",
	.init = kmc_xattr_test_init,
	.test_cases = kmc_xattr_cases,
};

kunit_test_suite(kmc_xattr_suite);
