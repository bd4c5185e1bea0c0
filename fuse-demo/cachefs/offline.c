// SPDX-License-Identifier: GPL-2.0-only
/*
 * Offline mode: the source's health.  A source call failing with
 * ENOTCONN (or ESTALE or EIO, with the source's root failing too), or not
 * answering within -o source_timeout (srccall.c), takes the source
 * offline.  While it is offline no source
 * call is made (they fail with EIO at once, nothing waits on a dead
 * source) and the mount is read-only and cache-only:
 *  - a read is served from the cache if every byte it asks for is
 *    present and the file was coherent when last checked (no recheck
 *    pending), else it fails with EIO;
 *  - names and attributes come from the inodes the daemon holds (the
 *    last attributes the source gave), else from the metadata store
 *    (meta.c, whatever their age), else EIO;
 *  - directory listings come from the store, else EIO;
 *  - every change fails with EROFS.
 * The housekeeper probes the source every second (a stat of its root,
 * made by a runner thread: the housekeeper never waits for it).  When it answers, every cached file is marked
 * for a recheck before the source is online again, so that no cached
 * byte is served again before its file's attributes were compared with
 * the cache's coherency data; the files used while offline are rechecked
 * at once (a changed one is invalidated, and the kernel told): online.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>

#include "cachefs.h"

bool kc_offline(struct kc_fs *fs)
{
	return atomic_load_explicit(&fs->offline, memory_order_acquire);
}

/* Take the mount offline, saying @why (once: offline stays offline). */
void kc_go_offline(struct kc_fs *fs, const char *why)
{
	if (atomic_exchange(&fs->offline, true))
		return;
	kc_count(fs, offline_entered, 1);
	kc_warn("source %s: %s; offline, serving cached files read-only",
		fs->cfg.source, why);
}

/*
 * Offline, refuse @req with @err (EROFS for changes, EIO for what needs
 * the source) and say true; online, false.
 */
bool kc_offline_refuse(fuse_req_t req, int err)
{
	struct kc_fs *fs = kc_fs(req);

	if (!kc_offline(fs))
		return false;
	kc_count(fs, offline_refused, 1);
	fuse_reply_err(req, err);
	return true;
}
