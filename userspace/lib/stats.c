// SPDX-License-Identifier: GPL-2.0-only
/*
 * Statistics, like /proc/fs/fscache/stats (fs/fscache/stats.c of the 6.1
 * tree): the same counters, the same text, kept per cache handle.
 */
#include "internal.h"
#include "kmc_stats.h"

/* The sum of one counter, at offset @off of struct kmf_stats, over shards. */
static uint32_t kmf_stat_sum(struct fscache_cache *cache, size_t off)
{
	uint32_t sum = 0;
	unsigned int i;

	for (i = 0; i < KMF_SHARDS; i++)
		sum += atomic_load_explicit((atomic_uint *)
			((char *)&cache->shards[i].stats + off),
			memory_order_relaxed);
	return sum;
}

#define LOAD(ctr) kmf_stat_sum(cache, offsetof(struct kmf_stats, ctr))

/* Milliseconds until the LRU timer fires, 0 if it is not pending. */
static int64_t kmf_lru_timer_left(struct fscache_cache *cache)
{
	u64 now = kmf_now_ms(), at;

	pthread_mutex_lock(&cache->lru_lock);
	at = cache->lru_timer_ms;
	pthread_mutex_unlock(&cache->lru_lock);
	if (!at)
		return 0;
	return (int64_t)(at - now);
}

void fscache_get_stats(struct fscache_cache *cache,
		       struct fscache_stats *out)
{
	if (!cache || !out)
		return;
	out->cookies = LOAD(cookies);
	out->volumes = LOAD(volumes);
	out->volumes_collision = LOAD(volumes_collision);
	out->volumes_nomem = LOAD(volumes_nomem);
	out->acquires = LOAD(acquires);
	out->acquires_ok = LOAD(acquires_ok);
	out->acquires_oom = LOAD(acquires_oom);
	out->cookies_lru = LOAD(cookies_lru);
	out->cookies_lru_expired = LOAD(cookies_lru_expired);
	out->cookies_lru_removed = LOAD(cookies_lru_removed);
	out->cookies_lru_dropped = LOAD(cookies_lru_dropped);
	out->lru_timer_ms = kmf_lru_timer_left(cache);
	out->invalidates = LOAD(invalidates);
	out->updates = LOAD(updates);
	out->resizes = LOAD(resizes);
	out->resizes_null = LOAD(resizes_null);
	out->relinquishes = LOAD(relinquishes);
	out->relinquishes_retire = LOAD(relinquishes_retire);
	out->relinquishes_dropped = LOAD(relinquishes_dropped);
	out->no_write_space = LOAD(no_write_space);
	out->no_create_space = LOAD(no_create_space);
	out->culled = LOAD(culled);
	out->read = LOAD(read);
	out->write = LOAD(write);
}

/* fscache_stats_show(), through the core (the netfs lines are not ours). */
int fscache_stats_show(struct fscache_cache *cache, char *buf, size_t size)
{
	struct fscache_stats st;
	struct kmc_fscache_stats k;

	if (!cache || (!buf && size))
		return -EINVAL;
	fscache_get_stats(cache, &st);
	k = (struct kmc_fscache_stats){
		.lru_timer = (long)st.lru_timer_ms,
		.n = {
			[KMC_STAT_COOKIES] = st.cookies,
			[KMC_STAT_VOLUMES] = st.volumes,
			[KMC_STAT_VOLUMES_COLLISION] = st.volumes_collision,
			[KMC_STAT_VOLUMES_NOMEM] = st.volumes_nomem,
			[KMC_STAT_ACQUIRES] = st.acquires,
			[KMC_STAT_ACQUIRES_OK] = st.acquires_ok,
			[KMC_STAT_ACQUIRES_OOM] = st.acquires_oom,
			[KMC_STAT_COOKIES_LRU] = st.cookies_lru,
			[KMC_STAT_COOKIES_LRU_EXPIRED] = st.cookies_lru_expired,
			[KMC_STAT_COOKIES_LRU_REMOVED] = st.cookies_lru_removed,
			[KMC_STAT_COOKIES_LRU_DROPPED] = st.cookies_lru_dropped,
			[KMC_STAT_INVALIDATES] = st.invalidates,
			[KMC_STAT_UPDATES] = st.updates,
			[KMC_STAT_RESIZES] = st.resizes,
			[KMC_STAT_RESIZES_NULL] = st.resizes_null,
			[KMC_STAT_RELINQUISHES] = st.relinquishes,
			[KMC_STAT_RELINQUISHES_RETIRE] = st.relinquishes_retire,
			[KMC_STAT_RELINQUISHES_DROPPED] = st.relinquishes_dropped,
			[KMC_STAT_NO_WRITE_SPACE] = st.no_write_space,
			[KMC_STAT_NO_CREATE_SPACE] = st.no_create_space,
			[KMC_STAT_CULLED] = st.culled,
			[KMC_STAT_READ] = st.read,
			[KMC_STAT_WRITE] = st.write,
		},
	};
	return kmc_fscache_stats_format(&k, buf, size);
}
