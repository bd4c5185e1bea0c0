// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cache handle: open and close (fs/fscache/cache.c and the daemon's
 * "bind" of the 6.1 tree) and the reaper thread that runs the cookie LRU
 * (the LRU timer and fscache_cookie_lru_worker()).  The top of the
 * library: it calls down into cookies, volumes, the cookie index and the
 * backend (through its ops), and nothing calls up into it.
 */
#include <stdlib.h>
#include <time.h>

#include "internal.h"

/* True if some shard has a batch of frees waiting. */
static bool kmf_frees_pending(struct fscache_cache *cache)
{
	unsigned int i;

	for (i = 0; i < KMF_SHARDS; i++)
		if (atomic_load(&cache->shards[i].n_free) >= KMF_FREE_BATCH)
			return true;
	return false;
}

/* ---- the reaper thread (LRU timer + worker, deferred frees) -------- */

/* When the reaper must next wake: the LRU timer, a batch of frees. */
static u64 kmf_reaper_deadline(struct fscache_cache *cache, u64 now)
{
	u64 at = now + 1000;

	if (cache->lru_timer_ms && (s64)(cache->lru_timer_ms - at) < 0)
		at = cache->lru_timer_ms;
	if (kmf_frees_pending(cache) || atomic_load(&cache->resize_wanted))
		at = now;
	return at;
}

static void kmf_timespec_at(struct timespec *ts, u64 at, u64 now)
{
	u64 ms = (s64)(at - now) > 0 ? at - now : 0;

	clock_gettime(CLOCK_MONOTONIC, ts);
	ts->tv_sec += ms / 1000;
	ts->tv_nsec += (ms % 1000) * 1000000;
	if (ts->tv_nsec >= 1000000000) {
		ts->tv_sec++;
		ts->tv_nsec -= 1000000000;
	}
}

/* Sleep until the LRU timer is due, frees pile up, a second, or stop. */
static bool kmf_reaper_wait(struct fscache_cache *cache)
{
	struct timespec ts;
	u64 now, at;
	bool stop;

	pthread_mutex_lock(&cache->lru_lock);
	now = kmf_now_ms();
	at = kmf_reaper_deadline(cache, now);
	while (!cache->reaper_stop && (s64)(at - now) > 0) {
		kmf_timespec_at(&ts, at, now);
		pthread_cond_timedwait(&cache->lru_cond, &cache->lru_lock,
				       &ts);
		now = kmf_now_ms();
		at = kmf_reaper_deadline(cache, now);
	}
	stop = cache->reaper_stop;
	pthread_mutex_unlock(&cache->lru_lock);
	return !stop;
}

static void *kmf_reaper(void *arg)
{
	struct fscache_cache *cache = arg;

	urcu_memb_register_thread();
	while (kmf_reaper_wait(cache)) {
		kmf_lru_run(cache, false);
		kmf_free_deferred(cache);
		kmf_index_maybe_resize(cache);
	}
	urcu_memb_unregister_thread();
	return NULL;
}

unsigned int fscache_cache_reap(struct fscache_cache *cache)
{
	unsigned int n;

	if (!cache)
		return 0;
	kmf_rcu_thread();
	n = kmf_lru_run(cache, false);
	if (!urcu_memb_read_ongoing()) {
		kmf_free_deferred(cache);
		kmf_index_maybe_resize(cache);
	}
	return n;
}

/* ---- the cache handle ----------------------------------------------- */

static void kmf_cache_init_locks(struct fscache_cache *cache)
{
	pthread_condattr_t attr;
	unsigned int i;

	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_mutex_init(&cache->vol_lock, NULL);
	pthread_cond_init(&cache->vol_cond, NULL);
	pthread_mutex_init(&cache->wait_lock, NULL);
	pthread_cond_init(&cache->wait_cond, NULL);
	pthread_mutex_init(&cache->lru_lock, NULL);
	pthread_cond_init(&cache->lru_cond, &attr);
	pthread_condattr_destroy(&attr);
	CDS_INIT_LIST_HEAD(&cache->volumes);
	CDS_INIT_LIST_HEAD(&cache->lru);
	for (i = 0; i < KMF_SHARDS; i++)
		pthread_mutex_init(&cache->shards[i].jar_lock, NULL);
	pthread_mutex_init(&cache->slab_lock, NULL);
}

static void kmf_cache_free(struct fscache_cache *cache)
{
	unsigned int i;

	kmf_free_deferred(cache);
	kmf_jar_drain(cache);
	for (i = 0; i < KMF_SHARDS; i++)
		pthread_mutex_destroy(&cache->shards[i].jar_lock);
	pthread_mutex_destroy(&cache->slab_lock);
	kmf_index_destroy(cache);
	cache->ops->withdraw_cache(cache);
	pthread_mutex_destroy(&cache->vol_lock);
	pthread_cond_destroy(&cache->vol_cond);
	pthread_mutex_destroy(&cache->wait_lock);
	pthread_cond_destroy(&cache->wait_cond);
	pthread_mutex_destroy(&cache->lru_lock);
	pthread_cond_destroy(&cache->lru_cond);
	kfree(cache);
}

static void kmf_cache_params(struct fscache_cache *cache,
			     const struct fscache_cache_params *params)
{
	cache->lru_timeout_ms = FSCACHE_LRU_TIMEOUT_DEFAULT_MS;
	if (params && params->lru_timeout_ms >= 0)
		cache->lru_timeout_ms = params->lru_timeout_ms;
	cache->lru_max = params ? params->lru_max : 0;
	cache->has_reaper = !(params && (params->flags &
					 FSCACHE_CACHE_NO_REAPER));
}

int fscache_cache_open(const char *dir,
		       const struct fscache_cache_params *params,
		       struct fscache_cache **cachep)
{
	struct fscache_cache *cache;
	int ret;

	if (!dir || !cachep)
		return -EINVAL;
	kmf_rcu_thread();
	cache = kzalloc(sizeof(*cache), GFP_KERNEL);
	if (!cache)
		return -ENOMEM;
	cache->root_fd = cache->store_fd = cache->grave_fd = -1;
	cache->ops = &kmf_cachefiles_ops;
	cache->helpers = &kmf_fscache_helpers;
	kmf_cache_init_locks(cache);
	kmf_cache_params(cache, params);
	ret = kmf_index_init(cache);
	if (!ret)
		ret = cache->ops->acquire_cache(cache, dir);
	if (!ret && cache->has_reaper &&
	    pthread_create(&cache->reaper, NULL, kmf_reaper, cache))
		ret = -EAGAIN;
	if (ret) {
		cache->has_reaper = false;
		kmf_cache_free(cache);
		return ret;
	}
	*cachep = cache;
	return 0;
}

void fscache_cache_close(struct fscache_cache *cache)
{
	long n;

	if (!cache)
		return;
	kmf_rcu_thread();
	if (cache->has_reaper) {
		pthread_mutex_lock(&cache->lru_lock);
		cache->reaper_stop = true;
		pthread_cond_signal(&cache->lru_cond);
		pthread_mutex_unlock(&cache->lru_lock);
		pthread_join(cache->reaper, NULL);
		cache->has_reaper = false;
	}
	kmf_lru_run(cache, true);
	kmf_free_deferred(cache);
	n = kmf_index_count(cache);
	pthread_mutex_lock(&cache->vol_lock);
	if (!cds_list_empty(&cache->volumes))
		n = n ? n : -1;
	pthread_mutex_unlock(&cache->vol_lock);
	if (n) {
		/* Their owners still point at it: leak rather than crash. */
		pr_warn("kmirror: cache closed with %s still acquired, "
			"leaked\n", n > 0 ? "cookies" : "volumes");
		return;
	}
	kmf_cache_free(cache);
}
