// SPDX-License-Identifier: GPL-2.0-only
/* kmirror volume hash KEY... */
#include <string.h>

#include "cli.h"
#include "kmirror/fscache.h"

static const char km_volume_hash_usage[] =
	"usage: kmirror volume hash KEY...\n"
	"Print the fscache hash of each volume key as 8 hex digits: fscache_hash()\n"
	"salted with 0 over the key buffer [len][key]\\0, zero-padded to 4 bytes.\n"
	"A key is taken as the netfs gives it (e.g. \"9p,tag,aname\"), 1 to\n"
	"255 bytes.\n";

static int km_volume_hash(int argc, char **argv)
{
	uint32_t hash;
	int i, ret;

	if (argc >= 2 && km_is_help(argv[1])) {
		fputs(km_volume_hash_usage, stdout);
		return KM_EXIT_OK;
	}
	if (argc < 2)
		return km_error("no volume key given (see --help)");
	for (i = 1; i < argc; i++) {
		ret = km_check_volume_key(argv[i], false);
		if (ret)
			return ret;
		if (fscache_volume_key_hash(argv[i], strlen(argv[i]),
					    &hash) < 0)
			return km_error("cannot hash volume key '%s'", argv[i]);
		printf("%08x\n", hash);
	}
	return KM_EXIT_OK;
}

static const struct km_command km_volume_cmds[] = {
	{ "hash", "fscache hash of volume keys", km_volume_hash },
	{ NULL, NULL, NULL },
};

int km_cmd_volume(int argc, char **argv)
{
	return km_dispatch("volume", km_volume_cmds, argc, argv);
}
