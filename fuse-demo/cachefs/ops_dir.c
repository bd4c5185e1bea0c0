// SPDX-License-Identifier: GPL-2.0-only
/*
 * Directory streams, as libfuse's passthrough_ll: a DIR of the source
 * directory per opendir, entries passed on with their source offsets;
 * readdirplus looks every entry up (so the kernel gets inodes and
 * attributes in one go).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cachefs.h"

struct kc_dir {
	struct kc_handle h;
	DIR		*dp;
	struct dirent	*entry;		/* read but not yet returned */
	off_t		offset;
};

static struct kc_dir *kc_dir(const struct fuse_file_info *fi)
{
	return (struct kc_dir *)(uintptr_t)fi->fh;
}

static void kc_dir_free(struct kc_fs *fs, struct kc_handle *h)
{
	struct kc_dir *d = (struct kc_dir *)h;

	(void)fs;
	closedir(d->dp);
	free(d);
}

void kc_op_opendir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct kc_dir *d = calloc(1, sizeof(*d));
	struct kc_fd_waiter w = { kc_fs(req), NULL, 0 };
	struct kc_creds cr;
	int fd, err;

	if (!d) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	if (kc_offline_refuse(req, EIO)) {	/* no listing is cached */
		free(d);
		return;
	}
	kc_creds_take(req, &cr);
	do {
		fd = kc_src_openat(kc_fs(req), kc_inode(req, ino)->fd, ".",
				   O_RDONLY | O_CLOEXEC, 0);
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
	fi->fh = (uintptr_t)d;
	kc_handle_add(kc_fs(req), &d->h, kc_dir_free);
	if (fuse_reply_open(req, fi)) {
		kc_handle_del(kc_fs(req), &d->h);
		kc_dir_free(kc_fs(req), &d->h);
	}
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

static void kc_readdir(fuse_req_t req, fuse_ino_t ino, size_t size,
		       off_t off, struct fuse_file_info *fi, bool plus)
{
	struct kc_dir *d = kc_dir(fi);
	char *buf, *p;
	size_t rem = size, n;
	int err = 0;

	if (kc_offline_refuse(req, EIO))
		return;
	buf = calloc(1, size ? size : 1);
	p = buf;

	if (!buf) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	if (off != d->offset) {
		seekdir(d->dp, off);
		d->entry = NULL;
		d->offset = off;
	}
	for (;;) {
		if (!d->entry) {
			errno = 0;
			d->entry = readdir(d->dp);
			if (!d->entry) {
				err = errno;
				break;
			}
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
	int fd = dirfd(kc_dir(fi)->dp);

	(void)ino;
	fuse_reply_err(req, (datasync ? fdatasync(fd) : fsync(fd)) ? errno : 0);
}
