// SPDX-License-Identifier: GPL-2.0-only
/*
 * Bounded readers for what the CLI reads besides its arguments: stdin
 * lines (files in a cache directory are read through
 * kmirror_cachedir_read()).  Each stops at its bound instead of growing,
 * and tells a NUL byte from good input instead of cutting.
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
