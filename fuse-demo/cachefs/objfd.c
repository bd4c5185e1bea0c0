// SPDX-License-Identifier: GPL-2.0-only
/*
 * The backing file of an fscache operation (the kernel's
 * cachefiles_cres_file(cres)), for the granule maps, which live in the
 * object's xattrs.  fscache.h keeps struct fscache_cache_resources.object
 * opaque; libkmirror's internal.h says what it is, so this one file
 * compiles against it and nothing else here does.  The descriptor is good
 * until fscache_end_operation().
 */
#include "internal.h"

int kc_cres_fd(const struct fscache_cache_resources *cres);

int kc_cres_fd(const struct fscache_cache_resources *cres)
{
	const struct kmf_file *f = cres ? cres->object : NULL;

	return f ? f->fd : -1;
}
