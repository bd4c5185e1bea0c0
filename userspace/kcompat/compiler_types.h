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

/* compiler_attributes.h's: a result that must not be ignored. */
#ifndef __must_check
#define __must_check __attribute__((__warn_unused_result__))
#endif

#endif
