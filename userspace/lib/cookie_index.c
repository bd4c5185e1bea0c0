// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cookie index: fscache_cookie_hash[] of fs/fscache/cookie.c as a
 * liburcu lock-free hash table (cds_lfht, urcu-memb).  Lookups take no
 * lock; inserts and removals are lock-free too.  The hash is the cookie's
 * key_hash (the kernel's bucket index is its low bits), the comparison is
 * the core's kmc_cookie_same() plus the volume, and what a same-key entry
 * means is the core's kmc_cookie_hash_verdict().
 *
 * The table does not auto-resize: in liburcu 0.13 that runs through
 * call_rcu(), whose worker thread is never joined.  kmf_index_maybe_resize()
 * grows it from the reaper instead, woken by the insert that finds the
 * table over its load (or from fscache_cache_reap() without a reaper).
 */
#include "internal.h"

#define KMF_INDEX_INIT		4096	/* buckets */
#define KMF_INDEX_LOAD		1	/* resize above n_buckets * this */
#define KMF_INDEX_CHECK		64	/* inserts per shard between checks */

/* What a walk of one hash chain is looking for. */
struct kmf_index_key {
	const struct fscache_volume	*volume;
	u32				hash;
	const u8			*key;
	unsigned int			key_len;
	bool				insert;	/* fscache_hash_cookie() */
	struct fscache_cookie		*self;
	struct fscache_cookie		*wait_for; /* referenced */
};

static struct fscache_cookie *kmf_node_cookie(struct cds_lfht_node *node)
{
	return caa_container_of(node, struct fscache_cookie, hash_node);
}

/* Take a reference unless the cookie is already being freed. */
static bool kmf_cookie_tryget(struct fscache_cookie *c)
{
	int ref = atomic_load(&c->ref);

	while (ref > 0)
		if (atomic_compare_exchange_weak(&c->ref, &ref, ref + 1))
			return true;
	return false;
}

/*
 * Same volume and kmc_cookie_same(): the entry has the candidate's key.
 * Invariant: reads only the entry's immutable fields and its flags.
 */
static bool kmf_index_same(const struct fscache_cookie *c,
			   const struct kmf_index_key *k)
{
	const u8 *key = c->key_len <= KMC_COOKIE_INLINE_KEY ? c->inline_key :
							       c->key;

	return c->volume == k->volume &&
	       kmc_cookie_same(c->key_hash, key, c->key_len,
			       k->hash, k->key, k->key_len);
}

/*
 * cds_lfht match: 1 means "this entry answers the walk".  For an insert
 * that is the kernel's DUPLICATE verdict (add_unique then refuses the
 * candidate); a WAIT verdict is remembered, with a reference, and the walk
 * goes on.  For a lookup only live cookies answer.
 */
static int kmf_index_match(struct cds_lfht_node *node, const void *key)
{
	struct kmf_index_key *k = (struct kmf_index_key *)key;
	struct fscache_cookie *c = kmf_node_cookie(node);
	bool relinquished;
	enum kmc_hash_verdict v;

	if (c == k->self || !atomic_load_explicit(&c->published,
						  memory_order_acquire))
		return 0;
	relinquished = kmf_test_flag(c, KMC_CF(RELINQUISHED));
	v = kmc_cookie_hash_verdict(kmf_index_same(c, k), relinquished);
	if (v == KMC_HASH_DUPLICATE)
		return 1;
	if (v == KMC_HASH_WAIT && k->insert && !k->wait_for &&
	    kmf_cookie_state(c) != KMC_COOKIE_STATE_DROPPED &&
	    kmf_cookie_tryget(c))
		k->wait_for = c;
	return 0;
}

int kmf_index_init(struct fscache_cache *cache)
{
	cache->n_buckets = KMF_INDEX_INIT;
	cache->cookies = cds_lfht_new_flavor(KMF_INDEX_INIT, KMF_INDEX_INIT,
					     0, 0, &urcu_memb_flavor, NULL);
	return cache->cookies ? 0 : -ENOMEM;
}

void kmf_index_destroy(struct fscache_cache *cache)
{
	if (cache->cookies && cds_lfht_destroy(cache->cookies, NULL))
		pr_warn("kmirror: cookie index not empty at close\n");
	cache->cookies = NULL;
}

/*
 * Over the load factor: wake the reaper to grow the table.  Chains grow by
 * one entry per bucket for every n_buckets inserts, so waiting for the
 * reaper's next second would let a burst of acquires walk long chains.
 */
static void kmf_index_check_load(struct fscache_cache *cache)
{
	if (!cache->has_reaper || atomic_load(&cache->resize_wanted) ||
	    kmf_index_count(cache) <=
	    (long)(atomic_load(&cache->n_buckets) * KMF_INDEX_LOAD))
		return;
	atomic_store(&cache->resize_wanted, true);
	pthread_mutex_lock(&cache->lru_lock);
	pthread_cond_signal(&cache->lru_cond);
	pthread_mutex_unlock(&cache->lru_lock);
}

/* fscache_hash_cookie(): see internal.h. */
int kmf_index_add(struct fscache_cookie *candidate,
		  struct fscache_cookie **wait_for)
{
	struct fscache_cache *cache = candidate->volume->cache;
	struct kmf_index_key k = {
		.volume = candidate->volume, .hash = candidate->key_hash,
		.key = candidate->key, .key_len = candidate->key_len,
		.insert = true, .self = candidate,
	};
	struct cds_lfht_node *node;

	atomic_store_explicit(&candidate->published, true,
			      memory_order_release);
	kmf_read_lock();
	node = cds_lfht_add_unique(cache->cookies, candidate->key_hash,
				   kmf_index_match, &k, &candidate->hash_node);
	kmf_read_unlock();
	if (node != &candidate->hash_node) {
		*wait_for = k.wait_for;
		return -EEXIST;
	}
	kmf_set_flag(candidate, KMC_CF(IS_HASHED));
	if (atomic_fetch_add(&kmf_shard(cache)->n_hashed, 1) %
	    KMF_INDEX_CHECK == 0)
		kmf_index_check_load(cache);
	*wait_for = k.wait_for;
	return 0;
}

/* fscache_unhash_cookie(). */
void kmf_index_del(struct fscache_cookie *cookie)
{
	struct fscache_cache *cache = cookie->volume->cache;
	int ret;

	kmf_read_lock();
	ret = cds_lfht_del(cache->cookies, &cookie->hash_node);
	kmf_read_unlock();
	if (ret)
		pr_err("kmirror: c=%08x was not hashed\n", cookie->debug_id);
	kmf_clear_flag(cookie, KMC_CF(IS_HASHED));
	atomic_fetch_sub(&kmf_shard(cache)->n_hashed, 1);
}

struct fscache_cookie *kmf_index_lookup(struct fscache_volume *volume,
					u32 key_hash, const u8 *key,
					unsigned int key_len)
{
	struct kmf_index_key k = {
		.volume = volume, .hash = key_hash, .key = key,
		.key_len = key_len,
	};
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;

	cds_lfht_lookup(volume->cache->cookies, key_hash, kmf_index_match, &k,
			&iter);
	node = cds_lfht_iter_get_node(&iter);
	return node ? kmf_node_cookie(node) : NULL;
}

long kmf_index_count(struct fscache_cache *cache)
{
	long n = 0;
	unsigned int i;

	for (i = 0; i < KMF_SHARDS; i++)
		n += atomic_load(&cache->shards[i].n_hashed);
	return n;
}

/* Grow the table by powers of two while it is over its load factor. */
void kmf_index_maybe_resize(struct fscache_cache *cache)
{
	unsigned long n, size = atomic_load(&cache->n_buckets);

	atomic_store(&cache->resize_wanted, false);
	n = kmf_index_count(cache);
	while (n > size * KMF_INDEX_LOAD)
		size *= 2;
	if (size == atomic_load(&cache->n_buckets))
		return;
	cds_lfht_resize(cache->cookies, size);
	atomic_store(&cache->n_buckets, size);
}
