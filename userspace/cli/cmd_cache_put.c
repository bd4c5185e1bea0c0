// SPDX-License-Identifier: GPL-2.0-only
/*
 * kmirror cache put DIR VOLUME_KEY HEX FILE [--aux HEX]: pre-seed a
 * cachefiles cache with one object, through libkmirror's fscache API.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache_put.h"
#include "cli.h"
#include "kmirror/cache.h"
#include "kmirror/cachedir.h"
#include "kmirror/fscache.h"

static const char km_cache_put_usage[] =
	"usage: kmirror cache put DIR VOLUME_KEY HEX FILE [--aux HEX]\n"
	"Store the contents of FILE as the data object of the cookie with the\n"
	"hex index key HEX in volume VOLUME_KEY of the cachefiles-layout cache\n"
	"DIR (an empty DIR becomes a new cache), with aux (coherency) data HEX\n"
	"(default none) and FILE's size as the object size.  The object is\n"
	"what Linux's cachefiles writes: a kernel that binds DIR serves the\n"
	"netfs file from it when the netfs acquires the same key with the same\n"
	"aux data and size (for 9p: the host inode number as 8 little-endian\n"
	"bytes, aux the 4-byte little-endian qid.version).  An object already\n"
	"there for the key is replaced.\n"
	"VOLUME_KEY: 1 to 254 bytes, no '/'; HEX: 1 to 252 bytes whose cooked\n"
	"name fits a file name; --aux: at most 255 bytes.  FILE must be a\n"
	"regular file itself (not a symlink, FIFO or device); the size it has\n"
	"when opened is stored, no more.\n"
	"Exit status 1: the cache refused the object; 2: bad arguments.\n";

/* Copy @size bytes of @fd into the cookie's object; 0 or -errno. */
static int km_put_data(struct fscache_cookie *c, int fd, int64_t size)
{
	struct fscache_cache_resources cres;
	static char buf[1 << 16];
	int64_t pos = 0;
	size_t want;
	ssize_t n, w;
	int ret;

	ret = fscache_begin_write_operation(&cres, c);
	if (ret)
		return ret;
	/* The size fstat() gave, no more: a file growing meanwhile is cut. */
	while (!ret && pos < size) {
		want = size - pos < (int64_t)sizeof(buf) ? (size_t)(size - pos) :
							   sizeof(buf);
		n = read(fd, buf, want);
		if (n <= 0) {
			ret = n < 0 ? -errno : -EIO;	/* shrank: not FILE */
			break;
		}
		w = fscache_write(&cres, pos, buf, n);
		if (w != n)
			ret = w < 0 ? (int)w : -EIO;
		pos += n;
	}
	fscache_end_operation(&cres);
	return ret;
}

/*
 * Delete the object file of @p's key, if any.  Only for an object that the
 * library refused to look up (below): the cache is offline, nobody else
 * uses it.
 */
static void km_put_remove_object(const struct km_put *p)
{
	char rel[KMIRROR_CACHE_PATH_SIZE];
	int dfd;

	if (kmirror_cache_object_path(p->vkey, p->key, p->klen, rel,
				      sizeof(rel)) < 0)
		return;
	dfd = kmirror_cachedir_root(p->dir);
	if (dfd < 0)
		return;
	kmirror_cachedir_unlink(dfd, rel, 0);
	close(dfd);
}

/*
 * Acquire and use the cookie of @p's key.  An object whose xattr the
 * kernel's check cannot even read (stored aux data of another length:
 * -ERANGE, see docs/kernel-differences.md) makes the cookie fail for good,
 * as in the kernel; the tool wants it replaced, so it deletes that object
 * and tries once more.
 */
static struct fscache_cookie *km_put_use(struct fscache_volume *v,
					 const struct km_put *p, int64_t size,
					 int *ret)
{
	const void *aux = p->auxlen ? p->aux : NULL;
	struct fscache_cookie *c;
	int try;

	for (try = 0; try < 2; try++) {
		c = fscache_acquire_cookie(v, 0, p->key, p->klen, aux,
					   p->auxlen, size);
		if (!c) {
			*ret = -errno;
			return NULL;
		}
		/* As in the kernel, a use counts even when it cannot cache. */
		*ret = fscache_use_cookie(c, true);
		if (!*ret || try)
			return c;
		fscache_unuse_cookie(c, NULL, NULL);
		fscache_relinquish_cookie(c, false);
		km_put_remove_object(p);
	}
	return c;
}

/* Invalidate to the new aux data and size, write, relinquish. */
static int km_put_object(struct fscache_volume *v, const struct km_put *p,
			 int fd, int64_t size)
{
	const void *aux = p->auxlen ? p->aux : NULL;
	struct fscache_cookie *c;
	int ret;

	c = km_put_use(v, p, size, &ret);
	if (!c)
		return ret;
	if (!ret) {
		fscache_invalidate(c, aux, size, 0);
		ret = km_put_data(c, fd, size);
	}
	fscache_unuse_cookie(c, aux, &size);
	fscache_relinquish_cookie(c, ret != 0);
	return ret;
}

static int km_put(const struct km_put *p, int fd, int64_t size)
{
	struct fscache_cache *cache;
	struct fscache_volume *v;
	int ret;

	ret = fscache_cache_open(p->dir, NULL, &cache);
	if (ret)
		return km_error("cannot open cache '%s': %s", p->dir,
				kmirror_cachedir_strerror(ret));
	v = fscache_acquire_volume(cache, p->vkey, NULL, 0);
	if (!v) {
		ret = errno;
		fscache_cache_close(cache);
		return km_error("volume '%s': %s", p->vkey, strerror(ret));
	}
	ret = km_put_object(v, p, fd, size);
	fscache_relinquish_volume(v, NULL, false);
	fscache_cache_close(cache);
	if (ret)
		return km_fail("cannot store '%s' in '%s': %s", p->file, p->dir,
			       strerror(-ret));
	return KM_EXIT_OK;
}

int km_cache_put(int argc, char **argv)
{
	struct km_put p;
	int64_t size = 0;
	int fd = -1, ret;

	if (argc >= 2 && km_is_help(argv[1])) {
		fputs(km_cache_put_usage, stdout);
		return KM_EXIT_OK;
	}
	ret = km_put_parse(argc, argv, &p);
	if (!ret)
		ret = km_put_open(p.file, &fd, &size);
	if (ret)
		return ret;
	ret = km_put(&p, fd, size);
	close(fd);
	return ret;
}
