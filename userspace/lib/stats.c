// SPDX-License-Identifier: GPL-2.0-only
/*
 * Statistics, like /proc/fs/fscache/stats (fs/fscache/stats.c of the 6.1
 * tree): the same counters, the same text, kept per cache handle.
 */
#include <stdio.h>

#include "internal.h"

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

/* fscache_stats_show(), line for line (the netfs lines are not ours). */
int fscache_stats_show(struct fscache_cache *cache, char *buf, size_t size)
{
	struct fscache_stats st;

	if (!cache || (!buf && size))
		return -EINVAL;
	fscache_get_stats(cache, &st);
	return snprintf(buf, size,
		"FS-Cache statistics\n"
		"Cookies: n=%d v=%d vcol=%u voom=%u\n"
		"Acquire: n=%u ok=%u oom=%u\n"
		"LRU    : n=%u exp=%u rmv=%u drp=%u at=%ld\n"
		"Invals : n=%u\n"
		"Updates: n=%u rsz=%u rsn=%u\n"
		"Relinqs: n=%u rtr=%u drop=%u\n"
		"NoSpace: nwr=%u ncr=%u cull=%u\n"
		"IO     : rd=%u wr=%u\n",
		(int)st.cookies, (int)st.volumes, st.volumes_collision,
		st.volumes_nomem,
		st.acquires, st.acquires_ok, st.acquires_oom,
		st.cookies_lru, st.cookies_lru_expired, st.cookies_lru_removed,
		st.cookies_lru_dropped, (long)st.lru_timer_ms,
		st.invalidates,
		st.updates, st.resizes, st.resizes_null,
		st.relinquishes, st.relinquishes_retire,
		st.relinquishes_dropped,
		st.no_write_space, st.no_create_space, st.culled,
		st.read, st.write);
}
