// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the CLI prints of what it was given: keys, names, paths, file
 * contents.  Whoever wrote those bytes must not drive the terminal that
 * reads them, so everything but printable UTF-8 goes out as \xNN, and
 * every error message goes through the same helper.  A backslash itself
 * goes out as \\, so that what is printed reads back: the name "\x7f"
 * (four bytes) and a DEL differ.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <string.h>

#include "cli.h"

static FILE *km_errors;

void km_set_error_stream(FILE *f)
{
	km_errors = f;
}

/*
 * Length of the valid UTF-8 sequence at @s (@len bytes available), its
 * code point in *@cp; 0 if it is not one (overlong, surrogate, cut).
 */
size_t km_utf8_len(const unsigned char *s, size_t len, uint32_t *cp)
{
	size_t n, i;

	if (s[0] < 0x80)
		n = 1, *cp = s[0];
	else if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, *cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, *cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, *cp = s[0] & 0x07;
	else
		return 0;
	if (n > len)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		*cp = *cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && *cp < 0x800) || (n == 4 && *cp < 0x10000) ||
	    (*cp >= 0xd800 && *cp <= 0xdfff) || *cp > 0x10ffff)
		return 0;
	return n;
}

/* C0, DEL and C1 (U+0080..U+009F, which some terminals obey): controls. */
bool km_is_control(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f);
}

/*
 * Put @len bytes of @s on @f: printable UTF-8 as is but '\' as \\, every
 * other byte (a control character, a byte of no valid sequence) as \xNN.
 */
void km_put_text(FILE *f, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	const unsigned char *end = p + len;
	uint32_t cp;
	size_t n;

	while (p < end) {
		n = km_utf8_len(p, (size_t)(end - p), &cp);
		if (!n || km_is_control(cp)) {
			fprintf(f, "\\x%02x", *p++);
			continue;
		}
		if (*p == '\\')
			fputc('\\', f);
		fwrite(p, 1, n, f);
		p += n;
	}
}

void km_put_str(FILE *f, const char *s)
{
	km_put_text(f, s, strlen(s));
}

/*
 * As km_put_text(), but every @c goes out as @as: a newline as itself in
 * text of several lines, a '\' as \x5c in `ceph parse`'s values.
 */
void km_put_text_with(FILE *f, const char *buf, size_t len, char c,
		      const char *as)
{
	const char *at;

	while ((at = memchr(buf, c, len))) {
		km_put_text(f, buf, (size_t)(at - buf));
		fputs(as, f);
		len -= (size_t)(at - buf) + 1;
		buf = at + 1;
	}
	km_put_text(f, buf, len);
}

/*
 * Print "error: " and the message on one line.  Messages echo what the
 * user gave, escaped as km_put_text() does, and are cut at
 * KM_MESSAGE_MAX bytes.
 */
int km_error(const char *fmt, ...)
{
	FILE *f = km_errors ? km_errors : stderr;
	char msg[KM_MESSAGE_MAX + 1];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fputs("error: ", f);
	km_put_str(f, msg);
	fputc('\n', f);
	return KM_EXIT_USAGE;
}
