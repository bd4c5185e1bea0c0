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

/* As include/linux/kstrtox.h has them: over kstrtoull() and kstrtoll(). */
static inline int kstrtou64(const char *s, unsigned int base, u64 *res)
{
	unsigned long long v;
	int err = kstrtoull(s, base, &v);

	if (!err)
		*res = v;
	return err;
}

static inline int kstrtol(const char *s, unsigned int base, long *res)
{
	long long v;
	int err = kstrtoll(s, base, &v);

	if (err)
		return err;
	if (v != (long)v)
		return -ERANGE;
	*res = v;
	return 0;
}

/* u32 is unsigned int: the kernel's kstrtou32() is this one. */
static inline int kstrtouint(const char *s, unsigned int base,
			     unsigned int *res)
{
	return kstrtou32(s, base, res);
}

#endif
