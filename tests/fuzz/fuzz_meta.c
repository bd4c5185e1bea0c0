// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz kmirror-cachefs's metadata store file reader
 * (fuse-demo/cachefs/meta_file.c, kc_mdir_parse()): whatever a file in
 * DIR/kmirror-meta holds, the parse ends without a fault, and what it
 * accepts is a fixed point: written back (kc_mdir_format()) and parsed
 * again, it gives the same bytes.  The volume key is taken from the
 * input, so that the fuzzer gets past the check of it.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy = malloc(size ? size : 1);
	struct kc_mdir a = { 0 }, b = { 0 };
	char *vol = fz_vol(data, size), *out = NULL, *again = NULL;
	size_t n1 = 0, n2 = 0;

	CHECK(copy && vol, "out of memory");
	memcpy(copy, data, size);
	if (!kc_mdir_parse(&a, copy, size, vol, FZ_DEV)) {
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
	free(vol);
	free(copy);
	return 0;
}
