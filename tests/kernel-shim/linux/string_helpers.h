/* SPDX-License-Identifier: GPL-2.0-only */
/* <linux/string_helpers.h>: string_unescape() of 6.1, in string_helpers.c. */
#ifndef KMIRROR_SHIM_LINUX_STRING_HELPERS_H
#define KMIRROR_SHIM_LINUX_STRING_HELPERS_H

#include "kcompat.h"

#define UNESCAPE_SPACE		0x01
#define UNESCAPE_OCTAL		0x02
#define UNESCAPE_HEX		0x04
#define UNESCAPE_SPECIAL	0x08
#define UNESCAPE_ANY	\
	(UNESCAPE_SPACE | UNESCAPE_OCTAL | UNESCAPE_HEX | UNESCAPE_SPECIAL)

int string_unescape(char *src, char *dst, size_t size, unsigned int flags);

static inline int string_unescape_any_inplace(char *buf)
{
	return string_unescape(buf, buf, 0, UNESCAPE_ANY);
}

#endif
