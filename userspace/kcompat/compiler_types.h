/* SPDX-License-Identifier: GPL-2.0-only */
/* <linux/compiler_types.h>: duplicated. */
#ifndef KMIRROR_KCOMPAT_COMPILER_TYPES_H
#define KMIRROR_KCOMPAT_COMPILER_TYPES_H

/*
 * Keeps a helper's locals out of its caller's frame; the kernel's is
 * "noinline", i.e. __attribute__((__noinline__)) (compiler_attributes.h),
 * spelt out here so that a plain "noinline" stays free for libc headers.
 */
#define noinline_for_stack __attribute__((__noinline__))

/* The kernel's, unless glibc's <sys/cdefs.h> gave the same already. */
#ifndef __always_inline
#define __always_inline inline __attribute__((__always_inline__))
#endif

/* compiler_types.h's and compiler-gcc.h's unique names for macro locals. */
#define ___PASTE(a, b) a##b
#define __PASTE(a, b) ___PASTE(a, b)
#define __UNIQUE_ID(prefix) __PASTE(__PASTE(__UNIQUE_ID_, prefix), __COUNTER__)

/* compiler.h's */
#define is_signed_type(type) (((type)(-1)) < (type)1)
#define statically_true(x) (__builtin_constant_p(x) && (x))

/*
 * compiler_types.h's compiletime_assert(): a call to a function that
 * breaks the build if the optimizer cannot drop it, and no check without
 * the optimizer, as in the kernel.
 */
#ifdef __OPTIMIZE__
#define __compiletime_assert(condition, msg, prefix, suffix)		\
	do {								\
		__attribute__((__noreturn__)) extern void prefix ## suffix(void) \
			__attribute__((__error__(msg)));		\
		if (!(condition))					\
			prefix ## suffix();				\
	} while (0)
#else
#define __compiletime_assert(condition, msg, prefix, suffix) do { } while (0)
#endif
#define _compiletime_assert(condition, msg, prefix, suffix) \
	__compiletime_assert(condition, msg, prefix, suffix)
#define compiletime_assert(condition, msg) \
	_compiletime_assert(condition, msg, __compiletime_assert_, __COUNTER__)

/* compiler_attributes.h's: a result that must not be ignored. */
#ifndef __must_check
#define __must_check __attribute__((__warn_unused_result__))
#endif

#endif
