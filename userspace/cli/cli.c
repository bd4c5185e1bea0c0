// SPDX-License-Identifier: GPL-2.0-only
/* Argument helpers shared by the kmirror subcommands. */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/*
 * Print "error: " and the message on one line of stderr.  Messages echo
 * what the user gave (keys, names, paths): its control characters go out
 * as \xNN, never to the terminal, and a message is cut at
 * KM_MESSAGE_MAX bytes.
 */
static void km_verror(const char *fmt, va_list ap)
{
	char msg[KM_MESSAGE_MAX + 1];
	const char *p;

	vsnprintf(msg, sizeof(msg), fmt, ap);
	fputs("error: ", stderr);
	for (p = msg; *p; p++)
		km_put_char(stderr, *p);
	fputc('\n', stderr);
}

int km_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	km_verror(fmt, ap);
	va_end(ap);
	return KM_EXIT_USAGE;
}

int km_fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	km_verror(fmt, ap);
	va_end(ap);
	return KM_EXIT_FAIL;
}

void km_put_char(FILE *f, char c)
{
	if ((unsigned char)c < 0x20 || c == 0x7f)
		fprintf(f, "\\x%02x", (unsigned char)c);
	else
		fputc(c, f);
}

/*
 * Read one line of @in into @buf (@size bytes, NUL-terminated, without
 * its newline or a final '\r').  1: a line; 0: end of input; -E2BIG: the
 * line does not fit (reading stops there, so /dev/zero cannot grow us);
 * -EILSEQ: it holds a NUL byte, which would cut it short unseen; -EIO:
 * a read error.
 */
int km_read_line(FILE *in, char *buf, size_t size, size_t *len)
{
	size_t n = 0;
	bool nul = false;
	int c;

	while ((c = getc(in)) != EOF && c != '\n') {
		if (n + 1 >= size)
			return -E2BIG;
		nul |= !c;
		buf[n++] = (char)c;
	}
	if (ferror(in))
		return -EIO;
	if (c == EOF && !n)
		return 0;
	if (n && buf[n - 1] == '\r')
		n--;
	buf[n] = '\0';
	*len = n;
	return nul ? -EILSEQ : 1;
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
