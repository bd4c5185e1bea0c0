/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kmirror/cachedir.h - the one way into a cache directory.
 *
 * Whoever can write a cache directory can plant names in it: a symlink
 * to /etc/shadow where a temporary file will be written, a FIFO where a
 * file will be read, a hard link to another user's file.  Every file that
 * kmirror-cachefs, the kmirror CLI or libkmirror opens, makes, renames,
 * links, removes or reads in a cache directory goes through these calls,
 * which refuse all of that:
 *
 *  - @path is relative to a directory descriptor @dirfd that is already
 *    checked (the cache directory, or one opened through here), and is
 *    walked one component at a time without following a symlink, never
 *    above @dirfd ("..", absolute paths: -EXDEV);
 *  - nothing blocks: FIFOs, sockets and devices are refused after an
 *    open that cannot wait (O_NONBLOCK), or without being opened at all;
 *  - what is opened must be a regular file with one name (or a directory
 *    where one is asked for), owned by the owner of @dirfd;
 *  - new files and directories are 0600 and 0700; made by root, they are
 *    given to the owner of @dirfd, as if its owner had made them;
 *  - a file is replaced whole: written under a temporary name made with
 *    O_CREAT | O_EXCL (a stale one is removed first, never followed),
 *    then renamed over the old one.
 *
 * Every call returns 0 (or a descriptor) or a negative errno;
 * kmirror_cachedir_strerror() words the ones these checks add.
 */
#ifndef KMIRROR_CACHEDIR_H
#define KMIRROR_CACHEDIR_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/un.h>

#ifdef __cplusplus
extern "C" {
#endif

struct stat;

/*
 * The errors the checks add, beside those of the system calls:
 *   -ELOOP   a symbolic link stands at the name (never followed)
 *   -EINVAL  not a regular file (a FIFO, socket, device or directory)
 *   -ENOTDIR not a directory, where one is needed
 *   -EMLINK  a regular file with more than one name (a hard link)
 *   -EPERM   owned by another user than the cache directory
 *   -EXDEV   the path leaves the directory ("..", "/...")
 */
#define KMIRROR_CACHEDIR_NOT_REGULAR	EINVAL

/*
 * Open the directory @path that the user named as a cache directory (it
 * is theirs to name: a symlink to it is followed).  A descriptor or
 * -errno.  One that the caller may search but not read is opened O_PATH:
 * its names can be reached, it cannot be listed.
 */
int kmirror_cachedir_root(const char *path);

/*
 * Open @path beneath @dirfd with @flags (O_RDONLY, O_WRONLY, O_RDWR,
 * O_CREAT, O_EXCL, O_TRUNC, O_APPEND, O_DIRECTORY, O_PATH).  O_TRUNC is
 * applied only once the file passed its checks.  A descriptor, or -errno.
 */
int kmirror_cachedir_open(int dirfd, const char *path, int flags);

/*
 * Make the directory @path beneath @dirfd (0700) unless it exists, and
 * open it.  *@made (if not NULL) says whether it was made.  A descriptor
 * (O_RDONLY | O_DIRECTORY), or -errno (-ELOOP, -ENOTDIR, -EPERM ...).
 */
int kmirror_cachedir_mkdir(int dirfd, const char *path, bool *made);

/* lstat() of @path beneath @dirfd, the walk to it checked. */
int kmirror_cachedir_stat(int dirfd, const char *path, struct stat *st);

/* unlinkat() of @path beneath @dirfd (@flags: 0 or AT_REMOVEDIR). */
int kmirror_cachedir_unlink(int dirfd, const char *path, int flags);

/* renameat2() between two paths beneath checked directories. */
int kmirror_cachedir_rename(int olddirfd, const char *oldpath, int newdirfd,
			    const char *newpath, unsigned int flags);

/*
 * Give the open file @fd (an O_TMPFILE from kmirror_cachedir_tmpfile())
 * the name @path beneath @dirfd.  0 or -errno (-EEXIST: a name is there).
 */
int kmirror_cachedir_link(int fd, int dirfd, const char *path);

/*
 * A new file without a name in the directory @path beneath @dirfd
 * (O_TMPFILE, 0600, given to @dirfd's owner), opened with @flags
 * (O_RDWR or O_WRONLY).  A descriptor or -errno (-EOPNOTSUPP: the
 * filesystem has no O_TMPFILE).
 */
int kmirror_cachedir_tmpfile(int dirfd, const char *path, int flags);

/* A file being written under a temporary name, then renamed into place. */
struct kmirror_cachedir_temp {
	int	dirfd;
	int	fd;		/* O_RDWR, or -1 */
	char	name[256];	/* the file's name in @dirfd */
	char	tmp[264];	/* the temporary name */
};

/* kmirror_cachedir_commit() flags. */
#define KMIRROR_CACHEDIR_SYNC	1u	/* fsync before the rename */

/*
 * Start writing the file @name (one component) of @dirfd under the
 * temporary name @name@suffix (@suffix NULL: ".tmp"): whatever stands at
 * that name is removed, then a new file is made there.  t->fd or -errno.
 */
int kmirror_cachedir_temp(struct kmirror_cachedir_temp *t, int dirfd,
			  const char *name, const char *suffix);

/*
 * Close the temporary file (after fsync with KMIRROR_CACHEDIR_SYNC) and
 * rename it over @name; on failure it is removed.  0 or -errno.
 */
int kmirror_cachedir_commit(struct kmirror_cachedir_temp *t,
			    unsigned int flags);

/* Close and remove the temporary file. */
void kmirror_cachedir_abort(struct kmirror_cachedir_temp *t);

/*
 * Replace @name of @dirfd with @len bytes of @buf: temp (named
 * @name@suffix, @suffix NULL: ".tmp"), write, commit.
 */
int kmirror_cachedir_write(int dirfd, const char *name, const char *suffix,
			   const void *buf, size_t len, unsigned int flags);

/*
 * Read the regular file @path beneath @dirfd whole, if it has at most
 * @max bytes (else -EFBIG), into a malloc()ed buffer *@buf (NUL-terminated
 * past its *@len bytes).  0 or -errno.
 */
int kmirror_cachedir_read(int dirfd, const char *path, size_t max,
			  char **buf, size_t *len);

/*
 * The address of the socket @name in the directory @dirfd, whatever the
 * directory's path (its descriptor's name in /proc/self/fd): for bind()
 * by the daemon, which removed any other file at @name first.  0 or
 * -ENAMETOOLONG.
 */
int kmirror_cachedir_sockaddr(int dirfd, const char *name,
			      struct sockaddr_un *sa, socklen_t *len);

/*
 * Connect a new stream socket to the socket @name of @dirfd: it must be
 * a socket (not a symlink to one elsewhere) of @dirfd's owner.  A
 * descriptor or -errno.
 */
int kmirror_cachedir_connect(int dirfd, const char *name);
/*
 * The same, connect() waiting at most @ms milliseconds (0: as long as it
 * takes) while the listener's backlog is full: -ETIMEDOUT then.
 */
int kmirror_cachedir_connect_within(int dirfd, const char *name,
				    unsigned int ms);

/*
 * Was @err one of the checks' refusals (something planted or not ours
 * stands at the name), rather than a failure of the system?
 */
bool kmirror_cachedir_refused(int err);

/* Words for the errors above; strerror() for the others. */
const char *kmirror_cachedir_strerror(int err);

#ifdef __cplusplus
}
#endif

#endif /* KMIRROR_CACHEDIR_H */
