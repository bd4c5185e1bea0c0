/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cachefiles culling policy, as fs/cachefiles/daemon.c and cache.c of the
 * 6.1 tree apply it: six limits in percent, turned into absolute numbers of
 * files and blocks when the cache is bound, and the cachefiles_has_space()
 * verdict with its "culling" state.  Pure functions over struct kmc_cull:
 * the caller does statfs and wakes the daemon.
 *
 * Limits, of the backing filesystem's total files (f*) and blocks (b*):
 *   *stop   below it nothing more is allocated: -ENOBUFS
 *   *cull   below it culling is switched on
 *   *run    culling is switched off again once BOTH free files and free
 *           blocks are at or above frun and brun
 * The daemon may only set them so that 0 <= stop < cull < run < 100.
 *
 * Kernel corners kept on purpose (6.1 line numbers):
 *  - the absolute limits are (total / 100) * percent with the division
 *    first (cache.c:106-119): a filesystem with fewer than 100 files or
 *    blocks gets limits of 0 and never culls or stops on that count;
 *  - the limits come from f_files/f_blocks but are compared with
 *    f_ffree/f_bavail minus what is being written (cache.c:221-256);
 *  - cachefiles asks for blocks in PAGE_SIZE units (io.c:544,576:
 *    len / PAGE_SIZE, rounded down) but counts free space and in-flight
 *    writes in f_bsize units (io.c:319): on a 1 KiB-block filesystem a
 *    4 KiB write asks for 1 "block";
 *  - bshift is ilog2(f_bsize) even when f_bsize is not a power of two.
 */
#ifndef KMC_CULL_H
#define KMC_CULL_H

#include "kcompat.h"

/* cachefiles_daemon_open(): 7% run, 5% cull, 1% stop, files and blocks. */
#define KMC_CULL_DEFAULT_RUN	7
#define KMC_CULL_DEFAULT_CULL	5
#define KMC_CULL_DEFAULT_STOP	1

/* The six limits, in the order frun fcull fstop brun bcull bstop. */
enum kmc_cull_limit {
	KMC_FRUN,
	KMC_FCULL,
	KMC_FSTOP,
	KMC_BRUN,
	KMC_BCULL,
	KMC_BSTOP,
	KMC_CULL_LIMIT_NR
};

/* The struct kstatfs fields cachefiles reads, same names and types. */
struct kmc_statfs {
	long	f_bsize;
	u64	f_blocks;
	u64	f_bavail;
	u64	f_files;
	u64	f_ffree;
};

/* enum cachefiles_has_space_for: which failure counter -ENOBUFS bumps. */
enum kmc_space_for {
	KMC_SPACE_CHECK,
	KMC_SPACE_FOR_WRITE,
	KMC_SPACE_FOR_CREATE,
};

/* Where free space stands against the limits (checked in this order). */
enum kmc_cull_level {
	KMC_LEVEL_STOP,		/* below a stop limit: -ENOBUFS, cull */
	KMC_LEVEL_CULL,		/* below a cull limit: cull */
	KMC_LEVEL_HOLD,		/* between: culling keeps its state */
	KMC_LEVEL_RUN,		/* both at or above run: culling may cease */
};

/* What kmc_cull_has_space() did, as a mask for the caller to act on. */
#define KMC_CULL_BEGIN		0x1u	/* culling switched on: wake daemon */
#define KMC_CULL_CEASE		0x2u	/* culling switched off: wake daemon */
#define KMC_CULL_NO_WRITE	0x4u	/* fscache_count_no_write_space() */
#define KMC_CULL_NO_CREATE	0x8u	/* fscache_count_no_create_space() */

/* The cachefiles_cache fields of the policy, same names as the kernel's. */
struct kmc_cull {
	unsigned int	frun_percent;
	unsigned int	fcull_percent;
	unsigned int	fstop_percent;
	unsigned int	brun_percent;
	unsigned int	bcull_percent;
	unsigned int	bstop_percent;
	unsigned int	bsize;		/* f_bsize at bind */
	unsigned int	bshift;		/* ilog2(bsize) */
	u64		frun;		/* absolute limits, set at bind */
	u64		fcull;
	u64		fstop;
	u64		brun;
	u64		bcull;
	u64		bstop;
	bool		culling;	/* CACHEFILES_CULLING */
};

void kmc_cull_init(struct kmc_cull *c);
unsigned int kmc_cull_percent(const struct kmc_cull *c,
			      enum kmc_cull_limit which);
int kmc_cull_check_percent(const struct kmc_cull *c,
			   enum kmc_cull_limit which, unsigned long percent);
int kmc_cull_set_percent(struct kmc_cull *c, enum kmc_cull_limit which,
			 unsigned long percent);
int kmc_cull_validate(const struct kmc_cull *c);
int kmc_cull_bind(struct kmc_cull *c, const struct kmc_statfs *st);
void kmc_cull_avail(const struct kmc_statfs *st, u64 b_writing,
		    unsigned int fnr, unsigned int bnr, u64 *ffree,
		    u64 *bavail);
enum kmc_cull_level kmc_cull_level(const struct kmc_cull *c, u64 ffree,
				   u64 bavail);
int kmc_cull_has_space(struct kmc_cull *c, const struct kmc_statfs *st,
		       u64 b_writing, unsigned int fnr, unsigned int bnr,
		       enum kmc_space_for reason, unsigned int *events);
unsigned int kmc_cull_write_pages(u64 len);
u64 kmc_cull_writing_blocks(const struct kmc_cull *c, u64 len);
const char *kmc_cull_limit_name(enum kmc_cull_limit which);

#endif
