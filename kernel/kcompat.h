/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kcompat.h - the one header the kmirror core includes, kernel flavour.
 *
 * The core (lib/kmirror, include/linux/kmirror) is written against the
 * kernel's own names, so in the kernel this header only includes: nothing
 * here is duplicated, stubbed or custom.  The userspace flavour
 * (userspace/kcompat.h in the kmirror repository) supplies the same names
 * over libc, C11 atomics and liburcu.
 *
 * __GFP_NOFAIL is the kernel's: an allocation the core asks for with it
 * never returns NULL (mm/vmalloc.c retries for kvmalloc since 5.17).
 */
#ifndef _LINUX_KMIRROR_KCOMPAT_H
#define _LINUX_KMIRROR_KCOMPAT_H

#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/build_bug.h>
#include <linux/compiler_types.h>
#include <linux/ctype.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/hash.h>
#include <linux/inet.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/types.h>
#include <asm/page.h>
#include <asm/unaligned.h>
#include <kunit/visibility.h>

#endif /* _LINUX_KMIRROR_KCOMPAT_H */
