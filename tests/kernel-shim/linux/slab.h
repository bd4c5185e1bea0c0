/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * <linux/slab.h> for the tree's own sources (fs/cachefiles/key.c,
 * fs/fscache/cookie.c): the userspace kcompat's.
 */
#include "kcompat.h"
