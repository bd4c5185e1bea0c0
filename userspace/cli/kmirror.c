// SPDX-License-Identifier: GPL-2.0-only
/* kmirror: inspect and drive the fscache/cachefiles core from the shell. */
#include <string.h>

#include "cli.h"

static const struct km_command km_top[] = {
	{ "hash", "fscache hash of hex keys", km_cmd_hash },
	{ "key", "cook and uncook cachefiles object names", km_cmd_key },
	{ "volume", "volume key hashes", km_cmd_volume },
	{ "cookie", "where a cookie's object lives in a cache", km_cmd_cookie },
	{ "cache", "list the objects of a cachefiles cache", km_cmd_cache },
	{ "ptc", "replay page-table traces through the page-table check", km_cmd_ptc },
	{ "ceph", "parse CephFS mount sources", km_cmd_ceph },
	{ NULL, NULL, NULL },
};

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "--version")) {
		puts("kmirror " KMIRROR_VERSION);
		return KM_EXIT_OK;
	}
	return km_dispatch("", km_top, argc, argv);
}
