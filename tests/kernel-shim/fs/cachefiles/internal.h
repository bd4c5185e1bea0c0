/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Stands in for fs/cachefiles/internal.h when the tree's key.c is compiled
 * against the userspace kcompat.h for differential testing.  Only what
 * cachefiles_cook_key() touches is here.
 *   custom: struct fscache_cookie / cachefiles_object, cut to the used fields
 *   stubbed: _enter/_debug/_leave tracing
 *   custom: BUG_ON and WARN_ON_ONCE record instead of crashing or
 *           logging, so a test can assert on them
 */
#ifndef KMIRROR_DIFF_CACHEFILES_INTERNAL_H
#define KMIRROR_DIFF_CACHEFILES_INTERNAL_H

#include <stdio.h>
#include "kcompat.h"

struct fscache_cookie {
	unsigned int key_len;
	const void *key;
};

struct cachefiles_object {
	struct fscache_cookie *cookie;
	char *d_name;
	u8 d_name_len;
};

static inline const void *fscache_get_key(struct fscache_cookie *cookie)
{
	return cookie->key;
}

extern int kmirror_diff_bugs;
#define BUG_ON(cond) do { if (cond) { kmirror_diff_bugs++; return false; } } while (0)

static inline bool kmirror_diff_warn(bool cond)
{
	kmirror_diff_bugs += cond;
	return cond;
}
#define WARN_ON_ONCE(cond) kmirror_diff_warn(!!(cond))

#define _enter(fmt, ...) do { } while (0)
#define _debug(fmt, ...) do { } while (0)
#define _leave(fmt, ...) do { } while (0)

bool cachefiles_cook_key(struct cachefiles_object *object);

#endif
