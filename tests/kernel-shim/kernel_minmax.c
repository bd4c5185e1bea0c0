// SPDX-License-Identifier: GPL-2.0-only
/*
 * The tree's own <linux/minmax.h>, <linux/log2.h> and generic fls(), as
 * extract_minmax.py copies them, over the compiler plumbing of the
 * userspace kcompat (types, __UNIQUE_ID(), compiletime_assert()): the
 * reference side of test_minmax.c.
 */
#include "kcompat/types.h"
#include "kcompat/compiler_types.h"
#include "kcompat/kernel.h"

#define BITS_PER_LONG		64
#ifndef __attribute_const__	/* glibc's <sys/cdefs.h> has the same */
#define __attribute_const__	__attribute__((__const__))
#endif

#include "kernel_minmax.h"

#define MM_SIDE k_
#define MM_DEFINE
#include "minmax_ops.h"
