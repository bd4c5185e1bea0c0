/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * <linux/kstrtox.h>: custom, the kernel's contract (lib/kstrtox.c): the
 * whole string is the number but for one trailing newline, no leading
 * space, base 0 reads 0x as hex and a leading 0 as octal; 0, -EINVAL or
 * -ERANGE, and *res untouched on error.
 */
#ifndef KMIRROR_SHIM_LINUX_KSTRTOX_H
#define KMIRROR_SHIM_LINUX_KSTRTOX_H

#include "kcompat.h"

int kstrtoull(const char *s, unsigned int base, unsigned long long *res);
int kstrtoll(const char *s, unsigned int base, long long *res);
int kstrtou32(const char *s, unsigned int base, u32 *res);
int kstrtoint(const char *s, unsigned int base, int *res);

/* u32 is unsigned int: the kernel's kstrtou32() is this one. */
static inline int kstrtouint(const char *s, unsigned int base,
			     unsigned int *res)
{
	return kstrtou32(s, base, res);
}

#endif
