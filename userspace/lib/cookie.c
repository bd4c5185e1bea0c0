// SPDX-License-Identifier: GPL-2.0-only
/*
 * Data cookies: fs/fscache/cookie.c of the 6.1 tree, in userspace.
 *
 * Every decision is the core's (kmc_cookie.h, kmc_cookie_state.h): this
 * file takes a snapshot under cookie->lock, asks the core for a step and
 * applies it in the documented order.  The kernel's work item
 * (fscache_queue_cookie() -> fscache_cookie_worker()) becomes
 * kmf_queue_cookie(): the state machine runs at once in the calling thread,
 * non-reentrant per cookie; a thread that finds it running leaves a
 * "pending" mark that the running thread picks up before it lets go.
 */
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"

/* What a step left for its caller to do once cookie->lock is dropped. */
struct kmf_ctx {
	const void	*aux;		/* KMC_CA_UPDATE_AUX data */
	const int64_t	*size;
	unsigned int	deferred;	/* KMC_CA_* still to do */
	int		puts;		/* cookie refs to drop */
};

#define KMF_UNLOCKED_WORK (KMC_CA_PERFORM_LOOKUP | KMC_CA_PERFORM_INVAL | \
			   KMC_CA_PREP_TO_WRITE | KMC_CA_WITHDRAW_OBJECT)

static void kmf_bug(const struct fscache_cookie *c, const char *what, int a,
		    int b)
{
	fprintf(stderr, "kmirror: BUG: cookie c=%08x: %s (%d, %d)\n",
		c->debug_id, what, a, b);
	abort();
}

/* The only place a cookie's state changes: the core's table decides. */
static void kmf_cookie_transition(struct fscache_cookie *c, int event)
{
	int state = kmf_cookie_state(c);
	int next = kmc_cookie_transition(state, event);

	if (next < 0)
		kmf_bug(c, "illegal transition", state, event);
	atomic_store_explicit(&c->state, next, memory_order_release);
	kmf_wake(c->volume->cache);
}

/* KMC_CA_LRU_ADD: fscache_unuse_cookie_locked()'s LRU part. */
static void kmf_lru_add(struct fscache_cookie *c)
{
	struct fscache_cache *cache = c->volume->cache;
	u64 now = kmf_now_ms();

	bool over;

	pthread_mutex_lock(&cache->lru_lock);
	c->unused_at = now;
	if (!c->on_lru) {
		atomic_fetch_add(&c->ref, 1);
		kmf_stat(cache, cookies_lru);
		c->on_lru = true;
		cache->lru_n++;
	} else {
		cds_list_del(&c->lru_link);
	}
	cds_list_add_tail(&c->lru_link, &cache->lru);
	over = cache->lru_max && cache->lru_n > cache->lru_max;
	pthread_mutex_unlock(&cache->lru_lock);
	/* Past the cap, the reaper discards the oldest now. */
	kmf_lru_timer_reduce(cache, over ? now : now + cache->lru_timeout_ms);
}

/* KMC_CA_LRU_DROP: fscache_cookie_drop_from_lru(); true if a ref is due. */
static bool kmf_lru_remove(struct fscache_cookie *c)
{
	struct fscache_cache *cache = c->volume->cache;
	bool need_put = false;

	pthread_mutex_lock(&cache->lru_lock);
	if (c->on_lru) {
		cds_list_del(&c->lru_link);
		c->on_lru = false;
		cache->lru_n--;
		kmf_stat_d(cache, cookies_lru);
		kmf_stat(cache, cookies_lru_dropped);
		need_put = true;
	}
	pthread_mutex_unlock(&cache->lru_lock);
	return need_put;
}

/* KMC_CA_UPDATE_AUX: fscache_update_aux() through the core. */
static void kmf_update_aux(struct fscache_cookie *c, struct kmf_ctx *ctx)
{
	s64 size = atomic_load(&c->object_size), new_size;

	if (ctx->size)
		new_size = *ctx->size;
	kmc_cookie_update_aux(c->aux, c->aux_len, &size, ctx->aux,
			      ctx->size ? &new_size : NULL);
	atomic_store(&c->object_size, size);
}

/*
 * Step items 1-4: end of access, flags, the access a step may be refused
 * (always granted here: the core asks for it only with IS_CACHING set,
 * which nothing changes without c->lock, and a mounted cache is live),
 * event.
 */
static void kmf_apply_head(struct fscache_cookie *c,
			   const struct kmc_cookie_step *s,
			   struct kmf_ctx *ctx)
{
	unsigned long flags = kmf_cookie_flags(c);

	if (s->action & KMC_CA_END_ACCESS) {
		int n = atomic_fetch_sub(&c->n_accesses, 1) - 1;

		if (n < 0)
			kmf_bug(c, "n_accesses underflow", n, 0);
		if (kmc_cookie_end_access(n, flags))
			ctx->deferred |= KMC_CA_QUEUE;
	}
	kmf_clear_flag(c, s->clear);
	kmf_set_flag(c, s->set);
	if (s->action & KMC_CA_TRY_ACCESS)
		atomic_fetch_add(&c->n_accesses, 1);
	if (s->event != KMC_CEV_NONE)
		kmf_cookie_transition(c, s->event);
}

/* Step item 5, the bookkeeping actions that are done under the lock. */
static void kmf_apply_tail(struct fscache_cookie *c,
			   const struct kmc_cookie_step *s,
			   struct kmf_ctx *ctx)
{
	struct fscache_cache *cache = c->volume->cache;
	unsigned int a = s->action;

	if (a & KMC_CA_BEGIN_ACCESS)
		atomic_fetch_add(&c->n_accesses, 1);
	if (a & KMC_CA_UPDATE_AUX)
		kmf_update_aux(c, ctx);
	if (a & KMC_CA_INVAL_COUNT)
		atomic_fetch_add(&c->inval_counter, 1);
	if (a & KMC_CA_VOLUME_DEC)
		atomic_fetch_sub(&c->volume->n_cookies, 1);
	if (a & KMC_CA_UNHASH) {
		kmf_index_del(c);
		kmf_stat(cache, relinquishes_dropped);
	}
	if ((a & KMC_CA_LRU_DROP) && kmf_lru_remove(c))
		ctx->puts++;
	if (a & KMC_CA_LRU_ADD)
		kmf_lru_add(c);
	if ((a & KMC_CA_WITHDRAW) && atomic_load(&c->n_accesses) == 0)
		ctx->deferred |= KMC_CA_QUEUE;
	ctx->deferred |= a & (KMC_CA_BEGIN_LOOKUP | KMF_UNLOCKED_WORK |
			      KMC_CA_QUEUE | KMC_CA_WAIT | KMC_CA_AGAIN);
}

/* Apply @s in the order kmc_cookie_state.h prescribes; lock held. */
static void kmf_apply(struct fscache_cookie *c,
		      const struct kmc_cookie_step *s, struct kmf_ctx *ctx)
{
	kmf_apply_head(c, s, ctx);
	kmf_apply_tail(c, s, ctx);
}

/* Drop refs and queue work a step left behind; lock not held. */
static void kmf_finish(struct fscache_cookie *c, struct kmf_ctx *ctx)
{
	if (ctx->deferred & KMC_CA_QUEUE)
		kmf_queue_cookie(c);
	while (ctx->puts-- > 0)
		fscache_put_cookie(c);
}

void kmf_cookie_step_locked(struct fscache_cookie *c,
			    const struct kmc_cookie_step *s)
{
	struct kmf_ctx ctx = { 0 };

	kmf_apply(c, s, &ctx);
	if (ctx.puts || (ctx.deferred & ~KMC_CA_QUEUE))
		kmf_bug(c, "step needs a caller", ctx.puts, ctx.deferred);
	if (ctx.deferred & KMC_CA_QUEUE)
		atomic_store(&c->work_pending, 1);
}

void kmf_cookie_step(struct fscache_cookie *c,
		     const struct kmc_cookie_step *s)
{
	struct kmf_ctx ctx = { 0 };

	pthread_mutex_lock(&c->lock);
	kmf_apply(c, s, &ctx);
	pthread_mutex_unlock(&c->lock);
	kmf_finish(c, &ctx);
}

static void kmf_step_init(struct kmc_cookie_step *s, int event,
			  unsigned int action, unsigned long set,
			  unsigned long clear)
{
	s->event = event;
	s->action = action;
	s->set = set;
	s->clear = clear;
}

/* fscache_end_cookie_access(). */
void kmf_end_cookie_access(struct fscache_cookie *c)
{
	struct kmc_cookie_step s;

	kmf_step_init(&s, KMC_CEV_NONE, KMC_CA_END_ACCESS, 0, 0);
	kmf_cookie_step(c, &s);
}

/* fscache_cookie_lookup_negative(). */
static void kmf_cookie_lookup_negative(struct fscache_cookie *c)
{
	struct kmc_cookie_step s;

	kmf_step_init(&s, KMC_CEV_LOOKUP_NEGATIVE, 0,
		      KMC_CF(NO_DATA_TO_READ), 0);
	kmf_cookie_step(c, &s);
}

/* fscache_caching_failed(). */
void kmf_caching_failed(struct fscache_cookie *c)
{
	struct kmc_cookie_step s;

	kmf_step_init(&s, KMC_CEV_CACHING_FAILED, 0, 0, KMC_CF(IS_CACHING));
	kmf_cookie_step(c, &s);
}

/* fscache_resume_after_invalidation(). */
static void kmf_resume_after_invalidation(struct fscache_cookie *c)
{
	struct kmc_cookie_step s;

	kmf_step_init(&s, KMC_CEV_INVALIDATED, 0, 0, 0);
	kmf_cookie_step(c, &s);
}

const struct kmf_fscache_helpers kmf_fscache_helpers = {
	.lookup_negative		= kmf_cookie_lookup_negative,
	.caching_failed			= kmf_caching_failed,
	.resume_after_invalidation	= kmf_resume_after_invalidation,
	.step_locked			= kmf_cookie_step_locked,
};

/* wait_var_event(&cookie->state, state != @state). */
void kmf_wait_state(struct fscache_cookie *c, int state)
{
	struct fscache_cache *cache = c->volume->cache;

	pthread_mutex_lock(&cache->wait_lock);
	atomic_fetch_add(&cache->n_waiters, 1);
	while (kmf_cookie_state(c) == state)
		pthread_cond_wait(&cache->wait_cond, &cache->wait_lock);
	atomic_fetch_sub(&cache->n_waiters, 1);
	pthread_mutex_unlock(&cache->wait_lock);
}

/* fscache_perform_lookup(). */
static void kmf_perform_lookup(struct fscache_cookie *c)
{
	struct fscache_volume *volume = c->volume;
	enum kmc_lookup_result r = KMC_LOOKUP_OK;
	struct kmc_cookie_step s;
	struct kmf_ctx ctx = { 0 };

	if (volume->dir_fd < 0)
		r = KMC_LOOKUP_NO_VOLUME;
	else if (!volume->cache->ops->lookup_cookie(c))
		r = KMC_LOOKUP_FAILED;

	pthread_mutex_lock(&c->lock);
	if (kmc_cookie_lookup_result(kmf_cookie_state(c), kmf_cookie_flags(c),
				     r, &s) < 0)
		kmf_bug(c, "lookup result", kmf_cookie_state(c), r);
	kmf_apply(c, &s, &ctx);
	pthread_mutex_unlock(&c->lock);
	kmf_finish(c, &ctx);
	kmf_end_volume_access(volume);
}

/* fscache_perform_invalidation(). */
static void kmf_perform_invalidation(struct fscache_cookie *c)
{
	if (!c->volume->cache->ops->invalidate_cookie(c))
		kmf_caching_failed(c);
	kmf_end_cookie_access(c);
}

/* The unlocked part of a state machine pass. */
static void kmf_sm_unlocked(struct fscache_cookie *c, unsigned int work)
{
	if (work & KMC_CA_PERFORM_LOOKUP)
		kmf_perform_lookup(c);
	if (work & KMC_CA_PERFORM_INVAL)
		kmf_perform_invalidation(c);
	if (work & KMC_CA_PREP_TO_WRITE)
		c->volume->cache->ops->prepare_to_write(c);
	if (work & KMC_CA_WITHDRAW_OBJECT)
		c->volume->cache->ops->withdraw_cookie(c);
}

/* fscache_cookie_state_machine(): steps until the core says stop. */
static void kmf_cookie_state_machine(struct fscache_cookie *c)
{
	struct kmc_cookie_step s;
	struct kmf_ctx ctx;

	pthread_mutex_lock(&c->lock);
	do {
		memset(&ctx, 0, sizeof(ctx));
		kmc_cookie_sm_step(kmf_cookie_state(c), kmf_cookie_flags(c),
				   atomic_load(&c->n_accesses),
				   c->object != NULL, &s);
		kmf_apply(c, &s, &ctx);
		if (ctx.deferred & KMF_UNLOCKED_WORK) {
			pthread_mutex_unlock(&c->lock);
			kmf_sm_unlocked(c, ctx.deferred);
			pthread_mutex_lock(&c->lock);
		}
		if (ctx.deferred & KMC_CA_QUEUE)
			atomic_store(&c->work_pending, 1);
		if (ctx.puts)
			kmf_bug(c, "state machine dropped a ref", ctx.puts, 0);
	} while (ctx.deferred & KMC_CA_AGAIN);
	pthread_mutex_unlock(&c->lock);
}

/* fscache_queue_cookie() + the worker, see the top of this file. */
void kmf_queue_cookie(struct fscache_cookie *c)
{
	fscache_get_cookie(c);
	atomic_store(&c->work_pending, 1);
	while (atomic_load(&c->work_pending)) {
		/* A trylock: whoever runs the work sees our pending flag. */
		if (atomic_exchange_explicit(&c->work_running, true,
					     memory_order_acquire))
			break;
		while (atomic_exchange(&c->work_pending, 0))
			kmf_cookie_state_machine(c);
		atomic_store_explicit(&c->work_running, false,
				      memory_order_release);
	}
	fscache_put_cookie(c);
}

/* ---- acquire / relinquish ------------------------------------------ */

/*
 * fscache_alloc_cookie(): one zeroed 64-byte aligned allocation; keys up
 * to 16 bytes live in its first cache line.
 */
static struct fscache_cookie *kmf_alloc_cookie(struct fscache_volume *volume,
					       u8 advice, const void *key,
					       size_t klen, const void *aux,
					       unsigned int auxlen, s64 object_size)
{
	size_t buflen = KMC_COOKIE_BUF_LEN(klen);
	bool inline_key = klen <= KMC_COOKIE_INLINE_KEY;
	struct fscache_cookie *c;
	size_t size;
	void *base;

	if (inline_key && auxlen <= KMC_COOKIE_INLINE_AUX)
		size = KMF_JAR_SIZE;
	else
		size = KMF_COOKIE_ALLOC((inline_key ? 0 : buflen) + auxlen);
	base = kmf_jar_alloc(volume->cache, size);
	if (!base)
		return NULL;
	c = base;
	c->rcu.base = base;
	c->rcu.jar = size == KMF_JAR_SIZE;
	kmf_stat(volume->cache, cookies);
	c->volume = volume;
	c->advice = advice;
	c->key_len = klen;
	c->aux_len = auxlen;
	atomic_init(&c->object_size, object_size);
	atomic_init(&c->flags, kmc_cookie_init_flags(object_size));
	c->key = inline_key ? c->inline_key : c->data;
	c->aux = inline_key ? c->data : c->data + buflen;
	kmc_cookie_key_build(key, klen, c->key, buflen);
	c->key_hash = kmc_cookie_key_hash(volume->key_hash, c->key, buflen);
	if (auxlen)
		memcpy(c->aux, aux, auxlen);
	atomic_init(&c->ref, 1);
	c->debug_id = atomic_fetch_add(&volume->cache->debug_id, 1) + 1;
	pthread_mutex_init(&c->lock, NULL);
	CDS_INIT_LIST_HEAD(&c->lru_link);
	atomic_init(&c->state, KMC_COOKIE_STATE_QUIESCENT);
	return c;
}

/* fscache_free_cookie(): the memory goes after a grace period. */
static void kmf_free_cookie(struct fscache_cookie *c)
{
	struct fscache_cache *cache = c->volume->cache;

	if (kmf_test_flag(c, KMC_CF(IS_HASHED)))
		kmf_bug(c, "freeing a hashed cookie", 0, 0);
	pthread_mutex_destroy(&c->lock);
	kmf_stat_d(cache, cookies);
	kmf_defer_free(cache, &c->rcu);
}

/* wait until a relinquished cookie of the same key is DROPPED */
static void kmf_wait_on_collision(struct fscache_cookie *wait_for)
{
	int state;

	while ((state = kmf_cookie_state(wait_for)) !=
	       KMC_COOKIE_STATE_DROPPED)
		kmf_wait_state(wait_for, state);
	fscache_put_cookie(wait_for);
}

struct fscache_cookie *fscache_acquire_cookie(struct fscache_volume *volume,
					      uint8_t advice,
					      const void *index_key,
					      size_t index_key_len,
					      const void *aux_data,
					      size_t aux_data_len,
					      int64_t object_size)
{
	struct fscache_cookie *c, *wait_for = NULL;
	unsigned int auxlen;
	int ret;

	kmf_rcu_thread();
	ret = volume ? kmc_cookie_check(index_key, index_key_len, aux_data,
					aux_data_len) : -EINVAL;
	if (ret) {
		errno = -ret;
		return NULL;
	}
	auxlen = kmc_cookie_aux_len(aux_data, aux_data_len);
	kmf_stat(volume->cache, acquires);
	c = kmf_alloc_cookie(volume, advice, index_key, index_key_len,
			     aux_data, auxlen, object_size);
	if (!c) {
		kmf_stat(volume->cache, acquires_oom);
		errno = ENOMEM;
		return NULL;
	}
	if (kmf_index_add(c, &wait_for)) {
		if (wait_for)
			fscache_put_cookie(wait_for);
		pr_debug("kmirror: Duplicate cookie detected\n");
		kmf_free_cookie(c);
		errno = EEXIST;
		return NULL;
	}
	kmf_get_volume(volume);
	atomic_fetch_add(&volume->n_cookies, 1);
	if (wait_for)
		kmf_wait_on_collision(wait_for);
	kmf_stat(volume->cache, acquires_ok);
	return c;
}

/*
 * Retiring a cookie that was never cached: the kernel leaves its object on
 * disk (it only deletes objects it has open), where a later cookie with
 * the same aux data and size would be served the retired data.  Userspace
 * deletes it, while the cookie still holds its key (before the unhash).
 */
static void kmf_retire_uncached(struct fscache_cookie *c)
{
	unsigned long flags = kmf_cookie_flags(c);

	if (!(flags & (KMC_CF(HAS_BEEN_CACHED) | KMC_CF(RELINQUISHED))) &&
	    !atomic_load(&c->n_active))
		c->volume->cache->ops->delete_unused(c);
}

void fscache_relinquish_cookie(struct fscache_cookie *c, bool retire)
{
	struct fscache_cache *cache;
	struct kmc_cookie_step s;
	struct kmf_ctx ctx = { 0 };
	unsigned long flags;
	int ret;

	if (!c)
		return;
	kmf_rcu_thread();
	cache = c->volume->cache;
	kmf_stat(cache, relinquishes);
	if (retire)
		kmf_stat(cache, relinquishes_retire);
	if (retire)
		kmf_retire_uncached(c);
	pthread_mutex_lock(&c->lock);
	flags = kmf_cookie_flags(c);
	ret = kmc_cookie_relinquish(flags, atomic_load(&c->n_active), retire,
				    &s);
	if (!ret)
		kmf_apply(c, &s, &ctx);
	pthread_mutex_unlock(&c->lock);
	if (ret) {
		pr_err("kmirror: c=%08x: relinquish refused (%s)\n",
		       c->debug_id, ret == -EBUSY ? "in use" :
		       "already relinquished");
		return;
	}
	kmf_finish(c, &ctx);
	fscache_put_cookie(c);
}

/* ---- use / unuse / update / invalidate ----------------------------- */

/* fscache_begin_lookup() once the core asked for it (lock held). */
static void kmf_begin_lookup(struct fscache_cookie *c, struct kmf_ctx *ctx)
{
	struct kmc_cookie_step s;

	if (!kmf_begin_volume_access(c->volume))
		return;
	kmc_cookie_begin_lookup(&s);
	kmf_apply(c, &s, ctx);
}

int fscache_use_cookie(struct fscache_cookie *c, bool will_modify)
{
	struct kmc_cookie_step s;
	struct kmf_ctx ctx = { 0 };
	int ret, state;

	if (!c)
		return -ENOBUFS;
	kmf_rcu_thread();
	if (kmc_cookie_use_check(kmf_cookie_flags(c))) {
		pr_err("kmirror: Trying to use relinquished cookie\n");
		return -EINVAL;
	}
	pthread_mutex_lock(&c->lock);
	atomic_fetch_add(&c->n_active, 1);
	for (;;) {
		state = kmf_cookie_state(c);
		ret = kmc_cookie_use(state, kmf_cookie_flags(c), will_modify,
				     &s);
		if (ret)
			break;
		ctx.deferred = 0;
		kmf_apply(c, &s, &ctx);
		if (ctx.deferred & KMC_CA_BEGIN_LOOKUP)
			kmf_begin_lookup(c, &ctx);
		if (!(ctx.deferred & KMC_CA_WAIT))
			break;
		pthread_mutex_unlock(&c->lock);
		kmf_wait_state(c, state);
		pthread_mutex_lock(&c->lock);
	}
	pthread_mutex_unlock(&c->lock);
	kmf_finish(c, &ctx);
	if (ret)
		return ret;
	while ((state = kmf_cookie_state(c)) == KMC_COOKIE_STATE_LOOKING_UP ||
	       state == KMC_COOKIE_STATE_CREATING)
		kmf_wait_state(c, state);
	return kmf_test_flag(c, KMC_CF(IS_CACHING)) &&
	       state == KMC_COOKIE_STATE_ACTIVE ? 0 : -ENOBUFS;
}

void fscache_unuse_cookie(struct fscache_cookie *c, const void *aux_data,
			  const int64_t *object_size)
{
	bool update = aux_data || object_size;
	struct kmc_cookie_step s;
	struct kmf_ctx ctx = { .aux = aux_data, .size = object_size };
	int n;

	if (!c)
		return;
	kmf_rcu_thread();
	if (update)
		kmf_stat(c->volume->cache, updates);
	pthread_mutex_lock(&c->lock);
	n = kmc_cookie_unuse(atomic_load(&c->n_active), kmf_cookie_flags(c),
			     update, &s);
	if (n >= 0) {
		atomic_store(&c->n_active, n);
		kmf_apply(c, &s, &ctx);
	}
	pthread_mutex_unlock(&c->lock);
	if (n < 0)
		pr_err("kmirror: c=%08x: unuse without use\n", c->debug_id);
	kmf_finish(c, &ctx);
}

void fscache_update_cookie(struct fscache_cookie *c, const void *aux_data,
			   const int64_t *object_size)
{
	struct kmc_cookie_step s;
	struct kmf_ctx ctx = { .aux = aux_data, .size = object_size };

	if (!c || !kmc_cookie_enabled(kmf_cookie_flags(c)))
		return;
	kmf_stat(c->volume->cache, updates);
	kmc_cookie_update(&s);
	pthread_mutex_lock(&c->lock);
	kmf_apply(c, &s, &ctx);
	pthread_mutex_unlock(&c->lock);
	kmf_finish(c, &ctx);
}

/*
 * Did the kernel's path carry this invalidation to the object?  Only an
 * ACTIVE caching cookie (event INVALIDATE) or a lookup in progress
 * (DO_INVALIDATE) replaces the object.  In every other state the kernel
 * just updates the cookie, and the object on disk keeps the old data: if
 * the netfs's new aux data and size happen to equal the old ones, the next
 * lookup would serve it.  Userspace marks it stale instead.
 */
static bool kmf_inval_reaches_object(const struct fscache_cookie *c,
				     const struct kmc_cookie_step *s,
				     int state)
{
	if (!(s->action & KMC_CA_INVAL_COUNT))
		return true;	/* a no-op: nothing changed */
	if (s->event == KMC_CEV_INVALIDATE)
		return true;
	return state == KMC_COOKIE_STATE_LOOKING_UP &&
	       kmf_test_flag(c, KMC_CF(DO_INVALIDATE));
}

void fscache_invalidate(struct fscache_cookie *c, const void *aux_data,
			int64_t size, unsigned int flags)
{
	struct kmc_cookie_step s;
	struct kmf_ctx ctx = { .aux = aux_data, .size = &size };
	int ret, state;

	if (!c || !kmc_cookie_enabled(kmf_cookie_flags(c)))
		return;
	kmf_rcu_thread();
	kmf_stat(c->volume->cache, invalidates);
	pthread_mutex_lock(&c->lock);
	state = kmf_cookie_state(c);
	ret = kmc_cookie_invalidate(state, kmf_cookie_flags(c),
				    flags & FSCACHE_INVAL_DIO_WRITE, &s);
	if (!ret) {
		kmf_apply(c, &s, &ctx);
		if (!kmf_inval_reaches_object(c, &s, state))
			atomic_store(&c->stale_on_disk, true);
	}
	pthread_mutex_unlock(&c->lock);
	if (ret)
		pr_err("kmirror: Trying to invalidate relinquished cookie\n");
	kmf_finish(c, &ctx);
}

/* ---- references, lookup, introspection ----------------------------- */

struct fscache_cookie *fscache_get_cookie(struct fscache_cookie *c)
{
	if (c)
		atomic_fetch_add(&c->ref, 1);
	return c;
}

void fscache_put_cookie(struct fscache_cookie *c)
{
	struct fscache_volume *volume;
	int ref;

	if (!c)
		return;
	ref = atomic_fetch_sub(&c->ref, 1) - 1;
	if (ref > 0)
		return;
	if (ref < 0)
		kmf_bug(c, "refcount underflow", ref, 0);
	volume = c->volume;
	kmf_free_cookie(c);
	kmf_put_volume(volume);
}

/* Hash @key as acquire would; false (errno set) if it could not exist. */
static bool kmf_lookup_hash(struct fscache_volume *volume, const void *key,
			    size_t klen, u32 *hash)
{
	int ret;

	ret = volume ? kmc_cookie_hash(volume->key_hash, key, klen, hash) :
		       -EINVAL;

	if (ret)
		errno = -ret;
	return !ret;
}

struct fscache_cookie *fscache_lookup_cookie_rcu(struct fscache_volume *volume,
						 const void *key, size_t klen)
{
	struct fscache_cookie *c;
	u32 hash;

	if (!kmf_lookup_hash(volume, key, klen, &hash))
		return NULL;
	c = kmf_index_lookup(volume, hash, key, klen);
	if (!c)
		errno = ENOENT;
	return c;
}

struct fscache_cookie *fscache_lookup_cookie(struct fscache_volume *volume,
					     const void *key, size_t klen)
{
	struct fscache_cookie *c;
	int ref;

	fscache_read_lock();
	c = fscache_lookup_cookie_rcu(volume, key, klen);
	if (c) {
		ref = atomic_load(&c->ref);
		do {
			if (ref <= 0) {
				c = NULL;
				errno = ENOENT;
				break;
			}
		} while (!atomic_compare_exchange_weak(&c->ref, &ref,
						       ref + 1));
	}
	fscache_read_unlock();
	return c;
}

void fscache_read_lock(void)
{
	kmf_rcu_thread();
	kmf_read_lock();
}

void fscache_read_unlock(void)
{
	kmf_read_unlock();
}

enum fscache_cookie_state fscache_cookie_state(const struct fscache_cookie *c)
{
	return c ? (enum fscache_cookie_state)kmf_cookie_state(c)
		 : FSCACHE_COOKIE_STATE_QUIESCENT;
}

int64_t fscache_cookie_object_size(const struct fscache_cookie *c)
{
	return c ? atomic_load(&c->object_size) : 0;
}

unsigned int fscache_cookie_inval_counter(const struct fscache_cookie *c)
{
	return c ? atomic_load(&c->inval_counter) : 0;
}

unsigned int fscache_cookie_n_active(const struct fscache_cookie *c)
{
	return c ? (unsigned int)atomic_load(&c->n_active) : 0;
}

size_t fscache_cookie_get_aux(const struct fscache_cookie *c, void *buf,
			      size_t size)
{
	if (!c)
		return 0;
	pthread_mutex_lock((pthread_mutex_t *)&c->lock);
	if (buf)
		memcpy(buf, c->aux, min((size_t)c->aux_len, size));
	pthread_mutex_unlock((pthread_mutex_t *)&c->lock);
	return c->aux_len;
}

bool fscache_cookie_no_data_to_read(const struct fscache_cookie *c)
{
	return c && kmf_test_flag(c, KMC_CF(NO_DATA_TO_READ));
}

/* ---- the LRU -------------------------------------------------------- */

/*
 * fscache_cookie_lru_do_one().  The core's expiry rule has the kernel's
 * fixed timeout; a configured one is applied by shifting the clock, and
 * @now_too (the LRU is past its cap) shifts it past any timeout.
 */
static unsigned int kmf_lru_do_one(struct fscache_cookie *c, bool now_too)
{
	struct fscache_cache *cache = c->volume->cache;
	u64 now = kmf_now_ms() + KMC_COOKIE_LRU_TIMEOUT_MS -
		  cache->lru_timeout_ms;

	if (now_too)
		now = c->unused_at + KMC_COOKIE_LRU_TIMEOUT_MS;
	struct kmc_cookie_step s;
	struct kmf_ctx ctx = { 0 };
	bool discard;

	pthread_mutex_lock(&c->lock);
	discard = kmc_cookie_lru_do_one(kmf_cookie_state(c),
					atomic_load(&c->n_active),
					c->unused_at, now, &s);
	if (discard)
		kmf_apply(c, &s, &ctx);
	pthread_mutex_unlock(&c->lock);
	if (discard)
		kmf_stat(cache, cookies_lru_expired);
	else
		kmf_stat(cache, cookies_lru_removed);
	kmf_finish(c, &ctx);
	fscache_put_cookie(c);	/* the LRU's */
	return discard;
}

/* fscache_cookie_lru_worker(): one pass over the expired head. */
unsigned int kmf_lru_run(struct fscache_cache *cache, bool force)
{
	struct fscache_cookie *c;
	unsigned int n = 0;
	bool over;
	u64 due;

	pthread_mutex_lock(&cache->lru_lock);
	cache->lru_timer_ms = 0;
	while (!cds_list_empty(&cache->lru)) {
		c = cds_list_first_entry(&cache->lru, struct fscache_cookie,
					 lru_link);
		due = c->unused_at + cache->lru_timeout_ms;
		over = cache->lru_max && cache->lru_n > cache->lru_max;
		if (!force && !over && (s64)(kmf_now_ms() - due) < 0) {
			cache->lru_timer_ms = due;
			break;
		}
		cds_list_del_init(&c->lru_link);
		c->on_lru = false;
		cache->lru_n--;
		kmf_stat_d(cache, cookies_lru);
		pthread_mutex_unlock(&cache->lru_lock);
		n += kmf_lru_do_one(c, over);
		pthread_mutex_lock(&cache->lru_lock);
	}
	pthread_mutex_unlock(&cache->lru_lock);
	return n;
}
