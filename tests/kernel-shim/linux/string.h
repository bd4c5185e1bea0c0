/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * <linux/string.h> for the KUnit suites in userspace: libc's (strsep is
 * glibc's), with skip_spaces() and str_has_prefix() duplicated.
 */
#ifndef KMIRROR_SHIM_LINUX_STRING_H
#define KMIRROR_SHIM_LINUX_STRING_H

#include <ctype.h>
#include <string.h>

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

#endif
