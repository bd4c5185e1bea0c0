// SPDX-License-Identifier: GPL-2.0-only
/*
 * The world a build of fs/fscache/cookie.c runs in for diff_cookie: its
 * clock, its work queue, its volume and a cache backend whose choices (a
 * lookup fails, finds nothing, an invalidation fails, a volume cannot be
 * made) come from a seeded generator, so that two builds given the same
 * seed and the same calls see the same world.  One thread: work runs when
 * the test says so, or when a wait needs it to (ksm_progress()).
 */
#include <stdlib.h>

#include "ksm.h"
#include "kmc_hash.h"

static struct ksm_ctx *cur;
unsigned long ksm_jiffies;
struct workqueue_struct *fscache_wq;

void ksm_enter(struct ksm_ctx *ctx)
{
	if (cur)
		cur->jiffies = ksm_jiffies;
	cur = ctx;
	ksm_jiffies = ctx->jiffies;
}

unsigned int ksm_choice(unsigned int n)
{
	uint64_t z;

	if (cur->scripted)	/* the last choice: success, below */
		return n - 1;
	z = (cur->rng += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (unsigned int)((z ^ (z >> 31)) % n);
}

void ksm_warn(const char *file, int line)
{
	(void)file;
	(void)line;
	cur->warns++;
}

_Noreturn void ksm_bug(const char *file, int line)
{
	(void)file;
	(void)line;
	cur->bugs++;
	longjmp(*cur->bail, 1);
}

void ksm_hang(void)
{
	cur->hangs++;
	longjmp(*cur->bail, 2);
}

/*
 * An access was just taken.  If the test asked for it, the cache dies now,
 * as fscache_withdraw_cache() can on another CPU between an invalidation's
 * access and the check after it that the cache is still live.
 */
void kshim_access_seen(int why)
{
	if (why == fscache_access_invalidate_cookie &&
	    cur->die_at_inval_access) {
		cur->die_at_inval_access = false;
		cur->cache.state = FSCACHE_CACHE_IS_WITHDRAWN;
	}
}

bool queue_work(struct workqueue_struct *wq, struct work_struct *w)
{
	(void)wq;
	if (w->pending)
		return false;
	if (cur->n_work == KSM_MAX_WORK)
		ksm_bug(__FILE__, __LINE__);
	w->pending = true;
	cur->work[cur->n_work++] = w;
	return true;
}

bool ksm_run_work(void)
{
	struct work_struct *w;

	if (!cur->n_work)
		return false;
	w = cur->work[0];
	cur->n_work--;
	memmove(cur->work, cur->work + 1, cur->n_work * sizeof(*cur->work));
	w->pending = false;
	w->func(w);
	return true;
}

int timer_reduce(struct timer_list *t, unsigned long expires)
{
	if (!t->armed || time_before(expires, t->expires)) {
		t->expires = expires;
		t->armed = true;
	}
	return 0;
}

void ksm_fire_timer(void)
{
	struct timer_list *t = cur->impl->lru_timer;

	if (t->armed && !time_before(ksm_jiffies, t->expires)) {
		t->armed = false;
		t->function(t);
	}
}

/*
 * A wait's way forward, as other threads would give it: queued work runs
 * first, then the oldest cache access the test holds ends.
 */
bool ksm_progress(void)
{
	struct fscache_cookie *c;

	if (ksm_run_work())
		return true;
	if (!cur->n_io)
		return false;
	c = cur->io[0];
	cur->n_io--;
	memmove(cur->io, cur->io + 1, cur->n_io * sizeof(*cur->io));
	cur->impl->end_access(c, fscache_access_io_end);
	return true;
}

void *kmem_cache_zalloc(struct kmem_cache *c, gfp_t gfp)
{
	void *p;

	if (cur->n_live == KSM_MAX_LIVE)
		ksm_bug(__FILE__, __LINE__);
	p = kzalloc(c->size, gfp);
	if (p)
		cur->live[cur->n_live++] = p;
	if (p && cur->fail_key_copy)	/* fscache_set_key()'s kzalloc() */
		kmc_alloc_fail_next(1);
	return p;
}

void kmem_cache_free(struct kmem_cache *c, void *p)
{
	int i;

	(void)c;
	for (i = 0; i < cur->n_live && cur->live[i] != p; i++)
		;
	if (i == cur->n_live)
		ksm_bug(__FILE__, __LINE__);	/* not ours, or freed twice */
	cur->live[i] = cur->live[--cur->n_live];
	kfree(p);
}

/* --- fs/fscache/main.c and volume.c ---------------------------------- */
u32 fscache_hash(u32 salt, const void *data, size_t len)
{
	return kmc_hash(salt, data, len);
}

bool fscache_begin_volume_access(struct fscache_volume *volume,
				 struct fscache_cookie *cookie,
				 enum fscache_access_trace why)
{
	(void)cookie;
	(void)why;
	return fscache_cache_is_live(volume->cache);
}

void fscache_end_volume_access(struct fscache_volume *volume,
			       struct fscache_cookie *cookie,
			       enum fscache_access_trace why)
{
	(void)volume;
	(void)cookie;
	(void)why;
}

void fscache_create_volume(struct fscache_volume *volume, bool wait)
{
	(void)wait;
	if (ksm_choice(8))
		volume->cache_priv = volume;
}

struct fscache_volume *fscache_get_volume(struct fscache_volume *volume,
					  enum fscache_volume_trace where)
{
	(void)where;
	volume->ref.refs++;
	return volume;
}

void fscache_put_volume(struct fscache_volume *volume,
			enum fscache_volume_trace where)
{
	(void)where;
	volume->ref.refs--;
}

/* --- the cache backend (fscache_cache_ops) ------------------------- */
static bool ksm_lookup_cookie(struct fscache_cookie *c)
{
	cur->lookups++;
	switch (cur->scripted == 2 ? 1 : ksm_choice(8)) {
	case 0:
		cur->impl->caching_failed(c);
		return false;
	case 1:
		return false;
	case 2:
		c->cache_priv = &cur->cache;
		cur->impl->lookup_negative(c);
		return true;
	default:
		c->cache_priv = &cur->cache;
		return true;
	}
}

static void ksm_withdraw_cookie(struct fscache_cookie *c)
{
	cur->withdrawals++;
	c->cache_priv = NULL;
}

static bool ksm_invalidate_cookie(struct fscache_cookie *c)
{
	cur->invalidations++;
	if (ksm_choice(4) == 0)
		return false;
	cur->impl->resume_after_invalidation(c);
	return true;
}

static void ksm_prepare_to_write(struct fscache_cookie *c)
{
	(void)c;
	cur->preparations++;
}

static struct kmem_cache ksm_jar = { sizeof(struct fscache_cookie) };

void ksm_ctx_init(struct ksm_ctx *ctx, const struct ksm_impl *impl,
		  uint64_t seed)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->impl = impl;
	ctx->rng = seed;
	ctx->jiffies = (unsigned long)-300 * HZ;	/* wraps: INITIAL_JIFFIES */
	ctx->ops.lookup_cookie = ksm_lookup_cookie;
	ctx->ops.withdraw_cookie = ksm_withdraw_cookie;
	ctx->ops.invalidate_cookie = ksm_invalidate_cookie;
	ctx->ops.prepare_to_write = ksm_prepare_to_write;
	ctx->cache.ops = &ctx->ops;
	ctx->cache.state = FSCACHE_CACHE_IS_ACTIVE;
	ctx->volume.cache = &ctx->cache;
	ctx->volume.key_hash = 0x12345678;
	ctx->volume.ref.refs = 1;
	*impl->jar = &ksm_jar;
	impl->lru_timer->armed = false;
}
