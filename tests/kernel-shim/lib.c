// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the KUnit suites call from the kernel's lib/ that the core's
 * kcompat does not have: kstrto*() (custom: the contract of lib/kstrtox.c
 * over strtoull) and string_unescape() (duplicated from 6.1's
 * lib/string_helpers.c).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

#include <linux/kstrtox.h>
#include <linux/string_helpers.h>

/* The number @s spells from @p on, but for one trailing newline. */
static bool kstrto_whole(const char *p, const char *end)
{
	return end != p && (!*end || (end[0] == '\n' && !end[1]));
}

int kstrtoull(const char *s, unsigned int base, unsigned long long *res)
{
	unsigned long long v;
	const char *p = s[0] == '+' ? s + 1 : s;
	char *end;

	if (!isxdigit((unsigned char)*p))
		return -EINVAL;
	errno = 0;
	v = strtoull(p, &end, base);
	if (!kstrto_whole(p, end))
		return -EINVAL;
	if (errno == ERANGE)
		return -ERANGE;
	*res = v;
	return 0;
}

int kstrtoll(const char *s, unsigned int base, long long *res)
{
	unsigned long long v;
	int err;

	if (s[0] == '-') {
		err = kstrtoull(s + 1, base, &v);
		if (err)
			return err;
		if (v > (unsigned long long)LLONG_MAX + 1)
			return -ERANGE;
		*res = -(long long)(v - 1) - 1;
		return 0;
	}
	err = kstrtoull(s, base, &v);
	if (err)
		return err;
	if (v > LLONG_MAX)
		return -ERANGE;
	*res = v;
	return 0;
}

int kstrtou32(const char *s, unsigned int base, u32 *res)
{
	unsigned long long v;
	int err = kstrtoull(s, base, &v);

	if (err)
		return err;
	if (v > UINT32_MAX)
		return -ERANGE;
	*res = v;
	return 0;
}

int kstrtoint(const char *s, unsigned int base, int *res)
{
	long long v;
	int err = kstrtoll(s, base, &v);

	if (err)
		return err;
	if (v < INT_MIN || v > INT_MAX)
		return -ERANGE;
	*res = v;
	return 0;
}

static bool isodigit(const char c)
{
	return c >= '0' && c <= '7';
}

static bool unescape_space(char **src, char **dst)
{
	char *p = *dst, *q = *src;

	switch (*q) {
	case 'n':
		*p = '\n';
		break;
	case 'r':
		*p = '\r';
		break;
	case 't':
		*p = '\t';
		break;
	case 'v':
		*p = '\v';
		break;
	case 'f':
		*p = '\f';
		break;
	default:
		return false;
	}
	*dst += 1;
	*src += 1;
	return true;
}

static bool unescape_octal(char **src, char **dst)
{
	char *p = *dst, *q = *src;
	u8 num;

	if (isodigit(*q) == 0)
		return false;

	num = (*q++) & 7;
	while (num < 32 && isodigit(*q) && (q - *src < 3)) {
		num <<= 3;
		num += (*q++) & 7;
	}
	*p = num;
	*dst += 1;
	*src = q;
	return true;
}

static bool unescape_hex(char **src, char **dst)
{
	char *p = *dst, *q = *src;
	int digit;
	u8 num;

	if (*q++ != 'x')
		return false;

	num = digit = hex_to_bin(*q++);
	if (digit < 0)
		return false;

	digit = hex_to_bin(*q);
	if (digit >= 0) {
		q++;
		num = (num << 4) | digit;
	}
	*p = num;
	*dst += 1;
	*src = q;
	return true;
}

static bool unescape_special(char **src, char **dst)
{
	char *p = *dst, *q = *src;

	switch (*q) {
	case '\"':
		*p = '\"';
		break;
	case '\\':
		*p = '\\';
		break;
	case 'a':
		*p = '\a';
		break;
	case 'e':
		*p = '\e';
		break;
	default:
		return false;
	}
	*dst += 1;
	*src += 1;
	return true;
}

int string_unescape(char *src, char *dst, size_t size, unsigned int flags)
{
	char *out = dst;

	while (*src && --size) {
		if (src[0] == '\\' && src[1] != '\0' && size > 1) {
			src++;
			size--;

			if (flags & UNESCAPE_SPACE &&
					unescape_space(&src, &out))
				continue;

			if (flags & UNESCAPE_OCTAL &&
					unescape_octal(&src, &out))
				continue;

			if (flags & UNESCAPE_HEX &&
					unescape_hex(&src, &out))
				continue;

			if (flags & UNESCAPE_SPECIAL &&
					unescape_special(&src, &out))
				continue;

			*out++ = '\\';
		}
		*out++ = *src++;
	}
	*out = '\0';

	return out - dst;
}
