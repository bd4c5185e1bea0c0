// SPDX-License-Identifier: GPL-2.0-only
/*
 * The source's return from offline mode (offline.c): the housekeeper's
 * probe, then every cached file marked for a recheck, and those used
 * while offline rechecked at once.  Apart from offline.c because it walks
 * the inode table (inode.c) and rechecks files (cache.c), which both ask
 * offline.c whether the source is offline: in one file, the two halves
 * made a call cycle (tests/tools/callcycles.py).
 */
#include <fcntl.h>

#include "cachefs.h"

/* Mark a cached file for a recheck before its next use. */
static void kc_mark(struct kc_fs *fs, struct kc_inode *in)
{
	struct kc_icache *ic = atomic_load(&in->ic);

	(void)fs;
	atomic_store(&ic->recheck, true);
}

/* Recheck a file used while offline now. */
static void kc_revalidate(struct kc_fs *fs, struct kc_inode *in)
{
	struct kc_icache *ic = atomic_load(&in->ic);
	struct stat st;

	if (!atomic_exchange(&ic->offline_used, false))
		return;
	if (kc_inode_fd(fs, in) >= 0 &&
	    !kc_src_fstatat(fs, in->fd, "", &st,
			    AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW))
		kc_cache_check_stat(fs, in, &st, false);
}

/*
 * The housekeeper's once-a-second call: offline, probe the source; once
 * it answered, recheck and go online.
 */
void kc_offline_tick(struct kc_fs *fs)
{
	if (!kc_offline(fs) || kc_src_probe(fs))
		return;
	/* Marked first: a read that runs once online rechecks. */
	if (kc_itable_each_cached(fs, kc_mark))
		return;		/* out of memory: probe again */
	atomic_store_explicit(&fs->offline, false, memory_order_release);
	kc_warn("source %s answers again; online", fs->cfg.source);
	kc_itable_each_cached(fs, kc_revalidate);
	kc_count(fs, offline_left, 1);
}
