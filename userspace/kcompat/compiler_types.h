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

#endif
