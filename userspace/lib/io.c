// SPDX-License-Identifier: GPL-2.0-only
/*
 * Cache I/O: fs/fscache/io.c (begin/wait for an operation, resize) and the
 * read/write/occupancy side of fs/cachefiles/io.c of the 6.1 tree, made
 * synchronous with pread()/pwrite().  When an operation may proceed in a
 * cookie state is the core's kmc_cookie_op_verdict() /
 * kmc_cookie_wait_verdict().
 *
 * Object size rules kept from cachefiles: the backing file is whole 4 KiB
 * blocks (set at lookup and on resize), a shrink zeroes what it cuts
 * inside the last block, and the xattr's zero_point is always 0 (6.1
 * never writes another value).  Reads stop at the cookie's object size,
 * as netfs does (NETFS_FILL_WITH_ZEROES past i_size); writes may extend
 * the object, whose size the netfs then passes to fscache_unuse_cookie().
 * A read of an operation begun before an invalidation returns -ESTALE
 * (cachefiles_read_complete()'s inval_counter check).
 */
#include <fcntl.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include "internal.h"

/* The object file the operation holds (cachefiles_cres_file()). */
static struct kmf_file *kmf_cres_file(struct fscache_cache_resources *cres)
{
	return cres->object;
}

/* cachefiles_begin_operation(): attach the object's current file. */
static void kmf_cres_attach(struct fscache_cache_resources *cres)
{
	struct fscache_cookie *c = cres->cookie;
	struct kmf_object *o;

	if (cres->object)
		return;
	pthread_mutex_lock(&c->lock);
	o = c->object;
	if (o)
		cres->object = kmf_object_get_file(o);
	pthread_mutex_unlock(&c->lock);
}

/*
 * fscache_begin_cookie_access(): an access while IS_CACHING is set, taken
 * as the core's KMC_CA_TRY_ACCESS step (kmf_apply_head()).
 */
static bool kmf_begin_cookie_access(struct fscache_cookie *c)
{
	struct kmc_cookie_step s = { .event = KMC_CEV_NONE,
				     .action = KMC_CA_TRY_ACCESS };
	bool granted;

	pthread_mutex_lock(&c->lock);
	granted = kmf_cookie_flags(c) & KMC_CF(IS_CACHING);
	if (granted)
		kmf_cookie_step_locked(c, &s);
	pthread_mutex_unlock(&c->lock);
	if (atomic_load(&c->work_pending))
		kmf_queue_cookie(c);
	return granted;
}

/* fscache_begin_operation(). */
static int kmf_begin_operation(struct fscache_cache_resources *cres,
			       struct fscache_cookie *c, enum kmc_want want)
{
	int state;

	memset(cres, 0, sizeof(*cres));
	if (!c || !kmc_cookie_enabled(kmf_cookie_flags(c)))
		return -ENOBUFS;
	kmf_rcu_thread();
	cres->debug_id = c->debug_id;
	cres->inval_counter = atomic_load(&c->inval_counter);
	if (!kmf_begin_cookie_access(c))
		return -ENOBUFS;
	cres->cookie = c;
	for (;;) {
		state = kmf_cookie_state(c);
		switch (kmc_cookie_op_verdict(state, want)) {
		case KMC_OP_READY:
			kmf_cres_attach(cres);
			if (!cres->object && want != KMC_WANT_PARAMS)
				goto not_live;
			return 0;
		case KMC_OP_WAIT:
			kmf_wait_state(c, state);
			break;
		case KMC_OP_NOT_LIVE:
			goto not_live;
		}
	}
not_live:
	cres->cookie = NULL;
	kmf_end_cookie_access(c);
	return -ENOBUFS;
}

int fscache_begin_read_operation(struct fscache_cache_resources *cres,
				 struct fscache_cookie *cookie)
{
	return cres ? kmf_begin_operation(cres, cookie, KMC_WANT_PARAMS) :
		      -EINVAL;
}

int fscache_begin_write_operation(struct fscache_cache_resources *cres,
				  struct fscache_cookie *cookie)
{
	return cres ? kmf_begin_operation(cres, cookie, KMC_WANT_PARAMS) :
		      -EINVAL;
}

/* cachefiles_end_operation(). */
void fscache_end_operation(struct fscache_cache_resources *cres)
{
	if (!cres || !cres->cookie)
		return;
	kmf_fput(kmf_cres_file(cres));
	kmf_end_cookie_access(cres->cookie);
	cres->cookie = NULL;
	cres->object = NULL;
}

/* cachefiles_cres_file(), as a descriptor. */
int fscache_cres_fd(const struct fscache_cache_resources *cres)
{
	const struct kmf_file *f = cres ? cres->object : NULL;

	return f ? f->fd : -1;
}

/* fscache_wait_for_operation(). */
static bool kmf_wait_for_operation(struct fscache_cache_resources *cres,
				   enum kmc_want want)
{
	struct fscache_cookie *c = cres->cookie;
	int state;

	if (!c)
		return false;
	for (;;) {
		state = kmf_cookie_state(c);
		switch (kmc_cookie_wait_verdict(state, want)) {
		case KMC_OP_READY:
			kmf_cres_attach(cres);
			return cres->object || want == KMC_WANT_PARAMS;
		case KMC_OP_WAIT:
			kmf_wait_state(c, state);
			break;
		case KMC_OP_NOT_LIVE:
			return false;
		}
	}
}

static ssize_t kmf_pread_full(int fd, u8 *buf, size_t len, off_t pos)
{
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = pread(fd, buf + done, len - done, pos + done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		done += n;
	}
	return done;
}

static ssize_t kmf_pwrite_full(int fd, const u8 *buf, size_t len, off_t pos)
{
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = pwrite(fd, buf + done, len - done, pos + done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		done += n;
	}
	return done;
}

/*
 * cachefiles_read()'s hole handling: how many leading bytes of the range
 * are a hole (zero-filled into @buf), @len if all of it, or -errno.
 */
static ssize_t kmf_skip_hole(int fd, u8 *buf, size_t len, off_t pos,
			     enum fscache_read_hole read_hole)
{
	off_t data = lseek(fd, pos, SEEK_DATA);

	if (data < 0 && errno != ENXIO)
		return -errno;
	if (data < 0 || data >= pos + (off_t)len) {
		if (read_hole == FSCACHE_READ_HOLE_FAIL)
			return -ENODATA;
		memset(buf, 0, len);
		return len;
	}
	memset(buf, 0, data - pos);
	return data - pos;
}

ssize_t fscache_read(struct fscache_cache_resources *cres, int64_t start_pos,
		     void *buf, size_t len, enum fscache_read_hole read_hole)
{
	ssize_t skipped = 0, n;
	int64_t size;
	int fd;

	if (!cres || (!buf && len) || start_pos < 0)
		return -EINVAL;
	if (!kmf_wait_for_operation(cres, KMC_WANT_READ))
		return -ENOBUFS;
	kmf_stat(cres->cookie->volume->cache, read);
	fd = kmf_cres_file(cres)->fd;
	size = atomic_load(&cres->cookie->object_size);
	if (start_pos >= size)
		return 0;
	len = min(len, (size_t)(size - start_pos));
	if (read_hole != FSCACHE_READ_HOLE_IGNORE) {
		skipped = kmf_skip_hole(fd, buf, len, start_pos, read_hole);
		if (skipped < 0)
			return skipped;
	}
	n = 0;
	if ((size_t)skipped < len) {
		n = kmf_pread_full(fd, (u8 *)buf + skipped, len - skipped,
				   start_pos + skipped);
		if (n < 0)
			return n;
	}
	if (atomic_load(&cres->cookie->inval_counter) != cres->inval_counter)
		return -ESTALE;
	return skipped + n;
}

/*
 * netfs writes whole pages to the cache (__cachefiles_prepare_write()
 * rounds every write out to PAGE_SIZE), so a backing file never ends in a
 * partial block, and cachefiles_adjust_size() throws such a block away at
 * the next lookup.  A byte-granular write past EOF therefore grows the
 * file to the end of its block, as the page write would have; allocating
 * (rather than truncating) never shrinks what a concurrent writer added.
 */
static void kmf_extend_to_block(int fd, off_t end)
{
	off_t to = round_up(end, (off_t)PAGE_SIZE);
	struct stat st;

	if (to == end || fstat(fd, &st) || st.st_size >= to)
		return;
	if (!fallocate(fd, 0, end, to - end) || errno != EOPNOTSUPP)
		return;
	if (ftruncate(fd, to))
		pr_warn("kmirror: cannot extend a cache file: %d\n", -errno);
}

ssize_t fscache_write(struct fscache_cache_resources *cres, int64_t start_pos,
		      const void *buf, size_t len)
{
	ssize_t n;
	int fd;

	if (!cres || (!buf && len) || start_pos < 0)
		return -EINVAL;
	if (!kmf_wait_for_operation(cres, KMC_WANT_WRITE))
		return -ENOBUFS;
	kmf_stat(cres->cookie->volume->cache, write);
	fd = kmf_cres_file(cres)->fd;
	n = kmf_pwrite_full(fd, buf, len, start_pos);
	if (n < 0)
		return n;
	kmf_extend_to_block(fd, start_pos + n);
	kmf_set_flag(cres->cookie, KMC_CF(HAVE_DATA));
	return n;
}

/* cachefiles_query_occupancy(). */
int fscache_query_occupancy(struct fscache_cache_resources *cres,
			    int64_t start, size_t len, size_t granularity,
			    int64_t *data_start, size_t *data_len)
{
	off_t off, off2;
	int fd;

	if (!cres || !data_start || !data_len || start < 0)
		return -EINVAL;
	*data_start = -1;
	*data_len = 0;
	if (!kmf_wait_for_operation(cres, KMC_WANT_READ))
		return -ENOBUFS;
	fd = kmf_cres_file(cres)->fd;
	granularity = max(granularity,
			  (size_t)cres->cookie->volume->cache->bsize);
	if (granularity & (granularity - 1))
		return -EINVAL;	/* round_up() needs a power of two */
	off = lseek(fd, start, SEEK_DATA);
	if (off < 0)
		return errno == ENXIO ? -ENODATA : -ENOBUFS;
	if (round_up(off, (off_t)granularity) >= start + (off_t)len)
		return -ENODATA;
	off2 = lseek(fd, off, SEEK_HOLE);
	if (off2 < 0)
		return errno == ENXIO ? -ENODATA : -ENOBUFS;
	off = round_up(off, (off_t)granularity);
	off2 = round_down(off2, (off_t)granularity);
	if (off2 <= off)
		return -ENODATA;
	*data_start = off;
	*data_len = off2 > start + (off_t)len ? len : (size_t)(off2 - off);
	return 0;
}

/* __fscache_resize_cookie(). */
void fscache_resize_cookie(struct fscache_cookie *c, int64_t new_size)
{
	struct fscache_cache_resources cres;

	if (!c || !kmc_cookie_enabled(kmf_cookie_flags(c)))
		return;
	if (kmf_begin_operation(&cres, c, KMC_WANT_WRITE) == 0) {
		kmf_stat(c->volume->cache, resizes);
		kmf_set_flag(c, KMC_CF(NEEDS_UPDATE));
		c->volume->cache->ops->resize_cookie(c, kmf_cres_file(&cres),
						     new_size);
		fscache_end_operation(&cres);
	} else {
		kmf_stat(c->volume->cache, resizes_null);
	}
}
