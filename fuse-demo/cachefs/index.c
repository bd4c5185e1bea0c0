// SPDX-License-Identifier: GPL-2.0-only
/*
 * The object index.
 *
 * At mount the cache is scanned once (libkmirror's kmirror_cache_next():
 * every object of every volume) into an in-memory index: volume, key,
 * space on disk, in least-recently-used order (atime, which libkmirror
 * touches when it opens an object, as cachefiles does; cachefilesd culls
 * by atime too).  From then on the index follows what this daemon does:
 * objects made, opened (moved to the recent end), filled, invalidated and
 * retired.  Nothing is rescanned.  cull.c decides what to throw out.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "index.h"
#include "kmirror/cache.h"

static uint32_t kc_obj_hash(unsigned int vol, const uint8_t *key, size_t len)
{
	uint32_t h = 2166136261u ^ vol;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ key[i]) * 16777619u;
	return h;
}

static struct kc_obj *kc_find_locked(struct kc_index *x, unsigned int vol,
				     const uint8_t *key, size_t len)
{
	uint32_t h = kc_obj_hash(vol, key, len);
	struct kc_obj *o = x->bucket[h & (x->nbuckets - 1)];

	for (; o; o = o->hnext)
		if (o->hash == h && o->vol == vol && o->key_len == len &&
		    !memcmp(o->key, key, len))
			return o;
	return NULL;
}

struct kc_obj *kc_lru_obj(struct kc_link *l)
{
	return (struct kc_obj *)((char *)l - offsetof(struct kc_obj, lru));
}

void kc_lru_del(struct kc_obj *o)
{
	o->lru.prev->next = o->lru.next;
	o->lru.next->prev = o->lru.prev;
}

void kc_lru_add_tail(struct kc_index *x, struct kc_obj *o)
{
	o->lru.prev = x->lru.prev;
	o->lru.next = &x->lru;
	x->lru.prev->next = &o->lru;
	x->lru.prev = &o->lru;
}

static void kc_grow_locked(struct kc_index *x)
{
	size_t nb = x->nbuckets * 2, i;
	struct kc_obj **b, *o, *next;

	if (x->n < x->nbuckets * 2 || !(b = calloc(nb, sizeof(*b))))
		return;
	for (i = 0; i < x->nbuckets; i++) {
		for (o = x->bucket[i]; o; o = next) {
			next = o->hnext;
			o->hnext = b[o->hash & (nb - 1)];
			b[o->hash & (nb - 1)] = o;
		}
	}
	free(x->bucket);
	x->bucket = b;
	x->nbuckets = nb;
}

/* A new entry, hashed, not yet on the LRU; NULL: no memory. */
static struct kc_obj *kc_obj_add_locked(struct kc_index *x, unsigned int vol,
					const uint8_t *key, size_t len)
{
	struct kc_obj *o = calloc(1, sizeof(*o) + len);

	if (!o)
		return NULL;
	o->vol = vol;
	o->key_len = len;
	memcpy(o->key, key, len);
	o->hash = kc_obj_hash(vol, key, len);
	o->hnext = x->bucket[o->hash & (x->nbuckets - 1)];
	x->bucket[o->hash & (x->nbuckets - 1)] = o;
	x->n++;
	kc_grow_locked(x);
	return o;
}

void kc_obj_del_locked(struct kc_index *x, struct kc_obj *o)
{
	struct kc_obj **pp = &x->bucket[o->hash & (x->nbuckets - 1)];

	while (*pp != o)
		pp = &(*pp)->hnext;
	*pp = o->hnext;
	kc_lru_del(o);
	x->n--;
	atomic_fetch_sub(&x->bytes, (int64_t)o->bytes);
	free(o->path);
	free(o);
}

/* Index of the volume @key in x->vol, added if new; -1: no memory. */
static int kc_vol_index(struct kc_index *x, const char *key,
			const uint8_t *coh, size_t coh_len)
{
	struct kc_vol *nv;
	size_t i;

	for (i = 0; i < x->nvol; i++)
		if (!strcmp(x->vol[i].key, key))
			return i;
	nv = realloc(x->vol, (x->nvol + 1) * sizeof(*nv));
	if (!nv)
		return -1;
	x->vol = nv;
	memset(&nv[x->nvol], 0, sizeof(*nv));
	nv[x->nvol].key = strdup(key);
	nv[x->nvol].coh = coh_len ? malloc(coh_len) : NULL;
	if (!nv[x->nvol].key || (coh_len && !nv[x->nvol].coh)) {
		free(nv[x->nvol].key);
		free(nv[x->nvol].coh);
		return -1;
	}
	if (coh_len)
		memcpy(nv[x->nvol].coh, coh, coh_len);
	nv[x->nvol].coh_len = coh_len;
	return x->nvol++;
}

static int kc_by_atime(const void *a, const void *b)
{
	const struct kc_obj *x = *(struct kc_obj *const *)a;
	const struct kc_obj *y = *(struct kc_obj *const *)b;

	return x->atime < y->atime ? -1 : x->atime > y->atime;
}

/* Index one scanned object (the build runs before any other thread). */
static int kc_scan_one(struct kc_fs *fs, const struct kmirror_cache_object *o,
		       struct kc_obj ***all, size_t *nall, size_t *cap)
{
	struct kc_index *x = fs->index;
	struct kc_obj *obj, **na;
	struct stat st;
	int vol;

	if (o->kind != KMIRROR_CACHE_OBJECT || o->error ||
	    fstatat(fs->cache_fd, o->path, &st, AT_SYMLINK_NOFOLLOW))
		return 0;
	vol = kc_vol_index(x, o->volume, o->volume_coherency,
			   o->volume_coherency_len);
	if (*nall == *cap) {
		na = realloc(*all, (*cap ? *cap * 2 : 256) * sizeof(*na));
		if (!na)
			return -ENOMEM;
		*all = na;
		*cap = *cap ? *cap * 2 : 256;
	}
	obj = vol < 0 ? NULL : kc_obj_add_locked(x, vol, o->key, o->key_len);
	if (!obj || !(obj->path = strdup(o->path)))
		return -ENOMEM;
	obj->bytes = (uint64_t)st.st_blocks * 512;
	obj->atime = (uint64_t)st.st_atim.tv_sec * 1000000000ull +
		     st.st_atim.tv_nsec;
	atomic_fetch_add(&x->bytes, (int64_t)obj->bytes);
	(*all)[(*nall)++] = obj;
	return 0;
}

static int kc_scan(struct kc_fs *fs)
{
	struct kc_obj **all = NULL;
	struct kmirror_cache_object o;
	struct kmirror_cache_scan *scan;
	size_t nall = 0, cap = 0, i;
	int ret;

	ret = kmirror_cache_openat(fs->cache_fd, ".", &scan);
	if (ret)
		return ret;
	while ((ret = kmirror_cache_next(scan, &o)) > 0) {
		ret = kc_scan_one(fs, &o, &all, &nall, &cap);
		if (ret)
			break;
	}
	kmirror_cache_close(scan);
	if (nall)
		qsort(all, nall, sizeof(*all), kc_by_atime);
	for (i = 0; i < nall; i++)
		kc_lru_add_tail(fs->index, all[i]);
	free(all);
	return ret;
}

/* Build the index (once, at mount, before any FUSE request). */
int kc_index_build(struct kc_fs *fs)
{
	struct kc_index *x = calloc(1, sizeof(*x));
	int ret;

	if (!x)
		return -ENOMEM;
	fs->index = x;
	pthread_mutex_init(&x->lock, NULL);
	pthread_cond_init(&x->changed, NULL);
	x->lru.prev = x->lru.next = &x->lru;
	x->nbuckets = 4096;
	x->bucket = calloc(x->nbuckets, sizeof(*x->bucket));
	if (!x->bucket || kc_vol_index(x, fs->volume_key, NULL, 0))
		return -ENOMEM;
	x->vol[0].v = fs->volume;
	ret = kc_culler_init(fs);
	return ret ? ret : kc_scan(fs);
}

void kc_index_destroy(struct kc_fs *fs)
{
	struct kc_index *x = fs->index;
	size_t i;

	if (!x)
		return;
	while (x->lru.next != &x->lru)
		kc_obj_del_locked(x, kc_lru_obj(x->lru.next));
	for (i = 0; i < x->nvol; i++) {
		if (i && x->vol[i].v)
			fscache_relinquish_volume(x->vol[i].v, NULL, false);
		free(x->vol[i].key);
		free(x->vol[i].coh);
	}
	free(x->vol);
	free(x->bucket);
	kc_culler_destroy(fs);
	pthread_cond_destroy(&x->changed);
	pthread_mutex_destroy(&x->lock);
	free(x);
	fs->index = NULL;
}

/*
 * @in acquires the cookie of @key in this mount's volume: its entry, made
 * if new (*@old: it was known).  Waits while the object is being culled or
 * still held by an older inode of the same file.
 */
struct kc_obj *kc_index_hold(struct kc_fs *fs, const void *key,
			     size_t key_len, struct kc_inode *in, bool *old)
{
	struct kc_index *x = fs->index;
	struct kc_obj *o;

	pthread_mutex_lock(&x->lock);
	for (;;) {
		o = kc_find_locked(x, 0, key, key_len);
		if (!o || (!o->culling && (!o->holder || o->holder == in)))
			break;
		pthread_cond_wait(&x->changed, &x->lock);
	}
	*old = o != NULL;
	if (!o) {
		o = kc_obj_add_locked(x, 0, key, key_len);
		if (o)
			kc_lru_add_tail(x, o);
	}
	if (o) {
		o->holder = in;
		o->stuck = false;
	}
	pthread_mutex_unlock(&x->lock);
	return o;
}

/* The holder gave the cookie back; @retired: the object is gone. */
void kc_index_unhold(struct kc_fs *fs, struct kc_obj *o, bool retired)
{
	struct kc_index *x = fs->index;

	if (!o)
		return;
	pthread_mutex_lock(&x->lock);
	o->holder = NULL;
	if (retired && o->culling)
		o->dead = true;
	else if (retired)
		kc_obj_del_locked(x, o);
	pthread_cond_broadcast(&x->changed);
	pthread_mutex_unlock(&x->lock);
}

/* Used now: to the recent end. */
void kc_index_touch(struct kc_fs *fs, struct kc_obj *o)
{
	struct kc_index *x = fs->index;

	pthread_mutex_lock(&x->lock);
	kc_lru_del(o);
	kc_lru_add_tail(x, o);
	pthread_mutex_unlock(&x->lock);
}

void kc_index_add_bytes(struct kc_fs *fs, struct kc_obj *o, int64_t d)
{
	struct kc_index *x = fs->index;

	if (!o)
		return;
	pthread_mutex_lock(&x->lock);
	if (d < 0 && (uint64_t)-d > o->bytes)
		d = -(int64_t)o->bytes;
	o->bytes += d;
	atomic_fetch_add(&x->bytes, d);
	pthread_mutex_unlock(&x->lock);
	atomic_fetch_add(&fs->stats.generation, 1);
	/* Look at the limits again every KC_KICK_BYTES of new data. */
	if (d > 0 && atomic_fetch_add(&x->since_kick, d) + d > KC_KICK_BYTES) {
		atomic_store(&x->since_kick, 0);
		kc_cull_kick(fs);
	}
}

void kc_index_set_bytes(struct kc_fs *fs, struct kc_obj *o, uint64_t b)
{
	struct kc_index *x = fs->index;

	if (!o)
		return;
	pthread_mutex_lock(&x->lock);
	atomic_fetch_add(&x->bytes, (int64_t)b - (int64_t)o->bytes);
	o->bytes = b;
	pthread_mutex_unlock(&x->lock);
	atomic_fetch_add(&fs->stats.generation, 1);
}

void kc_index_counts(struct kc_fs *fs, uint64_t *objects, uint64_t *bytes)
{
	struct kc_index *x = fs->index;

	pthread_mutex_lock(&x->lock);
	*objects = x->n;
	pthread_mutex_unlock(&x->lock);
	*bytes = atomic_load(&x->bytes) > 0 ? atomic_load(&x->bytes) : 0;
}

