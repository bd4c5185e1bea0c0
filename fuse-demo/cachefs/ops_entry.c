// SPDX-License-Identifier: GPL-2.0-only
/*
 * Name and attribute operations: straight passthrough to the source on the
 * inode's O_PATH descriptor, as libfuse's passthrough_ll does, plus what
 * the cache must learn: changes of a cached file's attributes made here
 * are bracketed by kc_change_begin()/kc_change_end() (so that they are not
 * mistaken for changes behind our back), names are tracked for open's
 * replaced-file check.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "cachefs.h"

static int kc_fh_fd(const struct fuse_file_info *fi)
{
	return fi ? ((const struct kc_file *)(uintptr_t)fi->fh)->fd : -1;
}

void kc_op_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct fuse_entry_param e;
	int err = kc_do_lookup(req, kc_inode(req, parent), name, &e);

	if (err)
		fuse_reply_err(req, err);
	else
		fuse_reply_entry(req, &e);
}

void kc_op_forget(fuse_req_t req, fuse_ino_t ino, uint64_t nlookup)
{
	kc_inode_forget(kc_fs(req), kc_inode(req, ino), nlookup);
	fuse_reply_none(req);
}

void kc_op_forget_multi(fuse_req_t req, size_t count,
			struct fuse_forget_data *forgets)
{
	size_t i;

	for (i = 0; i < count; i++)
		kc_inode_forget(kc_fs(req), kc_inode(req, forgets[i].ino),
				forgets[i].nlookup);
	fuse_reply_none(req);
}

/* Offline: the source's last attributes of @in, or EIO. */
static void kc_getattr_offline(fuse_req_t req, struct kc_inode *in)
{
	struct kc_fs *fs = kc_fs(req);
	struct kc_icache *ic = atomic_load(&in->ic);
	struct stat st;

	if (!kc_inode_attr(fs, in, &st)) {
		kc_count(fs, offline_refused, 1);
		fuse_reply_err(req, EIO);
		return;
	}
	if (ic)
		atomic_store(&ic->offline_used, true);
	kc_count(fs, offline_served, 1);
	fuse_reply_attr(req, &st, fs->cfg.attr_timeout);
}

void kc_op_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct kc_fs *fs = kc_fs(req);
	struct kc_inode *in = kc_inode(req, ino);
	struct timespec btime;
	struct stat st;

	(void)fi;
	if (kc_inode_fresh_attr(fs, in, &st)) {	/* -o meta_timeout */
		kc_count(fs, meta_hits, 1);
		fuse_reply_attr(req, &st, fs->cfg.attr_timeout);
		return;
	}
	if (kc_inode_fd(fs, in) < 0 ||
	    kc_src_fstatat_born(fs, in->fd, "", &st, &btime,
				AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW)) {
		if (kc_offline(fs))
			kc_getattr_offline(req, in);
		else
			fuse_reply_err(req, errno);
		return;
	}
	kc_inode_set_attr(fs, in, &st, &btime);
	kc_meta_learn_inode(fs, in, &st, &btime);
	if (S_ISREG(st.st_mode))
		kc_cache_check_stat(fs, in, &st, true);
	fuse_reply_attr(req, &st, fs->cfg.attr_timeout);
}

/* The time fields of a setattr as utimensat() takes them. */
static void kc_times(const struct stat *attr, int valid, struct timespec tv[2])
{
	tv[0].tv_sec = tv[1].tv_sec = 0;
	tv[0].tv_nsec = tv[1].tv_nsec = UTIME_OMIT;
	if (valid & FUSE_SET_ATTR_ATIME_NOW)
		tv[0].tv_nsec = UTIME_NOW;
	else if (valid & FUSE_SET_ATTR_ATIME)
		tv[0] = attr->st_atim;
	if (valid & FUSE_SET_ATTR_MTIME_NOW)
		tv[1].tv_nsec = UTIME_NOW;
	else if (valid & FUSE_SET_ATTR_MTIME)
		tv[1] = attr->st_mtim;
}

/* Apply a setattr to the source; 0 or an errno. */
static int kc_do_setattr(struct kc_inode *in, const struct stat *attr,
			 int valid, int fd)
{
	char proc[64];
	struct timespec tv[2];

	kc_procname(proc, sizeof(proc), in->fd);
	if ((valid & FUSE_SET_ATTR_MODE) &&
	    (fd >= 0 ? fchmod(fd, attr->st_mode) :
		       chmod(proc, attr->st_mode)))
		return errno;
	if ((valid & (FUSE_SET_ATTR_UID | FUSE_SET_ATTR_GID)) &&
	    fchownat(in->fd, "",
		     (valid & FUSE_SET_ATTR_UID) ? attr->st_uid : (uid_t)-1,
		     (valid & FUSE_SET_ATTR_GID) ? attr->st_gid : (gid_t)-1,
		     AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW))
		return errno;
	if ((valid & FUSE_SET_ATTR_SIZE) &&
	    (fd >= 0 ? ftruncate(fd, attr->st_size) :
		       truncate(proc, attr->st_size)))
		return errno;
	if (valid & (FUSE_SET_ATTR_ATIME | FUSE_SET_ATTR_MTIME)) {
		kc_times(attr, valid, tv);
		if (fd >= 0 ? futimens(fd, tv) : utimensat(AT_FDCWD, proc, tv, 0))
			return errno;
	}
	return 0;
}

/* kc_do_setattr() as @req's caller. */
static int kc_setattr_as(fuse_req_t req, struct kc_inode *in,
			 const struct stat *attr, int valid, int fd)
{
	struct kc_creds cr;
	int err;

	if (!valid)
		return 0;
	kc_creds_take(req, &cr);
	err = kc_do_setattr(in, attr, valid, fd);
	kc_creds_drop(&cr);
	return err;
}

void kc_op_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr,
		   int valid, struct fuse_file_info *fi)
{
	const int ids = FUSE_SET_ATTR_UID | FUSE_SET_ATTR_GID;
	struct kc_fs *fs = kc_fs(req);
	struct kc_inode *in = kc_inode(req, ino);
	struct kc_change ch = { .kind = KC_CH_META };
	struct kc_icache *ic = NULL;
	int fd = kc_fh_fd(fi), err;

	if (kc_offline_refuse(req, EROFS))
		return;
	if (valid & FUSE_SET_ATTR_SIZE)
		ch.kind = KC_CH_SIZE;
	if (kc_inode_fd(fs, in) < 0) {
		fuse_reply_err(req, errno);
		return;
	}
	if (S_ISREG(in->type))
		ic = kc_change_begin(fs, in);
	/* The mode first: a refused one may be the kernel's (privs.c). */
	err = kc_setattr_as(req, in, attr, valid & FUSE_SET_ATTR_MODE, fd);
	if (err == EPERM && !(valid & ids))
		err = kc_kill_privs(fs, in, attr->st_mode, fd);
	if (!err)
		err = kc_setattr_as(req, in, attr,
				    valid & ~FUSE_SET_ATTR_MODE, fd);
	kc_change_end(fs, ic, in, fd, &ch);
	kc_meta_stale(fs, in);	/* the getattr below asks the source */
	if (err)
		fuse_reply_err(req, err);
	else
		kc_op_getattr(req, ino, fi);
}

void kc_op_readlink(fuse_req_t req, fuse_ino_t ino)
{
	struct kc_inode *in = kc_inode(req, ino);
	char buf[PATH_MAX + 1];
	ssize_t n;

	if (kc_offline_refuse(req, EIO))
		return;
	n = kc_inode_fd(kc_fs(req), in) < 0 ? -1 :
	    kc_src_readlinkat(kc_fs(req), in->fd, "", buf, sizeof(buf));
	if (n < 0)
		fuse_reply_err(req, errno);
	else if (n == sizeof(buf))
		fuse_reply_err(req, ENAMETOOLONG);
	else {
		buf[n] = 0;
		fuse_reply_readlink(req, buf);
	}
}

/* After making @name in @parent (@err: 0 or why not): its entry. */
static void kc_reply_made(fuse_req_t req, fuse_ino_t parent, const char *name,
			  int err)
{
	struct kc_inode *dir = kc_inode(req, parent);
	struct fuse_entry_param e;

	if (err) {
		fuse_reply_err(req, err);
		return;
	}
	kc_meta_made(kc_fs(req), dir, name);
	err = kc_do_lookup(req, dir, name, &e);
	if (!err && S_ISDIR(e.attr.st_mode))	/* its number may be reused */
		kc_meta_drop_dir(kc_fs(req), (struct kc_inode *)(uintptr_t)e.ino);
	if (err)
		fuse_reply_err(req, err);
	else if (fuse_reply_entry(req, &e))
		kc_inode_forget(kc_fs(req), (struct kc_inode *)(uintptr_t)e.ino,
				1);
}

/* What makes a new name in a directory, run as the caller. */
enum kc_make { KC_MKNOD, KC_MKDIR, KC_SYMLINK };

static void kc_make(fuse_req_t req, fuse_ino_t parent, const char *name,
		    enum kc_make what, mode_t mode, dev_t rdev,
		    const char *link)
{
	int dir = kc_inode_fd(kc_fs(req), kc_inode(req, parent)), ret, err;
	struct kc_creds cr;

	if (kc_offline_refuse(req, EROFS))
		return;
	if (dir < 0) {
		fuse_reply_err(req, errno);
		return;
	}
	kc_creds_take(req, &cr);
	if (what == KC_MKNOD)
		ret = mknodat(dir, name, mode, rdev);
	else if (what == KC_MKDIR)
		ret = mkdirat(dir, name, mode);
	else
		ret = symlinkat(link, dir, name);
	err = ret ? errno : 0;
	kc_creds_drop(&cr);
	kc_reply_made(req, parent, name, err);
}

void kc_op_mknod(fuse_req_t req, fuse_ino_t parent, const char *name,
		 mode_t mode, dev_t rdev)
{
	kc_make(req, parent, name, KC_MKNOD, mode, rdev, NULL);
}

void kc_op_mkdir(fuse_req_t req, fuse_ino_t parent, const char *name,
		 mode_t mode)
{
	kc_make(req, parent, name, KC_MKDIR, mode, 0, NULL);
}

void kc_op_symlink(fuse_req_t req, const char *link, fuse_ino_t parent,
		   const char *name)
{
	kc_make(req, parent, name, KC_SYMLINK, 0, 0, link);
}

void kc_op_link(fuse_req_t req, fuse_ino_t ino, fuse_ino_t parent,
		const char *name)
{
	struct kc_fs *fs = kc_fs(req);
	struct kc_inode *in = kc_inode(req, ino), *dir = kc_inode(req, parent);
	struct kc_change ch = { .kind = KC_CH_META };
	struct kc_icache *ic = NULL;
	struct kc_creds cr;
	char proc[64];
	int ret, err;

	if (kc_offline_refuse(req, EROFS))
		return;
	if (kc_inode_fd(fs, in) < 0 || kc_inode_fd(fs, dir) < 0) {
		fuse_reply_err(req, errno);
		return;
	}
	if (S_ISREG(in->type))
		ic = kc_change_begin(fs, in);
	kc_creds_take(req, &cr);
	ret = linkat(in->fd, "", dir->fd, name, AT_EMPTY_PATH);
	if (ret && errno == ENOENT) {	/* no CAP_DAC_READ_SEARCH */
		kc_procname(proc, sizeof(proc), in->fd);
		ret = linkat(AT_FDCWD, proc, dir->fd, name, AT_SYMLINK_FOLLOW);
	}
	err = ret ? errno : 0;
	kc_creds_drop(&cr);
	kc_change_end(fs, ic, in, -1, &ch);
	kc_meta_stale(fs, in);		/* its link count */
	kc_reply_made(req, parent, name, err);
}

/* The live inode @dir/@name names on the source, pinned, or NULL. */
static struct kc_inode *kc_named(struct kc_fs *fs, struct kc_inode *dir,
				 const char *name)
{
	struct stat st;

	if (fstatat(dir->fd, name, &st, AT_SYMLINK_NOFOLLOW))
		return NULL;
	if (S_ISDIR(st.st_mode))
		kc_meta_drop_key(fs, st.st_dev, st.st_ino);
	return kc_inode_find(fs, st.st_dev, st.st_ino);
}

/* @dir/@name was removed (@ret 0) through the mount, or not. */
static void kc_meta_gone(struct kc_fs *fs, struct kc_inode *dir,
			 const char *name, int ret)
{
	if (ret)
		return;
	kc_meta_learn(fs, dir, name, NULL, NULL);
	kc_meta_stale(fs, dir);		/* its times, its link count */
}

/* A rename through the mount (@flags -1: it failed). */
static void kc_meta_renamed(struct kc_fs *fs, struct kc_inode *dir,
			    const char *name, struct kc_inode *ndir,
			    const char *newname, int flags)
{
	if (flags < 0)
		return;
	if (flags & RENAME_EXCHANGE)
		kc_meta_made(fs, dir, name);
	else
		kc_meta_learn(fs, dir, name, NULL, NULL);
	kc_meta_made(fs, ndir, newname);
	kc_meta_stale(fs, dir);
	kc_meta_stale(fs, ndir);
}

static struct kc_icache *kc_meta_begin(struct kc_fs *fs, struct kc_inode *in)
{
	return in && S_ISREG(in->type) ? kc_change_begin(fs, in) : NULL;
}

static void kc_meta_end(struct kc_fs *fs, struct kc_icache *ic,
			struct kc_inode *in)
{
	struct kc_change ch = { .kind = KC_CH_META };

	kc_change_end(fs, ic, in, -1, &ch);
}

void kc_op_unlink(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct kc_fs *fs = kc_fs(req);
	struct kc_inode *dir = kc_inode(req, parent);
	struct kc_icache *ic;
	struct kc_inode *in;
	struct kc_creds cr;
	int ret, err;

	if (kc_offline_refuse(req, EROFS) || kc_inode_fd_reply(req, dir))
		return;
	in = kc_named(fs, dir, name);
	ic = kc_meta_begin(fs, in);
	kc_creds_take(req, &cr);
	ret = unlinkat(dir->fd, name, 0);
	err = errno;
	kc_creds_drop(&cr);
	kc_meta_end(fs, ic, in);
	kc_meta_gone(fs, dir, name, ret);
	if (in && !ret)
		kc_meta_stale(fs, in);	/* the link count of its other names */
	if (in) {
		if (!ret)
			kc_inode_unname(fs, in, dir, name);
		kc_inode_unpin(in);
	}
	fuse_reply_err(req, ret ? err : 0);
}

void kc_op_rmdir(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct kc_inode *dir = kc_inode(req, parent), *in;
	struct kc_creds cr;
	int ret, err;

	if (kc_offline_refuse(req, EROFS) || kc_inode_fd_reply(req, dir))
		return;
	in = kc_named(kc_fs(req), dir, name);	/* drops its listing */
	kc_creds_take(req, &cr);
	ret = unlinkat(dir->fd, name, AT_REMOVEDIR);
	err = errno;
	kc_creds_drop(&cr);
	kc_meta_gone(kc_fs(req), dir, name, ret);
	if (in)
		kc_inode_unpin(in);
	fuse_reply_err(req, ret ? err : 0);
}

/* Lock two files for a rename in a fixed order (no ABBA deadlock). */
static void kc_rename_begin(struct kc_fs *fs, struct kc_inode *a,
			    struct kc_inode *b, struct kc_icache **ia,
			    struct kc_icache **ib)
{
	bool swap = a && b && (uintptr_t)b < (uintptr_t)a;

	*ia = *ib = NULL;
	if (swap)
		*ib = kc_meta_begin(fs, b);
	*ia = kc_meta_begin(fs, a);
	if (!swap && b != a)
		*ib = kc_meta_begin(fs, b);
}

void kc_op_rename(fuse_req_t req, fuse_ino_t parent, const char *name,
		  fuse_ino_t newparent, const char *newname,
		  unsigned int flags)
{
	struct kc_fs *fs = kc_fs(req);
	struct kc_inode *dir = kc_inode(req, parent);
	struct kc_inode *ndir = kc_inode(req, newparent);
	struct kc_inode *src, *dst;
	struct kc_icache *is, *id;
	struct kc_creds cr;
	int ret, err;

	if (kc_offline_refuse(req, EROFS) || kc_inode_fd_reply(req, dir) ||
	    kc_inode_fd_reply(req, ndir))
		return;
	src = kc_named(fs, dir, name);
	dst = kc_named(fs, ndir, newname);
	if (dst == src && dst) {	/* same file: only one reference */
		kc_inode_unpin(dst);
		dst = NULL;
	}
	kc_rename_begin(fs, src, dst, &is, &id);
	kc_creds_take(req, &cr);
	ret = renameat2(dir->fd, name, ndir->fd, newname, flags);
	err = errno;
	kc_creds_drop(&cr);
	kc_meta_end(fs, id, dst);
	kc_meta_end(fs, is, src);
	kc_meta_renamed(fs, dir, name, ndir, newname, ret ? -1 : (int)flags);
	if (!ret && src)
		kc_inode_rename(fs, src, ndir, newname);
	if (!ret && src)
		kc_meta_stale(fs, src);		/* its ctime */
	if (!ret && dst && (flags & RENAME_EXCHANGE))
		kc_inode_rename(fs, dst, dir, name);
	else if (!ret && dst)
		kc_inode_unname(fs, dst, ndir, newname);
	if (src)
		kc_inode_unpin(src);
	if (dst)
		kc_inode_unpin(dst);
	fuse_reply_err(req, ret ? err : 0);
}

void kc_op_statfs(fuse_req_t req, fuse_ino_t ino)
{
	struct statvfs st;

	if (kc_offline_refuse(req, EIO) || kc_inode_fd_reply(req, kc_inode(req, ino)))
		return;
	if (kc_src_fstatvfs(kc_fs(req), kc_inode(req, ino)->fd, &st))
		fuse_reply_err(req, errno);
	else
		fuse_reply_statfs(req, &st);
}
