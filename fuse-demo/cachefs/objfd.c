// SPDX-License-Identifier: GPL-2.0-only
/*
 * The backing file of an fscache operation (the kernel's
 * cachefiles_cres_file(cres)), for the granule maps, which live in the
 * object's xattrs: libkmirror's fscache_cres_fd().  The descriptor is good
 * until fscache_end_operation().
 */
#include "kmirror/fscache.h"

int kc_cres_fd(const struct fscache_cache_resources *cres);

int kc_cres_fd(const struct fscache_cache_resources *cres)
{
	return fscache_cres_fd(cres);
}
