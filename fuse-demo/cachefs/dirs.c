// SPDX-License-Identifier: GPL-2.0-only
/*
 * The three directories of a mount (source, cache, mount point), checked
 * before anything is mounted:
 *
 *  - none may be, or lie inside, another.  A cache inside the source (or
 *    under the mount point) is served to users and caches itself; a source
 *    or cache under the mount point is hidden by it; a mount point inside
 *    the source shows the mount inside itself, without end.  "Inside" is
 *    decided by walking ".." from one directory and comparing st_dev and
 *    st_ino with the other's, so symlinks and other spellings of a path
 *    do not hide it.
 *  - the cache directory belongs to the daemon's user and nobody else can
 *    write it (as cachefilesd asks of its cache).  Whoever can add names
 *    there can plant symlinks for a root daemon to write through; with
 *    this rule only the daemon's own user can, and the daemon still opens
 *    every file there through kmirror/cachedir.h, which refuses them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cachefs.h"

#define KC_MAX_DEPTH	4096	/* ".." steps before we give up looking */

struct kc_dir_id {
	const char	*what;		/* "source", "cache directory", ... */
	const char	*path;
	int		fd;		/* O_PATH or a real descriptor */
	struct stat	st;
};

static bool kc_same_inode(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/*
 * Is the directory @fd @top itself, or below it?  1 yes, 0 no, -errno if
 * the walk up failed (then nothing is known).
 */
static int kc_is_within(int fd, const struct stat *top)
{
	struct stat st, up;
	int cur = dup(fd), parent, depth, ret = 0;

	if (cur < 0)
		return -errno;
	for (depth = 0; depth < KC_MAX_DEPTH; depth++) {
		if (fstat(cur, &st)) {
			ret = -errno;
			break;
		}
		if (kc_same_inode(&st, top)) {
			ret = 1;
			break;
		}
		parent = openat(cur, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (parent < 0 || fstat(parent, &up)) {
			ret = -errno;
			if (parent >= 0)
				close(parent);
			break;
		}
		close(cur);
		cur = parent;
		if (kc_same_inode(&st, &up))	/* "/" is its own parent */
			break;
	}
	close(cur);
	return ret;
}

/* @a must not be @b nor lie inside it: 0, or -1 with the error printed. */
static int kc_not_within(const struct kc_dir_id *a, const struct kc_dir_id *b)
{
	int ret = kc_is_within(a->fd, &b->st);

	if (ret < 0) {
		kc_fail("cannot tell where %s '%s' is: %s", a->what, a->path,
			strerror(-ret));
		return -1;
	}
	if (!ret)
		return 0;
	if (kc_same_inode(&a->st, &b->st))
		kc_fail("%s '%s' is the same directory as the %s '%s'",
			a->what, a->path, b->what, b->path);
	else
		kc_fail("%s '%s' is inside the %s '%s'", a->what, a->path,
			b->what, b->path);
	return -1;
}

static int kc_dir_id_init(struct kc_dir_id *d, const char *what,
			  const char *path, int fd)
{
	d->what = what;
	d->path = path;
	d->fd = fd;
	if (fstat(fd, &d->st))
		return kc_fail("cannot stat %s '%s': %s", what, path,
			       strerror(errno));
	return 0;
}

/* No directory of the three in another (source and cache already open). */
static int kc_check_nesting(struct kc_fs *fs)
{
	struct kc_dir_id d[3];
	int mfd, ret = -1, i, j;

	mfd = open(fs->cfg.mountpoint, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (mfd < 0)
		return kc_fail("mount point '%s' is not a usable directory: %s",
			       fs->cfg.mountpoint, strerror(errno));
	if (kc_dir_id_init(&d[0], "source", fs->cfg.source, fs->root.fd) ||
	    kc_dir_id_init(&d[1], "cache directory", fs->cfg.cache_dir,
			   fs->cache_fd) ||
	    kc_dir_id_init(&d[2], "mount point", fs->cfg.mountpoint, mfd))
		goto out;
	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++)
			if (i != j && kc_not_within(&d[i], &d[j]))
				goto out;
	ret = 0;
out:
	close(mfd);
	return ret;
}

/* The cache directory is ours alone (see the top of this file). */
static int kc_check_cache_owner(struct kc_fs *fs)
{
	struct stat st;

	if (fstat(fs->cache_fd, &st))
		return kc_fail("cannot stat cache directory '%s': %s",
			       fs->cfg.cache_dir, strerror(errno));
	if (st.st_uid != geteuid())
		return kc_fail("cache directory '%s' belongs to uid %u, not to "
			       "the daemon's user (uid %u): chown it",
			       fs->cfg.cache_dir, (unsigned int)st.st_uid,
			       (unsigned int)geteuid());
	if (st.st_mode & (S_IWGRP | S_IWOTH))
		return kc_fail("cache directory '%s' can be written by others "
			       "(mode %04o): chmod go-w it",
			       fs->cfg.cache_dir, st.st_mode & 07777);
	return 0;
}

int kc_check_dirs(struct kc_fs *fs)
{
	return kc_check_cache_owner(fs) || kc_check_nesting(fs) ? -1 : 0;
}
