/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * <linux/kernel.h> for the KUnit suites in userspace: kcompat, kstrto*(),
 * U64_MAX duplicated from include/linux/limits.h (which the kernel's
 * <linux/kernel.h> includes, and glibc's <linux/limits.h> lacks), and
 * scnprintf() (custom: the contract of lib/vsprintf.c, the length written
 * without the NUL, 0 for no room, over vsnprintf()).
 */
#ifndef KMIRROR_SHIM_LINUX_KERNEL_H
#define KMIRROR_SHIM_LINUX_KERNEL_H

#include <stdarg.h>
#include <stdio.h>

#include "kcompat.h"
#include <linux/kstrtox.h>

#ifndef U64_MAX
#define U64_MAX		((u64)~0ULL)
#endif

static inline __attribute__((format(printf, 3, 4)))
int scnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list args;
	int i;

	va_start(args, fmt);
	i = vsnprintf(buf, size, fmt, args);
	va_end(args);
	if (i < 0 || !size)
		return 0;
	return (size_t)i < size ? i : (int)(size - 1);
}

#endif
