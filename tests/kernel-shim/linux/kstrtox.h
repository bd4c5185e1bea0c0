/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * <linux/kstrtox.h>: custom, the kernel's contract (lib/kstrtox.c): the
 * whole string is the number but for one trailing newline, no leading
 * space, base 0 reads 0x as hex and a leading 0 as octal; 0, -EINVAL or
 * -ERANGE, and *res untouched on error.  Inline, so that a program that
 * links the tree's own lib/kstrtox.c (tests/ceph) has no second copy.
 */
#ifndef KMIRROR_SHIM_LINUX_KSTRTOX_H
#define KMIRROR_SHIM_LINUX_KSTRTOX_H

#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#include "kcompat.h"

/* The number @s spells from @p on, but for one trailing newline. */
static inline bool kstrto_whole(const char *p, const char *end)
{
	return end != p && (!*end || (end[0] == '\n' && !end[1]));
}

static inline int kstrtoull(const char *s, unsigned int base, unsigned long long *res)
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

static inline int kstrtoll(const char *s, unsigned int base, long long *res)
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

static inline int kstrtou32(const char *s, unsigned int base, u32 *res)
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

static inline int kstrtoint(const char *s, unsigned int base, int *res)
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
