// SPDX-License-Identifier: GPL-2.0-only
/*
 * The one way into a cache directory (kmirror/cachedir.h): paths walked
 * one component at a time beneath a checked directory descriptor, never
 * through a symlink, never blocking, and only onto files of the
 * directory's owner with one name.  Plain libc, so that the fuzz targets
 * compile it as it is.
 *
 * Invariant: a descriptor this file hands out (or uses as a parent) was
 * opened with O_NOFOLLOW beneath the caller's @dirfd and has passed
 * kcd_check(); the caller's @dirfd is trusted, and its owner is the owner
 * every file beneath must have.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kmirror/cachedir.h"
#include "cachedir_walk.h"

/* The owner of @dirfd, whom everything beneath must belong to. */
static int kcd_owner(int dirfd, struct stat *own)
{
	if (fstat(dirfd, own))
		return -errno;
	return S_ISDIR(own->st_mode) ? 0 : -ENOTDIR;
}

/* Is the open @fd of the type @want (S_IFREG, S_IFDIR, ...) and ours? */
int kcd_check(int fd, mode_t want, const struct stat *own)
{
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	if (S_ISLNK(st.st_mode))
		return -ELOOP;
	if ((st.st_mode & S_IFMT) != want)
		return want == S_IFDIR ? -ENOTDIR :
		       want == S_IFSOCK ? -ENOTSOCK : -EINVAL;
	if (want != S_IFDIR && st.st_nlink > 1)
		return -EMLINK;
	return st.st_uid == own->st_uid ? 0 : -EPERM;
}

/* One step down: the directory @name of @fd, opened O_PATH, checked. */
static int kcd_step(int fd, const char *name, const struct stat *own)
{
	int nfd = openat(fd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC), ret;

	if (nfd < 0)
		return -errno;
	ret = kcd_check(nfd, S_IFDIR, own);
	if (ret) {
		close(nfd);
		return ret;
	}
	return nfd;
}

void kcd_done(struct kcd_at *at)
{
	if (at->fd >= 0 && at->fd != at->base)
		close(at->fd);
	at->fd = -1;
}

/* Copy @path into at->buf; "", absolute and too long: refused. */
static int kcd_copy(struct kcd_at *at, const char *path)
{
	size_t len = strlen(path);

	if (!len)
		return -ENOENT;
	if (path[0] == '/')
		return -EXDEV;
	if (len >= sizeof(at->buf))
		return -ENAMETOOLONG;
	memcpy(at->buf, path, len + 1);
	return 0;
}

/*
 * Walk @path beneath @dirfd to the directory holding its last component:
 * at->fd (@dirfd itself, or a checked O_PATH descriptor: kcd_done()) and
 * at->name ("." for @dirfd itself).  0 or -errno.
 */
int kcd_walk(int dirfd, const char *path, struct kcd_at *at)
{
	char *p, *slash;
	int ret, fd;

	at->base = at->fd = dirfd;
	ret = kcd_owner(dirfd, &at->own);
	if (!ret)
		ret = kcd_copy(at, path);
	for (p = at->buf; !ret && (slash = strchr(p, '/')); p = slash + 1) {
		*slash = '\0';
		if (!strcmp(p, ".."))
			ret = -EXDEV;
		if (ret || !*p || !strcmp(p, "."))
			continue;
		fd = kcd_step(at->fd, p, &at->own);
		kcd_done(at);
		at->fd = fd;
		ret = fd < 0 ? fd : 0;
	}
	if (!ret && !strcmp(p, ".."))
		ret = -EXDEV;
	at->name = *p ? p : ".";
	if (ret)
		kcd_done(at);
	return ret;
}

/*
 * @err from opening @at: if something other than what was asked for
 * stands at the name (a symlink, a FIFO, a socket, a directory), say
 * that instead.
 */
static int kcd_why(const struct kcd_at *at, mode_t want, int err)
{
	struct stat st;

	if (err != -ELOOP && err != -ENXIO && err != -ENOTDIR &&
	    err != -EISDIR && err != -ENODEV && err != -EOPNOTSUPP)
		return err;
	if (fstatat(at->fd, at->name, &st, AT_SYMLINK_NOFOLLOW))
		return err;
	if (S_ISLNK(st.st_mode))
		return -ELOOP;
	if ((st.st_mode & S_IFMT) == want)
		return err;
	return want == S_IFDIR ? -ENOTDIR : -EINVAL;
}

/* When root made @fd, its owner is the cache directory's owner. */
int kcd_give(int fd, const struct stat *own)
{
	struct stat st;

	if (geteuid() != 0 || fstat(fd, &st) || st.st_uid == own->st_uid)
		return 0;
	return fchown(fd, own->st_uid, own->st_gid) ? -errno : 0;
}

/* openat() without following, blocking or taking a terminal. */
static int kcd_openat(const struct kcd_at *at, int flags, mode_t want)
{
	int fd = openat(at->fd, at->name, flags | O_NOFOLLOW | O_NONBLOCK |
			O_NOCTTY | O_CLOEXEC, 0600);

	return fd < 0 ? kcd_why(at, want, -errno) : fd;
}

/* Open, making the file if need be (O_CREAT); *@made: this call did. */
static int kcd_create(const struct kcd_at *at, int flags, mode_t want,
		      bool *made)
{
	int tries, fd;

	*made = false;
	if (!(flags & O_CREAT))
		return kcd_openat(at, flags, want);
	for (tries = 0; tries < 16; tries++) {
		fd = kcd_openat(at, flags | O_EXCL, want);
		if (fd >= 0)
			*made = true;
		if (fd != -EEXIST || (flags & O_EXCL))
			return fd;
		fd = kcd_openat(at, flags & ~O_CREAT, want);
		if (fd != -ENOENT)
			return fd;
	}
	return -EEXIST;
}

/* The checks on a descriptor just opened; closed if it fails them. */
int kcd_finish(const struct kcd_at *at, int fd, mode_t want, bool made,
	       int flags)
{
	int ret = made ? kcd_give(fd, &at->own) : 0;

	if (!ret)
		ret = kcd_check(fd, want, &at->own);
	if (!ret && (flags & O_TRUNC) && ftruncate(fd, 0))
		ret = -errno;
	if (!ret)
		return fd;
	close(fd);
	if (made)
		unlinkat(at->fd, at->name, want == S_IFDIR ? AT_REMOVEDIR : 0);
	return ret;
}

/* Open what @at names, as kmirror_cachedir_open() says. */
int kcd_open_at(const struct kcd_at *at, int flags, mode_t want)
{
	bool made;
	int fd = kcd_create(at, flags & ~O_TRUNC, want, &made);

	return fd < 0 ? fd : kcd_finish(at, fd, want, made, flags);
}

int kmirror_cachedir_root(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOCTTY | O_CLOEXEC);

	/* Searchable but not readable (0711): enough to reach names. */
	if (fd < 0 && errno == EACCES)
		fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int kmirror_cachedir_open(int dirfd, const char *path, int flags)
{
	struct kcd_at at;
	int ret = kcd_walk(dirfd, path, &at);

	if (ret)
		return ret;
	ret = kcd_open_at(&at, flags, flags & O_DIRECTORY ? S_IFDIR : S_IFREG);
	kcd_done(&at);
	return ret;
}

int kmirror_cachedir_mkdir(int dirfd, const char *path, bool *made)
{
	struct kcd_at at;
	bool new = false;
	int ret = kcd_walk(dirfd, path, &at);

	if (ret)
		return ret;
	if (!mkdirat(at.fd, at.name, 0700))
		new = true;
	else if (errno != EEXIST)
		ret = -errno;
	if (!ret)
		ret = kcd_openat(&at, O_RDONLY | O_DIRECTORY, S_IFDIR);
	if (ret >= 0)
		ret = kcd_finish(&at, ret, S_IFDIR, new, 0);
	kcd_done(&at);
	if (made && ret >= 0)
		*made = new;
	return ret;
}

bool kmirror_cachedir_refused(int err)
{
	return err == -ELOOP || err == -EINVAL || err == -ENOTDIR ||
	       err == -ENOTSOCK || err == -EMLINK || err == -EPERM ||
	       err == -EXDEV;
}

const char *kmirror_cachedir_strerror(int err)
{
	switch (err) {
	case -ELOOP:
		return "it is a symbolic link (not followed)";
	case -EINVAL:
		return "it is not a regular file (a FIFO, socket, device or directory)";
	case -ENOTDIR:
		return "it is not a directory";
	case -ENOTSOCK:
		return "it is not a socket";
	case -EMLINK:
		return "it has more than one name (a hard link)";
	case -EPERM:
		return "it belongs to another user than the cache directory";
	case -EXDEV:
		return "the path leads out of the cache directory";
	default:
		return strerror(-err);
	}
}
