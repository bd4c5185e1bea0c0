// SPDX-License-Identifier: GPL-2.0-only
/*
 * Bounded readers for what the CLI reads besides its arguments: stdin
 * lines and small files under a directory someone else may control.
 * Each stops at its bound instead of growing, and tells a NUL byte, a
 * symlink or a FIFO from good input instead of cutting or waiting.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/*
 * Read one line of @in into @buf (@size bytes, NUL-terminated, without
 * its newline or a final '\r').  1: a line; 0: end of input; -E2BIG: the
 * line does not fit (reading stops there, so /dev/zero cannot grow us);
 * -EILSEQ: it holds a NUL byte, which would cut it short unseen; -EIO:
 * a read error.
 */
int km_read_line(FILE *in, char *buf, size_t size, size_t *len)
{
	size_t n = 0;
	bool nul = false;
	int c;

	while ((c = getc(in)) != EOF && c != '\n') {
		if (n + 1 >= size)
			return -E2BIG;
		nul |= !c;
		buf[n++] = (char)c;
	}
	if (ferror(in))
		return -EIO;
	if (c == EOF && !n)
		return 0;
	if (n && buf[n - 1] == '\r')
		n--;
	buf[n] = '\0';
	*len = n;
	return nul ? -EILSEQ : 1;
}

/* Read all of @fd into @buf (@size bytes); -EFBIG if there is more. */
static int km_read_all(int fd, char *buf, size_t size, size_t *len)
{
	size_t n = 0;
	ssize_t got;
	char more;

	while (n < size) {
		got = read(fd, buf + n, size - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -errno;
		if (!got)
			break;
		n += (size_t)got;
	}
	/* A file that grew, or lied about its size (procfs-like): too big. */
	if (n == size && read(fd, &more, 1) > 0)
		return -EFBIG;
	*len = n;
	return 0;
}

/*
 * Read the file @name of the directory @dfd into @buf (@size bytes), its
 * length in *@len.  Opened without following a symlink, waiting on a FIFO
 * or taking a terminal; read only if it is a regular file of at most
 * @size bytes.  0, or -ELOOP (a symlink), -EINVAL (not a regular file),
 * -EFBIG (larger than @size), or the errno of open(2) or read(2).
 */
int km_read_file_at(int dfd, const char *name, char *buf, size_t size,
		    size_t *len)
{
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
			O_NOCTTY | O_CLOEXEC);
	struct stat st;
	int ret;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st))
		ret = -errno;
	else if (!S_ISREG(st.st_mode))
		ret = -EINVAL;
	else if ((uint64_t)st.st_size > size)
		ret = -EFBIG;
	else
		ret = km_read_all(fd, buf, size, len);
	close(fd);
	return ret;
}
