// SPDX-License-Identifier: GPL-2.0-only
/*
 * The inode table, after libfuse's passthrough_ll example: a FUSE inode
 * number is the address of a struct kc_inode holding an O_PATH descriptor
 * of the source file, one per (st_dev, st_ino), counted by the kernel's
 * lookups (nlookup) and freed at the last forget.  Unlike the example's
 * list, the table is hashed, so lookups stay O(1) on big trees.
 *
 * Three additions:
 *  - ref keeps the struct alive beyond the last forget while someone still
 *    points at it (the culler, or a child's name record);
 *  - each inode remembers the name it was last looked up by, so that open
 *    can tell a regular file that was replaced on the source behind the
 *    mount's back (the kernel's dentry is still valid for up to
 *    entry_timeout): open then fails with ESTALE and the kernel looks the
 *    name up again (do_filp_open()'s LOOKUP_REVAL retry);
 *  - the descriptors are bounded.  Past fs->inode_budget inodes, the
 *    housekeeper asks the kernel to forget the names of inodes not looked
 *    up lately (a clock sweep over the table, fuse_lowlevel_notify_inval_
 *    entry() through notify.c): the kernel's forget then closes them.  A
 *    lookup or open that meets EMFILE waits a little for that and tries
 *    again (kc_fd_wait()); names in the directory the kernel holds locked
 *    for that request are left alone meanwhile, as the kernel could only
 *    forget them once the request ended.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cachefs.h"

#define KC_ITABLE_MIN	1024

struct kc_inode *kc_inode(fuse_req_t req, fuse_ino_t ino)
{
	if (ino == FUSE_ROOT_ID)
		return &kc_fs(req)->root;
	return (struct kc_inode *)(uintptr_t)ino;
}

static size_t kc_hash(dev_t dev, ino_t ino, size_t nbuckets)
{
	uint64_t h = ((uint64_t)ino ^ ((uint64_t)dev << 40 | dev >> 24)) *
		     0x9e3779b97f4a7c15ull;

	return (h >> 24) & (nbuckets - 1);
}

int kc_itable_init(struct kc_fs *fs)
{
	struct kc_itable *t = &fs->itable;

	pthread_mutex_init(&t->lock, NULL);
	t->nbuckets = KC_ITABLE_MIN;
	t->bucket = calloc(t->nbuckets, sizeof(*t->bucket));
	return t->bucket ? 0 : -ENOMEM;
}

/* Double the buckets when the table is twice as full (table lock held). */
static void kc_itable_grow(struct kc_itable *t)
{
	size_t nb = t->nbuckets * 2, i;
	struct kc_inode **b, *in, *next;

	if (t->n < t->nbuckets * 2)
		return;
	b = calloc(nb, sizeof(*b));
	if (!b)
		return;		/* longer chains, still correct */
	for (i = 0; i < t->nbuckets; i++) {
		for (in = t->bucket[i]; in; in = next) {
			next = in->hnext;
			in->hnext = b[kc_hash(in->dev, in->ino, nb)];
			b[kc_hash(in->dev, in->ino, nb)] = in;
		}
	}
	free(t->bucket);
	t->bucket = b;
	t->nbuckets = nb;
}

static struct kc_inode *kc_find_locked(struct kc_itable *t, dev_t dev,
				       ino_t ino)
{
	struct kc_inode *in = t->bucket[kc_hash(dev, ino, t->nbuckets)];

	while (in && (in->ino != ino || in->dev != dev))
		in = in->hnext;
	return in;
}

static void kc_unhash_locked(struct kc_itable *t, struct kc_inode *in)
{
	struct kc_inode **pp = &t->bucket[kc_hash(in->dev, in->ino,
						  t->nbuckets)];

	while (*pp && *pp != in)
		pp = &(*pp)->hnext;
	if (*pp) {
		*pp = in->hnext;
		t->n--;
	}
}

void kc_inode_pin(struct kc_inode *in)
{
	atomic_fetch_add(&in->ref, 1);
}

/* Drop a reference; the last one closes the O_PATH fd and frees. */
void kc_inode_unpin(struct kc_inode *in)
{
	struct kc_icache *ic;

	if (atomic_fetch_sub(&in->ref, 1) != 1)
		return;
	ic = atomic_load(&in->ic);
	if (ic)
		kc_icache_free(ic);
	close(in->fd);
	free(in->name);
	free(in);
}

/* Point @in's name record at @dir/@name (table lock held). */
static void kc_set_name_locked(struct kc_inode *in, struct kc_inode *dir,
			       const char *name, struct kc_inode **old_parent,
			       char **old_name)
{
	char *copy;

	*old_parent = NULL;
	*old_name = NULL;
	if (in->parent == dir && in->name && !strcmp(in->name, name))
		return;
	copy = strdup(name);
	*old_parent = in->parent;
	*old_name = in->name;
	in->parent = copy ? dir : NULL;
	in->name = copy;
	if (copy)
		kc_inode_pin(dir);
}

static void kc_drop_name(struct kc_inode *parent, char *name)
{
	free(name);
	if (parent)
		kc_inode_unpin(parent);
}

/*
 * Take a lookup of the file @st, born at *@btime (learnt at @learnt), @fd
 * on the source or -1 (from the store): the known inode or a new one.
 */
static struct kc_inode *kc_inode_get(struct kc_fs *fs, struct kc_inode *dir,
				     const char *name, int fd,
				     const struct stat *st,
				     const struct timespec *btime,
				     int64_t learnt)
{
	int none = -1;

	struct kc_itable *t = &fs->itable;
	struct kc_inode *in, *old_parent;
	char *old_name;

	pthread_mutex_lock(&t->lock);
	in = kc_find_locked(t, st->st_dev, st->st_ino);
	if (!in) {
		in = calloc(1, sizeof(*in));
		if (!in) {
			pthread_mutex_unlock(&t->lock);
			return NULL;
		}
		in->fd = fd;
		in->dev = st->st_dev;
		in->ino = st->st_ino;
		in->type = st->st_mode & S_IFMT;
		atomic_init(&in->ref, 1);
		in->hnext = t->bucket[kc_hash(in->dev, in->ino, t->nbuckets)];
		t->bucket[kc_hash(in->dev, in->ino, t->nbuckets)] = in;
		t->n++;
		kc_itable_grow(t);
		fd = -1;
	} else if (fd >= 0 && atomic_compare_exchange_strong(&in->fd, &none,
							     fd)) {
		fd = -1;	/* it came from the store: now it has one */
	}
	in->nlookup++;
	in->used = true;
	if (!in->has_attr || learnt >= in->attr_learnt) {
		in->attr = *st;
		in->btime = *btime;
		in->attr_learnt = learnt;
	}
	in->has_attr = true;
	kc_set_name_locked(in, dir, name, &old_parent, &old_name);
	if (t->n > fs->inode_budget)
		kc_cull_kick(fs);	/* the housekeeper evicts */
	pthread_mutex_unlock(&t->lock);
	kc_drop_name(old_parent, old_name);
	if (fd >= 0)
		close(fd);
	return in;
}

/*
 * @dir/@name from the store (meta.c) if it may be served, to a caller
 * the source would let search @dir: 0 (@e filled, a lookup counted),
 * ENOENT, ENOMEM, or -1 to ask the source.
 */
static int kc_lookup_stored(fuse_req_t req, struct kc_inode *dir,
			    const char *name, struct fuse_entry_param *e)
{
	struct kc_fs *fs = kc_fs(req);
	struct timespec btime;
	struct kc_inode *in;
	int64_t learnt;
	struct stat ds;

	if (!kc_inode_attr_for(req, dir, &ds) || !kc_meta_may(req, &ds, X_OK))
		return -1;	/* the source decides, as the caller */
	switch (kc_meta_lookup(fs, dir, name, &e->attr, &btime, &learnt)) {
	case 0:
		return ENOENT;
	case 1:
		break;
	default:
		return -1;
	}
	in = kc_inode_from_store(fs, dir, name, &e->attr, &btime, learnt);
	if (!in)
		return ENOMEM;
	e->ino = (uintptr_t)in;
	return 0;
}

/*
 * Offline: the inode the daemon holds by the name @dir/@name, with the
 * source's last attributes; its lookup count goes up by one.  0, or EIO
 * when there is none (a name never looked up, or forgotten: the daemon
 * cannot tell whether it exists).
 */
static int kc_lookup_offline(fuse_req_t req, struct kc_inode *dir,
			     const char *name, struct fuse_entry_param *e)
{
	struct kc_fs *fs = kc_fs(req);
	struct kc_inode *in = kc_inode_known(fs, dir, name, &e->attr);
	int err;

	if (!in) {
		err = kc_lookup_stored(req, dir, name, e);
		kc_count(fs, offline_refused, err < 0);
		kc_count(fs, offline_served, err >= 0);
		return err < 0 ? EIO : err;
	}
	if (S_ISREG(in->type) && atomic_load(&in->ic))
		atomic_store(&atomic_load(&in->ic)->offline_used, true);
	e->ino = (uintptr_t)in;
	kc_count(fs, offline_served, 1);
	return 0;
}

/*
 * Look @name up in @dir for @req's caller and fill @e; the inode's lookup
 * count goes up by one.  0 or a positive errno (FUSE's convention).
 */
int kc_do_lookup(fuse_req_t req, struct kc_inode *dir, const char *name,
		 struct fuse_entry_param *e)
{
	struct kc_fs *fs = kc_fs(req);
	struct kc_fd_waiter w = { fs, dir, 0 };
	struct timespec btime;
	struct kc_creds cr;
	struct kc_inode *in;
	int fd, err = 0;

	memset(e, 0, sizeof(*e));
	e->attr_timeout = fs->cfg.attr_timeout;
	e->entry_timeout = fs->cfg.entry_timeout;
	if (kc_offline(fs))
		return kc_lookup_offline(req, dir, name, e);
	err = kc_lookup_stored(req, dir, name, e);
	if (err >= 0)
		return err;
	err = 0;
	kc_creds_take(req, &cr);
	do {
		fd = kc_inode_fd(fs, dir);
		if (fd >= 0)
			fd = kc_src_openat(fs, fd, name,
					   O_PATH | O_NOFOLLOW | O_CLOEXEC, 0);
	} while (fd < 0 && kc_fd_wait(&w));
	kc_fd_wait_end(&w);
	if (fd < 0 || kc_src_fstatat_born(fs, fd, "", &e->attr, &btime,
					  AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW))
		err = errno;
	kc_creds_drop(&cr);
	if (err) {
		if (fd >= 0)
			close(fd);
		if (kc_offline(fs))	/* it went offline meanwhile */
			return kc_lookup_offline(req, dir, name, e);
		if (err == ENOENT)
			kc_meta_learn(fs, dir, name, NULL, NULL);
		return err;
	}
	kc_meta_learn(fs, dir, name, &e->attr, &btime);
	in = kc_inode_get(fs, dir, name, fd, &e->attr, &btime, kc_wall_ns());
	if (!in) {
		close(fd);
		return ENOMEM;
	}
	if (S_ISREG(in->type))
		kc_cache_check_stat(fs, in, &e->attr, true);
	if (S_ISDIR(in->type))
		kc_meta_dir_learnt(fs, in);
	e->ino = (uintptr_t)in;
	return 0;
}

/* The kernel dropped @n lookups; the last one ends the inode. */
void kc_inode_forget(struct kc_fs *fs, struct kc_inode *in, uint64_t n)
{
	struct kc_itable *t = &fs->itable;
	struct kc_inode *parent;
	char *name;

	if (in == &fs->root)
		return;
	pthread_mutex_lock(&t->lock);
	in->nlookup -= n < in->nlookup ? n : in->nlookup;
	if (in->nlookup) {
		pthread_mutex_unlock(&t->lock);
		return;
	}
	kc_unhash_locked(t, in);
	parent = in->parent;
	name = in->name;
	in->parent = NULL;
	in->name = NULL;
	pthread_mutex_unlock(&t->lock);
	kc_cache_forget(fs, in);
	kc_drop_name(parent, name);
	kc_inode_unpin(in);
}

/* The live inode of (@dev, @ino), pinned, or NULL. */
struct kc_inode *kc_inode_find(struct kc_fs *fs, dev_t dev, ino_t ino)
{
	struct kc_itable *t = &fs->itable;
	struct kc_inode *in;

	pthread_mutex_lock(&t->lock);
	in = kc_find_locked(t, dev, ino);
	if (in)
		kc_inode_pin(in);
	pthread_mutex_unlock(&t->lock);
	return in;
}

/* @in's last parent, pinned, and name (copied to @name); or NULL. */
struct kc_inode *kc_inode_parent(struct kc_fs *fs, struct kc_inode *in,
				 char name[NAME_MAX + 1])
{
	struct kc_inode *parent;

	pthread_mutex_lock(&fs->itable.lock);
	parent = in->parent;
	if (parent) {
		kc_inode_pin(parent);
		snprintf(name, NAME_MAX + 1, "%s", in->name);
	}
	pthread_mutex_unlock(&fs->itable.lock);
	return parent;
}

/* @in is now called @dir/@name (a rename through the mount). */
void kc_inode_rename(struct kc_fs *fs, struct kc_inode *in,
		     struct kc_inode *dir, const char *name)
{
	struct kc_inode *old_parent;
	char *old_name;

	pthread_mutex_lock(&fs->itable.lock);
	kc_set_name_locked(in, dir, name, &old_parent, &old_name);
	pthread_mutex_unlock(&fs->itable.lock);
	kc_drop_name(old_parent, old_name);
}

/* @dir/@name no longer names @in (unlinked or replaced through us). */
void kc_inode_unname(struct kc_fs *fs, struct kc_inode *in,
		     struct kc_inode *dir, const char *name)
{
	struct kc_inode *parent = NULL;
	char *old = NULL;

	pthread_mutex_lock(&fs->itable.lock);
	if (in->parent == dir && in->name && !strcmp(in->name, name)) {
		parent = in->parent;
		old = in->name;
		in->parent = NULL;
		in->name = NULL;
	}
	pthread_mutex_unlock(&fs->itable.lock);
	kc_drop_name(parent, old);
}

/*
 * Does @in's last name still lead to @in on the source?  -ESTALE if that
 * name is gone or names another file now (replaced behind our back), 0
 * otherwise (also when there is no name to check, or the check fails for
 * another reason: open then goes on and reports its own errors).
 */
int kc_inode_check_name(struct kc_fs *fs, struct kc_inode *in)
{
	char name[NAME_MAX + 1];
	struct kc_inode *parent = kc_inode_parent(fs, in, name);
	struct stat st;
	int ret = 0;

	if (!parent)
		return 0;
	if (kc_inode_fd(fs, parent) < 0) {
		ret = errno == ESTALE ? -ESTALE : 0;
	} else if (kc_src_fstatat(fs, parent->fd, name, &st,
				  AT_SYMLINK_NOFOLLOW) == 0) {
		if (st.st_dev != in->dev || st.st_ino != in->ino)
			ret = -ESTALE;
	} else if (errno == ENOENT) {
		ret = -ESTALE;
	}
	if (ret)	/* the kernel looks it up again: the source answers */
		kc_meta_made(fs, parent, name);
	kc_inode_unpin(parent);
	return ret;
}

/*
 * The reserve: KC_FD_RESERVE descriptors (copies of the cache dir's,
 * nothing opened anew) held spare, for a request that eviction cannot
 * help.  Evicting a name takes its directory's lock in the kernel, and
 * the notifier sends one notice at a time: a notice for a directory
 * whose lock a request holds while it waits for descriptors blocks every
 * notice behind it until that request gives up (kc_notice_blocked() can
 * only see waiters that began before it looked).  Such a request takes
 * a reserve descriptor and goes on; the housekeeper fills the reserve
 * again once eviction has caught up.
 */
void kc_fd_reserve_fill(struct kc_fs *fs)
{
	int i, fd, none;

	for (i = 0; i < KC_FD_RESERVE; i++) {
		if (atomic_load(&fs->fd_reserve[i]))
			continue;
		fd = fcntl(fs->cache_fd, F_DUPFD_CLOEXEC, 0);
		if (fd < 0)
			return;
		none = 0;
		if (!atomic_compare_exchange_strong(&fs->fd_reserve[i], &none,
						    fd + 1))
			close(fd);
	}
}

/* Give one reserve descriptor back to the process; false if none left. */
static bool kc_fd_reserve_take(struct kc_fs *fs)
{
	int i, fd;

	for (i = 0; i < KC_FD_RESERVE; i++) {
		fd = atomic_exchange(&fs->fd_reserve[i], 0) - 1;
		if (fd >= 0) {
			close(fd);
			return true;
		}
	}
	return false;
}

void kc_fd_reserve_close(struct kc_fs *fs)
{
	while (kc_fd_reserve_take(fs))
		;
}

/*
 * Out of descriptors (errno EMFILE or ENFILE)?  Have the housekeeper
 * evict, wait a little and say to try again, up to KC_FD_TRIES times;
 * from the KC_FD_RESERVE_AFTER'th try on, first with a descriptor of the
 * reserve given back, if one is left.  From the first wait on, names in
 * the directory the kernel holds locked for this request are not evicted
 * (kc_evict_pick(), the notifier).
 */
bool kc_fd_wait(struct kc_fd_waiter *w)
{
	if ((errno != EMFILE && errno != ENFILE) || w->tries >= KC_FD_TRIES)
		return false;
	if (!w->tries++ && w->locked)
		atomic_fetch_add(&w->locked->fd_waiters, 1);
	kc_cull_kick(w->fs);
	if (w->tries >= KC_FD_RESERVE_AFTER && kc_fd_reserve_take(w->fs))
		return true;
	usleep(KC_FD_WAIT_US);
	return true;
}

void kc_fd_wait_end(struct kc_fd_waiter *w)
{
	if (w->tries && w->locked)
		atomic_fetch_sub(&w->locked->fd_waiters, 1);
}

/* Is the inode table at its descriptor budget? */
bool kc_itable_full(struct kc_fs *fs)
{
	struct kc_itable *t = &fs->itable;
	bool full;

	pthread_mutex_lock(&t->lock);
	full = t->n >= fs->inode_budget;
	pthread_mutex_unlock(&t->lock);
	return full;
}

/* A name to forget: its directory (pinned) and the name. */
struct kc_evict {
	struct kc_inode	*dir;
	char		*name;
};

/*
 * The clock hand's next victim (table lock held): an inode the kernel
 * holds a name of and has not looked up since the hand last passed.
 */
static bool kc_evict_pick(struct kc_inode *in, struct kc_evict *e)
{
	if (!in->nlookup || !in->parent || !in->name)
		return false;
	if (atomic_load(&in->parent->fd_waiters))
		return false;	/* locked by a request that waits for fds */
	if (in->used) {
		in->used = false;	/* a second chance */
		return false;
	}
	e->name = strdup(in->name);
	if (!e->name)
		return false;
	e->dir = in->parent;
	kc_inode_pin(e->dir);
	return true;
}

/*
 * Past the budget: ask the kernel to forget the names of up to a quarter
 * of the budget of inodes not looked up lately.  The housekeeper's.
 */
void kc_itable_evict(struct kc_fs *fs)
{
	struct kc_itable *t = &fs->itable;
	struct kc_evict *e;
	size_t want, n = 0, steps, i;
	struct kc_inode *in;

	pthread_mutex_lock(&t->lock);
	want = t->n > fs->inode_budget ? t->n - fs->inode_budget * 3 / 4 : 0;
	e = want ? calloc(want, sizeof(*e)) : NULL;
	for (steps = 0; e && n < want && steps < 2 * t->nbuckets; steps++) {
		t->hand = (t->hand + 1) & (t->nbuckets - 1);
		for (in = t->bucket[t->hand]; in && n < want; in = in->hnext)
			n += kc_evict_pick(in, &e[n]);
	}
	pthread_mutex_unlock(&t->lock);
	for (i = 0; i < n; i++) {
		kc_notify_forget(fs, e[i].dir, e[i].name);
		kc_inode_unpin(e[i].dir);
		free(e[i].name);
	}
	free(e);
}

/*
 * @in's path from the mount's root by its last known names (table lock
 * held), control characters as '?': false if a name is unknown.
 */
static bool kc_inode_path_locked(struct kc_fs *fs, struct kc_inode *in,
				 char *buf, size_t size)
{
	size_t end = size - 1, len, i;

	buf[end] = '\0';
	for (; in != &fs->root; in = in->parent) {
		if (!in->name || !in->parent)
			return false;
		len = strlen(in->name);
		if (len + 1 > end)
			return false;
		end -= len;
		for (i = 0; i < len; i++)
			buf[end + i] = (unsigned char)in->name[i] < 0x20 ||
				       in->name[i] == 0x7f ? '?' : in->name[i];
		buf[--end] = '/';
	}
	memmove(buf, buf + end, size - end);
	return true;
}

/*
 * For `kmirror cache top`: each file the table holds whose reads were
 * counted, one line to @f: "HITS MISSES BYTES_FROM_CACHE
 * BYTES_FROM_SOURCE PATH" (PATH from the mount's root).
 */
void kc_itable_report(struct kc_fs *fs, FILE *f)
{
	struct kc_itable *t = &fs->itable;
	struct kc_file_stats *st;
	struct kc_icache *ic;
	struct kc_inode *in;
	char path[PATH_MAX];
	size_t i;

	pthread_mutex_lock(&t->lock);
	for (i = 0; i < t->nbuckets; i++) {
		for (in = t->bucket[i]; in; in = in->hnext) {
			ic = atomic_load(&in->ic);
			if (!ic || !kc_inode_path_locked(fs, in, path,
							 sizeof(path)))
				continue;
			st = &ic->fst;
			if (!atomic_load(&st->hits) &&
			    !atomic_load(&st->misses))
				continue;
			fprintf(f, "%llu %llu %llu %llu %s\n",
				atomic_load(&st->hits),
				atomic_load(&st->misses),
				atomic_load(&st->bytes_from_cache),
				atomic_load(&st->bytes_from_source), path);
		}
	}
	pthread_mutex_unlock(&t->lock);
}

/*
 * The live inode named @dir/@name with its last attributes in *@st, its
 * lookup count up by one; NULL if none.  A walk of the whole table: only
 * offline lookups ask.
 */
struct kc_inode *kc_inode_known(struct kc_fs *fs, struct kc_inode *dir,
				const char *name, struct stat *st)
{
	struct kc_itable *t = &fs->itable;
	struct kc_inode *in = NULL;
	size_t i;

	pthread_mutex_lock(&t->lock);
	for (i = 0; i < t->nbuckets && !in; i++) {
		for (in = t->bucket[i]; in; in = in->hnext)
			if (in->parent == dir && in->has_attr && in->nlookup &&
			    in->name && !strcmp(in->name, name))
				break;
	}
	if (in) {
		in->nlookup++;
		in->used = true;
		*st = in->attr;
	}
	pthread_mutex_unlock(&t->lock);
	return in;
}

/* @in's last attributes from the source into *@st; false if none. */
bool kc_inode_attr(struct kc_fs *fs, struct kc_inode *in, struct stat *st)
{
	bool has;

	pthread_mutex_lock(&fs->itable.lock);
	has = in->has_attr;
	if (has)
		*st = in->attr;
	pthread_mutex_unlock(&fs->itable.lock);
	return has;
}

/* The source just gave @in's attributes, its birth time if @btime. */
void kc_inode_set_attr(struct kc_fs *fs, struct kc_inode *in,
		       const struct stat *st, const struct timespec *btime)
{
	pthread_mutex_lock(&fs->itable.lock);
	in->attr = *st;
	in->btime = btime ? *btime : (struct timespec){ 0 };
	in->has_attr = true;
	in->attr_learnt = kc_wall_ns();
	pthread_mutex_unlock(&fs->itable.lock);
}

/*
 * The attributes of directory @in by which @req's caller is let into a
 * stored listing or name: the store's for root (whom the source lets in
 * whatever the modes) and offline, the source's own for anyone else, so
 * that a chmod or chown made at the source behind the mount's back is
 * obeyed at once, whatever meta_timeout.  false: the source decides.
 */
bool kc_inode_attr_for(fuse_req_t req, struct kc_inode *in, struct stat *st)
{
	struct kc_fs *fs = kc_fs(req);
	struct timespec btime;

	if (fuse_req_ctx(req)->uid == 0 || kc_offline(fs))
		return kc_inode_attr(fs, in, st);
	if (kc_inode_fd(fs, in) < 0 ||
	    kc_src_fstatat_born(fs, in->fd, "", st, &btime,
				AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW))
		return false;
	kc_inode_set_attr(fs, in, st, &btime);
	kc_meta_learn_inode(fs, in, st, &btime);
	return true;
}

/*
 * Call @fn for every inode with caching state (pinned, no lock held):
 * 0, or -ENOMEM and no call made.
 */
int kc_itable_each_cached(struct kc_fs *fs,
			  void (*fn)(struct kc_fs *fs, struct kc_inode *in))
{
	struct kc_itable *t = &fs->itable;
	struct kc_inode *in, **v;
	size_t i, n = 0;

	pthread_mutex_lock(&t->lock);
	v = malloc((t->n + 1) * sizeof(*v));
	for (i = 0; v && i < t->nbuckets; i++) {
		for (in = t->bucket[i]; in; in = in->hnext) {
			if (atomic_load(&in->ic)) {
				kc_inode_pin(in);
				v[n++] = in;
			}
		}
	}
	pthread_mutex_unlock(&t->lock);
	if (!v)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		fn(fs, v[i]);
		kc_inode_unpin(v[i]);
	}
	free(v);
	return 0;
}

/* At unmount: end every inode the kernel did not forget. */
void kc_itable_destroy(struct kc_fs *fs)
{
	struct kc_itable *t = &fs->itable;
	struct kc_inode *in, *next;
	size_t i;

	for (i = 0; i < t->nbuckets; i++)
		for (in = t->bucket[i]; in; in = in->hnext)
			kc_cache_forget(fs, in);
	/* Name records pin parents, maybe forgotten ones: drop them first. */
	for (i = 0; i < t->nbuckets; i++) {
		for (in = t->bucket[i]; in; in = in->hnext) {
			kc_drop_name(in->parent, in->name);
			in->parent = NULL;
			in->name = NULL;
		}
	}
	for (i = 0; i < t->nbuckets; i++) {
		for (in = t->bucket[i]; in; in = next) {
			next = in->hnext;
			if (atomic_load(&in->ic))
				kc_icache_free(atomic_load(&in->ic));
			close(in->fd);
			free(in);
		}
	}
	free(t->bucket);
	t->bucket = NULL;
	pthread_mutex_destroy(&t->lock);
}

/*
 * @in's attributes into *@st if they may be served without asking the
 * source (-o meta_timeout, or offline).
 */
bool kc_inode_fresh_attr(struct kc_fs *fs, struct kc_inode *in,
			 struct stat *st)
{
	bool fresh;

	pthread_mutex_lock(&fs->itable.lock);
	fresh = in->has_attr && kc_meta_fresh_attr(fs, in->attr_learnt);
	if (fresh)
		*st = in->attr;
	pthread_mutex_unlock(&fs->itable.lock);
	return fresh;
}

/* Open @parent/@name (@parent pinned) and check it is still @in. */
static int kc_inode_open(struct kc_fs *fs, struct kc_inode *in,
			 struct kc_inode *parent, const char *name)
{
	int pfd = kc_inode_fd(fs, parent), fd, err;
	struct stat st;

	if (pfd < 0)
		return -1;
	fd = kc_src_openat(fs, pfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (kc_src_fstatat(fs, fd, "", &st,
			   AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW))
		err = errno;
	else if (st.st_ino != in->ino || st.st_dev != in->dev)
		err = ESTALE;
	else
		err = 0;
	if (err) {
		close(fd);
		errno = err;
		return -1;
	}
	/*
	 * @in's attributes stay those the kernel was given: an open compares
	 * them with the source's (kc_meta_opened()) to tell it of a change.
	 */
	return fd;
}

/*
 * @in's O_PATH descriptor on the source.  An inode that came from the
 * store (meta.c) has none until it is needed (an open, a change, an
 * attribute too old to serve): it is opened then, by its parent's and
 * its last name, and checked to be the same file.  The descriptor, or
 * -1 and errno: ESTALE if the name leads elsewhere now (the store was
 * stale: it and the kernel forget the name, so that it is looked up
 * again).
 */
int kc_inode_fd(struct kc_fs *fs, struct kc_inode *in)
{
	char name[NAME_MAX + 1];
	struct kc_inode *parent;
	int fd = atomic_load(&in->fd), none = -1, err;

	if (fd >= 0)
		return fd;
	parent = kc_inode_parent(fs, in, name);
	if (!parent) {
		errno = ESTALE;
		return -1;
	}
	fd = kc_inode_open(fs, in, parent, name);
	err = errno;
	if (fd >= 0 && !atomic_compare_exchange_strong(&in->fd, &none, fd)) {
		close(fd);	/* another thread was first */
		fd = none;
	}
	if (fd < 0 && err == ESTALE) {	/* the store asks the source */
		kc_meta_made(fs, parent, name);
		kc_notify_forget(fs, parent, name);
	}
	kc_inode_unpin(parent);
	errno = err;
	return fd;
}

/* @in's descriptor is open (0), or @req was answered with why not. */
int kc_inode_fd_reply(fuse_req_t req, struct kc_inode *in)
{
	if (kc_inode_fd(kc_fs(req), in) >= 0)
		return 0;
	fuse_reply_err(req, errno);
	return -1;
}

/* A lookup of @dir/@name answered by the store (meta.c): its inode. */
struct kc_inode *kc_inode_from_store(struct kc_fs *fs, struct kc_inode *dir,
				     const char *name, const struct stat *st,
				     const struct timespec *btime,
				     int64_t learnt)
{
	return kc_inode_get(fs, dir, name, -1, st, btime, learnt);
}

/*
 * What the metadata store checks @in's names against (meta.c): its last
 * attributes and birth time, its last parent and name (the root: none).
 * false if any of them is not known.
 */
bool kc_inode_whence(struct kc_fs *fs, struct kc_inode *in,
		     struct kc_whence *w)
{
	bool known;

	pthread_mutex_lock(&fs->itable.lock);
	known = in->has_attr && (in == &fs->root || (in->parent && in->name));
	if (known) {
		w->st = in->attr;
		w->btime = in->btime;
		w->pdev = in == &fs->root ? 0 : in->parent->dev;
		w->pino = in == &fs->root ? 0 : in->parent->ino;
		snprintf(w->name, sizeof(w->name), "%s",
			 in == &fs->root ? "" : in->name);
	}
	pthread_mutex_unlock(&fs->itable.lock);
	return known;
}
