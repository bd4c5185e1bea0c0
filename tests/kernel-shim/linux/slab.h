/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * <linux/slab.h> for kernel code in userspace (the KUnit suites, the
 * tree's fs/cachefiles/key.c and fs/fscache/cookie.c): the core's kcompat.
 */
#include "kcompat.h"
