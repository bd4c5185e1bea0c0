// SPDX-License-Identifier: GPL-2.0-only
/*
 * The inputs of kmirror cache put, checked in full before the cache is
 * touched: a key cachefiles could not store must not leave a volume or
 * fan-out directory behind, and FILE must be a regular file itself.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache_put.h"
#include "cli.h"

/* --aux HEX: at most KM_AUX_MAX bytes (the xattr's aux data). */
static int km_put_aux(const char *hex, struct km_put *p)
{
	long n = km_parse_hex(hex, p->aux, sizeof(p->aux));

	if (n < 0)
		return km_error("--aux '%s': not hex data of at most %d bytes",
				hex, KM_AUX_MAX);
	p->auxlen = (size_t)n;
	return KM_EXIT_OK;
}

/* Sort @argv into the four positional arguments and --aux. */
static int km_put_split(int argc, char **argv, const char **pos,
			struct km_put *p)
{
	int i, n = 0, ret;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--aux") && i + 1 < argc) {
			ret = km_put_aux(argv[++i], p);
			if (ret)
				return ret;
		} else if (n < 4 && (argv[i][0] != '-' || !argv[i][1])) {
			pos[n++] = argv[i];
		} else {
			return km_error("unexpected argument '%s' (see --help)",
					argv[i]);
		}
	}
	if (n != 4)
		return km_error("expected DIR VOLUME_KEY HEX FILE (see --help)");
	return KM_EXIT_OK;
}

int km_put_parse(int argc, char **argv, struct km_put *p)
{
	const char *pos[4];
	int ret;

	memset(p, 0, sizeof(*p));
	ret = km_put_split(argc, argv, pos, p);
	if (ret)
		return ret;
	p->dir = pos[0];
	p->vkey = pos[1];
	p->file = pos[3];
	ret = km_check_volume_key(p->vkey, true);
	if (ret)
		return ret;
	return km_parse_cookie_key("", pos[2], p->key, &p->klen, p->name,
				   sizeof(p->name));
}

/*
 * Open FILE into *@fd, its size in *@size: a regular file itself, never
 * a symlink, FIFO or device.  KM_EXIT_OK, or the error printed.
 */
int km_put_open(const char *file, int *fd, int64_t *size)
{
	struct stat st;
	int ret;

	/* O_NONBLOCK: a FIFO must not hang us before fstat() says what it is. */
	*fd = open(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY |
		   O_CLOEXEC);
	if (*fd < 0 && errno == ELOOP)
		return km_error("'%s' is a symbolic link: not followed", file);
	if (*fd < 0)
		return km_error("cannot read '%s': %s", file, strerror(errno));
	if (fstat(*fd, &st))
		ret = km_error("cannot read '%s': %s", file, strerror(errno));
	else if (!S_ISREG(st.st_mode))
		ret = km_error("'%s' is not a regular file", file);
	else
		ret = KM_EXIT_OK;
	if (ret)
		close(*fd);
	else
		*size = st.st_size;
	return ret;
}
