// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: the object and volume xattr decoders and coherency checks
 * (kmc_xattr.h) on any bytes, each from an exact-size heap copy.
 * Invariants:
 *   - the decoders' verdict is the documented one, computed here again
 *     from the length and the header bytes;
 *   - a decoded value re-encodes to exactly the input;
 *   - an object checked against its own aux data and size is accepted
 *     unless it is DIRTY; a volume against its own coherency data always;
 *   - the checks against other aux data (a prefix of the input) answer
 *     0 exactly when their reason is OK, and never read past xlen.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kmc_xattr.h"
#include "fuzz_common.h"

static int object_verdict(const uint8_t *b, size_t len)
{
	if (len < KMC_XATTR_HDR_LEN)
		return -EBADMSG;
	if (len > KMC_XATTR_MAX)
		return -EMSGSIZE;
	if (b[16] != KMC_XATTR_TYPE_DATA)
		return -EPROTO;
	if (b[17] >= KMC_CONTENT_NR)
		return -EDOM;
	return 0;
}

static void check_object(const uint8_t *data, size_t size)
{
	uint8_t *buf = fz_dup(data, size), *out = malloc(size ? size : 1);
	struct kmc_xattr x;
	enum kmc_coherency why;
	int ret;

	ret = kmc_xattr_decode(buf, size, &x);
	CHECK(ret == object_verdict(buf, size), "decode %d", ret);
	if (!ret) {
		CHECK(x.aux_len == size - KMC_XATTR_HDR_LEN &&
		      (!x.aux_len || x.aux == buf + KMC_XATTR_HDR_LEN),
		      "aux %u at %p", x.aux_len, (const void *)x.aux);
		CHECK(kmc_xattr_encode(&x, out, size) == (int)size &&
		      !memcmp(out, buf, size), "re-encode differs");
		CHECK(kmc_xattr_encode(&x, out, size - 1) == -ENOSPC,
		      "encode into a short buffer");
		ret = kmc_xattr_check(buf, size, x.aux, x.aux_len,
				      x.object_size, &why);
		CHECK(x.content == KMC_CONTENT_DIRTY ?
		      ret == -ESTALE && why == KMC_COH_DIRTY :
		      ret == 0 && why == KMC_COH_OK,
		      "own check %d (%s)", ret, kmc_coherency_str(why));
	}
	free(out);
	free(buf);
}

static void check_volume(const uint8_t *data, size_t size)
{
	uint8_t *buf = fz_dup(data, size), *out = malloc(size ? size : 1);
	struct kmc_vol_xattr v;
	enum kmc_coherency why;
	int ret, want;

	want = size < KMC_VOL_XATTR_HDR_LEN ? -EBADMSG :
	       size > KMC_VOL_XATTR_MAX ? -EMSGSIZE :
	       (buf[0] | buf[1] | buf[2] | buf[3]) ? -ENOTEMPTY : 0;
	ret = kmc_vol_xattr_decode(buf, size, &v);
	CHECK(ret == want, "vol decode %d, want %d", ret, want);
	if (!ret) {
		CHECK(kmc_vol_xattr_encode(&v, out, size) == (int)size &&
		      !memcmp(out, buf, size), "vol re-encode differs");
		ret = kmc_vol_xattr_check(buf, size, v.coherency,
					  v.coherency_len, &why);
		CHECK(ret == 0 && why == KMC_COH_OK, "vol own check %d", ret);
	}
	free(out);
	free(buf);
}

/* Check the whole input against aux/coherency taken from its first bytes. */
static void check_foreign(const uint8_t *data, size_t size)
{
	size_t alen = size ? data[0] % (size + 1) : 0;
	uint8_t *aux = fz_dup(data, alen), *buf = fz_dup(data, size);
	enum kmc_coherency why;
	uint64_t osize = size >= 8 ? data[size - 1] : 0;
	int ret;

	ret = kmc_xattr_check(buf, size, aux, alen, osize, &why);
	CHECK((ret == 0) == (why == KMC_COH_OK) &&
	      (ret == 0 || ret == -ESTALE), "check %d why %d", ret, why);
	ret = kmc_xattr_check(buf, -ENODATA, aux, alen, osize, &why);
	CHECK(ret == -ENODATA && why == KMC_COH_XATTR, "no xattr: %d", ret);
	ret = kmc_vol_xattr_check(buf, size, aux, alen, &why);
	CHECK((ret == 0) == (why == KMC_COH_OK) &&
	      (ret == 0 || ret == -ESTALE), "vol check %d why %d", ret, why);
	free(buf);
	free(aux);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check_object(data, size);
	check_volume(data, size);
	check_foreign(data, size);
	return 0;
}
