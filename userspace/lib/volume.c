// SPDX-License-Identifier: GPL-2.0-only
/*
 * Volume cookies: fs/fscache/volume.c of the 6.1 tree, and what cookies
 * need of their cache: wake_up_var(), arming the LRU timer, deferred
 * frees (the cache handle and the reaper are cache.c's).
 *
 * Volume keys, their hash, the duplicate verdict and the coherency data
 * rules are the core's (kmc_volume.h); the directory work is the
 * cachefiles backend's (backend.c).
 */
#include <stdlib.h>

#include "internal.h"

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
	volume->cache->ops->free_volume(volume, flags);
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
		ret = cache->ops->acquire_volume(volume);
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
