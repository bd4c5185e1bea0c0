/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * <asm/page.h>: duplicated for x86-64 (4 KiB pages).  The kernel's value is
 * per architecture; cachefiles compares the backing fs block size and the
 * daemon's command length against it.
 */
#ifndef KMIRROR_KCOMPAT_PAGE_H
#define KMIRROR_KCOMPAT_PAGE_H

#ifndef PAGE_SHIFT
#define PAGE_SHIFT	12
#endif
#ifndef PAGE_SIZE
#define PAGE_SIZE	(1UL << PAGE_SHIFT)
#endif

#endif
