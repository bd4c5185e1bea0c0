// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cookie jar: the kernel's fscache_cookie_jar kmem_cache.
 *
 * Cookies whose key and aux data fit inline are all KMF_JAR_SIZE bytes
 * (256, aligned to the 64-byte hot line).  They are carved from 64 KiB
 * slabs, so a cookie costs its size and nothing for malloc's headers or
 * alignment (aligned_alloc() of 256 bytes took about 400).  After its
 * grace period a freed cookie waits in the freeing thread's shard for the
 * next acquire.  Slabs go back to malloc when the cache is closed, as a
 * kmem_cache is only emptied when destroyed: memory stays at the largest
 * number of cookies alive at once.  Cookies with longer key or aux data
 * are allocated one by one.
 */
#include "internal.h"

#define KMF_SLAB_SIZE	(64 * 1024)

/* A slab's first line links the slabs; cookies follow it. */
struct kmf_slab {
	struct kmf_slab	*next;
} __attribute__((aligned(64)));

static void *kmf_slab_alloc(struct fscache_cache *cache)
{
	struct kmf_slab *s;
	void *p = NULL;

	pthread_mutex_lock(&cache->slab_lock);
	if (cache->slab_end - cache->slab_next < (ptrdiff_t)KMF_JAR_SIZE) {
		s = kmc_alloc_aligned(KMF_SLAB_SIZE, 64,
				      GFP_KERNEL | __GFP_ZERO);
		if (!s)
			goto out;
		s->next = cache->slabs;
		cache->slabs = s;
		cache->slab_next = (char *)(s + 1);
		cache->slab_end = (char *)s + KMF_SLAB_SIZE;
	}
	p = cache->slab_next;
	cache->slab_next += KMF_JAR_SIZE;
out:
	pthread_mutex_unlock(&cache->slab_lock);
	return p;
}

/* Zeroed memory for a cookie of @size bytes (KMF_COOKIE_ALLOC()). */
void *kmf_jar_alloc(struct fscache_cache *cache, size_t size)
{
	struct kmf_shard *sh = kmf_shard(cache);
	struct kmf_deferred *d = NULL;
	void *base;

	if (size != KMF_JAR_SIZE)
		return kmc_alloc_aligned(size, 64, GFP_KERNEL | __GFP_ZERO);
	pthread_mutex_lock(&sh->jar_lock);
	if (sh->jar) {
		d = sh->jar;
		sh->jar = d->next;
	}
	pthread_mutex_unlock(&sh->jar_lock);
	if (!d)
		return kmf_slab_alloc(cache);
	base = d->base;
	memset(base, 0, size);
	return base;
}

/* Cookies past their grace period, @first...@last, to @sh's jar. */
void kmf_jar_put(struct kmf_shard *sh, struct kmf_deferred *first,
		 struct kmf_deferred *last)
{
	pthread_mutex_lock(&sh->jar_lock);
	last->next = sh->jar;
	sh->jar = first;
	pthread_mutex_unlock(&sh->jar_lock);
}

/* At cache close, every cookie gone: the slabs back to malloc. */
void kmf_jar_drain(struct fscache_cache *cache)
{
	struct kmf_slab *s, *next;
	unsigned int i;

	for (i = 0; i < KMF_SHARDS; i++)
		cache->shards[i].jar = NULL;
	for (s = cache->slabs; s; s = next) {
		next = s->next;
		kfree(s);
	}
	cache->slabs = NULL;
	cache->slab_next = cache->slab_end = NULL;
}
