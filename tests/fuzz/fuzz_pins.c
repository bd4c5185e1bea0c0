// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz kmirror-cachefs's pins file reader (fuse-demo/cachefs/pins.c,
 * kc_pins_parse()): whatever DIR/kmirror-pins holds, the parse ends
 * without a fault, and what it accepts is a fixed point: written back
 * (kc_pins_format()) and parsed again, it gives the same bytes.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_cachefs.h"
#include "fuzz_common.h"
#include "index.h"

/* ---- what pins.c needs from the rest of the daemon ------------------ */

struct kc_obj *kc_obj_find_locked(struct kc_index *x, unsigned int vol,
				  const uint8_t *key, size_t len)
{
	return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy = malloc(size ? size : 1);
	struct kc_pins *a = kc_pins_new(), *b = kc_pins_new();
	char *out = NULL, *again = NULL;
	size_t n1 = 0, n2 = 0;

	CHECK(copy && a && b, "out of memory");
	memcpy(copy, data, size);
	if (!kc_pins_parse(a, copy, size)) {
		out = kc_pins_format(a, &n1);
		CHECK(out, "format failed");
		CHECK(!kc_pins_parse(b, (uint8_t *)out, n1),
		      "written pins do not parse");
		again = kc_pins_format(b, &n2);
		CHECK(again && n1 == n2 && !memcmp(out, again, n1),
		      "pins change across a round trip");
	}
	free(out);
	free(again);
	kc_pins_destroy(a);
	kc_pins_destroy(b);
	free(copy);
	return 0;
}
