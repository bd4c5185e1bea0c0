/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * <linux/vmalloc.h> for the KUnit suites in userspace: the core's kcompat,
 * and vzalloc()/vfree() (custom: its kvzalloc()/kvfree(), the heap).
 */
#ifndef KMIRROR_SHIM_LINUX_VMALLOC_H
#define KMIRROR_SHIM_LINUX_VMALLOC_H

#include "kcompat.h"

static inline void *vzalloc(unsigned long size)
{
	return kvzalloc(size, GFP_KERNEL);
}

static inline void vfree(const void *addr)
{
	kvfree(addr);
}

#endif
