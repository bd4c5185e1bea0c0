// SPDX-License-Identifier: GPL-2.0-only
/* Argument helpers shared by the kmirror subcommands. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int km_error(const char *fmt, ...)
{
	va_list ap;

	fputs("error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return KM_EXIT_USAGE;
}

int km_is_help(const char *arg)
{
	return !strcmp(arg, "-h") || !strcmp(arg, "--help");
}

static int km_hex_nibble(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

long km_parse_hex(const char *hex, uint8_t *buf, size_t size)
{
	size_t len = strlen(hex), i;
	int hi, lo;

	if (len % 2 || len / 2 > size)
		return -1;
	for (i = 0; i < len; i += 2) {
		hi = km_hex_nibble(hex[i]);
		lo = km_hex_nibble(hex[i + 1]);
		if (hi < 0 || lo < 0)
			return -1;
		buf[i / 2] = (uint8_t)(hi << 4 | lo);
	}
	return (long)(len / 2);
}

void km_print_hex(FILE *f, const uint8_t *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		fprintf(f, "%02x", buf[i]);
}

int km_parse_u32_hex(const char *s, uint32_t *out)
{
	uint32_t v = 0;
	size_t n;
	int d;

	if (!strncmp(s, "0x", 2) || !strncmp(s, "0X", 2))
		s += 2;
	n = strlen(s);
	if (n < 1 || n > 8)
		return -1;
	for (; *s; s++) {
		d = km_hex_nibble(*s);
		if (d < 0)
			return -1;
		v = v << 4 | (uint32_t)d;
	}
	*out = v;
	return 0;
}

static void km_usage(FILE *f, const char *group,
		     const struct km_command *cmds)
{
	fprintf(f, "usage: kmirror %s%sCOMMAND [ARGS...]\n\ncommands:\n",
		group, *group ? " " : "");
	for (; cmds->name; cmds++)
		fprintf(f, "  %-10s %s\n", cmds->name, cmds->summary);
}

int km_dispatch(const char *group, const struct km_command *cmds, int argc,
		char **argv)
{
	const struct km_command *c;

	if (argc < 2) {
		km_usage(stderr, group, cmds);
		return KM_EXIT_USAGE;
	}
	if (km_is_help(argv[1])) {
		km_usage(stdout, group, cmds);
		return KM_EXIT_OK;
	}
	for (c = cmds; c->name; c++)
		if (!strcmp(c->name, argv[1]))
			return c->run(argc - 1, argv + 1);
	return km_error("unknown command 'kmirror %s%s%s' (see --help)",
			group, *group ? " " : "", argv[1]);
}
