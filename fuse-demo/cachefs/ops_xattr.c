// SPDX-License-Identifier: GPL-2.0-only
/*
 * Extended attributes, passed through on /proc/self/fd/<O_PATH fd> as in
 * libfuse's passthrough_ll (the magic link reaches the very inode, even a
 * symlink's).  Setting or removing one changes the source file's ctime:
 * for a cached file that is bracketed as our own attribute change.
 *
 * With -o no_xattr every call answers ENOSYS, which the kernel remembers
 * for the mount: it then asks no more (ls -l's two lookups a file, for
 * an ACL and a security label, no longer reach the daemon).
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/xattr.h>

#include "cachefs.h"

/* -o no_xattr: refuse, once for good. */
static bool kc_no_xattr(fuse_req_t req)
{
	if (!kc_fs(req)->cfg.no_xattr)
		return false;
	fuse_reply_err(req, ENOSYS);
	return true;
}

/* Reply with a value or list of @size bytes (0: its length) from @get. */
static void kc_reply_value(fuse_req_t req, size_t size, ssize_t n,
			   const char *value, int err)
{
	if (n < 0)
		fuse_reply_err(req, err);
	else if (!size)
		fuse_reply_xattr(req, n);
	else
		fuse_reply_buf(req, value, n);
}

void kc_op_getxattr(fuse_req_t req, fuse_ino_t ino, const char *name,
		    size_t size)
{
	char proc[64], *value;
	struct kc_creds cr;
	ssize_t n;
	int err;

	if (kc_no_xattr(req) || kc_offline_refuse(req, EIO) ||
	    kc_inode_fd_reply(req, kc_inode(req, ino)))
		return;
	value = size ? malloc(size) : NULL;
	if (size && !value) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	kc_procname(proc, sizeof(proc), kc_inode(req, ino)->fd);
	kc_creds_take(req, &cr);
	n = kc_src_xattr(kc_fs(req), proc, name, value, size);
	err = errno;
	kc_creds_drop(&cr);
	kc_reply_value(req, size, n, value, err);
	free(value);
}

void kc_op_listxattr(fuse_req_t req, fuse_ino_t ino, size_t size)
{
	char proc[64], *value;
	struct kc_creds cr;
	ssize_t n;
	int err;

	if (kc_no_xattr(req) || kc_offline_refuse(req, EIO) ||
	    kc_inode_fd_reply(req, kc_inode(req, ino)))
		return;
	value = size ? malloc(size) : NULL;
	if (size && !value) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	kc_procname(proc, sizeof(proc), kc_inode(req, ino)->fd);
	kc_creds_take(req, &cr);
	n = kc_src_xattr(kc_fs(req), proc, NULL, value, size);
	err = errno;
	kc_creds_drop(&cr);
	kc_reply_value(req, size, n, value, err);
	free(value);
}

/* Run a change of @in's xattrs as an attribute change of the cache. */
static void kc_xattr_change(fuse_req_t req, fuse_ino_t ino, const char *name,
			    const char *value, size_t size, int flags,
			    bool remove)
{
	struct kc_fs *fs = kc_fs(req);
	struct kc_inode *in = kc_inode(req, ino);
	struct kc_change ch = { .kind = KC_CH_META };
	struct kc_icache *ic = NULL;
	struct kc_creds cr;
	char proc[64];
	int ret, err;

	if (kc_no_xattr(req) || kc_offline_refuse(req, EROFS) ||
	    kc_inode_fd_reply(req, in))
		return;
	if (S_ISREG(in->type))
		ic = kc_change_begin(fs, in);
	kc_procname(proc, sizeof(proc), in->fd);
	kc_creds_take(req, &cr);
	ret = remove ? removexattr(proc, name) :
		       setxattr(proc, name, value, size, flags);
	err = errno;
	kc_creds_drop(&cr);
	kc_change_end(fs, ic, in, -1, &ch);
	kc_meta_stale(fs, in);		/* its ctime */
	fuse_reply_err(req, ret ? err : 0);
}

void kc_op_setxattr(fuse_req_t req, fuse_ino_t ino, const char *name,
		    const char *value, size_t size, int flags)
{
	kc_xattr_change(req, ino, name, value, size, flags, false);
}

void kc_op_removexattr(fuse_req_t req, fuse_ino_t ino, const char *name)
{
	kc_xattr_change(req, ino, name, NULL, 0, 0, true);
}
