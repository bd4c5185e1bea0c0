/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The text of /proc/fs/fscache/stats: fscache_stats_show() of
 * fs/fscache/stats.c in the 6.1 tree, without the netfs lines it prints
 * after its own.  The kernel and libkmirror keep the counters their own
 * way (global atomics; per-shard counters) and print a snapshot of them
 * through kmc_fscache_stats_format(), so that the text is the same.
 */
#ifndef KMC_STATS_H
#define KMC_STATS_H

#include "kcompat.h"

/* The counters of fs/fscache, named as there without fscache_n_. */
enum kmc_stat {
	KMC_STAT_COOKIES,		/* cookies and volumes print signed */
	KMC_STAT_VOLUMES,
	KMC_STAT_VOLUMES_COLLISION,
	KMC_STAT_VOLUMES_NOMEM,
	KMC_STAT_ACQUIRES,
	KMC_STAT_ACQUIRES_OK,
	KMC_STAT_ACQUIRES_OOM,
	KMC_STAT_COOKIES_LRU,
	KMC_STAT_COOKIES_LRU_EXPIRED,
	KMC_STAT_COOKIES_LRU_REMOVED,
	KMC_STAT_COOKIES_LRU_DROPPED,
	KMC_STAT_INVALIDATES,
	KMC_STAT_UPDATES,
	KMC_STAT_RESIZES,
	KMC_STAT_RESIZES_NULL,
	KMC_STAT_RELINQUISHES,
	KMC_STAT_RELINQUISHES_RETIRE,
	KMC_STAT_RELINQUISHES_DROPPED,
	KMC_STAT_NO_WRITE_SPACE,
	KMC_STAT_NO_CREATE_SPACE,
	KMC_STAT_CULLED,
	KMC_STAT_READ,
	KMC_STAT_WRITE,
	KMC_STAT_COUNT
};

/* A snapshot of them, and the time until the LRU timer fires (0: idle). */
struct kmc_fscache_stats {
	u32 n[KMC_STAT_COUNT];
	long lru_timer;
};

/* Room for the longest text, NUL included (every counter at its widest). */
#define KMC_FSCACHE_STATS_MAX	512

/*
 * Print @st as the kernel does, snprintf() style: at most @size bytes
 * with the NUL, returns the length of the whole text.
 */
int kmc_fscache_stats_format(const struct kmc_fscache_stats *st, char *buf,
			     size_t size);

#endif /* KMC_STATS_H */
