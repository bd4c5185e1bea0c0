// SPDX-License-Identifier: GPL-2.0-only
/* kmirror key cook [HEX...] | kmirror key uncook NAME... */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "cli.h"
#include "kmc_key.h"

static int km_cook_one(const char *hex)
{
	uint8_t key[KMC_KEY_MAX + 1];
	char name[KMC_COOKED_MAX + 1];
	long len;
	int ret;

	len = km_parse_hex(hex, key, sizeof(key));
	if (len < 0)
		return km_error("malformed hex key '%s' (pairs of hex digits, at most %d bytes)",
				hex, KMC_KEY_MAX);
	ret = kmc_cook_key(key, (unsigned int)len, name, sizeof(name));
	if (ret < 0)
		return km_error("key of %ld bytes is too long (cachefiles takes at most %d)",
				len, KMC_KEY_MAX);
	/* cachefiles could not make the file: lookup_one_len() refuses it. */
	if (strlen(name) > NAME_MAX)
		return km_error("key of %ld bytes cooks to a name of %zu bytes, longer than a file name may be (%d): cachefiles cannot store it",
				len, strlen(name), NAME_MAX);
	puts(name);
	return KM_EXIT_OK;
}

/* One hex key per line of stdin, each at most KM_LINE_MAX - 1 bytes. */
static int km_cook_stdin(void)
{
	char line[KM_LINE_MAX];
	unsigned long n = 0;
	size_t len;
	int ret;

	while ((ret = km_read_line(stdin, line, sizeof(line), &len)) > 0) {
		n++;
		ret = km_cook_one(line);
		if (ret)
			return ret;
	}
	if (ret == -E2BIG)
		return km_error("line %lu: longer than %d bytes", n + 1,
				KM_LINE_MAX - 1);
	if (ret == -EILSEQ)
		return km_error("line %lu: a NUL byte in the key", n + 1);
	if (ret < 0)
		return km_error("reading stdin: %s", strerror(-ret));
	return KM_EXIT_OK;
}

static int km_key_cook(int argc, char **argv)
{
	int i, ret;

	if (argc >= 2 && km_is_help(argv[1])) {
		puts("usage: kmirror key cook [HEX...]\n"
		     "Print the cachefiles object name of each hex key; with no\n"
		     "argument, read one hex key per line from stdin.");
		return KM_EXIT_OK;
	}
	if (argc < 2)
		return km_cook_stdin();
	for (i = 1; i < argc; i++) {
		ret = km_cook_one(argv[i]);
		if (ret)
			return ret;
	}
	return KM_EXIT_OK;
}

static int km_key_uncook(int argc, char **argv)
{
	uint8_t key[KMC_UNCOOKED_MAX];
	int i, len;

	if (argc >= 2 && km_is_help(argv[1])) {
		puts("usage: kmirror key uncook NAME...\n"
		     "Print the key of each cachefiles object name as hex.  S and T\n"
		     "names give whole 32-bit words.");
		return KM_EXIT_OK;
	}
	if (argc < 2)
		return km_error("no name given (see --help)");
	for (i = 1; i < argc; i++) {
		len = kmc_uncook_key(argv[i], strlen(argv[i]), key,
				     sizeof(key));
		if (len < 0)
			return km_error("'%s' is not a cachefiles object name",
					argv[i]);
		km_print_hex(stdout, key, (size_t)len);
		putchar('\n');
	}
	return KM_EXIT_OK;
}

static const struct km_command km_key_cmds[] = {
	{ "cook", "hex key -> object file name", km_key_cook },
	{ "uncook", "object file name -> hex key", km_key_uncook },
	{ NULL, NULL, NULL },
};

int km_cmd_key(int argc, char **argv)
{
	return km_dispatch("key", km_key_cmds, argc, argv);
}
