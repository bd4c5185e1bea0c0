// SPDX-License-Identifier: GPL-2.0-only
/* Specification of the cachefiles xattr codecs and coherency checks. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "kmt_errno.h"

#include "kmc_xattr.h"
#include "kmv_xattr.h"

struct km_word {
	const char *word;
	int value;
};

static const struct km_word km_reasons[] = {
	{ "OK", KMC_COH_OK }, { "XATTR", KMC_COH_XATTR },
	{ "TYPE", KMC_COH_TYPE }, { "AUX", KMC_COH_AUX },
	{ "OBJSIZE", KMC_COH_OBJSIZE }, { "DIRTY", KMC_COH_DIRTY },
	{ "VOL_XATTR", KMC_COH_VOL_XATTR }, { "VOL_RESV", KMC_COH_VOL_RESV },
	{ "VOL_CMP", KMC_COH_VOL_CMP }, { NULL, 0 },
};

static int word(const struct km_word *t, const char *w, int line)
{
	for (; t->word; t++)
		if (!strcmp(t->word, w))
			return t->value;
	fail_msg("xattr.vec line %d: unknown word %s", line, w);
	return 0;
}

/* An exact-size heap copy, so that valgrind sees any read past the end. */
static u8 *exact(const u8 *p, size_t len)
{
	u8 *q = malloc(len ? len : 1);

	assert_non_null(q);
	if (len)
		memcpy(q, p, len);
	return q;
}

static bool is_vol(const struct kmv_xattr *v)
{
	return !strcmp(v->kind, "vol");
}

/* Decode, and for a good value encode it back to the very same bytes. */
static void check_decode(const struct kmv_xattr *v)
{
	u8 *buf = exact(v->stored, v->stored_len), out[KMC_XATTR_MAX + 8];
	int want = kmt_errno(v->decode, "xattr.vec", v->line), ret, len;
	struct kmc_vol_xattr vx;
	struct kmc_xattr x;

	if (want == -ENODATA) {		/* no xattr: nothing to decode */
		free(buf);
		return;
	}
	if (is_vol(v))
		ret = kmc_vol_xattr_decode(buf, v->stored_len, &vx);
	else
		ret = kmc_xattr_decode(buf, v->stored_len, &x);
	if (ret != want)
		fail_msg("xattr.vec line %d: decode gave %d want %d", v->line,
			 ret, want);
	if (!ret) {
		len = is_vol(v) ? kmc_vol_xattr_encode(&vx, out, sizeof(out)) :
				  kmc_xattr_encode(&x, out, sizeof(out));
		if (len != (int)v->stored_len || memcmp(out, v->stored, len))
			fail_msg("xattr.vec line %d: re-encode differs", v->line);
	}
	free(buf);
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

static void check_coherency(const struct kmv_xattr *v)
{
	size_t hdr = is_vol(v) ? KMC_VOL_XATTR_HDR_LEN : KMC_XATTR_HDR_LEN;
	ssize_t xlen = getxattr_len(v, hdr + v->aux_len);
	u8 *buf = exact(v->stored, xlen > 0 ? (size_t)xlen : 0);
	u8 *aux = exact(v->aux, v->aux_len);
	enum kmc_coherency why = KMC_COH_NR;
	u64 size = 0;
	int ret;

	if (is_vol(v)) {
		ret = kmc_vol_xattr_check(buf, xlen, aux, v->aux_len, &why);
	} else {
		assert_int_equal(v->size_len, 8);
		size = get_unaligned_be64(v->size);
		ret = kmc_xattr_check(buf, xlen, aux, v->aux_len, size, &why);
	}
	if (ret != kmt_errno(v->ret, "xattr.vec", v->line) ||
	    (int)why != word(km_reasons, v->check, v->line))
		fail_msg("xattr.vec line %d: check gave %d/%s want %s/%s",
			 v->line, ret, kmc_coherency_str(why), v->ret,
			 v->check);
	free(buf);
	free(aux);
}

/* Every vector decodes as listed, and re-encodes to its own bytes. */
static void test_decode_vectors(void **state)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kmv_xattr); i++)
		check_decode(&kmv_xattr[i]);
	assert_true(ARRAY_SIZE(kmv_xattr) > 30);
}

/* Every vector gets the kernel's coherency reason and return value. */
static void test_check_vectors(void **state)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kmv_xattr); i++)
		check_coherency(&kmv_xattr[i]);
}

/* The encoder lays out be64 size, be64 zero point, type, content, aux. */
static void test_encode_layout(void **state)
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

	assert_int_equal(kmc_xattr_encode(&x, buf, sizeof(buf)), 20);
	assert_memory_equal(buf, want, sizeof(want));
}

/* Too small a buffer is -ENOSPC and nothing is written. */
static void test_encode_nospace(void **state)
{
	const u8 coh[3] = { 1, 2, 3 };
	struct kmc_xattr x = { .type = KMC_XATTR_TYPE_DATA };
	struct kmc_vol_xattr v = { .coherency = coh, .coherency_len = 3 };
	u8 buf[32];

	memset(buf, 0x5a, sizeof(buf));
	assert_int_equal(kmc_xattr_encode(&x, buf, 17), -ENOSPC);
	assert_int_equal(kmc_vol_xattr_encode(&v, buf, 6), -ENOSPC);
	assert_int_equal(buf[0], 0x5a);
	assert_int_equal(kmc_vol_xattr_encode(&v, buf, 7), 7);
}

/* Aux and coherency data are limited to the kernel's u8 lengths. */
static void test_encode_limits(void **state)
{
	static u8 big[KMC_AUX_MAX + 1], buf[KMC_XATTR_MAX + 8];
	struct kmc_xattr x = { .aux = big, .aux_len = KMC_AUX_MAX };
	struct kmc_vol_xattr v = { .coherency = big, .coherency_len = 255 };

	assert_int_equal(kmc_xattr_encode(&x, buf, sizeof(buf)),
			 KMC_XATTR_MAX);
	assert_int_equal(kmc_vol_xattr_encode(&v, buf, sizeof(buf)),
			 KMC_VOL_XATTR_MAX);
	x.aux_len++;
	v.coherency_len++;
	assert_int_equal(kmc_xattr_encode(&x, buf, sizeof(buf)), -EINVAL);
	assert_int_equal(kmc_vol_xattr_encode(&v, buf, sizeof(buf)), -EINVAL);
	x.aux = NULL;
	x.aux_len = 1;
	assert_int_equal(kmc_xattr_encode(&x, buf, sizeof(buf)), -EINVAL);
}

/* A failed decode leaves the output untouched. */
static void test_decode_failure_keeps_output(void **state)
{
	const u8 bad[18] = { [16] = 2 };
	struct kmc_xattr x = { .object_size = 42 };

	assert_int_equal(kmc_xattr_decode(bad, sizeof(bad), &x), -EPROTO);
	assert_int_equal(x.object_size, 42);
	assert_int_equal(kmc_xattr_decode(bad, 0, &x), -EBADMSG);
}

/* Decoded aux data points into the buffer; no aux is a NULL pointer. */
static void test_decode_aux_pointer(void **state)
{
	u8 buf[20] = { [16] = 1, [18] = 7, [19] = 8 };
	struct kmc_xattr x;

	assert_int_equal(kmc_xattr_decode(buf, 20, &x), 0);
	assert_ptr_equal(x.aux, buf + 18);
	assert_int_equal(x.aux_len, 2);
	assert_int_equal(kmc_xattr_decode(buf, 18, &x), 0);
	assert_null(x.aux);
	assert_int_equal(x.aux_len, 0);
}

/* Every decode error and coherency reason has a printable name. */
static void test_strings(void **state)
{
	static const int errs[] = { -EBADMSG, -EMSGSIZE, -EPROTO, -EDOM,
				    -ENOTEMPTY, -ENODATA };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(errs); i++)
		assert_string_not_equal(kmc_xattr_strerror(errs[i]),
					kmc_xattr_strerror(-12345));
	for (i = 0; i < KMC_COH_NR; i++)
		assert_string_not_equal(kmc_coherency_str(i), "?");
	assert_string_equal(kmc_coherency_str(KMC_COH_NR), "?");
	assert_string_equal(kmc_coherency_str(KMC_COH_AUX), "BAD aux");
	assert_string_equal(kmc_content_str(KMC_CONTENT_DIRTY), "dirty");
	assert_string_equal(kmc_content_str(KMC_CONTENT_NR), "?");
}

/* Random bytes of random length never crash a decoder or a check. */
static void test_random_values(void **state)
{
	unsigned int seed = 2061, i, len, j;
	struct kmc_vol_xattr vx;
	enum kmc_coherency why;
	struct kmc_xattr x;
	u8 *buf;

	for (i = 0; i < 2000; i++) {
		len = (unsigned int)rand_r(&seed) % (KMC_XATTR_MAX + 4);
		buf = malloc(len ? len : 1);
		assert_non_null(buf);
		for (j = 0; j < len; j++)
			buf[j] = (u8)rand_r(&seed);
		if (!kmc_xattr_decode(buf, len, &x))
			assert_int_equal(x.aux_len + KMC_XATTR_HDR_LEN, len);
		if (!kmc_vol_xattr_decode(buf, len, &vx))
			assert_int_equal(vx.coherency_len + 4, len);
		if (len >= KMC_XATTR_HDR_LEN)
			kmc_xattr_check(buf, len, buf + KMC_XATTR_HDR_LEN,
					len - KMC_XATTR_HDR_LEN, 0, &why);
		free(buf);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decode_vectors),
		cmocka_unit_test(test_check_vectors),
		cmocka_unit_test(test_encode_layout),
		cmocka_unit_test(test_encode_nospace),
		cmocka_unit_test(test_encode_limits),
		cmocka_unit_test(test_decode_failure_keeps_output),
		cmocka_unit_test(test_decode_aux_pointer),
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_random_values),
	};

	return cmocka_run_group_tests_name("xattr", tests, NULL, NULL);
}
