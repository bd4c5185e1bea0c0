/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The differential test of the cookie state machine: one build of
 * fs/fscache/cookie.c is one struct ksm_impl; kshim.c is the world both
 * run in (clock, work queue, volume, cache backend), one struct ksm_ctx
 * per build so that their runs never mix.
 */
#ifndef KMIRROR_KSM_H
#define KMIRROR_KSM_H

#include <setjmp.h>
#include <stdint.h>
#include "fs/fscache/internal.h"

struct ksm_impl {
	const char *name;
	struct kmem_cache **jar;
	struct timer_list *lru_timer;
	struct fscache_cookie *(*acquire)(struct fscache_volume *v, u8 advice,
					  const void *key, size_t klen,
					  const void *aux, size_t alen,
					  loff_t size);
	void (*use)(struct fscache_cookie *c, bool will_modify);
	void (*unuse)(struct fscache_cookie *c, const void *aux,
		      const loff_t *size);
	bool (*begin_access)(struct fscache_cookie *c,
			     enum fscache_access_trace why);
	void (*end_access)(struct fscache_cookie *c,
			   enum fscache_access_trace why);
	void (*invalidate)(struct fscache_cookie *c, const void *aux,
			   loff_t size, unsigned int flags);
	void (*withdraw)(struct fscache_cookie *c);
	void (*relinquish)(struct fscache_cookie *c, bool retire);
	struct fscache_cookie *(*get)(struct fscache_cookie *c,
				      enum fscache_cookie_trace where);
	void (*put)(struct fscache_cookie *c, enum fscache_cookie_trace where);
	void (*lookup_negative)(struct fscache_cookie *c);
	void (*caching_failed)(struct fscache_cookie *c);
	void (*resume_after_invalidation)(struct fscache_cookie *c);
};

extern const struct ksm_impl stock_impl, kmirror_impl;

#define KSM_MAX_WORK	64
#define KSM_MAX_IO	8
#define KSM_MAX_LIVE	16

/* The world one build runs in. */
struct ksm_ctx {
	const struct ksm_impl *impl;
	unsigned long jiffies;
	uint64_t rng;			/* the backend's choices */
	struct work_struct *work[KSM_MAX_WORK];	/* queued, FIFO */
	int n_work;
	struct fscache_cache cache;
	struct fscache_cache_ops ops;
	struct fscache_volume volume;
	int scripted;			/* no random choices: 1 lookups and
					 * everything else succeed, 2 lookups
					 * fail */
	bool die_at_inval_access;	/* the cache dies as an invalidation
					 * takes its access */
	bool fail_key_copy;		/* the allocation after the next
					 * cookie's fails */
	struct fscache_cookie *io[KSM_MAX_IO];	/* accesses the test holds */
	int n_io;
	/* what happened */
	int warns, bugs, hangs;
	int lookups, withdrawals, invalidations, preparations;
	jmp_buf *bail;			/* BUG: back to the driver */
	void *live[KSM_MAX_LIVE];	/* cookies allocated, not freed */
	int n_live;
};

/* Make @ctx the world the next calls run in. */
void ksm_enter(struct ksm_ctx *ctx);
void ksm_ctx_init(struct ksm_ctx *ctx, const struct ksm_impl *impl,
		  uint64_t seed);
/* Run the first queued work item; false if there was none. */
bool ksm_run_work(void);
/* Fire the LRU timer if it is armed and due. */
void ksm_fire_timer(void);
/* One of the backend's choices: 0 .. n-1 */
unsigned int ksm_choice(unsigned int n);

#endif
