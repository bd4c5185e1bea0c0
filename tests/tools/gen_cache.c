// SPDX-License-Identifier: GPL-2.0-only
/*
 * gen_cache: build a cachefiles-layout cache of N data objects, fast, for
 * the scale benchmarks.
 *
 *   gen_cache [--bytes B] [--sparse] [--key-len L] [--seed S] DIR VOLUME N
 *
 * DIR is made a cache (or must be one) and VOLUME a volume in it, both by
 * libkmirror itself (fscache_cache_open(), fscache_acquire_volume()), so
 * the cache/ and graveyard/ directories, the volume directory, its xattr
 * and its 256 fan-outs are exactly what the library and the kernel make.
 * The objects are then written directly, each where
 * kmirror_cache_object_path() puts its key, with the xattr the core's
 * kmc_xattr_encode() gives a data object of B bytes (content "all", 8
 * bytes of aux data): the same bytes a relinquished cookie leaves, but
 * without a cookie's state machine, about 20x faster.
 *
 * Keys are L bytes (default 8): the object number plus S, little-endian,
 * then zeros.  Each object gets B bytes of data (default 4096), or with
 * --sparse only its size.  Atimes are one second apart in object order,
 * oldest first, so that least-recently-used order is defined.
 * Prints objects/s and bytes on stderr; exit 1 with a message on error.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "kcompat.h"
#include "kmc_xattr.h"
#include "kmirror/cache.h"
#include "kmirror/fscache.h"

#define XATTR_NAME	"user.CacheFiles.cache"

struct gen {
	const char	*dir, *volume;
	unsigned long	n, bytes, seed;
	unsigned int	key_len;
	bool		sparse;
	int		dir_fd;
	char		*data;
};

static int die(const char *what, int err)
{
	fprintf(stderr, "gen_cache: %s: %s\n", what, strerror(err));
	exit(1);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The cache and the volume, as libkmirror makes them. */
static void gen_volume(struct gen *g)
{
	struct fscache_cache_params p = { .flags = FSCACHE_CACHE_NO_REAPER };
	struct fscache_volume *v;
	struct fscache_cache *c;
	int ret;

	if (mkdir(g->dir, 0700) && errno != EEXIST)
		die(g->dir, errno);
	ret = fscache_cache_open(g->dir, &p, &c);
	if (ret)
		die(g->dir, -ret);
	v = fscache_acquire_volume(c, g->volume, NULL, 0);
	if (!v)
		die(g->volume, errno);
	fscache_relinquish_volume(v, NULL, false);
	fscache_cache_close(c);
	g->dir_fd = open(g->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (g->dir_fd < 0)
		die(g->dir, errno);
}

static void gen_object(struct gen *g, unsigned long i)
{
	char path[KMIRROR_CACHE_PATH_SIZE];
	uint64_t id = i + g->seed, aux = i;
	struct kmc_xattr x = {
		.object_size = g->bytes, .type = 1, .content = 2,
		.aux = (const u8 *)&aux, .aux_len = sizeof(aux),
	};
	struct timespec t[2] = { { 1000000000 + i, 0 },
				 { 1000000000 + i, 0 } };
	u8 key[255] = { 0 }, xv[64];
	int fd, len, ret;

	memcpy(key, &id, g->key_len < 8 ? g->key_len : 8);
	ret = kmirror_cache_object_path(g->volume, key, g->key_len, path,
					sizeof(path));
	if (ret < 0)
		die("object path", -ret);
	len = kmc_xattr_encode(&x, xv, sizeof(xv));
	if (len < 0)
		die("xattr", -len);
	fd = openat(g->dir_fd, path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
		    0600);
	if (fd < 0)
		die(path, errno);
	if (g->sparse ? ftruncate(fd, g->bytes) :
	    pwrite(fd, g->data, g->bytes, 0) != (ssize_t)g->bytes)
		die(path, errno ? errno : EIO);
	if (fsetxattr(fd, XATTR_NAME, xv, len, 0) || futimens(fd, t) ||
	    close(fd))
		die(path, errno);
}

static void usage(void)
{
	fprintf(stderr, "usage: gen_cache [--bytes B] [--sparse] "
		"[--key-len L] [--seed S] DIR VOLUME N\n");
	exit(1);
}

int main(int argc, char **argv)
{
	struct gen g = { .bytes = 4096, .key_len = 8 };
	unsigned long i;
	double t0, t;
	int a;

	for (a = 1; a < argc && !strncmp(argv[a], "--", 2); a++) {
		if (!strcmp(argv[a], "--sparse"))
			g.sparse = true;
		else if (a + 1 == argc)
			usage();
		else if (!strcmp(argv[a], "--bytes"))
			g.bytes = strtoul(argv[++a], NULL, 0);
		else if (!strcmp(argv[a], "--key-len"))
			g.key_len = strtoul(argv[++a], NULL, 0);
		else if (!strcmp(argv[a], "--seed"))
			g.seed = strtoul(argv[++a], NULL, 0);
		else
			usage();
	}
	if (argc - a != 3 || !g.key_len || g.key_len > 255)
		usage();
	g.dir = argv[a];
	g.volume = argv[a + 1];
	g.n = strtoul(argv[a + 2], NULL, 0);
	g.data = malloc(g.bytes ? g.bytes : 1);
	if (!g.data)
		die("data", ENOMEM);
	memset(g.data, 0x5a, g.bytes);
	gen_volume(&g);
	t0 = now_s();
	for (i = 0; i < g.n; i++)
		gen_object(&g, i);
	t = now_s() - t0;
	fprintf(stderr, "gen_cache: %lu objects of %lu bytes%s in %.1f s "
		"(%.0f objects/s)\n", g.n, g.bytes, g.sparse ? " (sparse)" : "",
		t, t > 0 ? g.n / t : 0);
	free(g.data);
	close(g.dir_fd);
	return 0;
}
