/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared by the fuzz targets of the kmirror CLI's readers: what the CLI
 * prints of its input must be safe on a terminal (printable UTF-8 only),
 * and every refusal must be exactly one "error: " line.  The CLI's error
 * messages are captured in memory (km_set_error_stream()) to check that.
 */
#ifndef KMIRROR_FUZZ_CLI_H
#define KMIRROR_FUZZ_CLI_H

#include <locale.h>
#include <stdbool.h>
#include <wchar.h>

#include "cli.h"
#include "fuzz_common.h"

/*
 * @len bytes of @text hold only printable UTF-8 (and '\n' if @lines).
 * Judged by the C library's UTF-8 decoder, not by the CLI's own.
 */
static inline void fz_check_text(const char *text, size_t len, bool lines)
{
	mbstate_t st;
	size_t at = 0, n;
	wchar_t wc;

	if (!setlocale(LC_CTYPE, "C.UTF-8"))
		CHECK(0, "no C.UTF-8 locale");
	memset(&st, 0, sizeof(st));
	while (at < len) {
		n = mbrtowc(&wc, text + at, len - at, &st);
		CHECK(n && n <= len - at, "a byte of no UTF-8 sequence at %zu",
		      at);
		CHECK((wc >= 0x20 && (wc < 0x7f || wc > 0x9f)) ||
		      (lines && wc == '\n'), "control character U+%04x at %zu",
		      (unsigned int)wc, at);
		at += n;
	}
}

/* Error messages of the CLI, caught between fz_errors_begin() and _end(). */
struct fz_errors {
	FILE *f;
	char *text;
	size_t len;
};

static inline void fz_errors_begin(struct fz_errors *e)
{
	e->text = NULL;
	e->len = 0;
	e->f = open_memstream(&e->text, &e->len);
	CHECK(e->f, "open_memstream");
	km_set_error_stream(e->f);
}

/* @ret is what the reader returned: KM_EXIT_OK means no message. */
static inline void fz_errors_end(struct fz_errors *e, int ret)
{
	km_set_error_stream(NULL);
	fclose(e->f);
	if (ret == KM_EXIT_OK) {
		CHECK(!e->len, "accepted, but said: %s", e->text);
	} else {
		CHECK(e->len > 7 && !strncmp(e->text, "error: ", 7),
		      "refused without an error line: '%s'", e->text);
		CHECK(memchr(e->text, '\n', e->len) == e->text + e->len - 1,
		      "not one line: '%s'", e->text);
		CHECK(e->len <= 8 + 4 * KM_MESSAGE_MAX, "message of %zu",
		      e->len);
		fz_check_text(e->text, e->len - 1, false);
	}
	free(e->text);
}

/* Lowercase hex of @buf (@len bytes), as km_print_hex() prints it, is @hex? */
static inline bool fz_same_hex(const uint8_t *buf, size_t len,
			       const char *hex)
{
	size_t i;

	for (i = 0; i < 2 * len; i++) {
		char want = "0123456789abcdef"[(buf[i / 2] >> (i % 2 ? 0 : 4)) &
					      15];

		if ((hex[i] | 0x20) != want)
			return false;
	}
	return hex[2 * len] == '\0';
}

#endif
