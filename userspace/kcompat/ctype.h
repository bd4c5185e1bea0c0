/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * <linux/ctype.h>: duplicated.  The kernel's classes, not the C library's:
 * isspace() is true for 9-13, 32 and 160 (lib/ctype.c marks 0xa0, Latin-1
 * NBSP, as _S|_SP), and never for NUL.  No locale, no EOF handling.
 *
 * The C library's <ctype.h> is included first and its macros replaced, so
 * that a userspace file including both, in either order, gets the kernel's
 * meaning (the header guard makes a later #include <ctype.h> a no-op).
 */
#ifndef KMIRROR_KCOMPAT_CTYPE_H
#define KMIRROR_KCOMPAT_CTYPE_H

#include <ctype.h>

#include "kernel.h"

static inline bool kmc_ctype_space(unsigned char c)
{
	return (c >= 9 && c <= 13) || c == 32 || c == 160;
}

/* The kernel's _X class: exactly the digits hex_to_bin() takes. */
static inline bool kmc_ctype_xdigit(unsigned char c)
{
	return hex_to_bin(c) >= 0;
}

#undef isspace
#undef isxdigit
#undef _tolower
#define isspace(c)	kmc_ctype_space((unsigned char)(c))
#define isxdigit(c)	kmc_ctype_xdigit((unsigned char)(c))
/* The kernel's "fast" _tolower(): just sets bit 5 (a macro here because
 * the C library declares a function of that name). */
#define _tolower(c)	((char)((c) | 0x20))

#endif
