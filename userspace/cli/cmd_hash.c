// SPDX-License-Identifier: GPL-2.0-only
/* kmirror hash [--salt HEX] HEX... */
#include <errno.h>
#include <string.h>

#include "cli.h"
#include "kmirror/fscache.h"

static const char km_hash_usage[] =
	"usage: kmirror hash [--salt HEX] HEX...\n"
	"Print fscache_hash() of each hex key as 8 hex digits.  Keys are\n"
	"zero-padded to a multiple of 4 bytes first, as fscache does; at most\n"
	"1021 bytes each.  --salt: 1 to 8 hex digits.\n";

int km_cmd_hash(int argc, char **argv)
{
	uint8_t buf[KM_HASH_MAX + 3];	/* room for the padding */
	uint32_t salt = 0;
	long len;
	int i = 1;

	if (argc >= 2 && km_is_help(argv[1])) {
		fputs(km_hash_usage, stdout);
		return KM_EXIT_OK;
	}
	if (argc >= 3 && !strcmp(argv[1], "--salt")) {
		if (km_parse_u32_hex(argv[2], &salt))
			return km_error("malformed salt '%s' (1-8 hex digits)",
					argv[2]);
		i = 3;
	}
	if (i >= argc)
		return km_error("no key given (see --help)");
	for (; i < argc; i++) {
		memset(buf, 0, sizeof(buf));
		len = km_parse_hex(argv[i], buf, KM_HASH_MAX);
		if (len == -E2BIG)
			return km_error("key of %zu bytes is too long (at most %d)",
					strlen(argv[i]) / 2, KM_HASH_MAX);
		if (len < 0)
			return km_error("malformed hex key '%s' (pairs of hex digits)",
					argv[i]);
		printf("%08x\n", fscache_key_hash(salt, buf, (len + 3) & ~3L));
	}
	return KM_EXIT_OK;
}
