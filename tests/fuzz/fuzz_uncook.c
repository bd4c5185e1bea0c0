// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: kmc_uncook_key() on any bytes, and kmc_cook_key() on any key.
 * Invariants:
 *   - uncooking never reads past the name nor writes past the key buffer
 *     (exact-size heap copies of both);
 *   - an accepted name cooks back to exactly itself, and uncooks into a
 *     buffer of exactly the returned size, but not one byte less;
 *   - any key of at most KMC_KEY_MAX bytes cooks, and its name uncooks to
 *     the key (S/T names: padded with zeros to whole 32-bit words).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kmc_key.h"
#include "fuzz_common.h"

static void check_name(const uint8_t *data, size_t size)
{
	char *name = fz_dup(data, size);
	uint8_t *key = malloc(KMC_UNCOOKED_MAX);
	char cooked[KMC_COOKED_MAX + 1];
	uint8_t *exact;
	int len, again;

	len = kmc_uncook_key(name, size, key, KMC_UNCOOKED_MAX);
	CHECK(len == -EINVAL || (len >= 0 && len <= KMC_UNCOOKED_MAX),
	      "uncook returned %d", len);
	if (len >= 0) {
		again = kmc_cook_key(key, len, cooked, sizeof(cooked));
		CHECK(again == (int)size && !memcmp(cooked, name, size),
		      "'%.*s' uncooked then cooked to '%s'", (int)size, name,
		      again > 0 ? cooked : "(error)");
		exact = malloc(len ? len : 1);
		CHECK(kmc_uncook_key(name, size, exact, len) == len &&
		      !memcmp(exact, key, len), "exact-size uncook differs");
		if (len)
			CHECK(kmc_uncook_key(name, size, exact, len - 1) ==
			      -EINVAL, "uncook into a short buffer accepted");
		free(exact);
	}
	free(key);
	free(name);
}

static void check_key(const uint8_t *data, size_t size)
{
	uint8_t *key = fz_dup(data, size);
	uint8_t *back = malloc(KMC_UNCOOKED_MAX);
	char *name = malloc(KMC_COOKED_MAX + 1);
	int len, n;
	size_t i;

	len = kmc_cook_key(key, size, name, KMC_COOKED_MAX + 1);
	if (size > KMC_KEY_MAX) {
		CHECK(len == -ENAMETOOLONG, "long key cooked: %d", len);
		goto out;
	}
	CHECK(len > 0 && len <= KMC_COOKED_MAX && name[len] == '\0',
	      "cook returned %d", len);
	n = kmc_uncook_key(name, len, back, KMC_UNCOOKED_MAX);
	CHECK(n >= (int)size && !memcmp(back, key, size),
	      "'%s' did not uncook to its key (%d)", name, n);
	CHECK(n == (int)size || (name[0] != 'D' && name[0] != 'E' &&
				 n == (int)((size + 3) & ~3UL)),
	      "'%s' uncooked to %d bytes for a %zu-byte key", name, n, size);
	for (i = size; i < (size_t)n; i++)
		CHECK(back[i] == 0, "padding byte %zu of '%s' not zero", i,
		      name);
out:
	free(name);
	free(back);
	free(key);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check_name(data, size);
	check_key(data, size);
	return 0;
}
