// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cache handle and volume cookies: fs/fscache/volume.c (and the parts
 * of fs/fscache/cache.c and cookie.c a userspace cache needs: the LRU
 * timer and worker, wake_up_var()) of the 6.1 tree.
 *
 * Volume keys, their hash, the duplicate verdict and the coherency data
 * rules are the core's (kmc_volume.h); the directory work is the
 * cachefiles backend's (backend.c).
 */
#include <stdlib.h>
#include <time.h>

#include "internal.h"

/* ---- threads, time, RCU ------------------------------------------- */

#ifdef KMF_TSAN
char kmf_tsan_gp;
#endif

static pthread_key_t kmf_thread_key;
static pthread_once_t kmf_thread_once = PTHREAD_ONCE_INIT;

static void kmf_thread_exit(void *arg)
{
	urcu_memb_unregister_thread();
	kmf_rcu_registered = false;
}

static void kmf_thread_key_init(void)
{
	pthread_key_create(&kmf_thread_key, kmf_thread_exit);
}

/*
 * Register the caller with urcu-memb on its first call into the library,
 * unless the application did; a thread-exit destructor unregisters it.
 */
__thread bool kmf_rcu_registered __attribute__((tls_model("initial-exec")));
__thread unsigned int kmf_shard_idx __attribute__((tls_model("initial-exec")));
static atomic_uint kmf_next_shard;

void kmf_rcu_thread_slow(void)
{
	kmf_rcu_registered = true;
	kmf_shard_idx = atomic_fetch_add(&kmf_next_shard, 1) % KMF_SHARDS;
	if (URCU_TLS(urcu_memb_reader).registered)
		return;
	pthread_once(&kmf_thread_once, kmf_thread_key_init);
	urcu_memb_register_thread();
	pthread_setspecific(kmf_thread_key, (void *)1);
}

u64 kmf_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000 + (u64)ts.tv_nsec / 1000000;
}

/* wake_up_var(): only if someone waits (see kmf_wait_state()). */
void kmf_wake(struct fscache_cache *cache)
{
	if (!atomic_load(&cache->n_waiters))
		return;
	pthread_mutex_lock(&cache->wait_lock);
	pthread_cond_broadcast(&cache->wait_cond);
	pthread_mutex_unlock(&cache->wait_lock);
}

void kmf_lru_timer_reduce(struct fscache_cache *cache, u64 when)
{
	pthread_mutex_lock(&cache->lru_lock);
	if (!cache->lru_timer_ms || (s64)(when - cache->lru_timer_ms) < 0) {
		cache->lru_timer_ms = when;
		pthread_cond_signal(&cache->lru_cond);
	}
	pthread_mutex_unlock(&cache->lru_lock);
}

void kmf_defer_free(struct fscache_cache *cache, struct kmf_deferred *d)
{
	struct kmf_shard *sh = kmf_shard(cache);
	unsigned int n;

	d->next = atomic_load(&sh->free_list);
	while (!atomic_compare_exchange_weak(&sh->free_list, &d->next, d))
		;
	n = atomic_fetch_add(&sh->n_free, 1) + 1;
	if (n < KMF_FREE_BATCH)
		return;
	if (cache->has_reaper) {
		if (n == KMF_FREE_BATCH) {
			pthread_mutex_lock(&cache->lru_lock);
			pthread_cond_signal(&cache->lru_cond);
			pthread_mutex_unlock(&cache->lru_lock);
		}
	} else if (!urcu_memb_read_ongoing()) {
		kmf_free_deferred(cache);
	}
}

/* True if some shard has a batch of frees waiting. */
static bool kmf_frees_pending(struct fscache_cache *cache)
{
	unsigned int i;

	for (i = 0; i < KMF_SHARDS; i++)
		if (atomic_load(&cache->shards[i].n_free) >= KMF_FREE_BATCH)
			return true;
	return false;
}

/*
 * Free a spliced list after its grace period: jar cookies go back to the
 * jar of @sh (one lock round for the whole chain), the rest to kfree().
 */
static void kmf_free_list(struct kmf_shard *sh, struct kmf_deferred *d)
{
	struct kmf_deferred *next, *keep = NULL, *tail = NULL;
	unsigned int n = 0;

	for (; d; d = next) {
		next = d->next;
		n++;
		if (d->jar) {
			d->next = keep;
			keep = d;
			tail = tail ? tail : d;
		} else {
			kfree(d->base);
		}
	}
	if (keep)
		kmf_jar_put(sh, keep, tail);
	atomic_fetch_sub(&sh->n_free, n);
}

/* Take out what is queued, wait a grace period, free it. */
void kmf_free_deferred(struct fscache_cache *cache)
{
	struct kmf_deferred *lists[KMF_SHARDS];
	bool any = false;
	unsigned int i;

	for (i = 0; i < KMF_SHARDS; i++) {
		lists[i] = atomic_exchange(&cache->shards[i].free_list, NULL);
		any |= lists[i] != NULL;
	}
	if (!any)
		return;
	kmf_synchronize_rcu();
	for (i = 0; i < KMF_SHARDS; i++)
		kmf_free_list(&cache->shards[i], lists[i]);
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
	kmf_backend_close(cache);
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
	kmf_cache_init_locks(cache);
	kmf_cache_params(cache, params);
	ret = kmf_index_init(cache);
	if (!ret)
		ret = kmf_backend_open(cache, dir);
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

/* ---- volumes -------------------------------------------------------- */

struct fscache_volume *kmf_get_volume(struct fscache_volume *volume)
{
	atomic_fetch_add(&volume->ref, 1);
	return volume;
}

/* fscache_begin_volume_access(): the cache is live while it is open. */
bool kmf_begin_volume_access(struct fscache_volume *volume)
{
	atomic_fetch_add(&volume->n_accesses, 1);
	return true;
}

void kmf_end_volume_access(struct fscache_volume *volume)
{
	atomic_fetch_sub(&volume->n_accesses, 1);
}

/* fscache_free_volume(): unhash, commit/bury on disk, free. */
static void kmf_free_volume(struct fscache_volume *volume)
{
	struct fscache_cache *cache = volume->cache;
	unsigned int flags;

	pthread_mutex_lock(&cache->vol_lock);
	flags = volume->flags;
	pthread_mutex_unlock(&cache->vol_lock);
	kmf_backend_free_volume(volume, flags);
	pthread_mutex_lock(&cache->vol_lock);
	cds_list_del(&volume->link);
	pthread_cond_broadcast(&cache->vol_cond);
	pthread_mutex_unlock(&cache->vol_lock);
	kmf_stat_d(cache, volumes);
	kfree(volume->key);
	kfree(volume);
}

void kmf_put_volume(struct fscache_volume *volume)
{
	if (volume && atomic_fetch_sub(&volume->ref, 1) == 1)
		kmf_free_volume(volume);
}

/* fscache_alloc_volume() after the core accepted key and coherency. */
static struct fscache_volume *kmf_alloc_volume(struct fscache_cache *cache,
					       const char *key, size_t klen,
					       const void *coh, size_t clen)
{
	struct fscache_volume *volume;
	size_t hlen = KMC_VOLUME_BUF_LEN(klen);

	volume = kzalloc(sizeof(*volume) + clen, GFP_KERNEL);
	if (!volume)
		return NULL;
	volume->key = kzalloc(hlen, GFP_KERNEL);
	if (!volume->key) {
		kfree(volume);
		return NULL;
	}
	kmc_volume_key_build(key, klen, volume->key, hlen);
	volume->key_hash = kmc_volume_key_hash(volume->key, hlen);
	volume->coherency_len = kmc_volume_coherency_set(coh, clen,
							 volume->coherency,
							 clen);
	volume->cache = cache;
	volume->dir_fd = -1;
	atomic_init(&volume->ref, 1);
	volume->debug_id = atomic_fetch_add(&cache->debug_id, 1) + 1;
	return volume;
}

/*
 * fscache_hash_volume(): the core's verdict on each volume of the cache.
 * A relinquished one of the same key is waited out before the candidate
 * goes in (the kernel inserts first and then waits; the outcome is the
 * same because every candidate re-checks under vol_lock).
 */
static int kmf_hash_volume(struct fscache_volume *candidate)
{
	struct fscache_cache *cache = candidate->cache;
	struct fscache_volume *v;
	enum kmc_hash_verdict verdict = KMC_HASH_CONTINUE;

	pthread_mutex_lock(&cache->vol_lock);
again:
	cds_list_for_each_entry(v, &cache->volumes, link) {
		verdict = kmc_volume_hash_verdict(
			kmc_volume_same(v->key, v->key_hash, candidate->key,
					candidate->key_hash),
			v->flags & KMF_VOLUME_RELINQUISHED);
		if (verdict == KMC_HASH_DUPLICATE)
			break;
		if (verdict == KMC_HASH_WAIT) {
			pthread_cond_wait(&cache->vol_cond, &cache->vol_lock);
			goto again;
		}
	}
	if (verdict != KMC_HASH_DUPLICATE) {
		cds_list_add_tail(&candidate->link, &cache->volumes);
		kmf_stat(cache, volumes);
	}
	pthread_mutex_unlock(&cache->vol_lock);
	return verdict == KMC_HASH_DUPLICATE ? -EBUSY : 0;
}

/* The core's acceptance of a volume key and its coherency data. */
static int kmf_volume_args(const char *key, size_t *klen, const void *coh,
			   size_t coh_len, size_t *clen)
{
	int ret;

	if (!key)
		return -EINVAL;
	*klen = strnlen(key, KMC_VOLUME_KEY_MAX + 1);
	ret = kmc_volume_key_check_cachefiles(key, *klen);
	if (ret)
		return ret;
	ret = kmc_volume_coherency_len(coh, coh_len);
	if (ret < 0)
		return ret;
	*clen = ret;
	return 0;
}

struct fscache_volume *fscache_acquire_volume(struct fscache_cache *cache,
					      const char *volume_key,
					      const void *coherency_data,
					      size_t coherency_len)
{
	struct fscache_volume *volume;
	size_t klen, clen;
	int ret;

	kmf_rcu_thread();
	ret = cache ? kmf_volume_args(volume_key, &klen, coherency_data,
				      coherency_len, &clen) : -EINVAL;
	if (ret) {
		errno = -ret;
		return NULL;
	}
	volume = kmf_alloc_volume(cache, volume_key, klen, coherency_data,
				  clen);
	if (!volume) {
		kmf_stat(cache, volumes_nomem);
		errno = ENOMEM;
		return NULL;
	}
	ret = kmf_hash_volume(volume);
	if (!ret)
		ret = kmf_backend_acquire_volume(volume);
	if (ret) {
		if (ret != -EBUSY) {
			kmf_put_volume(volume);
		} else {
			kfree(volume->key);
			kfree(volume);
		}
		errno = -ret;
		return NULL;
	}
	return volume;
}

void fscache_relinquish_volume(struct fscache_volume *volume,
			       const void *coherency_data, bool invalidate)
{
	struct fscache_cache *cache;
	bool twice;

	if (!volume)
		return;
	kmf_rcu_thread();
	cache = volume->cache;
	pthread_mutex_lock(&cache->vol_lock);
	twice = volume->flags & KMF_VOLUME_RELINQUISHED;
	if (!twice) {
		volume->flags |= KMF_VOLUME_RELINQUISHED;
		if (invalidate)
			volume->flags |= KMF_VOLUME_INVALIDATE;
		if (kmc_volume_coherency_update(volume->coherency,
						volume->coherency_len,
						coherency_data, invalidate))
			volume->flags |= KMF_VOLUME_COH_CHANGED;
	}
	pthread_mutex_unlock(&cache->vol_lock);
	if (twice) {
		pr_err("kmirror: volume %s relinquished twice\n",
		       kmf_volume_name(volume));
		return;
	}
	if (atomic_load(&volume->n_cookies))
		pr_warn("kmirror: volume %s relinquished with cookies\n",
			kmf_volume_name(volume));
	kmf_put_volume(volume);
}
