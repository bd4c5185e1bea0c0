// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the kmirror CLI's stdin and hex readers, on any
 * bytes.  The input is read as `kmirror key cook` reads stdin
 * (km_read_line(), through fmemopen); each line goes through the hex
 * parsers and the cookie key check key cook applies; every byte goes
 * through the escapers.  Invariants: a line never holds a NUL nor
 * exceeds its buffer, reading never runs past the input; a parsed key
 * prints back as the hex it came from; a key is taken exactly when it is
 * 1 to 252 bytes of hex whose cooked name has at most NAME_MAX bytes,
 * else refused with one clean error line; escaped output is printable
 * UTF-8 only.
 */
#include <errno.h>
#include <limits.h>

#include "fuzz_cli.h"
#include "kmc_key.h"

/* What km_parse_cookie_key() must decide, worked out apart from it. */
static bool key_ok(const char *line)
{
	uint8_t key[KMC_KEY_MAX];
	char name[KMC_COOKED_MAX + 1];
	size_t n = strlen(line);

	if (!n || n % 2 || n / 2 > KMC_KEY_MAX ||
	    km_parse_hex(line, key, sizeof(key)) != (long)(n / 2))
		return false;
	return kmc_cook_key(key, n / 2, name, sizeof(name)) > 0 &&
	       strlen(name) <= NAME_MAX;
}

static void check_key(const char *line)
{
	uint8_t key[KMC_KEY_MAX];
	char name[KMC_COOKED_MAX + 1];
	struct fz_errors e;
	size_t len;
	long n = km_parse_hex(line, key, sizeof(key));
	uint32_t v;
	int ret;

	CHECK(n == -EINVAL || n == -E2BIG || (n >= 0 && n <= KMC_KEY_MAX),
	      "parse_hex %ld", n);
	if (n >= 0)
		CHECK(fz_same_hex(key, (size_t)n, line), "hex round trip of '%s'",
		      line);
	fz_errors_begin(&e);
	ret = km_parse_cookie_key("line 1: ", line, key, &len, name,
				  sizeof(name));
	fz_errors_end(&e, ret);
	CHECK((ret == KM_EXIT_OK) == key_ok(line), "'%s' %s", line,
	      ret ? "refused" : "taken");
	if (ret == KM_EXIT_OK)
		CHECK(strlen(name) <= NAME_MAX && fz_same_hex(key, len, line),
		      "key '%s' taken as %zu bytes, name of %zu", line, len,
		      strlen(name));
	if (!km_parse_u32_hex(line, &v))
		CHECK(strlen(line) <= 10, "u32 from '%s'", line);
}

/* Escaped output of @data (@size bytes) is printable UTF-8 only. */
static void check_escape(const uint8_t *data, size_t size)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	km_put_text(f, (const char *)data, size);
	fclose(f);
	fz_check_text(text, len, false);
	free(text);
	f = open_memstream(&text, &len);
	km_put_text_with(f, (const char *)data, size, '\n', "\n");
	fclose(f);
	fz_check_text(text, len, true);
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
