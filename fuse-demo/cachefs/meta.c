// SPDX-License-Identifier: GPL-2.0-only
/*
 * The metadata store (meta.h): what the source said of names, listings
 * and attributes, kept in DIR/kmirror-meta, one file per source
 * directory (meta_file.c), so that a remount over a slow source need not
 * ask it again.
 *
 * Policy: an answer learnt from the source (by this mount or an earlier
 * one) is served without asking it for -o meta_timeout seconds (names,
 * attributes, listings) or -o negative_timeout seconds ("no such
 * name"); 0, the default, always asks.  Offline (offline.c) any age is
 * served: the source cannot be asked.  Data never comes from here: an
 * open always compares the source's attributes with the cache's
 * (kc_cache_open()).  A change made through the mount drops or updates
 * what it touches at once (kc_meta_learn(), kc_meta_made(),
 * kc_meta_stale()), so the mount never contradicts its own writes.
 *
 * Times are CLOCK_REALTIME, as they must outlive the process; an answer
 * learnt "in the future" (the clock was set back) is not trusted.
 *
 * A directory's file is found by its (dev, ino), and a number freed is
 * given to the next directory made: so its names are served only for
 * the directory they were learnt of (struct kc_mid: birth time, ctime,
 * mtime, parent and name), checked against what the daemon knows of the
 * inode at every use (kc_mdir_check()) and as soon as the source gives
 * its attributes (kc_meta_dir_learnt()).  That knowledge is the source's
 * own for the root (asked at mount) and, for a caller other than root,
 * for the directory asked (kc_inode_attr_for()); else it comes down the
 * chain of stored directories, each checked.  A mismatch drops the
 * names.  A change through the mount sets kc_mdir.adopt: the times the
 * source gives next are the directory's own.
 *
 * Directories are read into memory at their first use, under one lock,
 * and written back (a temporary file renamed over the old) by the
 * housekeeper once a second and at unmount.  Those not used since the
 * last write-back are dropped from memory when more than
 * KC_META_MEM_DIRS are held.  A file that does not parse (damaged, or
 * another volume's) is set aside as NAME.bad with a warning, and the
 * directory is asked of the source again.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cachefs.h"
#include "crc32c.h"
#include "meta.h"

#define KC_META_BUCKETS		1024
#define KC_META_MEM_DIRS	4096	/* held in memory before dropping */
#define KC_META_FNAME		48

struct kc_meta {
	pthread_mutex_t	lock;
	struct kc_mdir	*bucket[KC_META_BUCKETS];
	size_t		n;
	uint64_t	clock, flushed;	/* uses; the clock at last flush */
	int		dirfd;		/* DIR/kmirror-meta */
	uint32_t	volhash;
};

/* Was @learnt less than @secs ago?  @secs UINT64_MAX: any age. */
static bool kc_fresh(int64_t learnt, uint64_t secs)
{
	int64_t age = kc_wall_ns() - learnt;

	if (!learnt || age < 0)
		return false;
	return secs == UINT64_MAX || (uint64_t)age < secs * 1000000000ull;
}

/* May attributes learnt at @learnt be served now (meta_timeout)? */
bool kc_meta_fresh_attr(struct kc_fs *fs, int64_t learnt)
{
	return (fs->cfg.meta_timeout || kc_offline(fs)) &&
	       kc_fresh(learnt, kc_offline(fs) ? UINT64_MAX :
				fs->cfg.meta_timeout);
}

/* How old an answer may be served: offline, any age. */
static uint64_t kc_limit(struct kc_fs *fs, uint64_t secs)
{
	return kc_offline(fs) ? UINT64_MAX : secs;
}

static void kc_mdir_name(const struct kc_meta *m, uint64_t dev,
			 uint64_t ino, char *buf)
{
	snprintf(buf, KC_META_FNAME, "%08" PRIx32 "-%016" PRIx64 "-%016"
		 PRIx64, m->volhash, dev, ino);
}

/* The store's key of a device (see struct kc_mdir). */
static uint64_t kc_key_of(struct kc_fs *fs, dev_t dev)
{
	return dev == fs->source_dev ? 0 : dev;
}

static size_t kc_bucket(uint64_t dev, uint64_t ino)
{
	return ((ino ^ dev << 32) * 0x9e3779b97f4a7c15ull >> 40) %
	       KC_META_BUCKETS;
}

/* Read @d's file, if any (lock held); a bad one is set aside. */
static void kc_mdir_read(struct kc_fs *fs, struct kc_mdir *d)
{
	struct kc_meta *m = fs->meta;
	char name[KC_META_FNAME], bad[KC_META_FNAME + 4];
	uint64_t dev = d->dev, ino = d->ino;
	char *buf = NULL;
	size_t len;
	int ret;

	kc_mdir_name(m, dev, ino, name);
	/* Anything but our own regular file there (a FIFO, a symlink, a
	 * hard link: kmirror/cachedir.h) is set aside as damaged. */
	ret = kmirror_cachedir_read(m->dirfd, name, KC_META_FILE_MAX, &buf,
				    &len);
	if (ret && !kmirror_cachedir_refused(ret) && ret != -EFBIG)
		return;
	if (!ret)
		ret = kc_mdir_parse(d, (uint8_t *)buf, len, fs->volume_key,
				    fs->source_dev);
	free(buf);
	d->stored = true;
	if (!ret && d->dev == dev && d->ino == ino)
		return;
	kc_mdir_clear(d);
	d->dev = dev;
	d->ino = ino;
	if (ret == -EPROTO) {	/* another version's: it cannot be checked */
		kmirror_cachedir_unlink(m->dirfd, name, 0);
		d->stored = false;
		return;
	}
	snprintf(bad, sizeof(bad), "%s.bad", name);
	kc_warn("warning: %s/" KC_META_DIR "/%s is damaged or not this "
		"volume's: set aside as %s, asking the source again",
		fs->cfg.cache_dir, name, bad);
	kmirror_cachedir_rename(m->dirfd, name, m->dirfd, bad, 0);
	d->stored = false;
}

static bool kc_ts_eq(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec == b->tv_sec && a->tv_nsec == b->tv_nsec;
}

/*
 * Is @id the directory @w: same birth time (both {0, 0} where the source
 * keeps none), parent and name, and with @times, same ctime and mtime?
 */
static bool kc_mid_is(struct kc_fs *fs, const struct kc_mid *id,
		      const struct kc_whence *w, bool times)
{
	return id->name && !strcmp(id->name, w->name) &&
	       id->pdev == kc_key_of(fs, w->pdev) && id->pino == w->pino &&
	       kc_ts_eq(&id->btime, &w->btime) &&
	       (!times || (kc_ts_eq(&id->ctime, &w->st.st_ctim) &&
			   kc_ts_eq(&id->mtime, &w->st.st_mtim)));
}

/* @id becomes @w; false if out of memory (@id is then none). */
static bool kc_mid_set(struct kc_fs *fs, struct kc_mid *id,
		       const struct kc_whence *w)
{
	free(id->name);
	id->name = strdup(w->name);
	id->btime = w->btime;
	id->ctime = w->st.st_ctim;
	id->mtime = w->st.st_mtim;
	id->pdev = kc_key_of(fs, w->pdev);
	id->pino = w->pino;
	return id->name != NULL;
}

/*
 * May @d's names be taken as those of the directory @w, what the daemon
 * knows of the inode (lock held)?  Only if they were learnt of it
 * (kc_mid_is()).  Else they are of another directory that had its
 * number (removed, and the number given to a new one), or of an older
 * state of it (changed behind the mount's back, or from a mount that
 * did not follow its own changes): they go, and @d starts over as @w's.
 * After a change through the mount (@d->adopt) the times are not
 * compared until the source gives new ones (@fresh): those are @d's
 * then.  false: @d may not be used (out of memory).
 */
static bool kc_mdir_check(struct kc_fs *fs, struct kc_mdir *d,
			  const struct kc_whence *w, bool fresh)
{
	if (kc_mid_is(fs, &d->id, w, !d->adopt)) {
		if (d->adopt && fresh) {
			d->id.ctime = w->st.st_ctim;
			d->id.mtime = w->st.st_mtim;
			d->adopt = false;
			d->dirty = true;
		}
		return true;
	}
	if (d->n || d->listed || d->stored)
		d->dirty = true;	/* its file goes */
	kc_mdir_clear(d);
	return kc_mid_set(fs, &d->id, w);
}

/* The directory (@dev, @ino) if in memory (lock held), or NULL. */
static struct kc_mdir *kc_mdir_held(struct kc_fs *fs, uint64_t dev,
				    uint64_t ino)
{
	struct kc_mdir *d = fs->meta->bucket[kc_bucket(dev, ino)];

	while (d && (d->dev != dev || d->ino != ino))
		d = d->hnext;
	return d;
}

/*
 * The directory (@dev, @ino) in memory (lock held), read or made, its
 * names checked against @w (kc_mdir_check()), or not if @w is NULL;
 * NULL if out of memory.
 */
static struct kc_mdir *kc_mdir_get(struct kc_fs *fs, uint64_t dev,
				   uint64_t ino, const struct kc_whence *w)
{
	struct kc_meta *m = fs->meta;
	size_t b = kc_bucket(dev, ino);
	struct kc_mdir *d = kc_mdir_held(fs, dev, ino);

	if (!d) {
		d = calloc(1, sizeof(*d));
		if (!d)
			return NULL;
		d->dev = dev;
		d->ino = ino;
		kc_mdir_read(fs, d);
		d->hnext = m->bucket[b];
		m->bucket[b] = d;
		m->n++;
	}
	d->used = ++m->clock;
	return !w || kc_mdir_check(fs, d, w, false) ? d : NULL;
}

/*
 * Lock the store; the directory @in, its names checked against what
 * the daemon knows of @in, or NULL (still locked) if they may not be
 * used.
 */
static struct kc_mdir *kc_mdir_lock(struct kc_fs *fs, struct kc_inode *in)
{
	struct kc_whence w;
	bool known = kc_inode_whence(fs, in, &w);

	pthread_mutex_lock(&fs->meta->lock);
	return known ? kc_mdir_get(fs, kc_key_of(fs, in->dev), in->ino, &w) :
		       NULL;
}

static uint8_t kc_dtype(mode_t mode)
{
	return (mode & S_IFMT) >> 12;
}

/*
 * What the store says of @dir/@name, young enough to serve: 1 (found,
 * its attributes in *@st, learnt at *@learnt), 0 (absent), or -1 (ask
 * the source).
 */
int kc_meta_lookup(struct kc_fs *fs, struct kc_inode *dir, const char *name,
		   struct stat *st, struct timespec *btime, int64_t *learnt)
{
	struct kc_meta *m = fs->meta;
	struct kc_mdir *d;
	struct kc_ment *e;
	int ret = -1;

	if (!m || (!kc_offline(fs) && !fs->cfg.meta_timeout &&
		   !fs->cfg.negative_timeout)) {
		kc_count(fs, meta_misses, 1);
		return -1;
	}
	d = kc_mdir_lock(fs, dir);
	e = d ? kc_mdir_find(d, name) : NULL;
	if (e && (e->flags & KC_ME_ABSENT) &&
	    kc_fresh(e->learnt, kc_limit(fs, fs->cfg.negative_timeout)))
		ret = 0;
	else if (e && (e->flags & KC_ME_ATTR) &&
		 kc_fresh(e->learnt, kc_limit(fs, fs->cfg.meta_timeout)))
		ret = 1;
	else if (!e && d && d->n < KC_META_ENTRIES_MAX &&
		 kc_fresh(d->listed, kc_limit(fs, fs->cfg.negative_timeout)))
		ret = 0;	/* not in a complete listing */
	if (ret == 1) {
		*st = e->st;
		*btime = e->btime;
		*learnt = e->learnt;
	}
	pthread_mutex_unlock(&m->lock);
	kc_count(fs, meta_misses, ret < 0);
	kc_count(fs, meta_hits, ret == 1);
	kc_count(fs, negative_hits, ret == 0);
	return ret;
}

/*
 * @dir/@name is, as of now: *@st, born at *@btime (@flags KC_ME_ATTR),
 * absent (KC_ME_ABSENT), or there, its attributes to be asked (0).
 */
static void kc_meta_set(struct kc_fs *fs, struct kc_inode *dir,
			const char *name, const struct stat *st,
			const struct timespec *btime, uint8_t flags)
{
	struct kc_meta *m = fs->meta;
	struct kc_mdir *d;
	struct kc_ment *e;

	if (!m)
		return;
	d = kc_mdir_lock(fs, dir);
	e = d ? kc_mdir_add(d, name) : NULL;
	if (e) {
		e->learnt = kc_wall_ns();
		e->flags = flags;
		e->type = st ? kc_dtype(st->st_mode) : 0;
		if (st)
			e->st = *st;
		else
			memset(&e->st, 0, sizeof(e->st));
		e->btime = btime ? *btime : (struct timespec){ 0 };
	} else if (d && (flags & KC_ME_ABSENT) &&
		   (e = kc_mdir_find(d, name))) {
		kc_mdir_del(d, e);	/* full: at least not found */
	} else if (d && !(flags & KC_ME_ABSENT)) {
		d->listed = 0;	/* full: the listing lacks a name */
	}
	if (d)
		d->dirty = true;
	pthread_mutex_unlock(&m->lock);
}

/*
 * The source said @dir/@name is *@st, born at *@btime (NULL: absent),
 * just now.
 */
void kc_meta_learn(struct kc_fs *fs, struct kc_inode *dir, const char *name,
		   const struct stat *st, const struct timespec *btime)
{
	kc_meta_set(fs, dir, name, st, btime, st ? KC_ME_ATTR : KC_ME_ABSENT);
}

/*
 * Directory @in was changed through the mount: its stored names follow
 * (the caller's kc_meta_set()), its times will be the source's next ones
 * (kc_mdir_check()).
 */
static void kc_meta_changed(struct kc_fs *fs, struct kc_inode *in)
{
	struct kc_mdir *d;

	if (!fs->meta)
		return;
	d = kc_mdir_lock(fs, in);
	if (d)
		d->adopt = true;
	pthread_mutex_unlock(&fs->meta->lock);
}

/*
 * The source just gave directory @in's attributes: its names in memory,
 * if any, are checked against them at once (kc_mdir_check()), and take
 * the times a change through the mount gave it.  Names not read yet are
 * checked when they are.
 */
void kc_meta_dir_learnt(struct kc_fs *fs, struct kc_inode *in)
{
	struct kc_meta *m = fs->meta;
	struct kc_whence w;
	struct kc_mdir *d;

	if (!m || !kc_inode_whence(fs, in, &w))
		return;
	pthread_mutex_lock(&m->lock);
	d = kc_mdir_held(fs, kc_key_of(fs, in->dev), in->ino);
	if (d)
		kc_mdir_check(fs, d, &w, true);
	pthread_mutex_unlock(&m->lock);
}

/*
 * @in's attributes changed through the mount (a write, setattr, link
 * count): neither the inode's copy nor its entry may be served again
 * before the source is asked.
 */
void kc_meta_stale(struct kc_fs *fs, struct kc_inode *in)
{
	int64_t was;

	pthread_mutex_lock(&fs->itable.lock);
	was = in->attr_learnt;
	in->attr_learnt = 0;
	pthread_mutex_unlock(&fs->itable.lock);
	/*
	 * The store's entry has attributes only if the inode does (both are
	 * learnt together): a run of writes takes the store's lock once.
	 */
	if (was)
		kc_meta_learn_inode(fs, in, NULL, NULL);
	if (S_ISDIR(in->type))
		kc_meta_changed(fs, in);
}

/*
 * The source gave @in's attributes *@st, born at *@btime (by its
 * descriptor): its entry under its last name gets them; NULL: its entry
 * loses its attributes.
 */
void kc_meta_learn_inode(struct kc_fs *fs, struct kc_inode *in,
			 const struct stat *st, const struct timespec *btime)
{
	struct kc_meta *m = fs->meta;
	char name[KC_META_NAME_MAX + 1];
	struct kc_inode *parent;
	struct kc_mdir *d;
	struct kc_ment *e;

	if (st && S_ISDIR(st->st_mode))
		kc_meta_dir_learnt(fs, in);
	parent = m ? kc_inode_parent(fs, in, name) : NULL;
	if (!parent)
		return;
	d = kc_mdir_lock(fs, parent);
	e = d ? kc_mdir_find(d, name) : NULL;
	if (e && !(e->flags & KC_ME_ABSENT) && e->st.st_ino == in->ino) {
		e->flags = st ? KC_ME_ATTR : 0;
		if (st) {
			e->st = *st;
			e->btime = btime ? *btime : (struct timespec){ 0 };
			e->learnt = kc_wall_ns();
		}
		d->dirty = true;
	}
	pthread_mutex_unlock(&m->lock);
	kc_inode_unpin(parent);
}

/*
 * An open read the source's attributes *@st (coherency data @a): they
 * replace what the store served.  True if they differ: the kernel may
 * hold the old ones (a size, times), and must be told before the open
 * is answered (kc_op_open()), or it would read the new data up to the
 * old size: data is checked at every open, whatever meta_timeout.
 */
bool kc_meta_opened(struct kc_fs *fs, struct kc_inode *in,
		    const struct stat *st, const struct kc_attr *a)
{
	struct kc_attr served;
	struct stat old;
	bool same;

	same = kc_inode_attr(fs, in, &old);
	kc_attr_from_stat(&served, &old);
	same = same && kc_attr_eq(&served, a);
	kc_inode_set_attr(fs, in, st, NULL);
	if (same)
		return false;
	kc_meta_learn_inode(fs, in, st, NULL);
	return true;
}

/*
 * @dir/@name was made through the mount: it is in the listing, its
 * attributes to be asked (the lookup that follows).
 */
void kc_meta_made(struct kc_fs *fs, struct kc_inode *dir, const char *name)
{
	kc_meta_set(fs, dir, name, NULL, NULL, 0);
	kc_meta_stale(fs, dir);		/* its times, its link count */
}

/*
 * The directory (@dev, @ino) is about to go, or was just made (its
 * number may be an old one's): what the store held of it goes.
 */
void kc_meta_drop_key(struct kc_fs *fs, dev_t dev, ino_t ino)
{
	struct kc_meta *m = fs->meta;
	struct kc_mdir *d;

	if (!m)
		return;
	pthread_mutex_lock(&m->lock);
	d = kc_mdir_get(fs, kc_key_of(fs, dev), ino, NULL);
	if (d) {
		kc_mdir_clear(d);
		d->dirty = true;	/* empty: its file is removed */
	}
	pthread_mutex_unlock(&m->lock);
}

void kc_meta_drop_dir(struct kc_fs *fs, struct kc_inode *in)
{
	kc_meta_drop_key(fs, in->dev, in->ino);
}

/* ---- listings ----------------------------------------------------- */

/*
 * A copy of @dir's listing, young enough to serve (-o meta_timeout):
 * its positive names (*@v, *@n, for kc_meta_list_free()), true; false
 * if there is none to serve.
 */
bool kc_meta_list(struct kc_fs *fs, struct kc_inode *dir, struct kc_ment **v,
		  size_t *n)
{
	struct kc_meta *m = fs->meta;
	struct kc_mdir *d;
	bool ok = false;
	size_t i;

	*v = NULL;
	*n = 0;
	if (!m || (!kc_offline(fs) && !fs->cfg.meta_timeout))
		return false;
	d = kc_mdir_lock(fs, dir);
	if (d && kc_fresh(d->listed, kc_limit(fs, fs->cfg.meta_timeout)))
		*v = calloc(d->n + 1, sizeof(**v));
	for (i = 0; *v && i < d->n; i++) {
		if (d->e[i].flags & KC_ME_ABSENT)
			continue;
		if (!d->e[i].st.st_ino) {	/* made, not yet looked up */
			kc_meta_list_free(*v, *n);
			*v = NULL;
			break;
		}
		(*v)[*n] = d->e[i];
		(*v)[*n].name = strdup(d->e[i].name);
		if (!(*v)[(*n)++].name) {
			kc_meta_list_free(*v, *n);
			*v = NULL;
		}
	}
	ok = *v != NULL;
	pthread_mutex_unlock(&m->lock);
	kc_count(fs, meta_hits, ok);
	kc_count(fs, meta_misses, !ok);
	return ok;
}

void kc_meta_list_free(struct kc_ment *v, size_t n)
{
	size_t i;

	for (i = 0; v && i < n; i++)
		free(v[i].name);
	free(v);
}

/*
 * Do @e's attributes still hold, the listing from @started having @v?
 * Those learnt since it started (readdirplus's lookups) do; older ones if
 * the listing shows the same inode and type.  (A listing's d_ino is not
 * always the inode: libfuse's high-level API without use_ino gives
 * 0xffffffff, so it is not asked of the new.)
 */
static bool kc_ment_still(const struct kc_ment *e, const struct kc_ment *v,
			  int64_t started)
{
	if (e->flags != KC_ME_ATTR)
		return false;
	if (e->learnt >= started)
		return true;
	return e->st.st_ino == v->st.st_ino &&
	       (v->type == DT_UNKNOWN || e->type == v->type);
}

/*
 * The source listed @dir whole, from a stream opened at @started: @v
 * holds its names (no "." or ".."), with their types and inodes.  Names
 * gone from it are dropped, new ones added without attributes, and
 * known ones keep theirs unless the inode changed.
 */
void kc_meta_listed(struct kc_fs *fs, struct kc_inode *dir,
		    const struct kc_ment *v, size_t n, int64_t started)
{
	struct kc_meta *m = fs->meta;
	struct kc_mdir *d;
	struct kc_ment *e;
	bool all = true;
	size_t i, sorted;

	if (!m)
		return;
	d = kc_mdir_lock(fs, dir);
	for (i = 0; d && i < d->n; i++)
		d->e[i].flags |= KC_ME_UNSEEN;		/* not seen yet */
	/* Known names are found in the sorted part, new ones appended. */
	sorted = d ? d->n : 0;
	for (i = 0; d && i < n; i++) {
		e = kc_mdir_find_in(d, sorted, v[i].name);
		if (!e)
			e = kc_mdir_append(d, v[i].name);
		if (!e) {
			all = false;
			break;
		}
		e->flags &= ~KC_ME_UNSEEN;
		if (!kc_ment_still(e, &v[i], started)) {
			memset(&e->st, 0, sizeof(e->st));
			e->btime = (struct timespec){ 0 };
			e->st.st_ino = v[i].st.st_ino;
			e->type = v[i].type;
			e->flags = 0;
			e->learnt = started;
		}
	}
	if (d)
		kc_mdir_sort(d, KC_ME_UNSEEN);	/* gone names dropped */
	if (d) {
		d->listed = all ? started : 0;
		d->dirty = true;
	}
	pthread_mutex_unlock(&m->lock);
}

/* ---- permissions -------------------------------------------------- */

/*
 * May @req's caller @mask (R_OK, X_OK) the directory whose source
 * attributes are *@st, as the source would decide by its modes?  Asked
 * before a cached answer is given, so that a name or listing the source
 * would refuse is refused too (with default_permissions the kernel
 * checked already; without, this is the only check).
 */
bool kc_meta_may(fuse_req_t req, const struct stat *st, unsigned int mask)
{
	const struct fuse_ctx *c = fuse_req_ctx(req);
	gid_t g[64];
	int n, i;
	unsigned int bits = st->st_mode;

	if (c->uid == 0)
		return true;	/* CAP_DAC_OVERRIDE: reads and searches */
	if (c->uid == st->st_uid)
		return ((bits >> 6) & mask) == mask;
	n = c->gid == st->st_gid ? 0 : fuse_req_getgroups(req, 64, g);
	for (i = 0; i < n && i < 64 && g[i] != st->st_gid; i++)
		;
	if (c->gid == st->st_gid || (n > 0 && i < n && i < 64))
		return ((bits >> 3) & mask) == mask;
	return (bits & mask) == mask;
}

/* ---- the files ---------------------------------------------------- */

/* Write @d's file (lock held): its names, or none if it has none. */
static void kc_mdir_write(struct kc_fs *fs, struct kc_mdir *d)
{
	struct kc_meta *m = fs->meta;
	char name[KC_META_FNAME];
	size_t len = 0;
	char *buf;

	kc_mdir_name(m, d->dev, d->ino, name);
	if ((!d->n && !d->listed) || !d->id.name) {	/* none to check */
		if (d->stored)
			kmirror_cachedir_unlink(m->dirfd, name, 0);
		d->stored = false;
		d->dirty = false;
		return;
	}
	buf = kc_mdir_format(d, fs->volume_key, fs->source_dev, &len);
	/* Not fsync'ed: a store lost in a crash is only asked again. */
	if (buf && !kmirror_cachedir_write(m->dirfd, name, NULL, buf, len, 0)) {
		d->stored = true;
		d->dirty = false;
	}			/* else: tried again next time */
	free(buf);
}

static void kc_mdir_free(struct kc_mdir *d)
{
	kc_mdir_clear(d);
	free(d);
}

/*
 * Write back what changed; past KC_META_MEM_DIRS, drop from memory the
 * directories not used since the last call.  The housekeeper's, once a
 * second, and at unmount.
 */
void kc_meta_flush(struct kc_fs *fs)
{
	struct kc_meta *m = fs->meta;
	struct kc_mdir **pp, *d;
	size_t b;

	if (!m)
		return;
	pthread_mutex_lock(&m->lock);
	for (b = 0; b < KC_META_BUCKETS; b++) {
		for (pp = &m->bucket[b]; (d = *pp);) {
			if (d->dirty)
				kc_mdir_write(fs, d);
			if (m->n > KC_META_MEM_DIRS && !d->dirty &&
			    !d->adopt && d->used <= m->flushed) {
				*pp = d->hnext;
				kc_mdir_free(d);
				m->n--;
			} else {
				pp = &d->hnext;
			}
		}
	}
	m->flushed = m->clock;
	pthread_mutex_unlock(&m->lock);
}

/*
 * A mount without the store forgets what an earlier one stored: changes
 * it makes through the mount are not written there, so a later mount
 * with a long meta_timeout would serve names this one removed.  The
 * files go; the directory stays.
 */
static void kc_meta_forget(int fd)
{
	DIR *dir = fdopendir(fd);
	struct dirent *de;

	if (!dir) {
		close(fd);
		return;
	}
	while ((de = readdir(dir)))
		if (de->d_type == DT_REG || de->d_type == DT_UNKNOWN)
			kmirror_cachedir_unlink(fd, de->d_name, 0);
	closedir(dir);
}

/*
 * At start-up, with the volume known: DIR/kmirror-meta, made if need
 * be; 0, or -errno (kmirror/cachedir.h's refusals too).  Without
 * meta_timeout or negative_timeout there is no store (its memory and
 * writes are for those who ask for it), and an old one is emptied.
 */
int kc_meta_open(struct kc_fs *fs)
{
	bool want = fs->cfg.meta_timeout || fs->cfg.negative_timeout;
	struct kc_meta *m;
	int fd;

	fd = want ? kmirror_cachedir_mkdir(fs->cache_fd, KC_META_DIR, NULL) :
		    kmirror_cachedir_open(fs->cache_fd, KC_META_DIR,
					  O_RDONLY | O_DIRECTORY);
	if (fd == -ENOENT && !want)
		return 0;
	if (fd < 0)
		return fd;
	m = want ? calloc(1, sizeof(*m)) : NULL;
	if (want && !m) {
		close(fd);
		return -ENOMEM;
	}
	if (!want) {
		kc_meta_forget(fd);
		return 0;
	}
	m->dirfd = fd;
	pthread_mutex_init(&m->lock, NULL);
	m->volhash = kc_crc32c(0, fs->volume_key, strlen(fs->volume_key));
	fs->meta = m;
	return 0;
}

/* At unmount: write back, free. */
void kc_meta_close(struct kc_fs *fs)
{
	struct kc_meta *m = fs->meta;
	struct kc_mdir *d;
	size_t b;

	if (!m)
		return;
	kc_meta_flush(fs);
	for (b = 0; b < KC_META_BUCKETS; b++) {
		while ((d = m->bucket[b])) {
			m->bucket[b] = d->hnext;
			kc_mdir_free(d);
		}
	}
	close(m->dirfd);
	pthread_mutex_destroy(&m->lock);
	free(m);
	fs->meta = NULL;
}
