// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cache side of changes made through the mount, and the map's life
 * with its object.  All of it runs under the file's I/O lock held
 * exclusive (cache.c), with the cookie in use.
 *
 * Write-through: the write went to the source first; its bytes then go
 * into every granule that is present (bit set) or that the write covers
 * whole (up to the new end of file); a granule whose cache write fails is
 * marked absent.  A partly written absent granule is left absent (its
 * other bytes are not in the cache).  Size changes keep the map's rule
 * "a set bit covers [g * G, min((g + 1) * G, size))": shrinking clears
 * the bits past the new end (and libkmirror cuts the object), growing
 * clears the granule that held the old end unless the write fills what it
 * gains.  A change whose data is unknown (copy_file_range) clears the
 * granules it touched.
 *
 * With verify=on, a granule that stays present gets a new sum: from the
 * written bytes if the write covered it whole, else read back from the
 * object after the change (kc_sum_update()), but only once what it held
 * before was checked against its old sum (kc_sum_check()): a sum taken
 * from the object must never bless rot that was already there.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cachefs.h"
#include "crc32c.h"

static uint64_t kc_ngranules(const struct kc_icache *ic, int64_t size)
{
	uint64_t g = 1ull << ic->map.shift;

	return size > 0 ? ((uint64_t)size + g - 1) >> ic->map.shift : 0;
}

/* Bytes of granule @g with the file @size long. */
static uint64_t kc_glen(const struct kc_icache *ic, uint64_t g, int64_t size)
{
	uint64_t lo = g << ic->map.shift, hi = lo + (1ull << ic->map.shift);

	if (hi > (uint64_t)size)
		hi = size;
	return hi > lo ? hi - lo : 0;
}

static void kc_clear(struct kc_fs *fs, struct kc_icache *ic, uint64_t g,
		     int64_t size)
{
	bool was;

	pthread_mutex_lock(&ic->lock);
	was = kc_map_test(&ic->map, g);
	kc_map_set(&ic->map, g, false);
	pthread_mutex_unlock(&ic->lock);
	if (was)
		kc_index_add_bytes(fs, ic->obj, -(int64_t)kc_glen(ic, g, size));
}

/* Shrink to @new_size: bits past it cleared, the object cut. */
static void kc_shrink(struct kc_fs *fs, struct kc_icache *ic,
		      int64_t new_size)
{
	uint64_t before, after;

	pthread_mutex_lock(&ic->lock);
	before = ic->map.nset;
	kc_map_clear_from(&ic->map, kc_ngranules(ic, new_size));
	after = ic->map.nset;
	pthread_mutex_unlock(&ic->lock);
	kc_index_add_bytes(fs, ic->obj,
			   -(int64_t)((before - after) << ic->map.shift));
	fscache_resize_cookie(ic->cookie, new_size);
}

/* Grow from @old_size: the granule holding the old end loses its bit
 * unless the write @ch fills all it gains. */
static void kc_grow(struct kc_fs *fs, struct kc_icache *ic,
		    const struct kc_change *ch, int64_t old_size,
		    int64_t new_size)
{
	uint64_t g = (uint64_t)old_size >> ic->map.shift;
	int64_t gend = (int64_t)((g + 1) << ic->map.shift);

	if (!(old_size & ((1ll << ic->map.shift) - 1)))
		return;		/* old end on a granule boundary */
	if (gend > new_size)
		gend = new_size;
	if (ch->kind == KC_CH_WRITE && ch->off <= old_size &&
	    ch->off + (off_t)ch->len >= gend)
		return;
	kc_clear(fs, ic, g, old_size);
}

/* Granules touched by [off, off + len) of a file @size long. */
static void kc_clear_range(struct kc_fs *fs, struct kc_icache *ic, off_t off,
			   size_t len, int64_t size)
{
	uint64_t g, last;

	if (!len || off >= size)
		return;
	last = ((uint64_t)off + len - 1) >> ic->map.shift;
	for (g = (uint64_t)off >> ic->map.shift; g <= last; g++)
		kc_clear(fs, ic, g, size);
}

/* Write-through of the bytes of @ch into granule @g. */
static void kc_write_granule(struct kc_fs *fs, struct kc_icache *ic,
			     struct fscache_cache_resources *cres,
			     const struct kc_change *ch, uint64_t g,
			     int64_t size)
{
	off_t lo = g << ic->map.shift, hi = lo + kc_glen(ic, g, size);
	off_t a0 = ch->off, b0 = ch->off + ch->len;
	off_t a = a0 > lo ? a0 : lo, b = b0 < hi ? b0 : hi;
	bool bit, full = a0 <= lo && b0 >= hi, ok;
	uint32_t crc = 0;
	ssize_t n;

	pthread_mutex_lock(&ic->lock);
	bit = kc_map_test(&ic->map, g);
	pthread_mutex_unlock(&ic->lock);
	if (a >= b || (!bit && !full) || (!bit && !kc_may_cache(fs, hi - lo)))
		return;
	n = fscache_write(cres, a, (const char *)ch->data + (a - a0), b - a);
	ok = n == b - a;
	if (ok && full && fs->cfg.verify)
		crc = kc_crc32c(0, (const char *)ch->data + (lo - a0), hi - lo);
	if (ok)
		kc_count(fs, bytes_written_through, n);
	else if (n == -ENOSPC || n == -EDQUOT)
		kc_count(fs, nospace, 1);
	else
		kc_cache_error(fs, "write-through", n < 0 ? n : -EIO);
	pthread_mutex_lock(&ic->lock);
	kc_map_set(&ic->map, g, ok);
	if (ok && full && fs->cfg.verify && kc_map_sum_set(&ic->map, g, crc)) {
		kc_map_set(&ic->map, g, false);	/* no sum: not present */
		ok = false;
	}
	pthread_mutex_unlock(&ic->lock);
	if (ok != bit)
		kc_index_add_bytes(fs, ic->obj, ok ? hi - lo : lo - hi);
}

static void kc_write_range(struct kc_fs *fs, struct kc_icache *ic,
			   struct fscache_cache_resources *cres,
			   const struct kc_change *ch, int64_t size)
{
	uint64_t g, last;

	if (!ch->len)
		return;
	last = ((uint64_t)ch->off + ch->len - 1) >> ic->map.shift;
	for (g = (uint64_t)ch->off >> ic->map.shift; g <= last; g++)
		kc_write_granule(fs, ic, cres, ch, g, size);
}

/*
 * verify=on: the present granule @g (the file @size long) is about to
 * change in part: check what it holds against its sum first, unless done
 * since the map was loaded.  A mismatch makes it absent.
 */
static void kc_sum_check(struct kc_fs *fs, struct kc_icache *ic,
			 struct fscache_cache_resources *cres, uint64_t g,
			 int64_t size)
{
	int ret = kc_granule_check(ic, cres, g, size, NULL);

	if (!ret)
		return;
	if (ret > 0)
		kc_verify_failed(fs, -1, g);
	else
		kc_cache_error(fs, "verify", ret);
	kc_clear(fs, ic, g, size);
}

/* verify=on: the granule @g changed in part; its sum from the object. */
static void kc_sum_update(struct kc_fs *fs, struct kc_icache *ic,
			  struct fscache_cache_resources *cres, uint64_t g,
			  int64_t size)
{
	uint32_t crc;
	bool present;
	int ret;

	pthread_mutex_lock(&ic->lock);
	present = kc_map_test(&ic->map, g);
	pthread_mutex_unlock(&ic->lock);
	if (!present)
		return;
	ret = kc_object_crc(cres, g << ic->map.shift, kc_glen(ic, g, size),
			    &crc);
	pthread_mutex_lock(&ic->lock);
	if (!ret)
		ret = kc_map_sum_set(&ic->map, g, crc);
	pthread_mutex_unlock(&ic->lock);
	if (ret)
		kc_clear(fs, ic, g, size);	/* no sum: not present */
}

/*
 * The granules a change may leave present yet changed in part: those of
 * the old and the new end of file and the first and last of a write
 * (any other it writes, it covers whole).  How many, in @g.
 */
static int kc_edges(const struct kc_icache *ic, const struct kc_change *ch,
		    int64_t old_size, int64_t new_size, uint64_t g[4])
{
	unsigned int shift = ic->map.shift;
	int n = 0;

	if (old_size > 0)
		g[n++] = (uint64_t)(old_size - 1) >> shift;
	if (new_size > 0 && new_size != old_size)
		g[n++] = (uint64_t)(new_size - 1) >> shift;
	if (ch->kind == KC_CH_WRITE && ch->len) {
		g[n++] = (uint64_t)ch->off >> shift;
		g[n++] = ((uint64_t)ch->off + ch->len - 1) >> shift;
	}
	return n;
}

/*
 * Bring the object and its map along with the change @ch, which took the
 * source from ic->known to a size of @new_size.  0, or -1 if the object
 * could not follow (the caller invalidates it then).
 */
int kc_apply_change(struct kc_fs *fs, struct kc_icache *ic,
		    const struct kc_change *ch, int64_t old_size,
		    int64_t new_size)
{
	struct fscache_cache_resources cres;
	uint64_t edge[4];
	int ret, i, n = 0;

	if (fscache_begin_write_operation(&cres, ic->cookie))
		return -1;
	pthread_mutex_lock(&ic->lock);
	ret = kc_map_unseal(&ic->map, kc_cres_fd(&cres));
	pthread_mutex_unlock(&ic->lock);
	if (!ret && fs->cfg.verify)
		n = kc_edges(ic, ch, old_size, new_size, edge);
	for (i = 0; !ret && i < n; i++)
		kc_sum_check(fs, ic, &cres, edge[i], old_size);
	if (!ret) {
		if (new_size < old_size)
			kc_shrink(fs, ic, new_size);
		else if (new_size > old_size)
			kc_grow(fs, ic, ch, old_size, new_size);
		if (ch->kind == KC_CH_RANGE)
			kc_clear_range(fs, ic, ch->off, ch->len, new_size);
		else if (ch->kind == KC_CH_WRITE)
			kc_write_range(fs, ic, &cres, ch, new_size);
	}
	for (i = 0; !ret && i < n; i++)
		kc_sum_update(fs, ic, &cres, edge[i], new_size);
	fscache_end_operation(&cres);
	return ret ? -1 : 0;
}

/*
 * Tie the map to the object the cookie uses now (at a first use, after an
 * invalidation): if it is another file than the map describes, load the
 * map from it.  0 or a negative errno (no caching then).
 */
int kc_bind_map(struct kc_fs *fs, struct kc_icache *ic)
{
	struct fscache_cache_resources cres;
	enum kc_map_state state = KC_MAP_CLEAN;
	struct kc_sidecar sc;
	struct stat st;
	int fd, ret = 0;

	if (fscache_begin_read_operation(&cres, ic->cookie))
		return -ENOBUFS;
	kc_sidecar_of(fs, ic->obj, &sc);
	fd = kc_cres_fd(&cres);
	if (fd < 0 || fstat(fd, &st)) {
		fscache_end_operation(&cres);
		return -EIO;
	}
	pthread_mutex_lock(&ic->lock);
	if (!ic->map.bound || ic->map.odev != st.st_dev ||
	    ic->map.oino != st.st_ino) {
		ret = kc_map_load(&ic->map, fd, ic->known.size, &sc, &state);
		ic->map.bound = ret >= 0;
		ic->map.odev = st.st_dev;
		ic->map.oino = st.st_ino;
	}
	pthread_mutex_unlock(&ic->lock);
	if (state == KC_MAP_UNCLEAN)
		kc_count(fs, unclean_maps, 1);
	else if (state == KC_MAP_NOSUMS)
		kc_count(fs, sums_missing, 1);
	else if (state == KC_MAP_DAMAGED)
		kc_cache_error(fs, "object check (changed behind our back)",
			       -EUCLEAN);
	kc_index_set_bytes(fs, ic->obj, (uint64_t)st.st_blocks * 512);
	fscache_end_operation(&cres);
	return ret < 0 ? ret : 0;
}

/*
 * A sealed object file is exactly its object's size rounded up to 4 KiB,
 * what libkmirror (like cachefiles_adjust_size()) makes of it at the next
 * lookup: so the lookup leaves a healthy object alone (its mtime, which
 * the seal records, included), drops no present bytes of a partial tail
 * block, and every present granule lies within the file (a shorter file
 * is damage).  fscache_write() rounds the file up itself, but not when
 * that allocation fails (ENOSPC); a size change here cannot fail for
 * space.
 */
static int kc_size_object(int fd, int64_t object_size)
{
	off_t want = object_size > 0 ? ((object_size - 1) | 4095) + 1 : 0;
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	if (st.st_size == want)
		return 0;
	return ftruncate(fd, want) ? -errno : 0;
}

/* Seal the map (content_map.c rule 3) before the last use ends. */
void kc_flush_map(struct kc_fs *fs, struct kc_icache *ic)
{
	struct fscache_cache_resources cres;
	unsigned int lost = 0;
	struct kc_sidecar sc;
	struct stat st;
	bool dirty;
	int fd, ret;

	pthread_mutex_lock(&ic->lock);
	dirty = ic->map.dirty;
	pthread_mutex_unlock(&ic->lock);
	if (!dirty || fscache_begin_write_operation(&cres, ic->cookie))
		return;
	fd = kc_cres_fd(&cres);
	ret = fd < 0 ? -EBADF : kc_size_object(fd, ic->known.size);
	kc_sidecar_of(fs, ic->obj, &sc);
	pthread_mutex_lock(&ic->lock);
	if (!ret)
		ret = kc_map_flush(&ic->map, fd, &sc, &lost);
	pthread_mutex_unlock(&ic->lock);
	if (lost)
		kc_count(fs, map_chunks_dropped, lost);
	if (ret == -ENOSPC || ret == -EDQUOT)
		kc_count(fs, nospace, 1);
	else if (ret)
		kc_cache_error(fs, "map flush", ret);
	if (fd >= 0 && !fstat(fd, &st))
		kc_index_set_bytes(fs, ic->obj, (uint64_t)st.st_blocks * 512);
	fscache_end_operation(&cres);
}
