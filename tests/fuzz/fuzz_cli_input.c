// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the kmirror CLI's own input readers, on any bytes.
 * The input is read as `kmirror key cook` reads stdin (km_read_line(),
 * through fmemopen); each line goes through the hex parsers and, as a
 * key, through the core's cooking with the CLI's NAME_MAX rule; every
 * byte goes through the message escaper.  Invariants: a line never
 * holds a NUL nor exceeds its buffer, reading never runs past the input,
 * a parsed key prints back as the hex it came from, a cooked name the CLI
 * would print is at most NAME_MAX, escaped output holds no control
 * character.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>

#include "cli.h"
#include "fuzz_common.h"
#include "kmc_key.h"

/* Lowercase hex of @buf, as km_print_hex() prints it, equals @hex? */
static int same_hex(const uint8_t *buf, long len, const char *hex)
{
	long i;

	for (i = 0; i < 2 * len; i++) {
		char want = "0123456789abcdef"[(buf[i / 2] >> (i % 2 ? 0 : 4)) &
					      15];

		if (tolower((unsigned char)hex[i]) != want)
			return 0;
	}
	return hex[2 * len] == '\0';
}

static void check_key(const char *line)
{
	uint8_t key[KMC_KEY_MAX + 1];
	char name[KMC_COOKED_MAX + 1];
	long len = km_parse_hex(line, key, sizeof(key));
	uint32_t v;

	if (len >= 0) {
		CHECK(len <= (long)sizeof(key), "parsed %ld bytes", len);
		CHECK(same_hex(key, len, line), "hex round trip of '%s'", line);
		if (len && kmc_cook_key(key, (unsigned int)len, name,
					sizeof(name)) >= 0)
			CHECK(strlen(name) <= KMC_COOKED_MAX, "name of %zu",
			      strlen(name));
	}
	if (!km_parse_u32_hex(line, &v))
		CHECK(strlen(line) <= 10, "u32 from '%s'", line);
}

static void check_escape(const uint8_t *data, size_t size)
{
	char *text = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&text, &len);

	for (i = 0; i < size; i++)
		km_put_char(f, (char)data[i]);
	fclose(f);
	for (i = 0; i < len; i++)
		CHECK((unsigned char)text[i] >= 0x20 && text[i] != 0x7f,
		      "control character 0x%02x escaped out",
		      (unsigned char)text[i]);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy, line[KM_LINE_MAX];
	size_t len, lines = 0;
	FILE *in;
	int ret;

	if (!size)
		return 0;	/* fmemopen() takes no empty buffer */
	copy = fz_dup(data, size);
	in = fmemopen(copy, size, "r");
	CHECK(in, "fmemopen");
	while ((ret = km_read_line(in, line, sizeof(line), &len)) > 0) {
		CHECK(len < sizeof(line) && strlen(line) == len,
		      "line of %zu, strlen %zu", len, strlen(line));
		CHECK(++lines <= size + 1, "more lines than bytes");
		check_key(line);
	}
	CHECK(ret == 0 || ret == -E2BIG || ret == -EILSEQ, "read %d", ret);
	CHECK(ftell(in) <= (long)size, "read past the input");
	fclose(in);
	free(copy);
	check_escape(data, size);
	return 0;
}
