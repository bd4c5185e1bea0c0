// SPDX-License-Identifier: GPL-2.0-only
/* kmirror key cook [HEX...] | kmirror key uncook NAME... */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "cli.h"
#include "kmirror/cache.h"

/* Print the cooked name of @hex; @where prefixes an error ("line 3: "). */
static int km_cook_one(const char *where, const char *hex)
{
	uint8_t key[KMIRROR_CACHE_KEY_MAX];
	char name[KMIRROR_CACHE_COOKED_MAX + 1];
	size_t len;
	int ret;

	ret = km_parse_cookie_key(where, hex, key, &len, name, sizeof(name));
	if (ret)
		return ret;
	/* A D name may hold DEL (cachefiles' charmap lets 0x7f through). */
	km_put_str(stdout, name);
	putchar('\n');
	return KM_EXIT_OK;
}

/* One hex key per line of stdin, each at most KM_LINE_MAX - 1 bytes. */
static int km_cook_stdin(void)
{
	char line[KM_LINE_MAX], where[32];
	unsigned long n = 0;
	size_t len;
	int ret;

	while ((ret = km_read_line(stdin, line, sizeof(line), &len)) > 0) {
		snprintf(where, sizeof(where), "line %lu: ", ++n);
		ret = km_cook_one(where, line);
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
		     "argument, read one hex key per line from stdin (at most\n"
		     "1023 bytes a line, no NUL byte).  A key is 1 to 252 bytes\n"
		     "whose name fits a file name (255 bytes), or an error.");
		return KM_EXIT_OK;
	}
	if (argc < 2)
		return km_cook_stdin();
	for (i = 1; i < argc; i++) {
		ret = km_cook_one("", argv[i]);
		if (ret)
			return ret;
	}
	return KM_EXIT_OK;
}

static int km_key_uncook(int argc, char **argv)
{
	uint8_t key[KMIRROR_CACHE_UNCOOKED_MAX];
	int i, len;

	if (argc >= 2 && km_is_help(argv[1])) {
		puts("usage: kmirror key uncook NAME...\n"
		     "Print the key of each cachefiles object name as hex.  S and T\n"
		     "names give whole 32-bit words.  A name the kernel would not\n"
		     "make (more than 255 bytes, ...) is an error.");
		return KM_EXIT_OK;
	}
	if (argc < 2)
		return km_error("no name given (see --help)");
	for (i = 1; i < argc; i++) {
		if (strlen(argv[i]) > NAME_MAX)
			return km_error("a name of %zu bytes is no cachefiles object name (a file name has at most %d)",
					strlen(argv[i]), NAME_MAX);
		len = kmirror_cache_uncook_key(argv[i], strlen(argv[i]), key,
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
