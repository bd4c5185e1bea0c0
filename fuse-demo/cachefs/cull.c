// SPDX-License-Identifier: GPL-2.0-only
/*
 * Culling and the housekeeper thread.
 *
 * cachefiles' policy through libkmirror (kmirror/cull.h): below bcull or fcull
 * free (statfs of the cache filesystem) culling starts, and goes on until
 * both brun and frun are free again; below bstop or fstop no new data is
 * cached.  With -o size_limit, the same limits also apply to the cap as if
 * it were a filesystem of that size holding the index's bytes
 * (kc_cap_statfs()), and no granule is cached that would cross the cap:
 * such a refusal also culls until the granule fits.
 *
 * With -o max_age, objects whose atime (touched at every open,
 * kc_touch_object()) is older than that are culled too, oldest first,
 * whatever the space: the pass stops at the first younger one.
 *
 * Culling takes the oldest objects of the index (index.c) first; an object
 * whose file is open (its cookie in use) is never culled: it is moved to
 * the recent end instead.  Pinned objects (pins.c) are passed by where
 * they are: a cache whose old end is all pins walks them at every pick.
 * An object goes through libkmirror: its cookie is relinquished with
 * retire (fscache_relinquish_cookie(cookie, true)).
 *
 * The housekeeper wakes every second, after every 8 MiB of new data, when
 * a write found no space and when the inode table passed its budget: it
 * culls, then does the chores main.c gives it (struct kc_cull_ops): evicts
 * inodes (inode.c), rewrites the statistics file and, once a minute when
 * it changed, the index file (index_file.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "index.h"
#include "kmirror/cache.h"
#include "kmirror/cull.h"

#define KC_SYNC_CULLS	8	/* objects a refused write may cull itself */

/* The housekeeper and the policy state it alone changes. */
struct kc_culler {
	struct kmirror_cull	policy;		/* the cache filesystem */
	struct kmirror_cull	cap_policy;	/* the same, over the cap */
	atomic_bool		stopped;	/* below a stop limit */
	_Atomic uint64_t	cap_want;	/* refused by the cap */
	pthread_mutex_t		vol_lock;	/* index->vol[]->v, ->failed */
	pthread_t		thread;
	pthread_mutex_t		hk_lock;
	pthread_cond_t		hk_wake;
	atomic_bool		hk_stop;	/* also read during a pass */
	bool			hk_kick, hk_running;
};

/* The culling limits of a fresh cache, as cachefiles binds them. */
static void kc_policy_init(struct kmirror_cull *c, const unsigned int *limit)
{
	kmirror_cull_init(c);
	c->frun_percent = limit[KC_FRUN];
	c->fcull_percent = limit[KC_FCULL];
	c->fstop_percent = limit[KC_FSTOP];
	c->brun_percent = limit[KC_BRUN];
	c->bcull_percent = limit[KC_BCULL];
	c->bstop_percent = limit[KC_BSTOP];
}

int kc_cull_check_limits(const unsigned int limit[KC_NLIM], char *why,
			 size_t size)
{
	struct kmirror_cull c;

	kc_policy_init(&c, limit);
	if (!kmirror_cull_validate(&c))
		return 0;
	snprintf(why, size,
		 "culling limits must be stop < cull < run < 100%% for files "
		 "and for blocks (have fstop %u%% fcull %u%% frun %u%%, "
		 "bstop %u%% bcull %u%% brun %u%%)", limit[KC_FSTOP],
		 limit[KC_FCULL], limit[KC_FRUN], limit[KC_BSTOP],
		 limit[KC_BCULL], limit[KC_BRUN]);
	return -ERANGE;
}

static int kc_statfs(struct kc_fs *fs, struct kmirror_statfs *k)
{
	struct statfs st;

	if (fstatfs(fs->cache_fd, &st))
		return -errno;
	k->f_bsize = st.f_bsize;
	k->f_blocks = st.f_blocks;
	k->f_bavail = st.f_bavail;
	k->f_files = st.f_files;
	k->f_ffree = st.f_ffree;
	return 0;
}

/*
 * The size cap seen as a filesystem of its own: size_limit bytes in 4 KiB
 * blocks, the index's bytes used, files unlimited.  cachefiles' limits
 * then apply to it unchanged: culling above (100 - bcull)% of the cap,
 * down to (100 - brun)%, nothing new cached above (100 - bstop)%.
 */
static void kc_cap_statfs(struct kc_fs *fs, struct kmirror_statfs *k)
{
	int64_t used = atomic_load(&fs->index->bytes);
	uint64_t cap = fs->cfg.size_limit;

	if (used < 0)
		used = 0;
	k->f_bsize = 4096;
	k->f_blocks = cap / 4096;
	k->f_bavail = (uint64_t)used < cap ? (cap - used) / 4096 : 0;
	k->f_files = k->f_ffree = 1ull << 40;
}

/* The limit a cull is for: culls_blocks, _files, _size_limit or _age. */
enum kc_cull_why {
	KC_CULL_BLOCKS,		/* the cache filesystem's free blocks */
	KC_CULL_FILES,		/* its free inodes */
	KC_CULL_SIZE_LIMIT,	/* -o size_limit */
	KC_CULL_AGE,		/* -o max_age */
};

static bool kc_cull_one(struct kc_fs *fs, enum kc_cull_why why,
			time_t older_than);

static uint64_t kc_index_used(struct kc_index *x)
{
	int64_t b = atomic_load(&x->bytes);

	return b > 0 ? (uint64_t)b : 0;
}

/* Bind the limits to the cache filesystem and the cap (at mount). */
int kc_culler_init(struct kc_fs *fs)
{
	struct kc_culler *k = calloc(1, sizeof(*k));
	struct kmirror_statfs st;
	int ret;

	if (!k)
		return -ENOMEM;
	fs->index->culler = k;
	fs->index->kick = kc_cull_kick;
	pthread_mutex_init(&k->hk_lock, NULL);
	pthread_mutex_init(&k->vol_lock, NULL);
	kc_cond_init_monotonic(&k->hk_wake);
	kc_policy_init(&k->policy, fs->cfg.limit);
	kc_policy_init(&k->cap_policy, fs->cfg.limit);
	ret = kc_statfs(fs, &st);
	if (!ret)
		ret = kmirror_cull_bind(&k->policy, &st);
	if (!ret && fs->cfg.size_limit) {
		kc_cap_statfs(fs, &st);
		ret = kmirror_cull_bind(&k->cap_policy, &st);
	}
	return ret;
}

void kc_culler_destroy(struct kc_fs *fs)
{
	struct kc_culler *k = fs->index->culler;

	if (!k)
		return;
	pthread_cond_destroy(&k->hk_wake);
	pthread_mutex_destroy(&k->hk_lock);
	pthread_mutex_destroy(&k->vol_lock);
	free(k);
	fs->index->culler = NULL;
}

/*
 * May @len more bytes go into the cache (stop limits, size cap)?  Above the
 * cap, the caller culls least recently used objects itself first (the
 * newest data is what the cache should keep), and kicks the housekeeper.
 */
bool kc_may_cache(struct kc_fs *fs, uint64_t len)
{
	struct kc_index *x = fs->index;
	uint64_t cap = fs->cfg.size_limit;
	int tries;

	if (atomic_load(&x->culler->stopped))
		return false;
	for (tries = 0; cap && kc_index_used(x) + len > cap; tries++) {
		if (tries == KC_SYNC_CULLS ||
		    !kc_cull_one(fs, KC_CULL_SIZE_LIMIT, 0)) {
			atomic_store(&x->culler->cap_want, len);
			kc_cull_kick(fs);
			return false;
		}
	}
	return true;
}

/* ---- culling ----------------------------------------------------------- */

/*
 * The limit the filesystem's culling is for: the blocks while fewer than
 * brun are free, else the inodes (culling goes on until both are).
 */
static enum kc_cull_why kc_fs_cull_why(const struct kmirror_cull *c,
				       const struct kmirror_statfs *st)
{
	return st->f_bavail < c->brun || st->f_ffree >= c->frun ?
	       KC_CULL_BLOCKS : KC_CULL_FILES;
}

/* Must culling go on, and for which limit (*@why)?  Sets the stop state. */
static bool kc_need_cull(struct kc_fs *fs, enum kc_cull_why *why)
{
	struct kc_culler *x = fs->index->culler;
	unsigned int events;
	struct kmirror_statfs st;
	bool stop = false;
	uint64_t want;

	if (!kc_statfs(fs, &st)) {
		stop = kmirror_cull_has_space(&x->policy, &st, 0, 0, 0,
					      KMIRROR_SPACE_CHECK,
					      &events) < 0;
		*why = kc_fs_cull_why(&x->policy, &st);
	}
	if (fs->cfg.size_limit) {
		kc_cap_statfs(fs, &st);
		stop |= kmirror_cull_has_space(&x->cap_policy, &st, 0, 0, 0,
					       KMIRROR_SPACE_CHECK,
					       &events) < 0;
		/* A granule the cap refused: cull until it fits, too. */
		want = atomic_exchange(&x->cap_want, 0);
		if (want)
			kmirror_cull_has_space(&x->cap_policy, &st, 0, 0,
					       want / 4096 + 1,
					       KMIRROR_SPACE_FOR_WRITE,
					       &events);
	}
	atomic_store(&x->stopped, stop);
	if (!x->policy.culling && x->cap_policy.culling)
		*why = KC_CULL_SIZE_LIMIT;
	return x->policy.culling || x->cap_policy.culling;
}

/* libkmirror handle of volume @vol, acquired on first need. */
static struct fscache_volume *kc_vol_get(struct kc_fs *fs, unsigned int vol)
{
	struct kc_culler *k = fs->index->culler;
	struct kc_vol *v = kc_vol_at(fs->index, vol);
	struct fscache_volume *ret;

	pthread_mutex_lock(&k->vol_lock);
	if (!v->v && !v->failed) {
		v->v = fscache_acquire_volume(fs->cache, v->key, v->coh,
					      v->coh_len);
		v->failed = !v->v;
	}
	ret = v->v;
	pthread_mutex_unlock(&k->vol_lock);
	return ret;
}

/* Retire an object no inode holds.  True if its file is gone. */
static bool kc_cull_unheld(struct kc_fs *fs, struct kc_obj *o)
{
	struct fscache_volume *v = kc_vol_get(fs, o->vol);
	char path[KMIRROR_CACHE_PATH_SIZE];
	struct fscache_cookie *c;
	struct stat st;

	c = v ? fscache_acquire_cookie(v, 0, kc_obj_key(o), o->key_len, NULL,
				       0, 0) : NULL;
	if (!c)
		return false;
	fscache_relinquish_cookie(c, true);
	kc_sums_remove(fs, o);
	return kc_obj_path(fs->index, o, path, sizeof(path)) < 0 ||
	       kmirror_cachedir_stat(fs->cache_fd, path, &st) == -ENOENT;
}

/* The oldest entry the culler may try (index lock held), or NULL. */
static struct kc_obj *kc_cull_pick(struct kc_index *x)
{
	struct kc_obj *o;

	for (o = kc_lru_first(x); o; o = kc_lru_next(x, o))
		if (!(o->flags & (KC_OBJ_CULLING | KC_OBJ_STUCK |
				  KC_OBJ_PINNED)))
			return o;
	return NULL;
}

/* Count a cull, in all and by the limit it was for. */
static void kc_count_cull(struct kc_fs *fs, enum kc_cull_why why)
{
	kc_count(fs, culls, 1);
	switch (why) {
	case KC_CULL_BLOCKS:
		kc_count(fs, culls_blocks, 1);
		break;
	case KC_CULL_FILES:
		kc_count(fs, culls_files, 1);
		break;
	case KC_CULL_SIZE_LIMIT:
		kc_count(fs, culls_size_limit, 1);
		break;
	case KC_CULL_AGE:
		kc_count(fs, culls_age, 1);
		break;
	}
}

/*
 * The culler is done with @o (index lock held): the entry goes if the
 * object did (true), else it is no longer KC_OBJ_CULLING.
 */
static bool kc_cull_end_locked(struct kc_index *x, struct kc_obj *o,
			       bool gone)
{
	o->flags &= ~KC_OBJ_CULLING;
	pthread_cond_broadcast(&x->changed);
	if (!gone && !(o->flags & KC_OBJ_DEAD))
		return false;
	kc_obj_del_locked(x, o);
	return true;
}

/*
 * Was @o (KC_OBJ_CULLING; @in its holder, pinned, or NULL) last used
 * before @older_than?  Held: the inode knows (in use counts as old: the
 * cull keeps it, at the recent end).  Not held: its file's atime; a file
 * that is gone counts as old (culling then drops the entry).
 */
static bool kc_obj_older(struct kc_fs *fs, struct kc_obj *o,
			 struct kc_inode *in, time_t older_than)
{
	char path[KMIRROR_CACHE_PATH_SIZE];
	struct stat st;

	if (in)
		return fs->cull_ops->last_used(in) < older_than;
	if (kc_obj_path(fs->index, o, path, sizeof(path)) < 0 ||
	    kmirror_cachedir_stat(fs->cache_fd, path, &st))
		return true;
	return st.st_atime < older_than;
}

/*
 * Cull the oldest object that is not in use (and, with @older_than, was
 * last used before it).  False: none left (none that old).
 */
static bool kc_cull_one(struct kc_fs *fs, enum kc_cull_why why,
			time_t older_than)
{
	struct kc_index *x = fs->index;
	bool gone = false, young = false;
	struct kc_inode *in;
	struct kc_obj *o;

	pthread_mutex_lock(&x->lock);
	o = kc_cull_pick(x);
	if (!o) {
		pthread_mutex_unlock(&x->lock);
		return false;
	}
	o->flags |= KC_OBJ_CULLING;
	in = o->holder;
	if (in)
		fs->cull_ops->pin(in);
	pthread_mutex_unlock(&x->lock);
	if (older_than && !kc_obj_older(fs, o, in, older_than))
		young = true;		/* stays the oldest */
	else
		gone = in ? fs->cull_ops->cull(fs, in) : kc_cull_unheld(fs, o);
	pthread_mutex_lock(&x->lock);
	if (!kc_cull_end_locked(x, o, gone) && !young) {
		if (!in)		/* held ones were just busy */
			o->flags |= KC_OBJ_STUCK;
		kc_lru_add_tail(x, o);
	}
	pthread_mutex_unlock(&x->lock);
	if (in)
		fs->cull_ops->unpin(in);
	if (gone)
		kc_count_cull(fs, why);
	return !young;
}

/*
 * kmirror cache evict: the object of @key in this mount's volume, now.
 * 0, -ENOENT (not in the cache), -EPERM (pinned: unpin it first) or
 * -EBUSY (a file uses it, or the culler has it).  It stays where it is in
 * the LRU if it stays.
 */
int kc_cull_evict(struct kc_fs *fs, const uint8_t *key, size_t len)
{
	struct kc_index *x = fs->index;
	struct kc_inode *in;
	struct kc_obj *o;
	bool gone;

	pthread_mutex_lock(&x->lock);
	o = kc_obj_find_locked(x, 0, key, len);
	if (!o || (o->flags & (KC_OBJ_CULLING | KC_OBJ_PINNED))) {
		pthread_mutex_unlock(&x->lock);
		return !o ? -ENOENT : (o->flags & KC_OBJ_PINNED) ? -EPERM :
								 -EBUSY;
	}
	o->flags |= KC_OBJ_CULLING;
	in = o->holder;
	if (in)
		fs->cull_ops->pin(in);
	pthread_mutex_unlock(&x->lock);
	gone = in ? fs->cull_ops->cull(fs, in) : kc_cull_unheld(fs, o);
	pthread_mutex_lock(&x->lock);
	kc_cull_end_locked(x, o, gone);
	pthread_mutex_unlock(&x->lock);
	if (in)
		fs->cull_ops->unpin(in);
	if (gone)
		kc_count(fs, evictions, 1);
	return gone ? 0 : -EBUSY;
}

/*
 * Cull until below the limits.  A pass over a big cache takes seconds
 * (10,000 objects a second or more go): it still writes the statistics
 * once a second, and it ends at once when the daemon stops.
 */
static void kc_cull_pass(struct kc_fs *fs)
{
	struct kc_culler *x = fs->index->culler;
	uint64_t next = kc_now_ns() + 1000000000ull;
	enum kc_cull_why why = KC_CULL_BLOCKS;
	size_t tries, n = 0;

	pthread_mutex_lock(&fs->index->lock);
	tries = fs->index->n;
	pthread_mutex_unlock(&fs->index->lock);
	while (tries-- && !atomic_load(&x->hk_stop) &&
	       kc_need_cull(fs, &why) && kc_cull_one(fs, why, 0)) {
		if (++n % 256 || kc_now_ns() < next)
			continue;
		kc_stats_write_if_changed(fs);
		next = kc_now_ns() + 1000000000ull;
	}
}

/*
 * -o max_age: cull what was not used for that long, oldest first (the
 * LRU's order), until the first younger object.  Objects in use are kept
 * (moved to the recent end), as by every cull.
 */
static void kc_cull_aged(struct kc_fs *fs)
{
	struct kc_culler *x = fs->index->culler;
	time_t older_than;
	size_t tries;

	if (!fs->cfg.max_age)
		return;
	older_than = time(NULL) - (time_t)fs->cfg.max_age;
	pthread_mutex_lock(&fs->index->lock);
	tries = fs->index->n;
	pthread_mutex_unlock(&fs->index->lock);
	while (tries-- && !atomic_load(&x->hk_stop) &&
	       kc_cull_one(fs, KC_CULL_AGE, older_than))
		;
}

/* ---- the housekeeper ------------------------------------------------- */

void kc_cull_kick(struct kc_fs *fs)
{
	struct kc_culler *x = fs->index->culler;

	pthread_mutex_lock(&x->hk_lock);
	if (!x->hk_kick) {
		x->hk_kick = true;
		pthread_cond_signal(&x->hk_wake);
	}
	pthread_mutex_unlock(&x->hk_lock);
}

static void *kc_housekeeper(void *arg)
{
	struct kc_fs *fs = arg;
	struct kc_culler *x = fs->index->culler;
	struct timespec ts;

	pthread_mutex_lock(&x->hk_lock);
	while (!x->hk_stop) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_sec += 1;
		while (!x->hk_stop && !x->hk_kick &&
		       pthread_cond_timedwait(&x->hk_wake, &x->hk_lock,
					      &ts) != ETIMEDOUT)
			;
		x->hk_kick = false;
		pthread_mutex_unlock(&x->hk_lock);
		kc_cull_pass(fs);
		kc_cull_aged(fs);
		fs->cull_ops->chores(fs);
		pthread_mutex_lock(&x->hk_lock);
	}
	pthread_mutex_unlock(&x->hk_lock);
	return NULL;
}

int kc_housekeeper_start(struct kc_fs *fs)
{
	struct kc_culler *x = fs->index->culler;
	enum kc_cull_why why;
	int ret;

	kc_need_cull(fs, &why);
	/*
	 * A first pass at once: a full cache is culled from the mount on.
	 * Under the lock: the index scan may be kicking already.
	 */
	pthread_mutex_lock(&x->hk_lock);
	x->hk_kick = true;
	pthread_mutex_unlock(&x->hk_lock);
	ret = pthread_create(&x->thread, NULL, kc_housekeeper, fs);
	x->hk_running = !ret;
	return -ret;
}

void kc_housekeeper_stop(struct kc_fs *fs)
{
	struct kc_culler *x = fs->index ? fs->index->culler : NULL;

	if (!x || !x->hk_running)
		return;
	pthread_mutex_lock(&x->hk_lock);
	x->hk_stop = true;
	pthread_cond_signal(&x->hk_wake);
	pthread_mutex_unlock(&x->hk_lock);
	pthread_join(x->thread, NULL);
	x->hk_running = false;
}
