// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-file caching through libkmirror: one fscache cookie per source file,
 * acquired at the file's first open and relinquished when the kernel
 * forgets the inode (retired if the source file is gone), used
 * (fscache_use_cookie()) by every open file, the way a kernel netfs does
 * it at inode and file level.
 *
 * Index key: the source's st_ino (8 bytes, little-endian); files on
 * another device than the source root (submounts) add st_dev first.  The
 * volume already names the source.
 *
 * Coherency (aux data, 40 bytes LE): mtime sec/nsec, ctime sec/nsec, size
 * and inode of the source file.  libkmirror throws away an on-disk object
 * whose aux data or size does not match at lookup; while mounted, this
 * file compares the source's attributes with those the cache holds
 *  - at every open (fstat of the new descriptor),
 *  - at every lookup and getattr (the kernel asks again when attr_timeout
 *    ran out), and before a read once attr_timeout has passed since the
 *    last check,
 *  - right before every change made through the mount,
 * and invalidates (fscache_invalidate(): a new, empty object) on any
 * difference.  After a change made through the mount the new attributes
 * are taken as the cache's own (kc_change_end()).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cachefs.h"

static void kc_put_le(uint8_t *p, uint64_t v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		p[i] = v >> (8 * i);
}

void kc_aux_encode(const struct kc_attr *a, uint8_t aux[KC_AUX_LEN])
{
	kc_put_le(aux, a->mtime_sec, 8);
	kc_put_le(aux + 8, a->ctime_sec, 8);
	kc_put_le(aux + 16, a->size, 8);
	kc_put_le(aux + 24, a->ino, 8);
	kc_put_le(aux + 32, a->mtime_nsec, 4);
	kc_put_le(aux + 36, a->ctime_nsec, 4);
}

/* The caching state of @in, made on first use; NULL if out of memory. */
struct kc_icache *kc_icache_get(struct kc_fs *fs, struct kc_inode *in)
{
	struct kc_icache *ic = atomic_load(&in->ic), *expected = NULL;
	pthread_rwlockattr_t attr;

	if (ic)
		return ic;
	ic = calloc(1, sizeof(*ic));
	if (!ic)
		return NULL;
	pthread_rwlockattr_init(&attr);
	pthread_rwlockattr_setkind_np(&attr,
			PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	pthread_rwlock_init(&ic->io, &attr);
	pthread_rwlockattr_destroy(&attr);
	pthread_mutex_init(&ic->lock, NULL);
	pthread_cond_init(&ic->fill_done, NULL);
	kc_map_init(&ic->map, fs->cfg.granule_shift);
	if (atomic_compare_exchange_strong(&in->ic, &expected, ic))
		return ic;
	kc_icache_free(ic);
	return expected;
}

void kc_icache_free(struct kc_icache *ic)
{
	kc_map_destroy(&ic->map);
	pthread_cond_destroy(&ic->fill_done);
	pthread_mutex_destroy(&ic->lock);
	pthread_rwlock_destroy(&ic->io);
	free(ic);
}

/* The index key of the source file @dev, @ino; its length. */
size_t kc_cookie_key(const struct kc_fs *fs, dev_t dev, ino_t ino,
		     uint8_t key[16])
{
	if (dev == fs->source_dev) {
		kc_put_le(key, ino, 8);
		return 8;
	}
	kc_put_le(key, dev, 8);
	kc_put_le(key + 8, ino, 8);
	return 16;
}

/* The attributes the cache holds now become @a (io excl + lock). */
static void kc_set_known(struct kc_icache *ic, const struct kc_attr *a)
{
	pthread_mutex_lock(&ic->lock);
	ic->known = *a;
	pthread_mutex_unlock(&ic->lock);
	atomic_store(&ic->checked_ns, kc_now_ns());
	atomic_store(&ic->recheck, false);
}

/* Acquire the cookie of @in for the source state @a (io excl held). */
static int kc_acquire(struct kc_fs *fs, struct kc_inode *in,
		      struct kc_icache *ic, const struct kc_attr *a)
{
	uint8_t key[16], aux[KC_AUX_LEN];
	size_t klen = kc_cookie_key(fs, in->dev, in->ino, key);
	struct fscache_cookie *c;
	struct kc_obj *obj;
	bool old;

	obj = kc_index_hold(fs, key, klen, in, &old);
	if (!obj)
		return -ENOMEM;
	kc_aux_encode(a, aux);
	c = fscache_acquire_cookie(fs->volume, 0, key, klen, aux, sizeof(aux),
				   a->size);
	if (!c) {
		int err = -errno;

		kc_index_unhold(fs, obj, false);
		return err;
	}
	pthread_mutex_lock(&ic->lock);
	ic->cookie = c;
	ic->obj = obj;
	kc_map_reset(&ic->map);
	pthread_mutex_unlock(&ic->lock);
	ic->had_object = old;
	kc_set_known(ic, a);
	return 0;
}

/*
 * The object is used now: its atime says so (cachefiles' touch_atime()
 * at lookup, here at every open), for -o max_age and for the scan's
 * order of a cache without an index file.
 */
static void kc_touch_object(struct kc_icache *ic)
{
	static const struct timespec now[2] = { { 0, UTIME_NOW },
						{ 0, UTIME_OMIT } };
	struct fscache_cache_resources cres;

	if (fscache_begin_read_operation(&cres, ic->cookie))
		return;
	if (kc_cres_fd(&cres) >= 0)
		futimens(kc_cres_fd(&cres), now);
	fscache_end_operation(&cres);
}

/* Start one use of the cookie (io excl held). */
static void kc_use(struct kc_fs *fs, struct kc_icache *ic, bool will_modify)
{
	int ret = fscache_use_cookie(ic->cookie, will_modify);
	bool first;

	pthread_mutex_lock(&ic->lock);
	first = ic->n_use++ == 0;
	ic->last_used = time(NULL);
	if (first || ret)
		ic->caching = ret == 0;
	pthread_mutex_unlock(&ic->lock);
	/* An object that was on disk but comes back empty was stale. */
	if (!ret && ic->had_object && fscache_cookie_no_data_to_read(ic->cookie))
		kc_count(fs, invalidations, 1);
	ic->had_object = false;
	if (!ret && first && kc_bind_map(fs, ic))
		ic->caching = false;
	if (!ret)
		kc_touch_object(ic);
}

/* End one use; the last one seals the map first (io excl held). */
static void kc_unuse(struct kc_fs *fs, struct kc_icache *ic)
{
	uint8_t aux[KC_AUX_LEN];
	int64_t size;
	bool last;

	pthread_mutex_lock(&ic->lock);
	last = --ic->n_use == 0;
	ic->last_used = time(NULL);
	pthread_mutex_unlock(&ic->lock);
	if (last && ic->caching)
		kc_flush_map(fs, ic);
	kc_aux_encode(&ic->known, aux);
	size = ic->known.size;
	fscache_unuse_cookie(ic->cookie, aux, &size);
}

/*
 * The source is now @a and differs from what is cached (io excl held).
 * @foreign: found changed behind our back (counted as an invalidation),
 * not by a change made through the mount.
 */
static void kc_invalidate(struct kc_fs *fs, struct kc_icache *ic,
			  const struct kc_attr *a, bool foreign)
{
	uint8_t aux[KC_AUX_LEN];

	kc_aux_encode(a, aux);
	fscache_invalidate(ic->cookie, aux, a->size, 0);
	kc_sums_remove(fs, ic->obj);	/* of the object just replaced */
	pthread_mutex_lock(&ic->lock);
	ic->gen++;
	kc_map_reset(&ic->map);
	pthread_mutex_unlock(&ic->lock);
	kc_set_known(ic, a);
	kc_index_set_bytes(fs, ic->obj, 0);
	if (foreign)
		kc_count(fs, invalidations, 1);
	if (ic->n_use && ic->caching && kc_bind_map(fs, ic))
		ic->caching = false;
}

/*
 * A file of @in was opened as @fd: make sure the cache holds this version
 * of it and take one use of the cookie (*@used: kc_cache_release() owed).
 * Caching problems never fail an open: the file is then read uncached.
 */
int kc_cache_open(struct kc_fs *fs, struct kc_inode *in, int fd,
		  bool will_modify, bool *used)
{
	struct kc_icache *ic = kc_icache_get(fs, in);
	struct kc_attr a;
	struct stat st;

	*used = false;
	if (!ic)
		return 0;
	/*
	 * The source's attributes are read under the I/O lock: read before
	 * it, they could predate a write through the mount that ends while
	 * we wait, and the cache's newer attributes would look like a change
	 * behind our back.
	 */
	pthread_rwlock_wrlock(&ic->io);
	if (kc_src_fstatat(fs, fd, "", &st, AT_EMPTY_PATH)) {
		pthread_rwlock_unlock(&ic->io);
		return -errno;
	}
	kc_attr_from_stat(&a, &st);
	if (kc_meta_opened(fs, in, &st, &a))
		atomic_store(&ic->attr_news, true);
	if (!ic->cookie) {
		if (kc_acquire(fs, in, ic, &a)) {
			pthread_rwlock_unlock(&ic->io);
			return 0;
		}
	} else if (!kc_attr_eq(&ic->known, &a)) {
		kc_invalidate(fs, ic, &a, true);
		kc_notify_changed(fs, in, false);
	} else {
		kc_set_known(ic, &a);
	}
	kc_use(fs, ic, will_modify);
	kc_index_touch(fs, ic->obj);
	pthread_rwlock_unlock(&ic->io);
	*used = true;
	return 0;
}

/*
 * Offline: a use of @in's cached object, taken on the source's last
 * attributes the cache knows (a coherent cookie is acquired with them);
 * 0, or -EIO if @in has no cached object or a recheck is pending.
 */
int kc_cache_open_offline(struct kc_fs *fs, struct kc_inode *in, bool *used)
{
	struct kc_icache *ic = atomic_load(&in->ic);
	struct kc_attr a;
	int ret = -EIO;

	*used = false;
	if (!ic)
		return -EIO;
	pthread_rwlock_wrlock(&ic->io);
	a = ic->known;
	if (!atomic_load(&ic->recheck) && a.ino &&
	    (ic->cookie || !kc_acquire(fs, in, ic, &a))) {
		kc_use(fs, ic, false);
		kc_index_touch(fs, ic->obj);
		atomic_store(&ic->offline_used, true);
		*used = true;
		ret = 0;
	}
	pthread_rwlock_unlock(&ic->io);
	return ret;
}

void kc_cache_release(struct kc_fs *fs, struct kc_inode *in)
{
	struct kc_icache *ic = atomic_load(&in->ic);

	kc_behind_wait(ic);	/* the last use seals the map */
	pthread_rwlock_wrlock(&ic->io);
	if (ic->cookie)
		kc_unuse(fs, ic);
	pthread_rwlock_unlock(&ic->io);
}

/*
 * settle.c: one use of @in's cookie, as an open takes it, if the cache
 * holds the version @id of the file.  No cookie is acquired: an inode the
 * kernel forgot has none, and must not get one.  kc_cache_release() ends
 * the use.
 */
bool kc_cache_use_known(struct kc_fs *fs, struct kc_inode *in,
			const struct kc_attr *id)
{
	struct kc_icache *ic = atomic_load(&in->ic);
	bool ok;

	if (!ic)
		return false;
	pthread_rwlock_wrlock(&ic->io);
	ok = ic->cookie && kc_attr_eq(&ic->known, id);
	if (ok)
		kc_use(fs, ic, false);
	pthread_rwlock_unlock(&ic->io);
	return ok;
}

/*
 * Compare the source, freshly stat'ed under io excl, with the cache.
 * True if it had changed behind our back (the kernel must hear of it).
 */
static bool kc_recheck_locked(struct kc_fs *fs, struct kc_inode *in,
			      struct kc_icache *ic)
{
	struct kc_attr a;
	struct stat st;

	if (!ic->cookie) {
		atomic_store(&ic->recheck, false);	/* nothing cached */
		return false;
	}
	if (kc_inode_fd(fs, in) < 0 ||
	    kc_src_fstatat(fs, in->fd, "", &st, AT_EMPTY_PATH)) {
		atomic_store(&ic->recheck, true);
		return false;
	}
	kc_attr_from_stat(&a, &st);
	if (!kc_attr_eq(&ic->known, &a)) {
		kc_invalidate(fs, ic, &a, true);
		return true;
	}
	kc_set_known(ic, &a);
	return false;
}

/*
 * Fresh attributes of @in were read (lookup, getattr, attr timeout): if
 * they differ from the cache's, or a fill asked for a check, check again
 * under the I/O lock (attributes read before it may predate a change
 * made through the mount), invalidate and tell the kernel (@wait:
 * kc_notify_changed()'s).
 */
void kc_cache_check_stat(struct kc_fs *fs, struct kc_inode *in,
			 const struct stat *st, bool wait)
{
	struct kc_icache *ic = atomic_load(&in->ic);
	struct kc_attr a;
	bool same, changed;

	if (!ic)
		return;
	kc_attr_from_stat(&a, st);
	pthread_mutex_lock(&ic->lock);
	same = !ic->cookie || kc_attr_eq(&ic->known, &a);
	pthread_mutex_unlock(&ic->lock);
	if (same && !atomic_load(&ic->recheck)) {
		atomic_store(&ic->checked_ns, kc_now_ns());
		return;
	}
	pthread_rwlock_wrlock(&ic->io);
	changed = kc_recheck_locked(fs, in, ic);
	pthread_rwlock_unlock(&ic->io);
	if (changed)
		kc_notify_changed(fs, in, wait);
}

/* Before a cached read: check the source if attr_timeout has passed. */
void kc_cache_check_due(struct kc_fs *fs, struct kc_inode *in)
{
	struct kc_icache *ic = atomic_load(&in->ic);
	struct stat st;

	if (!ic || (!atomic_load(&ic->recheck) &&
		    kc_now_ns() - atomic_load(&ic->checked_ns) <
		    fs->attr_timeout_ns))
		return;
	/* The inode's O_PATH descriptor: a file opened offline has no other. */
	if (kc_inode_fd(fs, in) >= 0 &&
	    kc_src_fstatat(fs, in->fd, "", &st, AT_EMPTY_PATH) == 0)
		kc_cache_check_stat(fs, in, &st, false);
}

/*
 * Lock @in's cached data against I/O for a change of the source made
 * through the mount, checking first that nothing changed behind our back.
 * Returns what kc_change_end() needs (NULL: nothing is cached in memory).
 */
struct kc_icache *kc_change_begin(struct kc_fs *fs, struct kc_inode *in)
{
	struct kc_icache *ic = atomic_load(&in->ic);

	if (!ic)
		return NULL;
	pthread_rwlock_wrlock(&ic->io);
	if (kc_recheck_locked(fs, in, ic))
		kc_notify_changed(fs, in, false);
	return ic;
}

/* How the change @ch moved the source from ic->known to @a. */
static void kc_apply(struct kc_fs *fs, struct kc_icache *ic,
		     const struct kc_change *ch, const struct kc_attr *a)
{
	int64_t old = ic->known.size, size = a->size;
	struct kc_change w = *ch;
	uint8_t aux[KC_AUX_LEN];

	if (w.kind == KC_CH_META && a->size != old)
		w.kind = KC_CH_ALL;
	if (w.kind == KC_CH_WRITE && w.append)
		w.off = a->size - (off_t)w.len;
	if (w.kind == KC_CH_WRITE && (w.off < 0 || (w.append && w.off != old) ||
				      w.off + (off_t)w.len > a->size))
		w.kind = KC_CH_ALL;	/* not what our write alone did */
	if (w.kind != KC_CH_META && w.kind != KC_CH_ALL &&
	    (!ic->n_use || !ic->caching ||
	     kc_apply_change(fs, ic, &w, old, a->size)))
		w.kind = KC_CH_ALL;
	if (w.kind == KC_CH_ALL) {
		kc_invalidate(fs, ic, a, false);
		return;
	}
	kc_set_known(ic, a);
	kc_aux_encode(a, aux);
	fscache_update_cookie(ic->cookie, aux, &size);
}

/* The change @ch was made to the source (@fd open on it, or -1). */
void kc_change_end(struct kc_fs *fs, struct kc_icache *ic,
		   struct kc_inode *in, int fd, const struct kc_change *ch)
{
	struct kc_attr a;
	struct stat st;
	int ret;

	if (!ic)
		return;
	pthread_mutex_lock(&ic->lock);
	ic->gen++;		/* queued fills predate the change */
	pthread_mutex_unlock(&ic->lock);
	if (ic->cookie) {
		ret = fd >= 0 ? fstat(fd, &st) :
				fstatat(in->fd, "", &st, AT_EMPTY_PATH);
		if (ret) {
			kc_attr_from_stat(&a, &(struct stat){ 0 });
			kc_invalidate(fs, ic, &a, false);
			atomic_store(&ic->recheck, true);
		} else {
			kc_attr_from_stat(&a, &st);
			kc_apply(fs, ic, ch, &a);
		}
	}
	pthread_rwlock_unlock(&ic->io);
}

/* Give the cookie back (io excl held); @retire deletes its object. */
static void kc_drop_cookie(struct kc_fs *fs, struct kc_icache *ic,
			   bool retire, bool unhold)
{
	struct fscache_cookie *c = ic->cookie;
	struct kc_obj *obj = ic->obj;

	while (ic->n_use)
		kc_unuse(fs, ic);
	pthread_mutex_lock(&ic->lock);
	ic->gen++;
	ic->cookie = NULL;
	ic->obj = NULL;
	ic->caching = false;
	kc_map_reset(&ic->map);
	pthread_mutex_unlock(&ic->lock);
	fscache_relinquish_cookie(c, retire);
	if (retire)
		kc_sums_remove(fs, obj);
	if (unhold)
		kc_index_unhold(fs, obj, retire);
}

/*
 * The kernel forgot @in (or we unmount): relinquish its cookie, retiring
 * the object if the source file has no name left.
 */
void kc_cache_forget(struct kc_fs *fs, struct kc_inode *in)
{
	struct kc_icache *ic = atomic_load(&in->ic);
	struct stat st;
	bool retire;

	if (!ic)
		return;
	kc_behind_wait(ic);
	pthread_rwlock_wrlock(&ic->io);
	if (ic->cookie) {
		retire = !kc_src_fstatat(fs, in->fd, "", &st,
					 AT_EMPTY_PATH) &&
			 st.st_nlink == 0;
		if (retire)
			kc_count(fs, retired, 1);
		kc_drop_cookie(fs, ic, retire, true);
	}
	pthread_rwlock_unlock(&ic->io);
}

/*
 * When the object of @in (held: its cookie acquired) was last used, or 0
 * while a file has it open: a cull then finds it in use and moves it to
 * the recent end.  A new object has no file in the cache directory to ask
 * until its cookie is relinquished (it is made as a tmpfile and linked
 * then, as cachefiles does).
 */
time_t kc_cache_last_used(struct kc_inode *in)
{
	struct kc_icache *ic = atomic_load(&in->ic);
	time_t t;

	if (!ic)
		return 0;
	pthread_mutex_lock(&ic->lock);
	t = ic->n_use ? 0 : ic->last_used;
	pthread_mutex_unlock(&ic->lock);
	return t;
}

/*
 * The culler wants @in's object gone: only if no open file uses it and
 * nobody holds its I/O lock.  True if the object was retired (the caller
 * owns the index entry then).
 */
bool kc_cache_cull(struct kc_fs *fs, struct kc_inode *in)
{
	struct kc_icache *ic = atomic_load(&in->ic);
	bool done = false, busy;

	if (!ic || pthread_rwlock_trywrlock(&ic->io))
		return false;
	pthread_mutex_lock(&ic->lock);
	busy = ic->n_jobs != 0;
	pthread_mutex_unlock(&ic->lock);
	if (ic->cookie && !ic->n_use && !busy) {
		kc_drop_cookie(fs, ic, true, false);
		done = true;
	}
	pthread_rwlock_unlock(&ic->io);
	return done;
}
