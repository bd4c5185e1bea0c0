// SPDX-License-Identifier: GPL-2.0-only
/*
 * Open files.  Every open opens the source file too (its descriptor does
 * the source I/O; without O_DIRECT, whose alignment rules libfuse's
 * buffers do not meet); a regular file also takes a use of its cache
 * cookie.
 * Reads go through the cache (readthrough.c); writes and other changes go
 * to the source first, then into the cache (kc_change_*()).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "cachefs.h"

static struct kc_file *kc_file(const struct fuse_file_info *fi)
{
	return (struct kc_file *)(uintptr_t)fi->fh;
}

void kc_handles_init(struct kc_fs *fs)
{
	pthread_mutex_init(&fs->handles_lock, NULL);
	fs->handles.prev = fs->handles.next = &fs->handles;
}

void kc_handle_add(struct kc_fs *fs, struct kc_handle *h,
		   void (*close)(struct kc_fs *fs, struct kc_handle *h))
{
	h->close = close;
	pthread_mutex_lock(&fs->handles_lock);
	h->next = &fs->handles;
	h->prev = fs->handles.prev;
	fs->handles.prev->next = h;
	fs->handles.prev = h;
	pthread_mutex_unlock(&fs->handles_lock);
}

void kc_handle_del(struct kc_fs *fs, struct kc_handle *h)
{
	pthread_mutex_lock(&fs->handles_lock);
	h->prev->next = h->next;
	h->next->prev = h->prev;
	pthread_mutex_unlock(&fs->handles_lock);
}

/* At unmount, after the last request: what the kernel did not release. */
void kc_handles_close(struct kc_fs *fs)
{
	while (fs->handles.next != &fs->handles) {
		struct kc_handle *h = fs->handles.next;

		kc_handle_del(fs, h);
		h->close(fs, h);
	}
	pthread_mutex_destroy(&fs->handles_lock);
}

/* Close a file taken off the handle list. */
static void kc_file_free(struct kc_fs *fs, struct kc_handle *h)
{
	struct kc_file *f = (struct kc_file *)h;

	if (f->used)
		kc_cache_release(fs, f->in);
	kc_src_close(fs, f->fd);
	free(f);
}

static void kc_file_close(struct kc_fs *fs, struct kc_file *f)
{
	kc_handle_del(fs, &f->h);
	kc_file_free(fs, &f->h);
}

/* Wrap the source descriptor @fd of @in; 0 or an errno (fd closed). */
static int kc_file_new(struct kc_fs *fs, struct kc_inode *in, int fd,
		       int flags, struct kc_file **fp)
{
	struct kc_file *f = calloc(1, sizeof(*f));
	bool modify = (flags & O_ACCMODE) != O_RDONLY || (flags & O_TRUNC);
	int ret = 0;

	if (!f) {
		close(fd);
		return ENOMEM;
	}
	f->in = in;
	f->fd = fd;
	f->append = flags & O_APPEND;
	f->writable = (flags & O_ACCMODE) != O_RDONLY;
	if (S_ISREG(in->type))
		ret = kc_cache_open(fs, in, fd, modify, &f->used);
	if (ret) {
		kc_file_free(fs, &f->h);
		return -ret;
	}
	kc_handle_add(fs, &f->h, kc_file_free);
	*fp = f;
	return 0;
}

/*
 * The flags of a source descriptor for an open with @flags: never
 * O_APPEND, under which Linux's pwrite() ignores its offset (a page of a
 * shared mapping written back would land at the end); appends are made
 * with RWF_APPEND instead (kc_op_write()).
 */
static int kc_source_flags(int flags)
{
	return (flags & ~(O_NOFOLLOW | O_DIRECT | O_APPEND)) | O_CLOEXEC;
}

/*
 * Open the source file for @req's caller; an O_TRUNC open is a change
 * made through us.
 */
static int kc_open_source(fuse_req_t req, struct kc_inode *in,
			  const char *proc, int flags)
{
	struct kc_change ch = { .kind = KC_CH_SIZE };
	struct kc_fs *fs = kc_fs(req);
	struct kc_icache *ic = NULL;
	struct kc_fd_waiter w = { fs, NULL, 0 };
	struct kc_creds cr;
	int fd, err;

	if ((flags & O_TRUNC) && S_ISREG(in->type))
		ic = kc_change_begin(fs, in);
	kc_creds_take(req, &cr);
	do {
		fd = kc_src_openat(fs, AT_FDCWD, proc, kc_source_flags(flags),
				   0);
	} while (fd < 0 && kc_fd_wait(&w));
	kc_fd_wait_end(&w);
	err = errno;
	kc_creds_drop(&cr);
	if (fd < 0 && err == EACCES && kc_exec_open(flags)) {
		fd = kc_open_exec(req, proc);	/* execute-only (privs.c) */
		err = errno;
	}
	kc_change_end(fs, ic, in, fd, &ch);
	if (flags & O_TRUNC)
		kc_meta_stale(fs, in);
	return fd < 0 ? -err : fd;
}

/*
 * Offline: a read-only open of a file with a cached object, served from
 * the cache alone (the file has no source descriptor, fd -1).
 */
static void kc_open_offline(fuse_req_t req, struct kc_inode *in,
			    struct fuse_file_info *fi)
{
	struct kc_fs *fs = kc_fs(req);
	struct kc_file *f;
	int err = EIO;

	if ((fi->flags & O_ACCMODE) != O_RDONLY || (fi->flags & O_TRUNC))
		err = EROFS;
	else if (S_ISREG(in->type) && (f = calloc(1, sizeof(*f)))) {
		f->in = in;
		f->fd = -1;
		if (!kc_cache_open_offline(fs, in, &f->used)) {
			kc_count(fs, offline_served, 1);
			kc_handle_add(fs, &f->h, kc_file_free);
			fi->fh = (uintptr_t)f;
			if (fuse_reply_open(req, fi))
				kc_file_close(fs, f);
			return;
		}
		free(f);
	}
	kc_count(fs, offline_refused, 1);
	fuse_reply_err(req, err);
}

void kc_op_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct kc_fs *fs = kc_fs(req);
	struct kc_inode *in = kc_inode(req, ino);
	struct kc_icache *ic;
	struct kc_file *f;
	char proc[64];
	int fd, err;

	if (kc_offline(fs)) {
		kc_open_offline(req, in, fi);
		return;
	}
	if (S_ISREG(in->type) && kc_inode_check_name(fs, in)) {
		fuse_reply_err(req, ESTALE);	/* the kernel looks it up again */
		return;
	}
	if (kc_inode_fd_reply(req, in))
		return;
	kc_procname(proc, sizeof(proc), in->fd);
	fd = kc_open_source(req, in, proc, fi->flags);
	if (fd < 0 && kc_offline(fs)) {		/* it went offline now */
		kc_open_offline(req, in, fi);
		return;
	}
	if (fd < 0) {
		fuse_reply_err(req, -fd);
		return;
	}
	err = kc_file_new(fs, in, fd, fi->flags, &f);
	if (err) {
		fuse_reply_err(req, err);
		return;
	}
	/* No page lock is held over an open: it may wait for the notice. */
	ic = atomic_load(&in->ic);
	if (ic && atomic_exchange(&ic->attr_news, false))
		kc_notify_changed(fs, in, true);
	fi->fh = (uintptr_t)f;
	if (fuse_reply_open(req, fi))
		kc_file_close(fs, f);
}

void kc_op_create(fuse_req_t req, fuse_ino_t parent, const char *name,
		  mode_t mode, struct fuse_file_info *fi)
{
	struct kc_fs *fs = kc_fs(req);
	struct fuse_entry_param e;
	struct kc_fd_waiter w = { fs, kc_inode(req, parent), 0 };
	struct kc_inode *in;
	struct kc_creds cr;
	struct kc_file *f;
	int fd, err;

	if (kc_offline_refuse(req, EROFS) ||
	    kc_inode_fd_reply(req, w.locked))
		return;
	kc_creds_take(req, &cr);
	do {
		fd = openat(w.locked->fd, name,
			    kc_source_flags(fi->flags | O_CREAT), mode);
	} while (fd < 0 && kc_fd_wait(&w));
	kc_fd_wait_end(&w);
	err = errno;
	kc_creds_drop(&cr);
	if (fd < 0) {
		fuse_reply_err(req, err);
		return;
	}
	kc_meta_made(fs, w.locked, name);
	err = kc_do_lookup(req, kc_inode(req, parent), name, &e);
	if (err) {
		close(fd);
		fuse_reply_err(req, err);
		return;
	}
	in = (struct kc_inode *)(uintptr_t)e.ino;
	err = kc_file_new(fs, in, fd, fi->flags, &f);
	if (err) {
		kc_inode_forget(fs, in, 1);
		fuse_reply_err(req, err);
		return;
	}
	fi->fh = (uintptr_t)f;
	if (fuse_reply_create(req, &e, fi)) {
		kc_file_close(fs, f);
		kc_inode_forget(fs, in, 1);
	}
}

void kc_op_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		struct fuse_file_info *fi)
{
	struct kc_fs *fs = kc_fs(req);
	struct kc_inode *in = kc_inode(req, ino);
	char *buf = kc_scratch(0, size);
	ssize_t n;

	if (!buf) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	if (S_ISREG(in->type))
		n = kc_cache_read(fs, in, kc_file(fi)->fd, buf, size, off);
	else
		n = kc_source_pread(fs, kc_file(fi)->fd, buf, size, off);
	if (n < 0)
		fuse_reply_err(req, -n);
	else
		fuse_reply_buf(req, buf, n);
}

void kc_op_write(fuse_req_t req, fuse_ino_t ino, const char *buf,
		 size_t size, off_t off, struct fuse_file_info *fi)
{
	struct kc_fs *fs = kc_fs(req);
	struct kc_inode *in = kc_inode(req, ino);
	struct kc_file *f = kc_file(fi);
	/* A page written back from a shared mapping goes where it belongs. */
	bool append = f->append && !fi->writepage;
	struct iovec iov = { (void *)buf, size };
	struct kc_change ch = { .kind = KC_CH_WRITE, .off = off, .data = buf,
				.append = append };
	struct kc_icache *ic;
	ssize_t n;
	int err;

	if (kc_offline_refuse(req, EROFS))
		return;
	ic = kc_change_begin(fs, in);
	n = pwritev2(f->fd, &iov, 1, off, append ? RWF_APPEND : 0);
	err = errno;

	if (n < 0) {		/* nothing or something: do not trust */
		ch.kind = KC_CH_RANGE;
		ch.len = size;
	} else {
		ch.len = n;
	}
	kc_change_end(fs, ic, in, f->fd, &ch);
	kc_meta_stale(fs, in);		/* its size and times */
	if (n < 0)
		fuse_reply_err(req, err);
	else
		fuse_reply_write(req, n);
}

/*
 * close(2) of a file through the mount: a close of the source file too
 * (NFS writes back then), of a dup of our descriptor.  A read-only file
 * has nothing to write back; out of descriptors for the dup, a sync does
 * what the close would have.
 */
void kc_op_flush(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct kc_file *f = kc_file(fi);
	int dfd, err = 0;

	(void)ino;
	/* Offline, what was written may not have reached the source. */
	if (f->writable && kc_offline_refuse(req, EIO))
		return;
	if (f->writable) {
		dfd = dup(f->fd);
		if (dfd >= 0)
			err = close(dfd) ? errno : 0;
		else
			err = fdatasync(f->fd) ? errno : 0;
	}
	fuse_reply_err(req, err);
}

void kc_op_fsync(fuse_req_t req, fuse_ino_t ino, int datasync,
		 struct fuse_file_info *fi)
{
	int fd = kc_file(fi)->fd;

	(void)ino;
	if (kc_offline_refuse(req, EIO))
		return;
	fuse_reply_err(req, (datasync ? fdatasync(fd) : fsync(fd)) ? errno : 0);
}

void kc_op_release(fuse_req_t req, fuse_ino_t ino,
		   struct fuse_file_info *fi)
{
	(void)ino;
	kc_file_close(kc_fs(req), kc_file(fi));
	fuse_reply_err(req, 0);
}

/* What a fallocate() @mode does to the data. */
static enum kc_change_kind kc_falloc_kind(int mode)
{
	if (!(mode & ~FALLOC_FL_KEEP_SIZE))
		return KC_CH_SIZE;	/* allocation: data unchanged */
	if (mode & (FALLOC_FL_COLLAPSE_RANGE | FALLOC_FL_INSERT_RANGE))
		return KC_CH_ALL;	/* data moved */
	return KC_CH_RANGE;		/* punched or zeroed */
}

void kc_op_fallocate(fuse_req_t req, fuse_ino_t ino, int mode, off_t off,
		     off_t len, struct fuse_file_info *fi)
{
	struct kc_fs *fs = kc_fs(req);
	struct kc_inode *in = kc_inode(req, ino);
	struct kc_change ch = { .kind = kc_falloc_kind(mode), .off = off,
				.len = len };
	struct kc_icache *ic;
	int ret, err;

	if (kc_offline_refuse(req, EROFS))
		return;
	ic = kc_change_begin(fs, in);
	ret = fallocate(kc_file(fi)->fd, mode, off, len);
	err = errno;

	kc_change_end(fs, ic, in, kc_file(fi)->fd, &ch);
	kc_meta_stale(fs, in);
	fuse_reply_err(req, ret ? err : 0);
}

void kc_op_copy_file_range(fuse_req_t req, fuse_ino_t ino_in, off_t off_in,
			   struct fuse_file_info *fi_in, fuse_ino_t ino_out,
			   off_t off_out, struct fuse_file_info *fi_out,
			   size_t len, int flags)
{
	struct kc_fs *fs = kc_fs(req);
	struct kc_inode *out = kc_inode(req, ino_out);
	struct kc_change ch = { .kind = KC_CH_RANGE, .off = off_out,
				.len = len };
	struct kc_icache *ic;
	ssize_t n;
	int err;

	(void)ino_in;
	if (kc_offline_refuse(req, EROFS))
		return;
	ic = kc_change_begin(fs, out);
	n = copy_file_range(kc_file(fi_in)->fd, &off_in, kc_file(fi_out)->fd,
			    &off_out, len, flags);
	err = errno;
	if (n >= 0)
		ch.len = n;
	kc_change_end(fs, ic, out, kc_file(fi_out)->fd, &ch);
	kc_meta_stale(fs, out);
	if (n < 0)
		fuse_reply_err(req, err);
	else
		fuse_reply_write(req, n);
}

void kc_op_lseek(fuse_req_t req, fuse_ino_t ino, off_t off, int whence,
		 struct fuse_file_info *fi)
{
	off_t res;

	(void)ino;
	if (kc_offline_refuse(req, EIO))
		return;
	res = lseek(kc_file(fi)->fd, off, whence);
	if (res < 0)
		fuse_reply_err(req, errno);
	else
		fuse_reply_lseek(req, res);
}
