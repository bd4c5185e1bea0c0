/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kmirror/cull.h - cachefiles' culling policy (fs/cachefiles/daemon.c and
 * cache.c of Linux 6.1), for a daemon that keeps a cache of its own.
 *
 * Six limits in percent of the backing filesystem's files (f*) and
 * blocks (b*), turned into absolute numbers when the cache is bound:
 *   *stop   below it nothing more is allocated (-ENOBUFS)
 *   *cull   below it culling is switched on
 *   *run    culling is switched off again once both free files and free
 *           blocks are at or above frun and brun
 * with 0 <= stop < cull < run < 100.  Pure functions over struct
 * kmirror_cull: the caller does statfs and the culling.  Not thread-safe
 * per policy.
 */
#ifndef KMIRROR_CULL_H
#define KMIRROR_CULL_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The struct kstatfs fields cachefiles reads, same names. */
struct kmirror_statfs {
	long		f_bsize;
	uint64_t	f_blocks;
	uint64_t	f_bavail;
	uint64_t	f_files;
	uint64_t	f_ffree;
};

/* The cachefiles_cache fields of the policy, same names as the kernel's. */
struct kmirror_cull {
	unsigned int	frun_percent;
	unsigned int	fcull_percent;
	unsigned int	fstop_percent;
	unsigned int	brun_percent;
	unsigned int	bcull_percent;
	unsigned int	bstop_percent;
	unsigned int	bsize;		/* f_bsize at bind */
	unsigned int	bshift;		/* ilog2(bsize) */
	uint64_t	frun;		/* absolute limits, set at bind */
	uint64_t	fcull;
	uint64_t	fstop;
	uint64_t	brun;
	uint64_t	bcull;
	uint64_t	bstop;
	bool		culling;	/* CACHEFILES_CULLING */
};

/* Which failure counter a refusal bumps, as the kernel's enum. */
enum kmirror_space_for {
	KMIRROR_SPACE_CHECK,
	KMIRROR_SPACE_FOR_WRITE,
	KMIRROR_SPACE_FOR_CREATE,
};

/* What kmirror_cull_has_space() did, for the caller to act on. */
#define KMIRROR_CULL_BEGIN	0x1u	/* culling switched on */
#define KMIRROR_CULL_CEASE	0x2u	/* culling switched off */
#define KMIRROR_CULL_NO_WRITE	0x4u	/* fscache_count_no_write_space() */
#define KMIRROR_CULL_NO_CREATE	0x8u	/* fscache_count_no_create_space() */

/* The defaults of cachefiles_daemon_open(): 7% run, 5% cull, 1% stop. */
void kmirror_cull_init(struct kmirror_cull *c);
/*
 * 0 if the percentages are stop < cull < run < 100 for files and for
 * blocks, as cachefiles_daemon_bind() requires; else -ERANGE.
 */
int kmirror_cull_validate(const struct kmirror_cull *c);
/*
 * Bind the percentages to the filesystem @st describes
 * (cachefiles_add_cache()): sets the block size and the absolute limits.
 * 0, or -ERANGE (f_bsize <= 0) or -EOPNOTSUPP (f_bsize over the page
 * size), @c then untouched.
 */
int kmirror_cull_bind(struct kmirror_cull *c, const struct kmirror_statfs *st);
/*
 * cachefiles_has_space(): may @fnr files and @bnr blocks be allocated,
 * with @b_writing blocks already being written?  Updates c->culling and
 * sets *@events (KMIRROR_CULL_*).  0, or -ENOBUFS below a stop limit.
 */
int kmirror_cull_has_space(struct kmirror_cull *c,
			   const struct kmirror_statfs *st, uint64_t b_writing,
			   unsigned int fnr, unsigned int bnr,
			   enum kmirror_space_for reason,
			   unsigned int *events);

#ifdef __cplusplus
}
#endif

#endif /* KMIRROR_CULL_H */
