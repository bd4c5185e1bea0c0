// SPDX-License-Identifier: GPL-2.0-only
/* kmirror cookie path VOLUME_KEY HEX */
#include <string.h>

#include "cli.h"
#include "kmirror/cache.h"

static const char km_cookie_path_usage[] =
	"usage: kmirror cookie path VOLUME_KEY HEX\n"
	"Print where cachefiles keeps the data object of the cookie with the\n"
	"hex index key HEX in volume VOLUME_KEY, relative to the cache root:\n"
	"cache/I<volume>/@xx/<cooked key>, xx being the low byte of the cookie\n"
	"hash (salted with the volume key's hash).  VOLUME_KEY: 1 to 254 bytes,\n"
	"no '/'; HEX: 1 to 252 bytes whose cooked name fits a file name.\n";

static int km_cookie_path_print(const char *vkey, const uint8_t *key,
				size_t klen)
{
	char path[KMIRROR_CACHE_PATH_SIZE];

	if (kmirror_cache_object_path(vkey, key, klen, path, sizeof(path)) < 0)
		return km_error("no cachefiles path for this key");
	/* The volume key may hold any byte but '/' and NUL: show it safely. */
	km_put_str(stdout, path);
	putchar('\n');
	return KM_EXIT_OK;
}

static int km_cookie_path(int argc, char **argv)
{
	char name[KMIRROR_CACHE_COOKED_MAX + 1];
	uint8_t key[KMIRROR_CACHE_KEY_MAX];
	size_t len;
	int ret;

	if (argc >= 2 && km_is_help(argv[1])) {
		fputs(km_cookie_path_usage, stdout);
		return KM_EXIT_OK;
	}
	if (argc != 3)
		return km_error("expected VOLUME_KEY and HEX (see --help)");
	ret = km_check_volume_key(argv[1], true);
	if (!ret)
		ret = km_parse_cookie_key("", argv[2], key, &len, name,
					  sizeof(name));
	if (ret)
		return ret;
	return km_cookie_path_print(argv[1], key, len);
}

static const struct km_command km_cookie_cmds[] = {
	{ "path", "object path of a cookie in a cache", km_cookie_path },
	{ NULL, NULL, NULL },
};

int km_cmd_cookie(int argc, char **argv)
{
	return km_dispatch("cookie", km_cookie_cmds, argc, argv);
}
