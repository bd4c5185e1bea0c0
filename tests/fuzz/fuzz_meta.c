// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz kmirror-cachefs's metadata store file reader
 * (fuse-demo/cachefs/meta_file.c, kc_mdir_parse()): whatever a file in
 * DIR/kmirror-meta holds, the parse ends without a fault, and what it
 * accepts is a fixed point: written back (kc_mdir_format()) and parsed
 * again, it gives the same bytes.  The volume key is taken from the
 * input, so that the fuzzer gets past the check of it, and each input
 * is parsed twice, the second time with its CRC32C made right, so that
 * a mutation reaches the fields the CRC guards (the directory's
 * identity, the names).
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "crc32c.h"
#include "fuzz_common.h"
#include "meta.h"

#define FZ_DEV	42	/* the source's device */

/* The volume key the input names (bytes 15..), or "v". */
static char *fz_vol(const uint8_t *data, size_t size)
{
	size_t len;

	if (size < 17)
		return strdup("v");
	len = data[15] | (size_t)data[16] << 8;
	if (17 + len > size || memchr(data + 17, 0, len))
		return strdup("v");
	return strndup((const char *)data + 17, len);
}

/*
 * Parse @size bytes at @buf; what is accepted must name its directory
 * (struct kc_mid) and come back the same from a round trip.
 */
static void fz_parse(uint8_t *buf, size_t size, const char *vol)
{
	struct kc_mdir a = { 0 }, b = { 0 };
	char *out = NULL, *again = NULL;
	size_t n1 = 0, n2 = 0;
	int ret = kc_mdir_parse(&a, buf, size, vol, FZ_DEV);

	CHECK(!ret || ret == -EBADMSG || ret == -EPROTO, "parse gave %d", ret);
	CHECK(!ret || (!a.n && !a.id.name), "a refused file left names");
	if (!ret) {
		CHECK(a.id.name, "an accepted file names no directory");
		out = kc_mdir_format(&a, vol, FZ_DEV, &n1);
		CHECK(out, "format failed");
		CHECK(!kc_mdir_parse(&b, (uint8_t *)out, n1, vol, FZ_DEV),
		      "a written file does not parse");
		again = kc_mdir_format(&b, vol, FZ_DEV, &n2);
		CHECK(again && n1 == n2 && !memcmp(out, again, n1),
		      "a file changes across a round trip");
	}
	kc_mdir_clear(&a);
	kc_mdir_clear(&b);
	free(out);
	free(again);
}

/* The input as it is, then with its CRC made right: past the check. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy = malloc(size ? size : 1);
	char *vol = fz_vol(data, size);
	uint32_t crc;

	CHECK(copy && vol, "out of memory");
	memcpy(copy, data, size);
	fz_parse(copy, size, vol);
	if (size >= 4) {
		crc = kc_crc32c(0, copy, size - 4);
		copy[size - 4] = crc;
		copy[size - 3] = crc >> 8;
		copy[size - 2] = crc >> 16;
		copy[size - 1] = crc >> 24;
		fz_parse(copy, size, vol);
	}
	free(vol);
	free(copy);
	return 0;
}
