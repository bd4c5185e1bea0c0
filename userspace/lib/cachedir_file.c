// SPDX-License-Identifier: GPL-2.0-only
/*
 * kmirror/cachedir.h beyond opening: names changed (stat, unlink,
 * rename, link), files made without a name or under a temporary one and
 * renamed into place, files read whole, the control socket.  Every path
 * is walked by cachedir.c's kcd_walk().
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "kmirror/cachedir.h"
#include "cachedir_walk.h"

int kmirror_cachedir_stat(int dirfd, const char *path, struct stat *st)
{
	struct kcd_at at;
	int ret = kcd_walk(dirfd, path, &at);

	if (ret)
		return ret;
	if (fstatat(at.fd, at.name, st, AT_SYMLINK_NOFOLLOW))
		ret = -errno;
	kcd_done(&at);
	return ret;
}

int kmirror_cachedir_unlink(int dirfd, const char *path, int flags)
{
	struct kcd_at at;
	int ret = kcd_walk(dirfd, path, &at);

	if (ret)
		return ret;
	if (unlinkat(at.fd, at.name, flags & AT_REMOVEDIR))
		ret = -errno;
	kcd_done(&at);
	return ret;
}

int kmirror_cachedir_rename(int olddirfd, const char *oldpath, int newdirfd,
			    const char *newpath, unsigned int flags)
{
	struct kcd_at from, to;
	int ret = kcd_walk(olddirfd, oldpath, &from);

	if (ret)
		return ret;
	ret = kcd_walk(newdirfd, newpath, &to);
	if (!ret && renameat2(from.fd, from.name, to.fd, to.name, flags))
		ret = -errno;
	kcd_done(&to);
	kcd_done(&from);
	return ret;
}

int kmirror_cachedir_link(int fd, int dirfd, const char *path)
{
	char proc[64];
	struct kcd_at at;
	int ret = kcd_walk(dirfd, path, &at);

	if (ret)
		return ret;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (linkat(AT_FDCWD, proc, at.fd, at.name, AT_SYMLINK_FOLLOW) &&
	    (errno == EEXIST ||
	     linkat(fd, "", at.fd, at.name, AT_EMPTY_PATH)))
		ret = -errno;
	kcd_done(&at);
	return ret;
}

int kmirror_cachedir_tmpfile(int dirfd, const char *path, int flags)
{
	struct stat own;
	int dfd, fd, ret;

	if (fstat(dirfd, &own))
		return -errno;
	dfd = kmirror_cachedir_open(dirfd, path, O_PATH | O_DIRECTORY);
	if (dfd < 0)
		return dfd;
	fd = openat(dfd, ".", O_TMPFILE | flags | O_CLOEXEC, 0600);
	ret = fd < 0 ? -errno : kcd_give(fd, &own);
	close(dfd);
	if (ret && fd >= 0)
		close(fd);
	return ret ? ret : fd;
}

/* ---- whole files: temporaries, reads --------------------------------- */

int kmirror_cachedir_temp(struct kmirror_cachedir_temp *t, int dirfd,
			  const char *name, const char *suffix)
{
	int n, ret;

	t->dirfd = dirfd;
	t->fd = -1;
	if (strchr(name, '/'))
		return -EXDEV;
	n = snprintf(t->tmp, sizeof(t->tmp), "%s%s", name,
		     suffix ? suffix : ".tmp");
	if ((size_t)snprintf(t->name, sizeof(t->name), "%s", name) >=
	    sizeof(t->name) || n < 0 || (size_t)n >= sizeof(t->tmp))
		return -ENAMETOOLONG;
	/* A stale one, or anything planted by its name, goes unfollowed. */
	ret = kmirror_cachedir_unlink(dirfd, t->tmp, 0);
	if (ret && ret != -ENOENT)
		return ret;
	t->fd = kmirror_cachedir_open(dirfd, t->tmp,
				      O_RDWR | O_CREAT | O_EXCL);
	return t->fd;
}

int kmirror_cachedir_commit(struct kmirror_cachedir_temp *t,
			    unsigned int flags)
{
	int ret = 0;

	if (t->fd < 0)
		return -EBADF;
	if ((flags & KMIRROR_CACHEDIR_SYNC) && fsync(t->fd))
		ret = -errno;
	if (close(t->fd) && !ret)
		ret = -errno;
	t->fd = -1;
	if (!ret)
		ret = kmirror_cachedir_rename(t->dirfd, t->tmp, t->dirfd,
					      t->name, 0);
	if (ret)
		kmirror_cachedir_unlink(t->dirfd, t->tmp, 0);
	return ret;
}

void kmirror_cachedir_abort(struct kmirror_cachedir_temp *t)
{
	if (t->fd < 0)
		return;
	close(t->fd);
	t->fd = -1;
	kmirror_cachedir_unlink(t->dirfd, t->tmp, 0);
}

static int kcd_write_all(int fd, const char *p, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		p += n;
		len -= n;
	}
	return 0;
}

int kmirror_cachedir_write(int dirfd, const char *name, const char *suffix,
			   const void *buf, size_t len, unsigned int flags)
{
	struct kmirror_cachedir_temp t;
	int ret = kmirror_cachedir_temp(&t, dirfd, name, suffix);

	if (ret < 0)
		return ret;
	ret = kcd_write_all(t.fd, buf, len);
	if (ret) {
		kmirror_cachedir_abort(&t);
		return ret;
	}
	return kmirror_cachedir_commit(&t, flags);
}

/* Read @len bytes of @fd from its start into @buf; short: -EIO. */
static int kcd_read_all(int fd, char *buf, size_t len)
{
	size_t got = 0;
	ssize_t n;

	while (got < len) {
		n = pread(fd, buf + got, len - got, got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		got += n;
	}
	return 0;
}

int kmirror_cachedir_read(int dirfd, const char *path, size_t max,
			  char **buf, size_t *len)
{
	int fd = kmirror_cachedir_open(dirfd, path, O_RDONLY), ret;
	struct stat st;
	char *b = NULL;

	if (fd < 0)
		return fd;
	if (fstat(fd, &st))
		ret = -errno;
	else if ((unsigned long long)st.st_size > max)
		ret = -EFBIG;
	else if (!(b = malloc(st.st_size + 1)))
		ret = -ENOMEM;
	else
		ret = kcd_read_all(fd, b, st.st_size);
	close(fd);
	if (ret) {
		free(b);
		return ret;
	}
	b[st.st_size] = '\0';
	*buf = b;
	*len = st.st_size;
	return 0;
}

/* ---- the control socket ---------------------------------------------- */

/* The address "/proc/self/fd/@fd[/@name]": the inode @fd holds, or
 * @name in that directory, whatever path leads there. */
static int kcd_proc_addr(int fd, const char *name, struct sockaddr_un *sa,
			 socklen_t *len)
{
	int n;

	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	n = snprintf(sa->sun_path, sizeof(sa->sun_path), "/proc/self/fd/%d%s%s",
		     fd, name ? "/" : "", name ? name : "");
	if (n < 0 || (size_t)n >= sizeof(sa->sun_path))
		return -ENAMETOOLONG;
	*len = offsetof(struct sockaddr_un, sun_path) + n + 1;
	return 0;
}

int kmirror_cachedir_sockaddr(int dirfd, const char *name,
			      struct sockaddr_un *sa, socklen_t *len)
{
	if (strchr(name, '/') || !strcmp(name, "..") || !strcmp(name, "."))
		return -EXDEV;
	return kcd_proc_addr(dirfd, name, sa, len);
}

int kmirror_cachedir_connect(int dirfd, const char *name)
{
	return kmirror_cachedir_connect_within(dirfd, name, 0);
}

/* connect() of a Unix socket waits this much for room (SO_SNDTIMEO). */
static void kcd_connect_bound(int fd, unsigned int ms)
{
	struct timeval tv = { ms / 1000, ms % 1000 * 1000 };

	if (ms)
		setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

int kmirror_cachedir_connect_within(int dirfd, const char *name,
				    unsigned int ms)
{
	struct sockaddr_un sa;
	struct kcd_at at;
	socklen_t len;
	int pfd, fd, ret = kcd_walk(dirfd, name, &at);

	if (ret)
		return ret;
	pfd = kcd_open_at(&at, O_PATH, S_IFSOCK);
	kcd_done(&at);
	if (pfd < 0)
		return pfd;
	ret = kcd_proc_addr(pfd, NULL, &sa, &len);
	fd = ret ? -1 : socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (!ret && fd < 0)
		ret = -errno;
	if (!ret)
		kcd_connect_bound(fd, ms);
	if (!ret && connect(fd, (struct sockaddr *)&sa, len))
		ret = errno == EAGAIN ? -ETIMEDOUT : -errno;
	close(pfd);
	if (ret && fd >= 0)
		close(fd);
	return ret ? ret : fd;
}
