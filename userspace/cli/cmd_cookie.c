// SPDX-License-Identifier: GPL-2.0-only
/* kmirror cookie path VOLUME_KEY HEX */
#include <string.h>

#include "cli.h"
#include "kmc_cookie.h"
#include "kmc_key.h"
#include "kmc_layout.h"
#include "kmc_volume.h"

static const char km_cookie_path_usage[] =
	"usage: kmirror cookie path VOLUME_KEY HEX\n"
	"Print where cachefiles keeps the data object of the cookie with the\n"
	"hex index key HEX in volume VOLUME_KEY, relative to the cache root:\n"
	"cache/I<volume>/@xx/<cooked key>, xx being the low byte of the cookie\n"
	"hash (salted with the volume hash).\n";

/* Why the volume key cannot name a cachefiles directory. */
static int km_volume_key_error(const char *vkey, int err)
{
	if (err == -ENAMETOOLONG)
		return km_error("volume key of %zu bytes is too long for a cachefiles directory (at most %d)",
				strlen(vkey), KMC_VOLUME_KEY_DIR_MAX);
	return km_error("volume key '%s' contains '/': cachefiles cannot name its directory",
			vkey);
}

static int km_cookie_path_print(const char *vkey, const uint8_t *key,
				size_t klen)
{
	char path[KMC_OBJECT_PATH_SIZE];
	uint32_t vhash, khash;
	int ret;

	ret = kmc_volume_key_check_cachefiles(vkey, strlen(vkey));
	if (ret < 0)
		return km_volume_key_error(vkey, ret);
	if (kmc_volume_hash(vkey, strlen(vkey), &vhash) < 0 ||
	    kmc_cookie_hash(vhash, key, klen, &khash) < 0)
		return km_error("cannot hash the cookie key");
	ret = kmc_object_path(vkey, strlen(vkey), khash, key,
			      (unsigned int)klen, path, sizeof(path));
	if (ret < 0)
		return km_error("key of %zu bytes has no cachefiles name (its cooked name would exceed %d bytes)",
				klen, NAME_MAX);
	puts(path);
	return KM_EXIT_OK;
}

static int km_cookie_path(int argc, char **argv)
{
	uint8_t key[1024];
	long len;

	if (argc >= 2 && km_is_help(argv[1])) {
		fputs(km_cookie_path_usage, stdout);
		return KM_EXIT_OK;
	}
	if (argc != 3)
		return km_error("expected VOLUME_KEY and HEX (see --help)");
	if (!*argv[1])
		return km_error("empty volume key (a netfs names its volume)");
	len = km_parse_hex(argv[2], key, sizeof(key));
	if (len < 0)
		return km_error("malformed hex key '%s'", argv[2]);
	if (len == 0)
		return km_error("empty cookie key (fscache refuses it)");
	if (len > KMC_KEY_MAX)
		return km_error("key of %ld bytes is too long (cachefiles takes at most %d)",
				len, KMC_KEY_MAX);
	return km_cookie_path_print(argv[1], key, (size_t)len);
}

static const struct km_command km_cookie_cmds[] = {
	{ "path", "object path of a cookie in a cache", km_cookie_path },
	{ NULL, NULL, NULL },
};

int km_cmd_cookie(int argc, char **argv)
{
	return km_dispatch("cookie", km_cookie_cmds, argc, argv);
}
