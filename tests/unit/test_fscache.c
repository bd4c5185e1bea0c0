// SPDX-License-Identifier: GPL-2.0-only
/*
 * Specification of the userspace fscache API (kmirror/fscache.h): the
 * kernel's netfs API over a cachefiles-layout directory.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <unistd.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <cmocka.h>

#include "kmirror/cache.h"
#include "kmirror/fscache.h"
#include "kcompat/slab.h"
#include "../../userspace/lib/internal.h"

#define XATTR "user.CacheFiles.cache"

struct env {
	char dir[64];
	struct fscache_cache *cache;
	long live;
};

static const struct fscache_cache_params test_params = {
	.lru_timeout_ms = 0,
	.flags = FSCACHE_CACHE_NO_REAPER,
};

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	return remove(path);
}

static void rm_rf(const char *dir)
{
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static int setup(void **state)
{
	struct env *e = calloc(1, sizeof(*e));

	e->live = kmc_alloc_live();
	strcpy(e->dir, "/tmp/kmf-test-XXXXXX");
	assert_non_null(mkdtemp(e->dir));
	assert_int_equal(fscache_cache_open(e->dir, &test_params, &e->cache),
			 0);
	*state = e;
	return 0;
}

/* Teardown checks the allocation counter is back where it started. */
static int teardown(void **state)
{
	struct env *e = *state;

	fscache_cache_close(e->cache);
	assert_int_equal(kmc_alloc_live(), e->live);
	rm_rf(e->dir);
	free(e);
	return 0;
}

static void reopen(struct env *e)
{
	fscache_cache_close(e->cache);
	assert_int_equal(fscache_cache_open(e->dir, &test_params, &e->cache),
			 0);
}

static ssize_t get_xattr(const char *dir, const char *rel, void *buf,
			 size_t size)
{
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	return getxattr(path, XATTR, buf, size);
}

static bool exists(const char *dir, const char *rel)
{
	char path[1024];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	return lstat(path, &st) == 0;
}

/* Where the object @name of volume @vol is: "cache/I<vol>/@xx/<name>". */
static const char *obj(const char *dir, const char *vol, const char *name)
{
	static char rel[8][300];
	static unsigned int slot;
	char *r = rel[slot++ % 8];
	unsigned int i;

	for (i = 0; i < 256; i++) {
		snprintf(r, 300, "cache/I%s/@%02x/%s", vol, i, name);
		if (exists(dir, r))
			return r;
	}
	snprintf(r, 300, "cache/I%s/@--/%s", vol, name);
	return r;
}

static off_t file_size(const char *dir, const char *rel)
{
	char path[1024];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	return lstat(path, &st) ? -1 : st.st_size;
}

static int count_entries(const char *dir, const char *rel)
{
	char path[1024];
	struct dirent *de;
	int n = 0;
	DIR *d;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	d = opendir(path);
	if (!d)
		return -1;
	while ((de = readdir(d)))
		n += de->d_name[0] != '.';
	closedir(d);
	return n;
}

/* Entries beside that object in its fan-out directory, itself included. */
static int count_in_fan(const char *dir, const char *vol, const char *name)
{
	char fan[300];

	strcpy(fan, obj(dir, vol, name));
	*strrchr(fan, '/') = 0;
	return count_entries(dir, fan);
}

static uint64_t be64(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

/* Write @len bytes of @data at @pos through a write operation. */
static void put_data(struct fscache_cookie *c, int64_t pos, const void *data,
		     size_t len)
{
	struct fscache_cache_resources cres;

	assert_int_equal(fscache_begin_write_operation(&cres, c), 0);
	assert_int_equal(fscache_write(&cres, pos, data, len), (ssize_t)len);
	fscache_end_operation(&cres);
}

static ssize_t get_data(struct fscache_cookie *c, int64_t pos, void *buf,
			size_t len, enum fscache_read_hole hole)
{
	struct fscache_cache_resources cres;
	ssize_t n;

	if (fscache_begin_read_operation(&cres, c))
		return -ENOBUFS;
	n = fscache_read(&cres, pos, buf, len, hole);
	fscache_end_operation(&cres);
	return n;
}

/* The 9p-style key of the kernel fixture: an inode number, LE. */
static void ino_key(uint64_t ino, uint8_t key[8])
{
	int i;

	for (i = 0; i < 8; i++)
		key[i] = ino >> (8 * i);
}

/* An empty directory becomes a cache: cache/ and graveyard/, 0700. */
static void test_open_new_cache(void **state)
{
	struct env *e = *state;
	char path[1024];
	struct stat st;

	snprintf(path, sizeof(path), "%s/cache", e->dir);
	assert_int_equal(stat(path, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(st.st_mode & 0777, 0700);
	assert_true(exists(e->dir, "graveyard"));
}

/* A directory that is not a cachefiles cache is refused. */
static void test_open_refuses_foreign_dir(void **state)
{
	struct env *e = *state;
	struct fscache_cache *c = NULL;
	char dir[600], path[700];
	int fd;

	snprintf(dir, sizeof(dir), "%s/graveyard/foreign", e->dir);
	assert_int_equal(mkdir(dir, 0700), 0);
	snprintf(path, sizeof(path), "%s/notes.txt", dir);
	fd = open(path, O_CREAT | O_WRONLY, 0600);
	close(fd);
	assert_int_equal(fscache_cache_open(dir, NULL, &c), -ENOTDIR);
	unlink(path);
	snprintf(path, sizeof(path), "%s/cache", dir);
	fd = open(path, O_CREAT | O_WRONLY, 0600);
	close(fd);
	assert_int_equal(fscache_cache_open(dir, NULL, &c), -ENOTDIR);
	assert_int_equal(fscache_cache_open("/nonexistent/kmf", NULL, &c),
			 -ENOENT);
	assert_int_equal(fscache_cache_open(NULL, NULL, &c), -EINVAL);
	assert_null(c);
}

/*
 * A volume is cache/I<key> with the volume xattr (be32 0 + coherency) and
 * the 256 fan-out directories @00..@ff, as cachefiles_acquire_volume().
 */
static void test_volume_layout(void **state)
{
	struct env *e = *state;
	struct fscache_volume *v;
	uint8_t buf[64];

	v = fscache_acquire_volume(e->cache, "9p,src,", "coh", 3);
	assert_non_null(v);
	assert_int_equal(get_xattr(e->dir, "cache/I9p,src,", buf, sizeof(buf)),
			 7);
	assert_memory_equal(buf, "\0\0\0\0coh", 7);
	assert_int_equal(count_entries(e->dir, "cache/I9p,src,"), 256);
	assert_true(exists(e->dir, "cache/I9p,src,/@00"));
	assert_true(exists(e->dir, "cache/I9p,src,/@ff"));
	fscache_relinquish_volume(v, NULL, false);
}

/* The same volume key twice in one cache: EBUSY, until relinquished. */
static void test_volume_duplicate(void **state)
{
	struct env *e = *state;
	struct fscache_volume *v, *w;

	v = fscache_acquire_volume(e->cache, "afs,x", NULL, 0);
	assert_non_null(v);
	errno = 0;
	assert_null(fscache_acquire_volume(e->cache, "afs,x", NULL, 0));
	assert_int_equal(errno, EBUSY);
	fscache_relinquish_volume(v, NULL, false);
	w = fscache_acquire_volume(e->cache, "afs,x", NULL, 0);
	assert_non_null(w);
	fscache_relinquish_volume(w, NULL, false);
}

/* Keys cachefiles cannot name, and oversized coherency, are refused. */
static void test_volume_bad_keys(void **state)
{
	struct env *e = *state;
	char key[300];

	errno = 0;
	assert_null(fscache_acquire_volume(e->cache, "a/b", NULL, 0));
	assert_int_equal(errno, EACCES);
	memset(key, 'k', sizeof(key));
	key[255] = 0;
	assert_null(fscache_acquire_volume(e->cache, key, NULL, 0));
	assert_int_equal(errno, ENAMETOOLONG);
	key[299] = 0;
	assert_null(fscache_acquire_volume(e->cache, key, NULL, 0));
	assert_int_equal(errno, ENAMETOOLONG);
	assert_null(fscache_acquire_volume(e->cache, "ok", key, 256));
	assert_int_equal(errno, EMSGSIZE);
	assert_null(fscache_acquire_volume(e->cache, NULL, NULL, 0));
	assert_int_equal(errno, EINVAL);
	assert_null(fscache_acquire_volume(NULL, "ok", NULL, 0));
	assert_int_equal(errno, EINVAL);
	fscache_relinquish_volume(NULL, NULL, false);
}

/*
 * Different coherency data on acquire: the old volume directory is
 * buried in the graveyard with its objects and a fresh one is made.
 */
static void test_volume_coherency_stale(void **state)
{
	struct env *e = *state;
	struct fscache_volume *v;
	struct fscache_cookie *c;
	uint8_t buf[16];

	v = fscache_acquire_volume(e->cache, "nfs,1", "A", 1);
	c = fscache_acquire_cookie(v, 0, "key1", 4, NULL, 0, 5);
	assert_int_equal(fscache_use_cookie(c, true), 0);
	put_data(c, 0, "hello", 5);
	fscache_unuse_cookie(c, NULL, NULL);
	fscache_relinquish_cookie(c, false);
	fscache_relinquish_volume(v, NULL, false);
	assert_int_equal(count_entries(e->dir, "graveyard"), 0);

	v = fscache_acquire_volume(e->cache, "nfs,1", "B", 1);
	assert_non_null(v);
	assert_int_equal(count_entries(e->dir, "graveyard"), 1);
	assert_int_equal(get_xattr(e->dir, "cache/Infs,1", buf, sizeof(buf)),
			 5);
	assert_int_equal(buf[4], 'B');
	assert_int_equal(count_entries(e->dir, "cache/Infs,1"), 256);
	fscache_relinquish_volume(v, NULL, false);
}

/* Coherency data given at relinquish is what the next acquire checks. */
static void test_volume_relinquish_coherency(void **state)
{
	struct env *e = *state;
	struct fscache_volume *v;
	uint8_t buf[16];

	v = fscache_acquire_volume(e->cache, "cifs,s", "AAAA", 4);
	fscache_relinquish_volume(v, "BBBB", false);
	assert_int_equal(get_xattr(e->dir, "cache/Icifs,s", buf, sizeof(buf)),
			 8);
	assert_memory_equal(buf + 4, "BBBB", 4);
	v = fscache_acquire_volume(e->cache, "cifs,s", "BBBB", 4);
	assert_non_null(v);
	assert_int_equal(count_entries(e->dir, "graveyard"), 0);
	/* Invalidation at relinquish buries the volume. */
	fscache_relinquish_volume(v, NULL, true);
	assert_int_equal(count_entries(e->dir, "graveyard"), 1);
	assert_false(exists(e->dir, "cache/Icifs,s"));
}

/* Acquire gives a QUIESCENT cookie; relinquish drops it; stats count. */
static void test_cookie_acquire_relinquish(void **state)
{
	struct env *e = *state;
	struct fscache_volume *v = fscache_acquire_volume(e->cache, "v", NULL,
							  0);
	struct fscache_cookie *c;
	struct fscache_stats st;

	c = fscache_acquire_cookie(v, 0, "k", 1, "aux", 3, 100);
	assert_non_null(c);
	assert_int_equal(fscache_cookie_state(c),
			 FSCACHE_COOKIE_STATE_QUIESCENT);
	assert_int_equal(fscache_cookie_object_size(c), 100);
	assert_false(fscache_cookie_no_data_to_read(c));
	fscache_get_stats(e->cache, &st);
	assert_int_equal(st.cookies, 1);
	assert_int_equal(st.acquires, 1);
	assert_int_equal(st.acquires_ok, 1);
	fscache_relinquish_cookie(c, false);
	fscache_get_stats(e->cache, &st);
	assert_int_equal(st.cookies, 0);
	assert_int_equal(st.relinquishes, 1);
	assert_int_equal(st.relinquishes_dropped, 1);
	fscache_relinquish_volume(v, NULL, false);
}

/*
 * A live key acquired again in the same volume is refused (the kernel's
 * "Duplicate cookie detected"); another volume, or after relinquish, is
 * fine.
 */
static void test_cookie_duplicate(void **state)
{
	struct env *e = *state;
	struct fscache_volume *v = fscache_acquire_volume(e->cache, "v1", NULL,
							  0);
	struct fscache_volume *w = fscache_acquire_volume(e->cache, "v2", NULL,
							  0);
	struct fscache_cookie *a, *b, *d;

	a = fscache_acquire_cookie(v, 0, "same", 4, NULL, 0, 0);
	assert_non_null(a);
	errno = 0;
	assert_null(fscache_acquire_cookie(v, 0, "same", 4, "x", 1, 9));
	assert_int_equal(errno, EEXIST);
	b = fscache_acquire_cookie(w, 0, "same", 4, NULL, 0, 0);
	assert_non_null(b);
	assert_int_equal(fscache_use_cookie(a, false), 0);
	fscache_unuse_cookie(a, NULL, NULL);
	fscache_relinquish_cookie(a, false);
	d = fscache_acquire_cookie(v, 0, "same", 4, NULL, 0, 0);
	assert_non_null(d);
	fscache_relinquish_cookie(d, false);
	fscache_relinquish_cookie(b, false);
	fscache_relinquish_volume(v, NULL, false);
	fscache_relinquish_volume(w, NULL, false);
}

/* Keys and aux data outside the kernel's limits are refused. */
static void test_cookie_bad_inputs(void **state)
{
	struct env *e = *state;
	struct fscache_volume *v = fscache_acquire_volume(e->cache, "v", NULL,
							  0);
	struct fscache_cache_resources cres;
	uint8_t big[256] = { 0 };

	errno = 0;
	assert_null(fscache_acquire_cookie(v, 0, NULL, 4, NULL, 0, 0));
	assert_int_equal(errno, EINVAL);
	assert_null(fscache_acquire_cookie(v, 0, "k", 0, NULL, 0, 0));
	assert_int_equal(errno, EINVAL);
	assert_null(fscache_acquire_cookie(v, 0, big, 256, NULL, 0, 0));
	assert_int_equal(errno, EMSGSIZE);
	assert_null(fscache_acquire_cookie(v, 0, "k", 1, big, 256, 0));
	assert_int_equal(errno, EMSGSIZE);
	assert_null(fscache_acquire_cookie(v, 0, "k", 1, NULL, 300, 0));
	assert_int_equal(errno, EMSGSIZE);
	assert_null(fscache_acquire_cookie(NULL, 0, "k", 1, NULL, 0, 0));
	assert_int_equal(errno, EINVAL);
	/* NULL cookies are accepted everywhere and do nothing. */
	assert_int_equal(fscache_use_cookie(NULL, true), -ENOBUFS);
	fscache_unuse_cookie(NULL, NULL, NULL);
	fscache_invalidate(NULL, NULL, 0, 0);
	fscache_resize_cookie(NULL, 5);
	fscache_relinquish_cookie(NULL, true);
	assert_int_equal(fscache_begin_read_operation(&cres, NULL), -ENOBUFS);
	assert_int_equal(fscache_read(&cres, 0, big, 1, 0), -ENOBUFS);
	fscache_end_operation(&cres);
	fscache_relinquish_volume(v, NULL, false);
}

/* use/unuse count users; I/O is refused on a cookie not in use. */
static void test_use_unuse(void **state)
{
	struct env *e = *state;
	struct fscache_volume *v = fscache_acquire_volume(e->cache, "v", NULL,
							  0);
	struct fscache_cookie *c = fscache_acquire_cookie(v, 0, "k", 1, NULL,
							  0, 0);
	struct fscache_cache_resources cres;
	struct fscache_stats st;

	assert_int_equal(fscache_begin_read_operation(&cres, c), -ENOBUFS);
	assert_int_equal(fscache_use_cookie(c, false), 0);
	assert_int_equal(fscache_cookie_state(c), FSCACHE_COOKIE_STATE_ACTIVE);
	assert_int_equal(fscache_use_cookie(c, false), 0);
	assert_int_equal(fscache_cookie_n_active(c), 2);
	/* A new object of size 0 has nothing to read. */
	assert_true(fscache_cookie_no_data_to_read(c));
	fscache_unuse_cookie(c, NULL, NULL);
	fscache_unuse_cookie(c, NULL, NULL);
	assert_int_equal(fscache_cookie_n_active(c), 0);
	fscache_get_stats(e->cache, &st);
	assert_int_equal(st.cookies_lru, 1);
	fscache_relinquish_cookie(c, false);
	fscache_get_stats(e->cache, &st);
	assert_int_equal(st.cookies_lru, 0);
	assert_int_equal(st.cookies_lru_dropped, 1);
	fscache_relinquish_volume(v, NULL, false);
}

/*
 * Written data reads back; reads stop at the object size; the object is
 * committed in the cachefiles layout with the kernel's xattr.
 */
static void test_write_read_back(void **state)
{
	struct env *e = *state;
	struct fscache_volume *v = fscache_acquire_volume(e->cache, "9p,t,",
							  NULL, 0);
	uint8_t key[8], buf[64], x[64];
	struct fscache_cookie *c;
	int64_t size = 8200;

	ino_key(0xabc0ec, key);
	c = fscache_acquire_cookie(v, 0, key, 8, "\x01\x02\x03\x04", 4, 0);
	assert_int_equal(fscache_use_cookie(c, true), 0);
	put_data(c, 0, "hello", 5);
	put_data(c, 8192, "tail-of-object", 14);
	/* Size still 0: nothing may be read yet. */
	assert_int_equal(get_data(c, 0, buf, 5, 0), 0);
	fscache_update_cookie(c, NULL, &size);
	assert_int_equal(get_data(c, 0, buf, 5, 0), 5);
	assert_memory_equal(buf, "hello", 5);
	assert_int_equal(get_data(c, 8190, buf, 64, 0), 10);
	assert_memory_equal(buf + 2, "tail-of-", 8);
	assert_int_equal(get_data(c, 9000, buf, 8, 0), 0);
	assert_int_equal(get_data(c, 4096, buf, 16, FSCACHE_READ_HOLE_FAIL),
			 -ENODATA);
	fscache_unuse_cookie(c, NULL, NULL);
	/* Objects appear in the layout when the cookie is withdrawn. */
	assert_false(exists(e->dir, obj(e->dir, "9p,t,", "Tabc0ec,")));
	fscache_relinquish_cookie(c, false);
	assert_int_equal(get_xattr(e->dir, obj(e->dir, "9p,t,", "Tabc0ec,"),
				   x, sizeof(x)), 22);
	assert_int_equal(be64(x), 8200);
	assert_int_equal(be64(x + 8), 0);
	assert_int_equal(x[16], 1);	/* CACHEFILES_COOKIE_TYPE_DATA */
	assert_int_equal(x[17], 0);	/* content: no_data, as 6.1 writes */
	assert_memory_equal(x + 18, "\x01\x02\x03\x04", 4);
	fscache_relinquish_volume(v, NULL, false);
}

/* kmirror_cache_object_path() names the file the object was written to. */
static void test_object_path_is_where_the_object_is(void **state)
{
	struct env *e = *state;
	struct fscache_volume *v = fscache_acquire_volume(e->cache, "9p,t,",
							  NULL, 0);
	char path[KMIRROR_CACHE_PATH_SIZE];
	uint8_t key[8], big[256] = { 1 };
	struct fscache_cookie *c;

	ino_key(0xabc0ec, key);
	c = fscache_acquire_cookie(v, 0, key, 8, NULL, 0, 0);
	assert_int_equal(fscache_use_cookie(c, true), 0);
	fscache_unuse_cookie(c, NULL, NULL);
	fscache_relinquish_cookie(c, false);
	assert_int_equal(kmirror_cache_object_path("9p,t,", key, 8, path,
						   sizeof(path)),
			 strlen(obj(e->dir, "9p,t,", "Tabc0ec,")));
	assert_string_equal(path, obj(e->dir, "9p,t,", "Tabc0ec,"));
	assert_true(exists(e->dir, path));
	/* What fscache refuses has no path either. */
	assert_int_equal(kmirror_cache_object_path("9p,t,", key, 0, path,
						   sizeof(path)), -EINVAL);
	assert_int_equal(kmirror_cache_object_path("9p,t,", big, sizeof(big),
						   path, sizeof(path)),
			 -EMSGSIZE);
	assert_int_equal(kmirror_cache_object_path("a/b", key, 8, path,
						   sizeof(path)), -EACCES);
	assert_int_equal(kmirror_cache_object_path("9p,t,", key, 8, path, 10),
			 -ENOSPC);
	fscache_relinquish_volume(v, NULL, false);
}

/*
 * The cookie index grows as cookies are acquired, to a bucket a cookie,
 * without waiting for the reaper's next pass: at 4 a bucket and a resize
 * a second, acquiring 1,000,000 cookies took 11 s of chain walks.
 */
static void test_index_grows_with_acquires(void **state)
{
	static const struct fscache_cache_params reaper = { .lru_timeout_ms = 0 };
	struct env *e = *state;
	struct fscache_cookie **c = calloc(20000, sizeof(*c));
	struct fscache_volume *v;
	struct fscache_cache *cache;
	uint8_t key[8];
	int i;

	fscache_cache_close(e->cache);
	assert_int_equal(fscache_cache_open(e->dir, &reaper, &cache), 0);
	v = fscache_acquire_volume(cache, "grow", NULL, 0);
	for (i = 0; i < 20000; i++) {
		ino_key(i + 1, key);
		c[i] = fscache_acquire_cookie(v, 0, key, 8, NULL, 0, 0);
		assert_non_null(c[i]);
	}
	/* The reaper was woken by an insert; give it up to 5 s to grow. */
	for (i = 0; i < 500 && atomic_load(&cache->n_buckets) < 20000; i++)
		usleep(10000);
	assert_true(atomic_load(&cache->n_buckets) >= 20000);
	for (i = 0; i < 20000; i++)
		fscache_relinquish_cookie(c[i], false);
	free(c);
	fscache_relinquish_volume(v, NULL, false);
	fscache_cache_close(cache);
	assert_int_equal(fscache_cache_open(e->dir, &test_params, &e->cache),
			 0);
}

/* A local writer marks a committed object DIRTY while it writes. */
static void test_dirty_while_modified(void **state)
{
	struct env *e = *state;
	struct fscache_volume *v = fscache_acquire_volume(e->cache, "v", NULL,
							  0);
	struct fscache_cookie *c;
	uint8_t x[64];

	c = fscache_acquire_cookie(v, 0, "dkey", 4, NULL, 0, 3);
	fscache_use_cookie(c, false);
	put_data(c, 0, "abc", 3);
	fscache_unuse_cookie(c, NULL, NULL);
	fscache_relinquish_cookie(c, false);
	assert_int_equal(get_xattr(e->dir, obj(e->dir, "v", "Ddkey"), x, 64), 18);
	assert_int_equal(x[17], 0);

	c = fscache_acquire_cookie(v, 0, "dkey", 4, NULL, 0, 3);
	assert_int_equal(fscache_use_cookie(c, true), 0);
	assert_int_equal(get_xattr(e->dir, obj(e->dir, "v", "Ddkey"), x, 64), 18);
	assert_int_equal(x[17], 4);	/* CACHEFILES_CONTENT_DIRTY */
	fscache_unuse_cookie(c, NULL, NULL);
	fscache_relinquish_cookie(c, false);
	assert_int_equal(get_xattr(e->dir, obj(e->dir, "v", "Ddkey"), x, 64), 18);
	assert_int_equal(x[17], 0);
	fscache_relinquish_volume(v, NULL, false);
}

/* Data survives closing and reopening the cache. */
static void test_reopen_persists(void **state)
{
	struct env *e = *state;
	struct fscache_volume *v;
	struct fscache_cookie *c;
	int64_t size = 11;
	char buf[16];

	v = fscache_acquire_volume(e->cache, "p", "c", 1);
	c = fscache_acquire_cookie(v, 0, "file", 4, "v1", 2, 0);
	fscache_use_cookie(c, true);
	put_data(c, 0, "persistent!", 11);
	fscache_unuse_cookie(c, NULL, &size);
	fscache_relinquish_cookie(c, false);
	fscache_relinquish_volume(v, NULL, false);
	reopen(e);

	v = fscache_acquire_volume(e->cache, "p", "c", 1);
	c = fscache_acquire_cookie(v, 0, "file", 4, "v1", 2, 11);
	assert_int_equal(fscache_use_cookie(c, false), 0);
	assert_false(fscache_cookie_no_data_to_read(c));
	assert_int_equal(get_data(c, 0, buf, sizeof(buf), 0), 11);
	assert_memory_equal(buf, "persistent!", 11);
	fscache_unuse_cookie(c, NULL, NULL);
	fscache_relinquish_cookie(c, false);
	fscache_relinquish_volume(v, NULL, false);
}

/* Commit an object of key @key with @aux and 4 bytes of data. */
static void make_object(struct env *e, const char *key, const char *aux)
{
	struct fscache_volume *v = fscache_acquire_volume(e->cache, "s", NULL,
							  0);
	struct fscache_cookie *c;

	c = fscache_acquire_cookie(v, 0, key, strlen(key), aux, strlen(aux),
				   4);
	fscache_use_cookie(c, true);
	put_data(c, 0, "OLD!", 4);
	fscache_unuse_cookie(c, NULL, NULL);
	fscache_relinquish_cookie(c, false);
	fscache_relinquish_volume(v, NULL, false);
}

/* Use a cookie and say whether its old data can still be read. */
static bool old_data_visible(struct env *e, const char *key, const char *aux,
			     int64_t size, bool invalidate_first)
{
	struct fscache_volume *v = fscache_acquire_volume(e->cache, "s", NULL,
							  0);
	struct fscache_cookie *c;
	char buf[4] = { 0 };
	ssize_t n;

	c = fscache_acquire_cookie(v, 0, key, strlen(key), aux, strlen(aux),
				   size);
	if (invalidate_first)
		fscache_invalidate(c, aux, size, 0);
	assert_int_equal(fscache_use_cookie(c, false), 0);
	n = get_data(c, 0, buf, 4, FSCACHE_READ_HOLE_CLEAR);
	fscache_unuse_cookie(c, NULL, NULL);
	fscache_relinquish_cookie(c, false);
	fscache_relinquish_volume(v, NULL, false);
	return n == 4 && !memcmp(buf, "OLD!", 4);
}

/*
 * Aux data or size that do not match the object's xattr make it stale: it
 * is never served, and it is replaced when the cookie is committed.
 */
static void test_stale_object_replaced(void **state)
{
	struct env *e = *state;
	uint8_t x[64];

	make_object(e, "obj", "A1");
	reopen(e);
	assert_true(old_data_visible(e, "obj", "A1", 4, false));
	assert_false(old_data_visible(e, "obj", "B2", 4, false));
	/* The committed object now carries the new aux and no old data. */
	assert_int_equal(get_xattr(e->dir, obj(e->dir, "s", "Dobj"), x, 64), 20);
	assert_memory_equal(x + 18, "B2", 2);
	assert_false(old_data_visible(e, "obj", "B2", 4, false));
	make_object(e, "obj", "B2");
	assert_false(old_data_visible(e, "obj", "B2", 5, false));
	assert_int_equal(count_in_fan(e->dir, "s", "Dobj"), 1);
}

/* An object without a valid xattr is not used (the kernel fails it). */
static void test_object_without_xattr_not_served(void **state)
{
	struct env *e = *state;
	char path[1024];

	make_object(e, "nox", "A1");
	snprintf(path, sizeof(path), "%s/%s", e->dir, obj(e->dir, "s", "Dnox"));
	assert_int_equal(removexattr(path, XATTR), 0);
	{
		struct fscache_volume *v = fscache_acquire_volume(e->cache,
								  "s", NULL, 0);
		struct fscache_cookie *c = fscache_acquire_cookie(v, 0, "nox",
								  3, "A1", 2,
								  4);
		char buf[4];

		assert_int_equal(fscache_use_cookie(c, false), -ENOBUFS);
		assert_int_equal(get_data(c, 0, buf, 4, 0), -ENOBUFS);
		fscache_unuse_cookie(c, NULL, NULL);
		fscache_relinquish_cookie(c, false);
		fscache_relinquish_volume(v, NULL, false);
	}
}

/*
 * Invalidation discards the data: reads begun before it fail with
 * -ESTALE, new ones find nothing, and the committed object has the new
 * aux data and none of the old bytes.
 */
static void test_invalidate_discards(void **state)
{
	struct env *e = *state;
	struct fscache_volume *v = fscache_acquire_volume(e->cache, "s", NULL,
							  0);
	struct fscache_cache_resources old;
	struct fscache_cookie *c;
	char buf[8];
	uint8_t x[64];

	c = fscache_acquire_cookie(v, 0, "inv", 3, "A1", 2, 4);
	fscache_use_cookie(c, true);
	put_data(c, 0, "OLD!", 4);
	assert_int_equal(fscache_begin_read_operation(&old, c), 0);
	fscache_invalidate(c, "B2", 4, 0);
	assert_int_equal(fscache_cookie_inval_counter(c), 1);
	assert_true(fscache_cookie_no_data_to_read(c));
	assert_int_equal(fscache_read(&old, 0, buf, 4, 0), -ESTALE);
	fscache_end_operation(&old);
	assert_int_equal(get_data(c, 0, buf, 4, FSCACHE_READ_HOLE_FAIL),
			 -ENODATA);
	put_data(c, 0, "NEW!", 4);
	assert_int_equal(get_data(c, 0, buf, 4, 0), 4);
	assert_memory_equal(buf, "NEW!", 4);
	fscache_unuse_cookie(c, NULL, NULL);
	fscache_relinquish_cookie(c, false);
	assert_int_equal(get_xattr(e->dir, obj(e->dir, "s", "Dinv"), x, 64), 20);
	assert_memory_equal(x + 18, "B2", 2);
	fscache_relinquish_volume(v, NULL, false);
	assert_false(old_data_visible(e, "inv", "B2", 4, false));
	assert_int_equal(count_in_fan(e->dir, "s", "Dinv"), 1);
}

/*
 * Invalidating a cookie that is not in use, with unchanged aux data and
 * size, still never serves the old data (the kernel would).
 */
static void test_invalidate_unused(void **state)
{
	struct env *e = *state;

	make_object(e, "obj", "A1");
	assert_false(old_data_visible(e, "obj", "A1", 4, true));
	assert_false(old_data_visible(e, "obj", "A1", 4, false));
}

/* A DIO-write invalidation disables caching until the cookie is unused. */
static void test_invalidate_dio_disables(void **state)
{
	struct env *e = *state;
	struct fscache_volume *v = fscache_acquire_volume(e->cache, "s", NULL,
							  0);
	struct fscache_cookie *c;
	struct fscache_cache_resources cres;
	char buf[4];

	c = fscache_acquire_cookie(v, 0, "dio", 3, NULL, 0, 4);
	assert_int_equal(fscache_use_cookie(c, true), 0);
	put_data(c, 0, "data", 4);
	fscache_invalidate(c, NULL, 4, FSCACHE_INVAL_DIO_WRITE);
	assert_int_equal(fscache_begin_write_operation(&cres, c), -ENOBUFS);
	/* A second one while disabled is ignored, counter and all. */
	fscache_invalidate(c, NULL, 4, FSCACHE_INVAL_DIO_WRITE);
	assert_int_equal(fscache_cookie_inval_counter(c), 1);
	fscache_unuse_cookie(c, NULL, NULL);
	assert_int_equal(fscache_use_cookie(c, false), 0);
	assert_int_equal(get_data(c, 0, buf, 4, FSCACHE_READ_HOLE_FAIL),
			 -ENODATA);
	fscache_unuse_cookie(c, NULL, NULL);
	fscache_relinquish_cookie(c, false);
	fscache_relinquish_volume(v, NULL, false);
}

/* A directory where an object belongs is buried in the graveyard. */
static void test_weird_object_buried(void **state)
{
	struct env *e = *state;
	struct fscache_volume *v;
	struct fscache_cookie *c;
	char path[1024];

	make_object(e, "obj", "A1");
	v = fscache_acquire_volume(e->cache, "s", NULL, 0);
	snprintf(path, sizeof(path), "%s/%s", e->dir, obj(e->dir, "s", "Dobj"));
	assert_int_equal(unlink(path), 0);
	assert_int_equal(mkdir(path, 0700), 0);
	c = fscache_acquire_cookie(v, 0, "obj", 3, "A1", 2, 4);
	assert_int_equal(fscache_use_cookie(c, false), 0);
	assert_true(fscache_cookie_no_data_to_read(c));
	assert_int_equal(count_entries(e->dir, "graveyard"), 1);
	fscache_unuse_cookie(c, NULL, NULL);
	fscache_relinquish_cookie(c, false);
	assert_int_equal(file_size(e->dir, obj(e->dir, "s", "Dobj")), 4096);
	fscache_relinquish_volume(v, NULL, false);
}

/* Retiring deletes the object, whether or not the cookie was used. */
static void test_retire(void **state)
{
	struct env *e = *state;
	struct fscache_volume *v;
	struct fscache_cookie *c;

	make_object(e, "obj", "A1");
	assert_true(exists(e->dir, obj(e->dir, "s", "Dobj")));
	v = fscache_acquire_volume(e->cache, "s", NULL, 0);
	c = fscache_acquire_cookie(v, 0, "obj", 3, "A1", 2, 4);
	fscache_use_cookie(c, false);
	fscache_unuse_cookie(c, NULL, NULL);
	fscache_relinquish_cookie(c, true);
	assert_false(exists(e->dir, obj(e->dir, "s", "Dobj")));
	fscache_relinquish_volume(v, NULL, false);

	make_object(e, "obj", "A1");
	v = fscache_acquire_volume(e->cache, "s", NULL, 0);
	c = fscache_acquire_cookie(v, 0, "obj", 3, "A1", 2, 4);
	fscache_relinquish_cookie(c, true);
	assert_false(exists(e->dir, obj(e->dir, "s", "Dobj")));
	fscache_relinquish_volume(v, NULL, false);
}

/*
 * Resize: shrinking cuts the file to whole 4 KiB blocks and zeroes the
 * rest of the last one, growing only records the size; a cookie that is
 * not caching only counts a null resize (and keeps its size).
 */
static void test_resize(void **state)
{
	struct env *e = *state;
	struct fscache_volume *v = fscache_acquire_volume(e->cache, "s", NULL,
							  0);
	struct fscache_cookie *c;
	struct fscache_stats st;
	static uint8_t data[10000], buf[10000];

	memset(data, 'x', sizeof(data));
	c = fscache_acquire_cookie(v, 0, "rsz", 3, NULL, 0, 10000);
	fscache_use_cookie(c, true);
	put_data(c, 0, data, sizeof(data));
	fscache_resize_cookie(c, 5000);
	assert_int_equal(fscache_cookie_object_size(c), 5000);
	assert_int_equal(get_data(c, 0, buf, sizeof(buf), 0), 5000);
	fscache_resize_cookie(c, 20000);
	assert_int_equal(fscache_cookie_object_size(c), 20000);
	assert_int_equal(get_data(c, 4096, buf, 4096, 0), 4096);
	assert_int_equal(buf[5000 - 4096 - 1], 'x');
	assert_int_equal(buf[5000 - 4096], 0);
	assert_int_equal(buf[4095], 0);
	fscache_unuse_cookie(c, NULL, NULL);
	fscache_relinquish_cookie(c, false);
	assert_int_equal(file_size(e->dir, obj(e->dir, "s", "Drsz")), 8192);
	c = fscache_acquire_cookie(v, 0, "rsz2", 4, NULL, 0, 0);
	fscache_resize_cookie(c, 7);
	assert_int_equal(fscache_cookie_object_size(c), 0);
	fscache_relinquish_cookie(c, false);
	fscache_get_stats(e->cache, &st);
	assert_int_equal(st.resizes, 2);
	assert_int_equal(st.resizes_null, 1);
	fscache_relinquish_volume(v, NULL, false);
}

/* An unused cookie's object is discarded by the LRU after the delay. */
static void test_lru_discard(void **state)
{
	struct env *e = *state;
	struct fscache_volume *v = fscache_acquire_volume(e->cache, "s", NULL,
							  0);
	struct fscache_cookie *c;
	struct fscache_stats st;
	char buf[4];

	c = fscache_acquire_cookie(v, 0, "lru", 3, NULL, 0, 4);
	fscache_use_cookie(c, true);
	put_data(c, 0, "data", 4);
	fscache_unuse_cookie(c, NULL, NULL);
	assert_int_equal(fscache_cache_reap(e->cache), 1);
	assert_int_equal(fscache_cookie_state(c),
			 FSCACHE_COOKIE_STATE_QUIESCENT);
	fscache_get_stats(e->cache, &st);
	assert_int_equal(st.cookies_lru_expired, 1);
	assert_int_equal(st.cookies_lru, 0);
	assert_true(exists(e->dir, obj(e->dir, "s", "Dlru")));
	/* Used again, it is looked up again and the data is there. */
	assert_int_equal(fscache_use_cookie(c, false), 0);
	assert_int_equal(get_data(c, 0, buf, 4, 0), 4);
	assert_memory_equal(buf, "data", 4);
	fscache_unuse_cookie(c, NULL, NULL);
	fscache_relinquish_cookie(c, false);
	fscache_relinquish_volume(v, NULL, false);
}

/* The LRU keeps a cookie until its delay is over. */
static void test_lru_delay(void **state)
{
	struct env *e = *state;
	struct fscache_cache_params p = { .lru_timeout_ms = 60000,
					  .flags = FSCACHE_CACHE_NO_REAPER };
	struct fscache_cache *cache;
	struct fscache_volume *v;
	struct fscache_cookie *c;
	struct fscache_stats st;

	fscache_cache_close(e->cache);
	assert_int_equal(fscache_cache_open(e->dir, &p, &cache), 0);
	e->cache = cache;
	v = fscache_acquire_volume(cache, "s", NULL, 0);
	c = fscache_acquire_cookie(v, 0, "lru", 3, NULL, 0, 0);
	fscache_use_cookie(c, false);
	fscache_unuse_cookie(c, NULL, NULL);
	assert_int_equal(fscache_cache_reap(cache), 0);
	assert_int_equal(fscache_cookie_state(c), FSCACHE_COOKIE_STATE_ACTIVE);
	fscache_get_stats(cache, &st);
	assert_true(st.lru_timer_ms > 59000 && st.lru_timer_ms <= 60000);
	fscache_relinquish_cookie(c, false);
	fscache_relinquish_volume(v, NULL, false);
}

/*
 * With lru_max, at most that many unused cookies keep their objects (and
 * backing files) open: past it the oldest is discarded at once, however
 * long its delay, and the newest stay.
 */
static void test_lru_max(void **state)
{
	struct env *e = *state;
	struct fscache_cache_params p = { .lru_timeout_ms = 60000,
					  .flags = FSCACHE_CACHE_NO_REAPER,
					  .lru_max = 2 };
	struct fscache_cookie *c[5];
	struct fscache_cache *cache;
	struct fscache_volume *v;
	struct fscache_stats st;
	char key[4];
	int i;

	fscache_cache_close(e->cache);
	assert_int_equal(fscache_cache_open(e->dir, &p, &cache), 0);
	e->cache = cache;
	v = fscache_acquire_volume(cache, "s", NULL, 0);
	for (i = 0; i < 5; i++) {
		snprintf(key, sizeof(key), "k%d", i);
		c[i] = fscache_acquire_cookie(v, 0, key, 2, NULL, 0, 0);
		fscache_use_cookie(c[i], false);
		fscache_unuse_cookie(c[i], NULL, NULL);
	}
	assert_int_equal(fscache_cache_reap(cache), 3);
	fscache_get_stats(cache, &st);
	assert_int_equal(st.cookies_lru, 2);
	assert_int_equal(st.cookies_lru_expired, 3);
	for (i = 0; i < 5; i++)
		assert_int_equal(fscache_cookie_state(c[i]), i < 3 ?
				 FSCACHE_COOKIE_STATE_QUIESCENT :
				 FSCACHE_COOKIE_STATE_ACTIVE);
	for (i = 0; i < 5; i++)
		fscache_relinquish_cookie(c[i], false);
	fscache_relinquish_volume(v, NULL, false);
}

/* Lookups find live cookies only; the referenced one must be put. */
static void test_lookup(void **state)
{
	struct env *e = *state;
	struct fscache_volume *v = fscache_acquire_volume(e->cache, "s", NULL,
							  0);
	struct fscache_cookie *c, *l;

	c = fscache_acquire_cookie(v, 0, "look", 4, NULL, 0, 0);
	l = fscache_lookup_cookie(v, "look", 4);
	assert_ptr_equal(l, c);
	fscache_put_cookie(l);
	fscache_read_lock();
	assert_ptr_equal(fscache_lookup_cookie_rcu(v, "look", 4), c);
	fscache_read_unlock();
	errno = 0;
	assert_null(fscache_lookup_cookie(v, "nope", 4));
	assert_int_equal(errno, ENOENT);
	assert_null(fscache_lookup_cookie(v, "", 0));
	assert_int_equal(errno, EINVAL);
	fscache_relinquish_cookie(c, false);
	assert_null(fscache_lookup_cookie(v, "look", 4));
	fscache_relinquish_volume(v, NULL, false);
}

/* The kernel's /proc/fs/fscache/stats text, counter for counter. */
static void test_stats_text(void **state)
{
	struct env *e = *state;
	struct fscache_volume *v = fscache_acquire_volume(e->cache, "s", NULL,
							  0);
	struct fscache_cookie *c;
	char text[1024];
	int n;

	c = fscache_acquire_cookie(v, 0, "st", 2, NULL, 0, 0);
	fscache_invalidate(c, NULL, 0, 0);
	fscache_relinquish_cookie(c, true);
	n = fscache_stats_show(e->cache, text, sizeof(text));
	assert_int_equal(n, (int)strlen(text));
	assert_string_equal(text,
		"FS-Cache statistics\n"
		"Cookies: n=0 v=1 vcol=0 voom=0\n"
		"Acquire: n=1 ok=1 oom=0\n"
		"LRU    : n=0 exp=0 rmv=0 drp=0 at=0\n"
		"Invals : n=1\n"
		"Updates: n=0 rsz=0 rsn=0\n"
		"Relinqs: n=1 rtr=1 drop=1\n"
		"NoSpace: nwr=0 ncr=0 cull=0\n"
		"IO     : rd=0 wr=0\n");
	assert_int_equal(fscache_stats_show(e->cache, text, 10), n);
	assert_int_equal(strlen(text), 9);
	fscache_relinquish_volume(v, NULL, false);
}

/* An allocation failure fails the acquire cleanly (Acquire oom=). */
static void test_acquire_oom(void **state)
{
	struct env *e = *state;
	struct fscache_volume *v = fscache_acquire_volume(e->cache, "s", NULL,
							  0);
	struct fscache_stats st;

	kmc_alloc_fail_next(1);
	errno = 0;
	assert_null(fscache_acquire_cookie(v, 0, "k", 1, NULL, 0, 0));
	assert_int_equal(errno, ENOMEM);
	kmc_alloc_fail_next(1);
	assert_null(fscache_acquire_volume(e->cache, "t", NULL, 0));
	assert_int_equal(errno, ENOMEM);
	fscache_get_stats(e->cache, &st);
	assert_int_equal(st.acquires_oom, 1);
	assert_int_equal(st.volumes_nomem, 1);
	fscache_relinquish_volume(v, NULL, false);
}

/* One line of the fixture's .expected file. */
struct expect {
	char volume[64];
	char keyhex[17];
	long size;
	char path[128];
};

/*
 * The cache the 6.1 kernel wrote (two 9p volumes) opens: every object is
 * accepted with its xattr's aux data and the listed size, its bytes read
 * back as on disk, and it is left byte-identical.
 */
static void test_kernel_fixture(void **state)
{
	struct env *e = *state;
	const char *fx = getenv("KMIRROR_FIXTURES");
	char cmd[1024], path[600];
	struct expect x;
	unsigned int n = 0;
	FILE *f;

	if (!fx)
		fx = "tests/fixtures";
	snprintf(cmd, sizeof(cmd),
		 "tar --xattrs --xattrs-include='user.*' -xJf "
		 "%s/kernel61-cachefiles-9p.tar.xz -C %s/graveyard", fx,
		 e->dir);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/graveyard/fsc", e->dir);
	fscache_cache_close(e->cache);
	assert_int_equal(fscache_cache_open(path, &test_params, &e->cache), 0);
	snprintf(cmd, sizeof(cmd), "%s/kernel61-cachefiles-9p.expected", fx);
	f = fopen(cmd, "r");
	assert_non_null(f);
	while (fscanf(f, "%63s %16s %ld %127s", x.volume, x.keyhex, &x.size,
		      x.path) == 4) {
		uint8_t xa[300], xb[300], key[8], disk[64], got[64];
		struct fscache_volume *v;
		struct fscache_cookie *c;
		ssize_t xl;
		int i, fd;

		for (i = 0; i < 8; i++)
			sscanf(x.keyhex + 2 * i, "%2hhx", &key[i]);
		xl = get_xattr(path, x.path, xa, sizeof(xa));
		assert_true(xl >= 18);
		v = fscache_acquire_volume(e->cache, x.volume, NULL, 0);
		assert_non_null(v);
		c = fscache_acquire_cookie(v, 0, key, 8, xa + 18, xl - 18,
					   x.size);
		assert_int_equal(fscache_use_cookie(c, false), 0);
		assert_false(fscache_cookie_no_data_to_read(c));
		assert_int_equal(fscache_cookie_object_size(c), x.size);
		snprintf(cmd, sizeof(cmd), "%s/%s", path, x.path);
		fd = open(cmd, O_RDONLY);
		assert_true(fd >= 0);
		assert_int_equal(read(fd, disk, sizeof(disk)), sizeof(disk));
		close(fd);
		assert_int_equal(get_data(c, 0, got, sizeof(got), 0),
				 x.size < 64 ? x.size : 64);
		assert_memory_equal(got, disk, x.size < 64 ? x.size : 64);
		fscache_unuse_cookie(c, NULL, NULL);
		fscache_relinquish_cookie(c, false);
		fscache_relinquish_volume(v, NULL, false);
		assert_int_equal(get_xattr(path, x.path, xb, sizeof(xb)), xl);
		assert_memory_equal(xa, xb, xl);
		n++;
	}
	fclose(f);
	assert_int_equal(n, 45);
	assert_int_equal(count_entries(path, "graveyard"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(t) cmocka_unit_test_setup_teardown(t, setup, teardown)
		T(test_open_new_cache),
		T(test_open_refuses_foreign_dir),
		T(test_volume_layout),
		T(test_volume_duplicate),
		T(test_volume_bad_keys),
		T(test_volume_coherency_stale),
		T(test_volume_relinquish_coherency),
		T(test_cookie_acquire_relinquish),
		T(test_cookie_duplicate),
		T(test_cookie_bad_inputs),
		T(test_use_unuse),
		T(test_write_read_back),
		T(test_object_path_is_where_the_object_is),
		T(test_index_grows_with_acquires),
		T(test_dirty_while_modified),
		T(test_reopen_persists),
		T(test_stale_object_replaced),
		T(test_object_without_xattr_not_served),
		T(test_invalidate_discards),
		T(test_invalidate_unused),
		T(test_invalidate_dio_disables),
		T(test_weird_object_buried),
		T(test_retire),
		T(test_resize),
		T(test_lru_discard),
		T(test_lru_delay),
		T(test_lru_max),
		T(test_lookup),
		T(test_stats_text),
		T(test_acquire_oom),
		T(test_kernel_fixture),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
