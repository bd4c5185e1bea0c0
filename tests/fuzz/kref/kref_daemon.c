// SPDX-License-Identifier: GPL-2.0-only
/*
 * The tree's cachefiles_daemon_write() and its handlers, compiled twice:
 * once as configured (KREF_ONDEMAND unset) and once with
 * CONFIG_CACHEFILES_ONDEMAND=y, each exporting one entry point.
 */
#ifdef KREF_ONDEMAND
#define CONFIG_CACHEFILES_ONDEMAND 1
#endif
#include "kref.h"
#include "kernel_hdr.inc"
#include "kernel_daemon.inc"

#ifdef KREF_ONDEMAND
ssize_t kref_od_daemon_write(struct file *file, const char *data, size_t len)
#else
ssize_t kref_std_daemon_write(struct file *file, const char *data, size_t len)
#endif
{
	loff_t pos = 0;

	return cachefiles_daemon_write(file, data, len, &pos);
}
