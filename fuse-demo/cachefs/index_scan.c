// SPDX-License-Identifier: GPL-2.0-only
/*
 * The background scan: finds what the cache holds when the index file
 * could not be trusted (missing, written before a crash, damaged, or the
 * cache changed behind its back), while the mount already serves.
 *
 * One thread walks the cache with libkmirror's scanner
 * (kmirror_cache_next()) and reconciles the index with it:
 *   - an object found and already indexed is marked seen, and its space is
 *     taken from the disk unless an inode holds it (the daemon's own count
 *     is then newer);
 *   - an object found and not indexed gets an entry, kept off the LRU list
 *     until the walk ends, then put at the old end in atime order (culled
 *     first, as cachefilesd would);
 *   - at the end, entries loaded from the index file and not seen are gone
 *     from the disk: dropped.  Objects the daemon made meanwhile are marked
 *     seen by kc_index_hold().
 * Reads never wait for the scan: an object the index does not know yet is
 * simply made known when its file is opened (libkmirror finds the object
 * on disk and checks it against the source as always).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "index.h"
#include "kmirror/cache.h"

/* An entry the scan added, to be put on the LRU in atime order. */
struct kc_found {
	uint64_t	atime;
	uint32_t	id;
};

struct kc_scanner {
	pthread_t	thread;
	atomic_bool	stop;
	struct kc_found	*found;
	size_t		nfound, cap;
};

static int kc_by_atime(const void *a, const void *b)
{
	const struct kc_found *x = a, *y = b;

	return x->atime < y->atime ? -1 : x->atime > y->atime;
}

static int kc_found_add(struct kc_scanner *s, uint32_t id, uint64_t atime)
{
	struct kc_found *nf;

	if (s->nfound == s->cap) {
		nf = realloc(s->found, (s->cap ? s->cap * 2 : 4096) *
				       sizeof(*nf));
		if (!nf)
			return -ENOMEM;
		s->found = nf;
		s->cap = s->cap ? s->cap * 2 : 4096;
	}
	s->found[s->nfound].atime = atime;
	s->found[s->nfound++].id = id;
	return 0;
}

/* One object the walk found (index lock held). */
static int kc_scan_note(struct kc_fs *fs, const struct kmirror_cache_object *r,
			const struct stat *st)
{
	struct kc_index *x = fs->index;
	uint64_t bytes = (uint64_t)st->st_blocks * 512;
	struct kc_obj *o;
	int vol;

	vol = kc_vol_index(x, r->volume, r->volume_coherency,
			   r->volume_coherency_len);
	if (vol < 0)
		return -ENOMEM;
	o = kc_obj_find_locked(x, vol, r->key, r->key_len);
	if (o) {
		o->flags |= KC_OBJ_SEEN;
		if (!o->holder) {
			atomic_fetch_add(&x->bytes,
					 (int64_t)bytes - (int64_t)o->bytes);
			o->bytes = bytes;
		}
		return 0;
	}
	o = kc_obj_add_locked(x, vol, r->key, r->key_len);
	if (!o)
		return -ENOMEM;
	o->flags |= KC_OBJ_SEEN;
	o->bytes = bytes;
	atomic_fetch_add(&x->bytes, (int64_t)bytes);
	return kc_found_add(x->scanner, o->id,
			    (uint64_t)st->st_atim.tv_sec * 1000000000ull +
			    st->st_atim.tv_nsec);
}

/* The walk; 0 when it saw the whole cache. */
static int kc_scan_walk(struct kc_fs *fs)
{
	struct kc_index *x = fs->index;
	struct kmirror_cache_object r;
	struct kmirror_cache_scan *scan;
	struct stat st;
	int ret;

	ret = kmirror_cache_openat(fs->cache_fd, ".", &scan);
	if (ret)
		return ret;
	while ((ret = kmirror_cache_next(scan, &r)) > 0) {
		if (atomic_load(&x->scanner->stop)) {
			ret = -EINTR;
			break;
		}
		if (r.kind != KMIRROR_CACHE_OBJECT || r.error ||
		    kmirror_cachedir_stat(fs->cache_fd, r.path, &st))
			continue;
		pthread_mutex_lock(&x->lock);
		ret = kc_scan_note(fs, &r, &st);
		pthread_mutex_unlock(&x->lock);
		if (ret)
			break;
	}
	kmirror_cache_close(scan);
	return ret;
}

/*
 * The end of the walk (index lock held): found entries to the old end of
 * the LRU, oldest first; after a whole walk, entries not seen dropped.
 */
static void kc_scan_finish(struct kc_index *x, bool whole)
{
	struct kc_scanner *s = x->scanner;
	struct kc_obj *o;
	size_t i;

	if (s->nfound)		/* qsort(NULL, 0, ...) is undefined */
		qsort(s->found, s->nfound, sizeof(*s->found), kc_by_atime);
	for (i = s->nfound; i--;) {
		o = kc_obj_at(x, s->found[i].id);
		if (!(o->flags & (KC_OBJ_FREE | KC_OBJ_ON_LRU)))
			kc_lru_add_head(x, o);
	}
	free(s->found);
	s->found = NULL;
	s->nfound = s->cap = 0;
	for (i = 1; i < x->nent; i++) {
		o = kc_obj_at(x, i);
		if (o->flags & KC_OBJ_FREE)
			continue;
		if (whole && !(o->flags & (KC_OBJ_SEEN | KC_OBJ_CULLING)) &&
		    !o->holder)
			kc_obj_del_locked(x, o);
		else
			o->flags &= ~KC_OBJ_SEEN;
	}
}

static void *kc_scan_thread(void *arg)
{
	struct kc_fs *fs = arg;
	struct kc_index *x = fs->index;
	int ret = kc_scan_walk(fs);

	if (ret && ret != -EINTR)
		kc_warn("cache scan stopped: %s; the index knows part of "
			"the cache", strerror(-ret));
	pthread_mutex_lock(&x->lock);
	kc_scan_finish(x, !ret);
	pthread_mutex_unlock(&x->lock);
	if (!ret)
		atomic_store(&x->complete, true);
	atomic_fetch_add(&fs->stats.generation, 1);
	kc_cull_kick(fs);
	return NULL;
}

int kc_scan_start(struct kc_fs *fs)
{
	struct kc_scanner *s = calloc(1, sizeof(*s));
	int ret;

	if (!s)
		return -ENOMEM;
	fs->index->scanner = s;
	ret = pthread_create(&s->thread, NULL, kc_scan_thread, fs);
	if (ret) {
		free(s);
		fs->index->scanner = NULL;
	}
	return -ret;
}

/* Stop the scan if it still runs (what it found so far stays). */
void kc_scan_stop(struct kc_fs *fs)
{
	struct kc_scanner *s = fs->index->scanner;

	if (!s)
		return;
	atomic_store(&s->stop, true);
	pthread_join(s->thread, NULL);
	free(s->found);
	free(s);
	fs->index->scanner = NULL;
}
