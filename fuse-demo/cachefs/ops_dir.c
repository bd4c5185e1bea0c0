// SPDX-License-Identifier: GPL-2.0-only
/*
 * Directory streams, as libfuse's passthrough_ll: a DIR of the source
 * directory per opendir, entries passed on with their source offsets;
 * readdirplus looks every entry up (so the kernel gets inodes and
 * attributes in one go).
 *
 * A stream read whole from the source, from its start, is handed to the
 * metadata store (meta.c).  A listing the store may serve (-o
 * meta_timeout, or offline) to a caller who may read the directory
 * (kc_meta_may(): the source would refuse the others) is served from a
 * copy taken at opendir, its offsets the entries' places: ".", "..",
 * then the names.  readdirplus then hands out the attributes the store
 * holds, as a lookup would.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cachefs.h"
#include "meta.h"

struct kc_dir {
	struct kc_handle h;
	DIR		*dp;		/* NULL: served from the store */
	struct dirent	*entry;		/* read but not yet returned */
	off_t		offset;
	struct kc_ment	*v;		/* the store's listing */
	size_t		n;
	bool		may_search;	/* the caller may look names up */
	bool		whole;		/* read from the start, no seek */
	int64_t		started;	/* when the stream was opened */
	struct kc_ment	*seen;		/* names read from the source */
	size_t		nseen, cap;
};

static struct kc_dir *kc_dir(const struct fuse_file_info *fi)
{
	return (struct kc_dir *)(uintptr_t)fi->fh;
}

static void kc_dir_free(struct kc_fs *fs, struct kc_handle *h)
{
	struct kc_dir *d = (struct kc_dir *)h;

	(void)fs;
	if (d->dp)
		closedir(d->dp);
	kc_meta_list_free(d->v, d->n);
	kc_meta_list_free(d->seen, d->nseen);
	free(d);
}

/*
 * A listing from the store for @in, if it may be served to @req's
 * caller: true, and @d serves it.
 */
static bool kc_dir_stored(fuse_req_t req, struct kc_inode *in,
			  struct kc_dir *d)
{
	struct kc_fs *fs = kc_fs(req);
	struct stat st;

	if (!kc_inode_attr_for(req, in, &st) || !kc_meta_may(req, &st, R_OK))
		return false;	/* the source decides, as the caller */
	d->may_search = kc_meta_may(req, &st, X_OK);
	return kc_meta_list(fs, in, &d->v, &d->n);
}

static void kc_dir_reply(fuse_req_t req, struct kc_dir *d,
			 struct fuse_file_info *fi)
{
	fi->fh = (uintptr_t)d;
	kc_handle_add(kc_fs(req), &d->h, kc_dir_free);
	if (fuse_reply_open(req, fi)) {
		kc_handle_del(kc_fs(req), &d->h);
		kc_dir_free(kc_fs(req), &d->h);
	}
}

void kc_op_opendir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct kc_dir *d = calloc(1, sizeof(*d));
	struct kc_fd_waiter w = { kc_fs(req), NULL, 0 };
	struct kc_creds cr;
	char proc[64];
	int fd, err;

	if (!d) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	if (kc_dir_stored(req, kc_inode(req, ino), d)) {
		kc_count(kc_fs(req), offline_served, kc_offline(kc_fs(req)));
		kc_dir_reply(req, d, fi);
		return;
	}
	if (kc_offline_refuse(req, EIO) ||	/* no listing is stored */
	    kc_inode_fd_reply(req, kc_inode(req, ino))) {
		free(d);
		return;
	}
	d->whole = true;
	d->started = kc_wall_ns();
	/*
	 * By the magic link, not as "." beneath the directory: that lookup
	 * would ask the caller for search permission on it, where listing
	 * it takes read permission only.
	 */
	kc_procname(proc, sizeof(proc), kc_inode(req, ino)->fd);
	kc_creds_take(req, &cr);
	do {
		fd = kc_src_openat(kc_fs(req), AT_FDCWD, proc,
				   O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
	} while (fd < 0 && kc_fd_wait(&w));
	kc_fd_wait_end(&w);
	err = fd < 0 ? errno : 0;
	kc_creds_drop(&cr);
	if (!err && !(d->dp = fdopendir(fd))) {
		err = errno;
		close(fd);
	}
	if (err) {
		free(d);
		fuse_reply_err(req, err);
		return;
	}
	kc_dir_reply(req, d, fi);
}

static bool kc_dot(const char *name)
{
	return name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2]));
}

/* Add the pending entry to @p (room @rem); its size, > @rem if full. */
static size_t kc_add_entry(fuse_req_t req, fuse_ino_t ino, struct kc_dir *d,
			   char *p, size_t rem, bool plus, int *err)
{
	struct fuse_entry_param e;
	const char *name = d->entry->d_name;
	off_t next = d->entry->d_off;
	struct stat st;
	size_t size;
	bool plain;

	if (!plus) {
		memset(&st, 0, sizeof(st));
		st.st_ino = d->entry->d_ino;
		st.st_mode = d->entry->d_type << 12;
		return fuse_add_direntry(req, p, rem, name, &st, next);
	}
	/*
	 * A name the caller may list but not look up (a directory without
	 * search permission for them) goes out without attributes, as a
	 * plain entry: the kernel then looks it up if asked, and refuses.
	 * So do all names while the inode table is past its descriptor
	 * budget: only what is used then gets a descriptor.
	 */
	plain = kc_dot(name) || kc_itable_full(kc_fs(req));
	*err = plain ? 0 : kc_do_lookup(req, kc_inode(req, ino), name, &e);
	if (plain || *err == EACCES) {
		*err = 0;
		memset(&e, 0, sizeof(e));
		e.attr.st_ino = d->entry->d_ino;
		e.attr.st_mode = d->entry->d_type << 12;
	} else if (*err) {
		return 0;
	}
	size = fuse_add_direntry_plus(req, p, rem, name, &e, next);
	if (size > rem && e.ino)	/* did not fit: undo the lookup */
		kc_inode_forget(kc_fs(req), (struct kc_inode *)(uintptr_t)e.ino,
				1);
	return size;
}

/*
 * Entry @i of the store's listing (".", "..", then the names) into @p
 * (room @rem); its size, > @rem if full.  readdirplus hands out the
 * attributes the store may serve, to a caller who may look names up.
 */
static size_t kc_add_stored(fuse_req_t req, fuse_ino_t ino, struct kc_dir *d,
			    size_t i, char *p, size_t rem, bool plus)
{
	struct kc_fs *fs = kc_fs(req);
	const struct kc_ment *m = i >= 2 ? &d->v[i - 2] : NULL;
	const char *name = m ? m->name : i ? ".." : ".";
	struct fuse_entry_param e;
	struct kc_inode *in = NULL;
	size_t size;

	memset(&e, 0, sizeof(e));
	e.attr.st_ino = m ? m->st.st_ino : i ? 1 : kc_inode(req, ino)->ino;
	e.attr.st_mode = m ? (mode_t)m->type << 12 : S_IFDIR;
	if (!plus)
		return fuse_add_direntry(req, p, rem, name, &e.attr, i + 1);
	if (m && (m->flags & KC_ME_ATTR) && d->may_search &&
	    kc_meta_fresh_attr(fs, m->learnt) && !kc_itable_full(fs))
		in = kc_inode_from_store(fs, kc_inode(req, ino), name, &m->st,
					 &m->btime, m->learnt);
	if (in) {
		kc_count(fs, meta_hits, 1);
		e.ino = (uintptr_t)in;
		e.attr = m->st;
		e.attr_timeout = fs->cfg.attr_timeout;
		e.entry_timeout = fs->cfg.entry_timeout;
	}
	size = fuse_add_direntry_plus(req, p, rem, name, &e, i + 1);
	if (size > rem && in)	/* did not fit: undo the lookup */
		kc_inode_forget(fs, in, 1);
	return size;
}

static void kc_readdir_stored(fuse_req_t req, fuse_ino_t ino,
			      struct kc_dir *d, char *buf, size_t size,
			      off_t off, bool plus)
{
	size_t rem = size, n, i;

	for (i = off > 0 ? (size_t)off : 0; i < d->n + 2; i++) {
		n = kc_add_stored(req, ino, d, i, buf + size - rem, rem, plus);
		if (n > rem)
			break;
		rem -= n;
	}
	fuse_reply_buf(req, buf, size - rem);
}

/* A name read from the source, kept for the store (kc_meta_listed()). */
static void kc_dir_seen(struct kc_dir *d, const struct dirent *de)
{
	struct kc_ment *v;

	if (!d->whole || kc_dot(de->d_name))
		return;
	if (d->nseen == d->cap) {
		v = d->nseen < KC_META_ENTRIES_MAX ?
		    realloc(d->seen, (d->cap * 2 + 64) * sizeof(*v)) : NULL;
		if (!v) {
			d->whole = false;	/* too big to keep */
			return;
		}
		d->seen = v;
		d->cap = d->cap * 2 + 64;
	}
	v = &d->seen[d->nseen];
	memset(v, 0, sizeof(*v));
	v->name = strdup(de->d_name);
	v->type = de->d_type;
	v->st.st_ino = de->d_ino;
	if (v->name)
		d->nseen++;
	else
		d->whole = false;
}

/* The source's stream ended: a whole listing goes to the store. */
static void kc_dir_end(fuse_req_t req, fuse_ino_t ino, struct kc_dir *d)
{
	if (!d->whole)
		return;
	d->whole = false;
	kc_meta_listed(kc_fs(req), kc_inode(req, ino), d->seen, d->nseen,
		       d->started);
}

static void kc_readdir(fuse_req_t req, fuse_ino_t ino, size_t size,
		       off_t off, struct fuse_file_info *fi, bool plus)
{
	struct kc_dir *d = kc_dir(fi);
	char *buf, *p;
	size_t rem = size, n;
	int err = 0;

	if (d->dp && kc_offline_refuse(req, EIO))
		return;
	buf = calloc(1, size ? size : 1);
	p = buf;

	if (!buf) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	if (!d->dp) {
		kc_readdir_stored(req, ino, d, buf, size, off, plus);
		free(buf);
		return;
	}
	kc_count(kc_fs(req), source_meta_calls, 1);	/* getdents */
	if (off != d->offset) {
		seekdir(d->dp, off);
		d->entry = NULL;
		d->offset = off;
		d->whole = false;
	}
	for (;;) {
		if (!d->entry) {
			errno = 0;
			d->entry = readdir(d->dp);
			if (!d->entry) {
				err = errno;
				if (!err)
					kc_dir_end(req, ino, d);
				break;
			}
			kc_dir_seen(d, d->entry);
		}
		n = kc_add_entry(req, ino, d, p, rem, plus, &err);
		if (err || n > rem)
			break;
		p += n;
		rem -= n;
		d->offset = d->entry->d_off;
		d->entry = NULL;
	}
	/* An error can only be told before any entry (lookup counts). */
	if (err && rem == size)
		fuse_reply_err(req, err);
	else
		fuse_reply_buf(req, buf, size - rem);
	free(buf);
}

void kc_op_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		   struct fuse_file_info *fi)
{
	kc_readdir(req, ino, size, off, fi, false);
}

void kc_op_readdirplus(fuse_req_t req, fuse_ino_t ino, size_t size,
		       off_t off, struct fuse_file_info *fi)
{
	kc_readdir(req, ino, size, off, fi, true);
}

void kc_op_releasedir(fuse_req_t req, fuse_ino_t ino,
		      struct fuse_file_info *fi)
{
	struct kc_dir *d = kc_dir(fi);

	(void)ino;
	kc_handle_del(kc_fs(req), &d->h);
	kc_dir_free(kc_fs(req), &d->h);
	fuse_reply_err(req, 0);
}

void kc_op_fsyncdir(fuse_req_t req, fuse_ino_t ino, int datasync,
		    struct fuse_file_info *fi)
{
	int fd = kc_dir(fi)->dp ? dirfd(kc_dir(fi)->dp) : -1;

	(void)ino;
	if (fd < 0)		/* served from the store: nothing to sync */
		fuse_reply_err(req, 0);
	else
		fuse_reply_err(req, (datasync ? fdatasync(fd) : fsync(fd)) ?
				    errno : 0);
}
