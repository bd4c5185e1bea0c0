/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * <linux/string.h> for the KUnit suites in userspace: libc's (strsep is
 * glibc's), with skip_spaces(), str_has_prefix() and strscpy() (the
 * contract of lib/string.c: always terminated, -E2BIG when cut) duplicated.
 */
#ifndef KMIRROR_SHIM_LINUX_STRING_H
#define KMIRROR_SHIM_LINUX_STRING_H

#include <ctype.h>
#include <errno.h>
#include <string.h>
#include <sys/types.h>

#include "kcompat.h"

static inline char *skip_spaces(const char *str)
{
	while (isspace((unsigned char)*str))
		++str;
	return (char *)str;
}

static inline size_t str_has_prefix(const char *str, const char *prefix)
{
	size_t len = strlen(prefix);

	return strncmp(str, prefix, len) == 0 ? len : 0;
}

static inline ssize_t strscpy(char *dest, const char *src, size_t count)
{
	size_t len;

	if (!count)
		return -E2BIG;
	len = strnlen(src, count);
	if (len == count) {
		memcpy(dest, src, count - 1);
		dest[count - 1] = '\0';
		return -E2BIG;
	}
	memcpy(dest, src, len + 1);
	return len;
}

#endif
