// SPDX-License-Identifier: GPL-2.0-only
/*
 * Source calls that can be abandoned (-o source_timeout=).  A call to a
 * network source that stopped answering blocks in the kernel, and a FUSE
 * request waiting on one is killable at best: no signal gets the thread
 * back.  So with a timeout set, the source calls of the read path
 * (lookups, attributes, opens, access checks, reads, links, xattrs,
 * statfs) are made by a pool of runner
 * threads, each as the caller (its fsuid, fsgid and groups), while the
 * request's thread waits at most source_timeout.  A call still running
 * then is left to its runner: the request fails with EIO and the source
 * goes offline (offline.c).  Whatever an abandoned call still gets when
 * it ends is the runner's to undo (a descriptor opened, a buffer), and
 * it reads into a buffer of its own, never the caller's, which has moved
 * on.  A runner stuck in the source is one thread: once offline, the
 * read path makes no source calls, so at most the requests that were in
 * flight and one probe at a time are stuck (at most KC_RUNNERS_MAX
 * threads: past that a call fails with EIO at once, offline).
 *
 * Without a timeout, the calls are made by the request's thread as
 * before.  Either way, a call failing with ENOTCONN, ESTALE or EIO takes
 * the source offline, and no source call is made while it is offline:
 * it fails with EIO at once.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "cachefs.h"

#define KC_RUNNERS_MAX		64	/* threads, stuck ones included */
#define KC_RUNNERS_IDLE		4	/* kept waiting for work */

enum kc_call_op { KC_CALL_FSTATAT, KC_CALL_OPENAT, KC_CALL_PREAD,
		  KC_CALL_CLOSE, KC_CALL_STATVFS, KC_CALL_READLINKAT,
		  KC_CALL_GETXATTR, KC_CALL_LISTXATTR, KC_CALL_ACCESS };

/*
 * A source call: its arguments and result.  The caller's is on its
 * stack; a runner's is a copy on the heap that owns its name and its
 * buffer (kc_call_copy()).
 */
struct kc_call {
	struct kc_call	*next;
	enum kc_call_op	op;
	int		fd, flags;
	mode_t		mode;
	const char	*name;		/* or the path of an xattr call */
	const char	*xname;		/* the xattr */
	char		*buf;		/* what the call reads into */
	size_t		len;
	off_t		off;
	struct stat	st;
	struct timespec	btime;		/* KC_CALL_FSTATAT, with @born */
	struct statvfs	vfs;
	struct kc_who	who;
	ssize_t		ret;
	int		err;
	bool		done, abandoned, detached, probe;
	bool		born;		/* the birth time is asked too */
	bool		quiet;		/* its failure is not the source's */
	pthread_cond_t	cond;
};

static struct timespec kc_ts(struct statx_timestamp t)
{
	return (struct timespec){ .tv_sec = t.tv_sec, .tv_nsec = t.tv_nsec };
}

/*
 * fstatat() on the source, and the birth time into *@btime ({0, 0}
 * where the source keeps none): one statx() call, or fstatat() if the
 * kernel has no statx.  Made here (a runner's call) and for the
 * source's root at mount.
 */
int kc_fstatat_born(int dirfd, const char *name, struct stat *st,
		    struct timespec *btime, int flags)
{
	struct statx x;

	*btime = (struct timespec){ 0 };
	if (statx(dirfd, name, flags, STATX_BASIC_STATS | STATX_BTIME, &x))
		return errno == ENOSYS ? fstatat(dirfd, name, st, flags) : -1;
	memset(st, 0, sizeof(*st));
	st->st_dev = makedev(x.stx_dev_major, x.stx_dev_minor);
	st->st_ino = x.stx_ino;
	st->st_mode = x.stx_mode;
	st->st_nlink = x.stx_nlink;
	st->st_uid = x.stx_uid;
	st->st_gid = x.stx_gid;
	st->st_rdev = makedev(x.stx_rdev_major, x.stx_rdev_minor);
	st->st_size = x.stx_size;
	st->st_blksize = x.stx_blksize;
	st->st_blocks = x.stx_blocks;
	st->st_atim = kc_ts(x.stx_atime);
	st->st_mtim = kc_ts(x.stx_mtime);
	st->st_ctim = kc_ts(x.stx_ctime);
	if (x.stx_mask & STATX_BTIME)
		*btime = kc_ts(x.stx_btime);
	return 0;
}

/* Make the call @c describes, here. */
static void kc_call_do(struct kc_call *c)
{
	switch (c->op) {
	case KC_CALL_FSTATAT:
		if (c->born)
			c->ret = kc_fstatat_born(c->fd, c->name, &c->st,
						 &c->btime, c->flags);
		else
			c->ret = fstatat(c->fd, c->name, &c->st, c->flags);
		break;
	case KC_CALL_OPENAT:
		c->ret = openat(c->fd, c->name, c->flags, c->mode);
		break;
	case KC_CALL_PREAD:
		c->ret = pread(c->fd, c->buf, c->len, c->off);
		break;
	case KC_CALL_CLOSE:
		c->ret = close(c->fd);
		break;
	case KC_CALL_STATVFS:
		c->ret = fstatvfs(c->fd, &c->vfs);
		break;
	case KC_CALL_READLINKAT:
		c->ret = readlinkat(c->fd, c->name, c->buf, c->len);
		break;
	case KC_CALL_GETXATTR:
		c->ret = getxattr(c->name, c->xname, c->buf, c->len);
		break;
	case KC_CALL_LISTXATTR:
		c->ret = listxattr(c->name, c->buf, c->len);
		break;
	case KC_CALL_ACCESS:
		c->ret = faccessat(c->fd, c->name, c->mode, c->flags);
		break;
	}
	c->err = c->ret < 0 ? errno : 0;
}

/* Free a runner's call; an abandoned open's descriptor is closed. */
static void kc_call_free(struct kc_call *c)
{
	if (c->abandoned && c->op == KC_CALL_OPENAT && c->ret >= 0)
		close(c->ret);
	pthread_cond_destroy(&c->cond);
	kc_who_free(&c->who);
	free((char *)c->name);
	free((char *)c->xname);
	free(c->buf);
	free(c);
}

static void *kc_runner(void *arg)
{
	struct kc_runners *r = arg;
	struct kc_call *c;
	bool gone;

	pthread_mutex_lock(&r->lock);
	for (;;) {
		while (!r->head && !r->stop)
			pthread_cond_wait(&r->work, &r->lock);
		if (!r->head)
			break;
		c = r->head;
		r->head = c->next;
		r->idle--;
		pthread_mutex_unlock(&r->lock);
		kc_creds_become(&c->who);
		kc_call_do(c);
		kc_creds_unbecome();
		pthread_mutex_lock(&r->lock);
		c->done = true;
		if (c->probe) {
			r->probing = false;
			r->probe_ok = !c->ret;
		}
		gone = c->abandoned || c->detached;
		pthread_cond_signal(&c->cond);
		if (gone)
			kc_call_free(c);
		if (r->idle >= KC_RUNNERS_IDLE)
			break;
		r->idle++;
	}
	r->n--;
	pthread_cond_broadcast(&r->work);	/* kc_runners_stop() waits */
	pthread_mutex_unlock(&r->lock);
	return NULL;
}

int kc_runners_init(struct kc_fs *fs)
{
	struct kc_runners *r = &fs->runners;

	pthread_mutex_init(&r->lock, NULL);
	kc_cond_init_monotonic(&r->work);
	return 0;
}

/*
 * At unmount: the idle runners end, and those still in a source call are
 * waited for a little (the source may answer now); any left are stuck
 * in the source for good and go with the process (so the lock and the
 * condition stay).
 */
void kc_runners_stop(struct kc_fs *fs)
{
	struct kc_runners *r = &fs->runners;
	struct timespec ts;

	pthread_mutex_lock(&r->lock);
	r->stop = true;
	pthread_cond_broadcast(&r->work);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_sec += 2;
	while (r->n && pthread_cond_timedwait(&r->work, &r->lock, &ts) !=
		       ETIMEDOUT)
		;
	pthread_mutex_unlock(&r->lock);
}

/* Hand @c to a runner (r->lock held); false if none can take it. */
static bool kc_call_queue(struct kc_runners *r, struct kc_call *c)
{
	pthread_attr_t attr;
	pthread_t t;
	bool ok;

	if (!r->idle) {
		if (r->n >= KC_RUNNERS_MAX || r->stop)
			return false;
		pthread_attr_init(&attr);
		pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
		pthread_attr_setstacksize(&attr, 64 * 1024);
		ok = !pthread_create(&t, &attr, kc_runner, r);
		pthread_attr_destroy(&attr);
		if (!ok)
			return false;
		r->n++;
		r->idle++;
	}
	c->next = NULL;
	if (r->head)
		r->tail->next = c;
	else
		r->head = c;
	r->tail = c;
	pthread_cond_signal(&r->work);
	return true;
}

/*
 * Run @c by a runner, waiting at most @secs.  True: @c is done and still
 * ours.  False, errno EIO: no answer in time (@c is the runner's now),
 * or no runner could be had (@c freed).
 */
static bool kc_call_wait(struct kc_fs *fs, struct kc_call *c,
			 unsigned int secs)
{
	struct kc_runners *r = &fs->runners;
	struct timespec ts;

	pthread_mutex_lock(&r->lock);
	if (!kc_call_queue(r, c)) {	/* all runners stuck: so is it */
		pthread_mutex_unlock(&r->lock);
		kc_call_free(c);
		kc_source_stalled(fs);
		errno = EIO;
		return false;
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_sec += secs;
	while (!c->done &&
	       pthread_cond_timedwait(&c->cond, &r->lock, &ts) != ETIMEDOUT)
		;
	if (!c->done) {
		c->abandoned = true;
		pthread_mutex_unlock(&r->lock);
		kc_source_stalled(fs);
		errno = EIO;
		return false;
	}
	pthread_mutex_unlock(&r->lock);
	return true;
}

/* A runner's copy of @a, as this thread's user; NULL if out of memory. */
static struct kc_call *kc_call_copy(const struct kc_call *a)
{
	struct kc_call *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	*c = *a;
	c->name = c->xname = NULL;
	c->buf = NULL;
	c->who.groups = NULL;
	kc_cond_init_monotonic(&c->cond);
	if ((a->name && !(c->name = strdup(a->name))) ||
	    (a->xname && !(c->xname = strdup(a->xname))) ||
	    (a->buf && !(c->buf = malloc(a->len ? a->len : 1))) ||
	    kc_who_mine(&c->who)) {
		kc_call_free(c);
		errno = ENOMEM;
		return NULL;
	}
	return c;
}

/*
 * Make the call @a (on the caller's stack) as this thread's user: here
 * without a timeout, else by a runner.  Its result, -1 and errno as the
 * syscall's; EIO at once while offline.  A failure that says the source
 * is gone takes it offline.
 */
static ssize_t kc_call(struct kc_fs *fs, struct kc_call *a)
{
	struct kc_call *c;

	if (kc_offline(fs)) {
		errno = EIO;
		return -1;
	}
	if (a->op != KC_CALL_PREAD && a->op != KC_CALL_CLOSE && !a->quiet)
		kc_count(fs, source_meta_calls, 1);
	if (!fs->cfg.source_timeout) {
		kc_call_do(a);
	} else if (!(c = kc_call_copy(a))) {
		return -1;
	} else if (!kc_call_wait(fs, c, fs->cfg.source_timeout)) {
		a->ret = -1;
		a->err = errno;
	} else {
		a->ret = c->ret;
		a->err = c->err;
		a->st = c->st;
		a->btime = c->btime;
		a->vfs = c->vfs;
		if (c->ret > 0 && a->buf)
			memcpy(a->buf, c->buf, (size_t)c->ret < a->len ?
			       (size_t)c->ret : a->len);
		kc_call_free(c);
	}
	if (a->ret < 0 && !a->quiet)
		kc_source_error(fs, a->err);
	errno = a->err;
	return a->ret;
}

static int kc_src_stat(struct kc_fs *fs, int dirfd, const char *name,
		       struct stat *st, struct timespec *btime, int flags)
{
	struct kc_call a = { .op = KC_CALL_FSTATAT, .fd = dirfd,
			     .name = name, .flags = flags, .born = !!btime };
	int ret = kc_call(fs, &a);

	if (!ret)
		*st = a.st;
	if (btime)
		*btime = a.btime;
	return ret;
}

int kc_src_fstatat(struct kc_fs *fs, int dirfd, const char *name,
		   struct stat *st, int flags)
{
	return kc_src_stat(fs, dirfd, name, st, NULL, flags);
}

/*
 * kc_src_fstatat(), and the birth time into *@btime where the metadata
 * store checks it (meta.c): one statx() instead of the fstatat(), no
 * call more.  Without a store, or where the source keeps none, {0, 0}.
 */
int kc_src_fstatat_born(struct kc_fs *fs, int dirfd, const char *name,
			struct stat *st, struct timespec *btime, int flags)
{
	*btime = (struct timespec){ 0 };
	return kc_src_stat(fs, dirfd, name, st, fs->meta ? btime : NULL,
			   flags);
}

int kc_src_openat(struct kc_fs *fs, int dirfd, const char *name, int flags,
		  mode_t mode)
{
	struct kc_call a = { .op = KC_CALL_OPENAT, .fd = dirfd,
			     .name = name, .flags = flags, .mode = mode };

	return kc_call(fs, &a);
}

/* @mode: R_OK, W_OK, X_OK; AT_EACCESS in @flags for this thread's ids. */
int kc_src_faccessat(struct kc_fs *fs, int dirfd, const char *name, int mode,
		     int flags)
{
	struct kc_call a = { .op = KC_CALL_ACCESS, .fd = dirfd, .name = name,
			     .mode = mode, .flags = flags };

	return kc_call(fs, &a);
}

ssize_t kc_src_pread(struct kc_fs *fs, int fd, void *buf, size_t len,
		     off_t off)
{
	struct kc_call a = { .op = KC_CALL_PREAD, .fd = fd, .buf = buf,
			     .len = len, .off = off };

	return kc_call(fs, &a);
}

/* Does the source's root answer a stat (as this thread's user)? */
bool kc_src_root_answers(struct kc_fs *fs)
{
	struct kc_call a = { .op = KC_CALL_FSTATAT, .fd = fs->root.fd,
			     .name = "", .flags = AT_EMPTY_PATH, .quiet = true };

	return !kc_call(fs, &a);
}

/*
 * What a failed call means for the source's health (offline.c), here
 * because the answer may take another call: offline.c names nothing of
 * this file, which reports to it.
 *
 * A source call failed with @err.  ENOTCONN is the source's; ESTALE and
 * EIO may be one file's (deleted by another NFS client, a bad block):
 * they take the mount offline only if the source's root fails too.
 */
void kc_source_error(struct kc_fs *fs, int err)
{
	if (err == ENOTCONN ||
	    ((err == ESTALE || err == EIO) && !kc_offline(fs) &&
	     !kc_src_root_answers(fs)))
		kc_go_offline(fs, strerror(err));
}

/* A source call did not answer within source_timeout. */
void kc_source_stalled(struct kc_fs *fs)
{
	kc_go_offline(fs, "no answer within source_timeout");
}

int kc_src_fstatvfs(struct kc_fs *fs, int fd, struct statvfs *st)
{
	struct kc_call a = { .op = KC_CALL_STATVFS, .fd = fd };
	int ret = kc_call(fs, &a);

	if (!ret)
		*st = a.vfs;
	return ret;
}

ssize_t kc_src_readlinkat(struct kc_fs *fs, int dirfd, const char *name,
			  char *buf, size_t len)
{
	struct kc_call a = { .op = KC_CALL_READLINKAT, .fd = dirfd,
			     .name = name, .buf = buf, .len = len };

	return kc_call(fs, &a);
}

/* getxattr() (@name non-NULL) or listxattr() of @path on the source. */
ssize_t kc_src_xattr(struct kc_fs *fs, const char *path, const char *name,
		     char *buf, size_t len)
{
	struct kc_call a = { .op = name ? KC_CALL_GETXATTR : KC_CALL_LISTXATTR,
			     .name = path, .xname = name, .buf = buf,
			     .len = len };

	return kc_call(fs, &a);
}

/*
 * Close a source descriptor: the close of a file on a network source
 * waits for the source (FUSE's flush, NFS's write-back), so with a
 * timeout a runner does it and nobody waits.
 */
void kc_src_close(struct kc_fs *fs, int fd)
{
	struct kc_call a = { .op = KC_CALL_CLOSE, .fd = fd, .detached = true };
	struct kc_runners *r = &fs->runners;
	struct kc_call *c;
	bool queued;

	if (fd < 0)
		return;
	c = fs->cfg.source_timeout ? kc_call_copy(&a) : NULL;
	if (!c) {
		close(fd);
		return;
	}
	pthread_mutex_lock(&r->lock);
	queued = kc_call_queue(r, c);
	pthread_mutex_unlock(&r->lock);
	if (!queued) {
		kc_call_free(c);
		close(fd);
	}
}

/*
 * Has the source answered a stat of its root?  The housekeeper's, while
 * offline, once a second: it never waits (a dead source must not stop
 * culling and the statistics).  A probe is made by a runner, one at a
 * time; this call takes the answer of the last one (0: it answered), or
 * sends the next (-EINPROGRESS), or finds one still out (-EBUSY).
 */
int kc_src_probe(struct kc_fs *fs)
{
	struct kc_call a = { .op = KC_CALL_FSTATAT, .fd = fs->root.fd,
			     .name = "", .flags = AT_EMPTY_PATH, .probe = true,
			     .detached = true };
	struct kc_runners *r = &fs->runners;
	struct kc_call *c;
	int ret = -EINPROGRESS;
	bool queued;

	pthread_mutex_lock(&r->lock);
	if (r->probe_ok) {
		r->probe_ok = false;
		ret = 0;
	} else if (r->probing) {
		ret = -EBUSY;
	}
	pthread_mutex_unlock(&r->lock);
	if (ret != -EINPROGRESS)
		return ret;
	c = kc_call_copy(&a);
	if (!c)
		return -ENOMEM;
	pthread_mutex_lock(&r->lock);
	queued = kc_call_queue(r, c);
	r->probing = queued;
	pthread_mutex_unlock(&r->lock);
	if (!queued)
		kc_call_free(c);
	return ret;
}
