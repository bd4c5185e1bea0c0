/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libkmirror internals: the userspace glue around the core.
 *
 * The core (core/kmc_*.h) decides: key buffers and hashes, duplicate
 * verdicts, every cookie state transition (kmc_cookie_state.h steps),
 * xattr codecs and coherency checks, object paths.  This library only
 * applies those decisions: locks, RCU, memory, files.
 *
 * Locking order (outer first):
 *   cookie->work_lock (the non-reentrant "work item")
 *     cookie->lock (fscache's cookie->lock)
 *       cache->lru_lock, cache->wait_lock
 *   cache->vol_lock is never held with a cookie lock.
 * Lookups in cache->cookies (cds_lfht) take no lock: RCU read side only.
 */
#ifndef KMF_INTERNAL_H
#define KMF_INTERNAL_H

#define _LGPL_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <urcu/urcu-memb.h>
#include <urcu/rculfhash.h>
#include <urcu/list.h>

#include "kcompat.h"
#include "kmc_cookie.h"
#include "kmc_cookie_state.h"
#include "kmc_layout.h"
#include "kmc_volume.h"
#include "kmirror/fscache.h"

/* ---- RCU ----------------------------------------------------------- */

/*
 * ThreadSanitizer cannot see liburcu's grace periods (inline asm and
 * futexes in an uninstrumented library): it would report every free after
 * synchronize_rcu() as racing with the readers that ran before it.  Under
 * TSan only, each read-side unlock releases and each grace period then
 * acquires one sync object: the happens-before edge RCU guarantees.
 */
#if defined(__SANITIZE_THREAD__)
#define KMF_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define KMF_TSAN 1
#endif
#endif

#ifdef KMF_TSAN
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
extern char kmf_tsan_gp;
#define kmf_tsan_release()	__tsan_release(&kmf_tsan_gp)
#define kmf_tsan_acquire()	__tsan_acquire(&kmf_tsan_gp)
#else
#define kmf_tsan_release()	do { } while (0)
#define kmf_tsan_acquire()	do { } while (0)
#endif

static inline void kmf_read_lock(void)
{
	urcu_memb_read_lock();
}

static inline void kmf_read_unlock(void)
{
	kmf_tsan_release();
	urcu_memb_read_unlock();
}

static inline void kmf_synchronize_rcu(void)
{
	urcu_memb_synchronize_rcu();
	kmf_tsan_acquire();
}

/* ---- statistics (stats.c) ----------------------------------------- */

/* One counter per fs/fscache/stats.c atomic_t. */
struct kmf_stats {
	atomic_int cookies, volumes;
	atomic_uint volumes_collision, volumes_nomem;
	atomic_uint acquires, acquires_ok, acquires_oom;
	atomic_int cookies_lru;
	atomic_uint cookies_lru_expired, cookies_lru_removed;
	atomic_uint cookies_lru_dropped;
	atomic_uint invalidates, updates, resizes, resizes_null;
	atomic_uint relinquishes, relinquishes_retire, relinquishes_dropped;
	atomic_uint no_write_space, no_create_space, culled;
	atomic_uint read, write;
};

/*
 * Counters that every acquire and relinquish touch are sharded, like the
 * kernel's per-CPU counters: each thread adds to its own cache line and
 * readers sum the shards (the fscache.h totals are then not one atomic
 * snapshot, as /proc/fs/fscache/stats is not either).
 */
#define KMF_SHARDS		16

/* An object waiting for the end of an RCU grace period to be freed. */
struct kmf_deferred {
	struct kmf_deferred	*next;
	void			*base;		/* what to kfree() */
	bool			jar;		/* a KMF_JAR_SIZE block */
};

struct kmf_shard {
	struct kmf_stats	stats;
	atomic_long		n_hashed;	/* cookies in the index */
	/*
	 * Deferred frees: a push-only stack, emptied whole, so no ABA (C11
	 * atomics, which ThreadSanitizer sees, unlike liburcu's).
	 */
	_Atomic(struct kmf_deferred *) free_list;
	atomic_uint		n_free;
	pthread_mutex_t		jar_lock;
	struct kmf_deferred	*jar;		/* jar.c: freed cookies */
} __attribute__((aligned(64)));

/* The calling thread's shard (assigned round-robin at registration). */
extern __thread unsigned int kmf_shard_idx
	__attribute__((tls_model("initial-exec")));
#define kmf_shard(cache)	(&(cache)->shards[kmf_shard_idx])

#define kmf_stat(cache, ctr) \
	atomic_fetch_add_explicit(&kmf_shard(cache)->stats.ctr, 1, \
				  memory_order_relaxed)
#define kmf_stat_d(cache, ctr) \
	atomic_fetch_sub_explicit(&kmf_shard(cache)->stats.ctr, 1, \
				  memory_order_relaxed)

/* ---- cache --------------------------------------------------------- */

/* Deferred frees (per shard) past which a grace period is forced. */
#define KMF_FREE_BATCH		2048

struct fscache_cache {
	const struct kmf_cache_ops	*ops;		/* the backend */
	const struct kmf_fscache_helpers *helpers;	/* given to it */
	int			root_fd;	/* the "dir" */
	int			store_fd;	/* cache/ */
	int			grave_fd;	/* graveyard/ */
	atomic_uint		gravecounter;
	atomic_uint		debug_id;
	bool			tmpfile_ok;	/* O_TMPFILE works here */
	unsigned int		bsize;		/* backing fs block size */

	struct cds_lfht		*cookies;	/* RCU cookie index */
	atomic_ulong		n_buckets;
	atomic_bool		resize_wanted;	/* the reaper is to grow it */

	pthread_mutex_t		vol_lock;
	pthread_cond_t		vol_cond;	/* a volume went away */
	struct cds_list_head	volumes;

	/* wake_up_var(&cookie->state): one wait queue for the cache. */
	pthread_mutex_t		wait_lock;
	pthread_cond_t		wait_cond;
	atomic_int		n_waiters;

	/* LRU of unused cookies and the reaper thread. */
	pthread_mutex_t		lru_lock;
	pthread_cond_t		lru_cond;
	struct cds_list_head	lru;
	u64			lru_timeout_ms;
	u64			lru_timer_ms;	/* next pass due, 0: none */
	unsigned long		lru_n;		/* cookies on it */
	unsigned long		lru_max;	/* 0: no cap */
	bool			reaper_stop;
	bool			has_reaper;
	pthread_t		reaper;

	struct kmf_shard	shards[KMF_SHARDS];

	/* jar.c: the slabs cookies of KMF_JAR_SIZE are carved from. */
	pthread_mutex_t		slab_lock;
	struct kmf_slab		*slabs;
	char			*slab_next, *slab_end;
};

/* Monotonic clock in ms (the jiffies of this build, HZ = 1000). */
u64 kmf_now_ms(void);
/*
 * Register the calling thread with urcu-memb if it is not yet (the slow
 * path); the fast path is one initial-exec TLS flag.  A thread the
 * application registered itself must stay registered while it calls in.
 */
extern __thread bool kmf_rcu_registered
	__attribute__((tls_model("initial-exec")));
void kmf_rcu_thread_slow(void);

static inline void kmf_rcu_thread(void)
{
	if (__builtin_expect(!kmf_rcu_registered, 0))
		kmf_rcu_thread_slow();
}

/*
 * Free @d->base (or give it back to the jar) after a grace period: by the
 * reaper thread, by fscache_cache_reap(), by close, or by the caller itself
 * once KMF_FREE_BATCH are pending and it is outside any read-side section.
 * (liburcu 0.13's call_rcu() worker thread is never joined, which valgrind
 * reports as a leak; this keeps leak checks exact.)
 */
void kmf_defer_free(struct fscache_cache *cache, struct kmf_deferred *d);
/* Free everything deferred so far (waits for a grace period). */
void kmf_free_deferred(struct fscache_cache *cache);
/* A zeroed block of @size from the jar if @size is the jar's, or kzalloc. */
void *kmf_jar_alloc(struct fscache_cache *cache, size_t size);
/* Empty every shard's jar (at close). */
void kmf_jar_put(struct kmf_shard *sh, struct kmf_deferred *first,
		 struct kmf_deferred *last);
void kmf_jar_drain(struct fscache_cache *cache);
/* Wake every thread waiting in kmf_wait_state() (wake_up_var()). */
void kmf_wake(struct fscache_cache *cache);
/* Arm the LRU timer for @when (timer_reduce()). */
void kmf_lru_timer_reduce(struct fscache_cache *cache, u64 when);

/* ---- volumes (volume.c) -------------------------------------------- */

#define KMF_VOLUME_RELINQUISHED	0x1
#define KMF_VOLUME_INVALIDATE	0x2
#define KMF_VOLUME_COH_CHANGED	0x4

struct fscache_volume {
	atomic_int		ref;
	atomic_int		n_cookies;
	atomic_int		n_accesses;
	unsigned int		debug_id;
	u32			key_hash;
	u8			*key;		/* [len][key]\0 padded to 4 */
	struct fscache_cache	*cache;
	int			dir_fd;		/* cache/I<key>, -1: none */
	unsigned int		flags;		/* under cache->vol_lock */
	struct cds_list_head	link;		/* cache->volumes */
	u8			coherency_len;
	u8			coherency[];
};

static inline const char *kmf_volume_name(const struct fscache_volume *v)
{
	return (const char *)v->key + 1;
}

struct fscache_volume *kmf_get_volume(struct fscache_volume *volume);
void kmf_put_volume(struct fscache_volume *volume);
bool kmf_begin_volume_access(struct fscache_volume *volume);
void kmf_end_volume_access(struct fscache_volume *volume);

/* ---- cookies (cookie.c, cookie_index.c) ----------------------------- */

/* A reference-counted open object file (the kernel's struct file). */
struct kmf_file {
	atomic_int		ref;
	int			fd;
};

/* The cachefiles object of a cookie (cookie->cache_priv). */
struct kmf_object {
	pthread_mutex_t		lock;		/* object->lock: file swaps */
	struct kmf_file		*file;
	bool			using_tmpfile;
	char			tmpname[KMC_GRAVE_NAME_LEN + 2]; /* fallback */
	u8			content_info;
	int			fanout;
	char			name[NAME_MAX + 1];	/* cooked key */
};

struct fscache_cookie {
	/*
	 * Cache line 0: what an index walk reads, and nothing written often:
	 * walks for other keys pass through this line too.
	 */
	struct cds_lfht_node	hash_node;
	struct fscache_volume	*volume;
	atomic_ulong		flags;		/* KMC_CF() bits */
	u32			key_hash;
	/*
	 * Set (release) once the cookie is initialised, read (acquire) by
	 * index walks before anything else: the publication that cds_lfht
	 * makes with its own barriers, made visible to ThreadSanitizer.
	 */
	atomic_bool		published;
	u8			key_len;
	u8			aux_len;
	u8			advice;
	u8			inline_key[KMC_COOKIE_INLINE_KEY];

	/* The rest: references, state machine, I/O, LRU. */
	atomic_int		ref __attribute__((aligned(64)));
	atomic_int		state;		/* enum kmc_cookie_state */
	atomic_int		n_active;
	atomic_int		n_accesses;
	atomic_uint		inval_counter;
	unsigned int		debug_id;
	pthread_mutex_t		lock;
	struct kmf_object	*object;	/* cache_priv, under lock */
	struct cds_list_head	lru_link;	/* commit_link */
	bool			on_lru;		/* under cache->lru_lock */
	atomic_bool		work_running;	/* a thread runs the work */
	atomic_int		work_pending;
	_Atomic s64		object_size;
	u64			unused_at;	/* ms */
	/*
	 * Userspace addition (see invalidate in cookie.c): the object on disk
	 * holds data from before an invalidation the kernel would not have
	 * applied to it; the next lookup must replace it.
	 */
	atomic_bool		stale_on_disk;
	struct kmf_deferred	rcu;		/* deferred free */
	u8			*key;		/* padded to 4, zero-filled */
	u8			*aux;
	u8			data[];		/* long key, then aux */
};

/*
 * A cookie's allocation: 64-byte aligned (the hot line), the key and aux
 * data after the struct's fields, the whole rounded up to 64.  The jar's
 * block is that of a cookie with an inline key and aux: the aux data then
 * sits in the struct's own tail padding.
 */
#define KMF_COOKIE_ALLOC(extra)	\
	round_up(offsetof(struct fscache_cookie, data) + (extra), 64)
#define KMF_JAR_SIZE	KMF_COOKIE_ALLOC(KMC_COOKIE_INLINE_AUX)

/* The hot fields fit the first cache line of a 64-byte aligned cookie. */
_Static_assert(offsetof(struct fscache_cookie, inline_key) +
	       KMC_COOKIE_INLINE_KEY <= 64, "cookie line 0 overflows");

static inline int kmf_cookie_state(const struct fscache_cookie *c)
{
	return atomic_load_explicit(&c->state, memory_order_acquire);
}

static inline unsigned long kmf_cookie_flags(const struct fscache_cookie *c)
{
	return atomic_load(&c->flags);
}

static inline bool kmf_test_flag(const struct fscache_cookie *c,
				 unsigned long mask)
{
	return atomic_load(&c->flags) & mask;
}

static inline void kmf_set_flag(struct fscache_cookie *c, unsigned long mask)
{
	atomic_fetch_or(&c->flags, mask);
}

static inline void kmf_clear_flag(struct fscache_cookie *c,
				  unsigned long mask)
{
	atomic_fetch_and(&c->flags, ~mask);
}

/* Apply a core step that needs no caller context (cookie lock held). */
void kmf_cookie_step_locked(struct fscache_cookie *c,
			    const struct kmc_cookie_step *s);
/* The same, taking the lock and running what the step defers. */
void kmf_cookie_step(struct fscache_cookie *c,
		     const struct kmc_cookie_step *s);
/* fscache_queue_cookie(): run the state machine (the caller has a ref). */
void kmf_queue_cookie(struct fscache_cookie *c);
/* Wait until the cookie's state is not @state (wait_var_event()). */
void kmf_wait_state(struct fscache_cookie *c, int state);
/* fscache_end_cookie_access(). */
void kmf_end_cookie_access(struct fscache_cookie *c);
/* fscache_caching_failed(); the backend's helpers are its table below. */
void kmf_caching_failed(struct fscache_cookie *c);

/* The cookie index (cookie_index.c). */
int kmf_index_init(struct fscache_cache *cache);
void kmf_index_destroy(struct fscache_cache *cache);
/*
 * Hash @candidate, or refuse it: 0 (hashed), -EEXIST (a live duplicate).
 * Either way *@wait_for is a referenced relinquished cookie of the same
 * key (to wait for, or to put after a refusal), or NULL.
 */
int kmf_index_add(struct fscache_cookie *candidate,
		  struct fscache_cookie **wait_for);
void kmf_index_del(struct fscache_cookie *cookie);
/* Live cookie of that key, RCU read lock held by the caller. */
struct fscache_cookie *kmf_index_lookup(struct fscache_volume *volume,
					u32 key_hash, const u8 *key,
					unsigned int key_len);
/* Count cookies still hashed (teardown checks). */
long kmf_index_count(struct fscache_cache *cache);
/* Resize the table if it has outgrown its buckets (not in a read side). */
void kmf_index_maybe_resize(struct fscache_cache *cache);

/* The LRU (cookie.c). */
unsigned int kmf_lru_run(struct fscache_cache *cache, bool force);
void kmf_lru_drop(struct fscache_cookie *c);

/*
 * What a backend may call of fscache (the helpers fs/fscache exports to
 * cachefiles), given to it as a table so that the backend never calls
 * up into cookie.c by name.  kmf_fscache_helpers (cookie.c) fills it.
 */
struct kmf_fscache_helpers {
	/* fscache_cookie_lookup_negative() */
	void (*lookup_negative)(struct fscache_cookie *c);
	/* fscache_caching_failed() */
	void (*caching_failed)(struct fscache_cookie *c);
	/* fscache_resume_after_invalidation() */
	void (*resume_after_invalidation)(struct fscache_cookie *c);
	/* Apply a core step, cookie lock held (kmf_cookie_step_locked()). */
	void (*step_locked)(struct fscache_cookie *c,
			    const struct kmc_cookie_step *s);
};
extern const struct kmf_fscache_helpers kmf_fscache_helpers;

/* ---- the cachefiles backend (backend.c) ---------------------------- */

/*
 * struct fscache_cache_ops of include/linux/fscache-cache.h: how cookies,
 * volumes and the cache handle call down into the backend, which calls
 * back only through struct kmf_fscache_helpers.
 */
struct kmf_cache_ops {
	const char *name;
	/* cachefiles_add_cache(): bind the cache at @dir. */
	int (*acquire_cache)(struct fscache_cache *cache, const char *dir);
	/* cachefiles_withdraw_cache(). */
	void (*withdraw_cache)(struct fscache_cache *cache);
	int (*acquire_volume)(struct fscache_volume *volume);
	void (*free_volume)(struct fscache_volume *volume, unsigned int flags);
	bool (*lookup_cookie)(struct fscache_cookie *cookie);
	void (*withdraw_cookie)(struct fscache_cookie *cookie);
	bool (*invalidate_cookie)(struct fscache_cookie *cookie);
	void (*prepare_to_write)(struct fscache_cookie *cookie);
	void (*resize_cookie)(struct fscache_cookie *cookie,
			      struct kmf_file *file, s64 new_size);
	/* Delete the on-disk object of a cookie that was never looked up. */
	void (*delete_unused)(struct fscache_cookie *cookie);
};
extern const struct kmf_cache_ops kmf_cachefiles_ops;

struct kmf_file *kmf_object_get_file(struct kmf_object *object);
void kmf_fput(struct kmf_file *file);

#endif /* KMF_INTERNAL_H */
