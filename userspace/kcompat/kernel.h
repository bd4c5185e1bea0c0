/* SPDX-License-Identifier: GPL-2.0-only */
/* <linux/kernel.h>, <linux/math.h>, <linux/build_bug.h>: duplicated. */
#ifndef KMIRROR_KCOMPAT_KERNEL_H
#define KMIRROR_KCOMPAT_KERNEL_H

#include <errno.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define round_up(x, y) ((((x) - 1) | ((__typeof__(x))((y) - 1))) + 1)
#define round_down(x, y) ((x) & ~((__typeof__(x))((y) - 1)))
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

#define BUILD_BUG_ON(cond) _Static_assert(!(cond), #cond)
#define BUILD_BUG_ON_MSG(cond, msg) compiletime_assert(!(cond), msg)

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

/*
 * Symbols are exported by the shared library's default visibility.  In the
 * kernel, what only the KUnit suites call is exported to them alone.
 */
#define EXPORT_SYMBOL(sym)
#define EXPORT_SYMBOL_GPL(sym)
#define EXPORT_SYMBOL_IF_KUNIT(sym)

/*
 * duplicated: hex_to_bin() of lib/hexdump.c (6.1), a hex digit's value or
 * -1, with no branch on the data.
 */
static inline int hex_to_bin(unsigned char ch)
{
	unsigned char cu = ch & 0xdf;

	return -1 +
		((ch - '0' + 1) &
		 (unsigned int)((ch - '9' - 1) & ('0' - 1 - ch)) >> 8) +
		((cu - 'A' + 11) &
		 (unsigned int)((cu - 'F' - 1) & ('A' - 1 - cu)) >> 8);
}

/*
 * duplicated: hex2bin() of lib/hexdump.c (6.1): @count bytes from 2 * @count
 * hex digits of @src into @dst; 0, or -EINVAL at the first non-digit.
 */
static inline int __must_check hex2bin(unsigned char *dst,
				       const char *src, unsigned long count)
{
	while (count--) {
		int hi, lo;

		hi = hex_to_bin(*src++);
		if (unlikely(hi < 0))
			return -EINVAL;
		lo = hex_to_bin(*src++);
		if (unlikely(lo < 0))
			return -EINVAL;

		*dst++ = (hi << 4) | lo;
	}
	return 0;
}

#define __packed __attribute__((__packed__))
#define fallthrough __attribute__((__fallthrough__))

#endif
