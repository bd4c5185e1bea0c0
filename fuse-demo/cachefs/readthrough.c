// SPDX-License-Identifier: GPL-2.0-only
/*
 * Cached reads.  A read of [off, off + size) walks the granules it covers:
 * runs whose map bit is set are read from the cache object
 * (fscache_read()); runs that are clear are fetched whole from the source
 * (at most KC_PIECE bytes per source read), served, written into the
 * object (fscache_write()) by the read itself or behind it by
 * fillbehind.c's worker, and only then marked present, one granule at a time
 * (see content_map.c for why that order is safe), and only if the source
 * did not change while they were fetched and had settled before
 * (kc_fill_begin(), kc_fill_unchanged()).  A granule being fetched by
 * one thread is waited for by others instead of being fetched twice.
 *
 * All of it runs under the file's I/O lock taken shared, which changes of
 * the source, invalidation and culling take exclusive: a fill never races
 * with a write through the mount.  Whatever goes wrong with the cache
 * (no space, I/O error, a cap or the stop limits) is answered from the
 * source: a read never fails because of the cache.
 *
 * With verify=on (sums.c), a granule is checked against its CRC32C before
 * the first read served from it since the map was loaded
 * (kc_verify_run(), on the bytes read for the reply and the rest of the
 * granule); one that fails is made absent and fetched again.  A
 * fill takes the sum of each granule from the bytes it stores.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cachefs.h"
#include "crc32c.h"

#define KC_BLOCK	4096u		/* occupancy granularity */

/*
 * Read from the source: all of @len unless the file ends first.  With
 * -o source_delay_us=N, sleep N microseconds first (a slow source).
 */
ssize_t kc_source_pread(struct kc_fs *fs, int fd, void *buf, size_t len,
			off_t off)
{
	size_t done = 0;
	ssize_t n;

	kc_count(fs, source_reads, 1);
	kc_sleep_us(fs->cfg.source_delay_us);
	while (done < len) {
		n = kc_src_pread(fs, fd, (char *)buf + done, len - done,
				 off + done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return done ? (ssize_t)done : -errno;
		if (n == 0)
			break;
		done += n;
	}
	return done;
}

/* One cached read: the request, the object and what was served. */
struct kc_rd {
	struct kc_fs			*fs;
	struct kc_inode			*in;
	struct kc_icache		*ic;
	struct fscache_cache_resources	cres;
	int				fd;	/* source */
	char				*buf;	/* holds [off, pos) */
	off_t				off, pos, end;
	int64_t				size;	/* object size */
	uint64_t			from_cache, from_source;
	bool				eof;	/* source ended early */
	bool				cache_ok; /* keep writing the object */
	bool				unsealed;
	bool				stable;	/* this fill may be kept */
	bool				checked; /* source checked: a queued
						  * piece (fillbehind.c) */
	bool				undropped; /* a granule failed its
						    * check, stays present */
	bool				settling; /* settle.c's: no note */
	bool				lost;	/* a fill was not kept */
	struct kc_attr			id;	/* the source at its start */
};

static bool kc_is_zero(const char *p, size_t len)
{
	return !len || (!p[0] && !memcmp(p, p + 1, len - 1));
}

/*
 * The object could not give the present bytes [pos, rend): unreadable, or
 * shorter than its map says (cut behind our back; a healthy object file
 * holds every present granule, see kc_size_object()).  A cache error:
 * the granules are marked absent, so that the next read fetches them
 * again from the source and repairs the object.
 */
static void kc_read_damaged(struct kc_rd *r, off_t rend, ssize_t err)
{
	struct kc_icache *ic = r->ic;
	unsigned int shift = ic->map.shift;
	uint64_t g, lost = 0;

	kc_cache_error(r->fs, "read", err);
	pthread_mutex_lock(&ic->lock);
	if (!kc_map_unseal(&ic->map, kc_cres_fd(&r->cres))) {
		for (g = r->pos >> shift; g <= (uint64_t)(rend - 1) >> shift;
		     g++) {
			lost += kc_map_test(&ic->map, g);
			kc_map_set(&ic->map, g, false);
		}
	}
	pthread_mutex_unlock(&ic->lock);
	kc_index_add_bytes(r->fs, ic->obj, -(int64_t)(lost << shift));
}

/*
 * Granule @g failed its check (@err 0: a mismatch, else the object could
 * not be read): absent from now on, so the read fetches it again.
 */
static void kc_verify_drop(struct kc_rd *r, uint64_t g, int err)
{
	struct kc_icache *ic = r->ic;
	bool was = false;

	if (err)
		kc_cache_error(r->fs, "verify", err);
	else
		kc_verify_failed(r->fs, r->fd, g);
	pthread_mutex_lock(&ic->lock);
	r->undropped = kc_map_unseal(&ic->map, kc_cres_fd(&r->cres)) != 0;
	if (!r->undropped) {
		was = kc_map_test(&ic->map, g);
		kc_map_set(&ic->map, g, false);
	}
	pthread_mutex_unlock(&ic->lock);
	if (was)
		kc_index_add_bytes(r->fs, ic->obj,
				   -(int64_t)(1ull << ic->map.shift));
}

/*
 * Check granule @g against its sum if not done since the map was loaded
 * (@have: the run's bytes, read); false if it failed (and was dropped),
 * or if the bytes read may predate a drop (the next step reads again).
 */
static bool kc_verify_granule(struct kc_rd *r, uint64_t g,
			      const struct kc_have *have)
{
	int ret = kc_granule_check(r->ic, &r->cres, g, r->size, have);

	if (!ret)
		return true;
	if (ret != KC_CHECK_REREAD)
		kc_verify_drop(r, g, ret < 0 ? ret : 0);
	return false;
}

/*
 * verify=on: check the granules of the present run [pos, rend), whose
 * bytes the read holds already at @dst (read when the map's drop count
 * was @drops); where the first that fails begins (rend if none did).
 * Each is checked once per load of the map: after that the page cache is
 * trusted.
 */
static off_t kc_verify_run(struct kc_rd *r, off_t rend, const char *dst,
			   uint64_t drops)
{
	unsigned int shift = r->ic->map.shift;
	uint64_t g, last = (uint64_t)(rend - 1) >> shift;
	struct kc_have have = { dst, r->pos, rend - r->pos, drops };

	if (!r->fs->cfg.verify)
		return rend;
	for (g = (uint64_t)r->pos >> shift; g <= last; g++)
		if (!kc_verify_granule(r, g, &have))
			return (off_t)(g << shift) > r->pos ?
			       (off_t)(g << shift) : r->pos;
	return rend;
}

/*
 * Serve [pos, rend), present when the map's drop count was @drops, from
 * the object, checked before it goes out; from the source if the object
 * cannot give it.  A granule failing its check ends the run: the next
 * step fetches it (or if it could not be made absent, its part is read
 * from the source now, over what was read).
 */
static int kc_read_present(struct kc_rd *r, off_t rend, uint64_t drops)
{
	char *dst = r->buf + (r->pos - r->off);
	size_t len = rend - r->pos;
	off_t good, gend;
	ssize_t n;

	n = fscache_read(&r->cres, r->pos, dst, len, FSCACHE_READ_HOLE_IGNORE);
	if (n != (ssize_t)len) {
		if (n != -ESTALE)
			kc_read_damaged(r, rend, n < 0 ? n : -ENODATA);
		goto source;
	}
	good = kc_verify_run(r, rend, dst, drops);
	r->from_cache += good - r->pos;
	if (good > r->pos || !r->undropped) {
		r->pos = good;
		return 0;
	}
	r->undropped = false;
	gend = ((r->pos >> r->ic->map.shift) + 1) << r->ic->map.shift;
	len = (gend < rend ? gend : rend) - r->pos;
source:
	n = kc_source_pread(r->fs, r->fd, dst, len, r->pos);
	if (n < 0)
		return n;
	r->from_source += n;
	r->pos += n;
	r->eof = (size_t)n < len;
	return 0;
}

/* Unseal the object once per fill (content_map.c rule 2). */
static void kc_fill_unseal(struct kc_rd *r)
{
	struct kc_icache *ic = r->ic;
	int ret;

	if (r->unsealed || !r->cache_ok)
		return;
	pthread_mutex_lock(&ic->lock);
	ret = kc_map_unseal(&ic->map, kc_cres_fd(&r->cres));
	pthread_mutex_unlock(&ic->lock);
	r->unsealed = !ret;
	r->cache_ok = !ret;
}

/*
 * A fill of [@lo, @hi) starts: may what it fetches be kept?  Only if the
 * source is the version the cache holds (ic->known) and settled
 * (kc_attr_settled()): else its bytes are served, not cached (and a
 * changed source is checked again before the next read; an unsettled one
 * is filled once it has settled, by settle.c).
 */
static void kc_fill_begin(struct kc_rd *r, off_t lo, off_t hi)
{
	struct stat st;
	bool same;

	if (kc_src_fstatat(r->fs, r->fd, "", &st, AT_EMPTY_PATH)) {
		r->stable = false;
		return;
	}
	kc_attr_from_stat(&r->id, &st);
	same = kc_attr_eq(&r->id, &r->ic->known);
	if (!same)
		atomic_store(&r->ic->recheck, true);
	r->stable = same && kc_attr_settled(&r->id);
	if (r->stable)
		return;
	kc_count(r->fs, unstable, 1);
	if (same && r->in && !r->settling)
		kc_settle_note(r->fs, r->in, r->fd, &r->id, lo, hi);
}

/*
 * The bytes of a granule were fetched: is the source still what it was
 * when the fill began?  If not, nothing more of this fill is kept.
 */
static bool kc_fill_unchanged(struct kc_rd *r)
{
	struct kc_attr a;
	struct stat st;

	if (!kc_src_fstatat(r->fs, r->fd, "", &st, AT_EMPTY_PATH)) {
		kc_attr_from_stat(&a, &st);
		if (kc_attr_eq(&a, &r->id))
			return true;
	}
	r->stable = false;
	atomic_store(&r->ic->recheck, true);
	kc_count(r->fs, unstable, 1);
	return false;
}

/* The object file ends at @end or later (grown with a hole): 0 or -errno. */
static int kc_fill_reach(struct kc_rd *r, off_t end)
{
	int fd = kc_cres_fd(&r->cres);
	struct stat st;

	if (fd < 0 || fstat(fd, &st))
		return -EBADF;
	end = ((end - 1) | (KC_BLOCK - 1)) + 1;
	if (st.st_size >= end)
		return 0;
	return ftruncate(fd, end) ? -errno : 0;
}

/* Put source bytes [pos, pos + len) into the object; true if they are
 * there now. */
static bool kc_fill_store(struct kc_rd *r, off_t pos, const char *data,
			  size_t len)
{
	int64_t ds;
	size_t dl;
	ssize_t n;

	if (!r->stable)
		return false;
	kc_fill_unseal(r);
	if (!r->cache_ok)
		return false;
	/*
	 * Zeros over a hole of the object read back as zeros: no write, but
	 * the file must reach past them (a present granule past the end of
	 * the object file would be damage).
	 */
	if (kc_is_zero(data, len) &&
	    fscache_query_occupancy(&r->cres, pos, len, KC_BLOCK, &ds,
				    &dl) == -ENODATA &&
	    !kc_fill_reach(r, pos + len))
		return true;
	if (!kc_may_cache(r->fs, len))
		return false;
	n = fscache_write(&r->cres, pos, data, len);
	if (n == (ssize_t)len)
		return true;
	if (n == -ENOSPC || n == -EDQUOT) {
		kc_count(r->fs, nospace, 1);
		kc_cull_kick(r->fs);
	} else {
		kc_cache_error(r->fs, "fill", n < 0 ? n : -EIO);
	}
	r->cache_ok = false;
	return false;
}

/*
 * Granule @g was fetched whole: mark it present if it was stored and the
 * source did not change while it was fetched.
 */
static void kc_fill_commit(struct kc_rd *r, uint64_t g, bool ok,
			   uint32_t crc)
{
	struct kc_icache *ic = r->ic;
	uint64_t lo = g << ic->map.shift, hi = lo + (1ull << ic->map.shift);
	int ret;

	if (!ok || (!r->checked && !kc_fill_unchanged(r)))
		return;
	pthread_mutex_lock(&ic->lock);
	ret = kc_map_set(&ic->map, g, true);
	/* verify=on: a granule without its sum is not present */
	if (!ret && r->fs->cfg.verify) {
		ret = kc_map_sum_set(&ic->map, g, crc);
		if (ret)
			kc_map_set(&ic->map, g, false);
	}
	pthread_mutex_unlock(&ic->lock);
	if (!ret)
		kc_index_add_bytes(r->fs, ic->obj,
				   (hi < (uint64_t)r->size ? hi :
				    (uint64_t)r->size) - lo);
}

/* Copy what the request wants of the source data [p, p + n). */
static void kc_fill_copy(struct kc_rd *r, off_t p, const char *tmp, size_t n)
{
	off_t a = p > r->pos ? p : r->pos;
	off_t b = p + (off_t)n < r->end ? p + (off_t)n : r->end;

	if (a >= b)
		return;
	memcpy(r->buf + (a - r->off), tmp + (a - p), b - a);
	r->from_source += b - a;
	r->pos = b;
}

/* The granule a fill is storing: stored so far, and their CRC32C. */
struct kc_gstore {
	uint64_t	g;
	bool		ok;
	uint32_t	crc;
};

#define KC_GSTORE_INIT	{ .g = UINT64_MAX }

/* Store the piece [p, p + n) granule by granule, committing each granule
 * whose end it reaches. */
static void kc_fill_piece(struct kc_rd *r, off_t p, const char *tmp,
			  size_t n, struct kc_gstore *cur)
{
	unsigned int shift = r->ic->map.shift;
	off_t q = p, qe;
	uint64_t g;

	for (; q < p + (off_t)n; q = qe) {
		g = q >> shift;
		qe = (off_t)((g + 1) << shift);
		if (qe > p + (off_t)n)
			qe = p + n;
		if (g != cur->g)
			*cur = (struct kc_gstore){ .g = g, .ok = true };
		cur->ok = kc_fill_store(r, q, tmp + (q - p), qe - q) &&
			  cur->ok;
		if (cur->ok && r->fs->cfg.verify)
			cur->crc = kc_crc32c(cur->crc, tmp + (q - p), qe - q);
		if (qe == (off_t)((g + 1) << shift) || qe == r->size)
			kc_fill_commit(r, g, cur->ok, cur->crc);
	}
}

/*
 * The piece [p, p + n) of whole granules was fetched into @job: queue it
 * to be stored behind the read if the source did not change meanwhile
 * and a fill slot is free; true if @job was taken.
 */
static bool kc_fill_defer(struct kc_rd *r, struct kc_job *job, off_t p,
			  size_t n)
{
	struct kc_icache *ic = r->ic;
	unsigned int shift = ic->map.shift;

	if (!kc_fill_unchanged(r))
		return false;
	job->ic = ic;
	job->in = r->in;
	job->lo = p;
	job->len = n;
	job->size = r->size;
	pthread_mutex_lock(&ic->lock);
	if (ic->n_fills == KC_MAX_FILLS) {
		pthread_mutex_unlock(&ic->lock);
		return false;
	}
	job->gen = ic->gen;		/* io shared: stable */
	ic->fills[ic->n_fills++] = (struct kc_fill){
		p >> shift, (p + n - 1) >> shift, job->data, p, n, job->gen };
	ic->n_jobs++;
	pthread_mutex_unlock(&ic->lock);
	kc_inode_pin(r->in);
	kc_behind_queue(r->fs, job);
	return true;
}

/* Fetch granules [ga, gb] (all absent, registered as ours) and serve the
 * request's part of them. */
static int kc_fill(struct kc_rd *r, uint64_t ga, uint64_t gb)
{
	unsigned int shift = r->ic->map.shift;
	off_t lo = ga << shift, hi = (gb + 1) << shift, p;
	/* pieces of whole granules can be stored behind the read */
	bool behind = shift <= 20 && r->in;
	struct kc_gstore cur = KC_GSTORE_INIT;
	struct kc_job *job;
	char *tmp, *data;
	size_t want;
	ssize_t n;

	if (hi > r->size)
		hi = r->size;
	tmp = kc_scratch(1, hi - lo < KC_PIECE ? hi - lo : KC_PIECE);
	if (!tmp)
		return -ENOMEM;
	kc_fill_begin(r, lo, hi);
	for (p = lo; p < hi; p += n) {
		want = hi - p < KC_PIECE ? hi - p : KC_PIECE;
		job = behind && r->stable && r->cache_ok ?
		      kc_behind_get(r->fs) : NULL;
		data = job ? job->data : tmp;
		n = kc_source_pread(r->fs, r->fd, data, want, p);
		if (n >= 0)
			kc_fill_copy(r, p, data, n);
		if (n < 0 || (size_t)n < want) {
			if (job)
				kc_behind_put(r->fs, job);
			if (n < 0)
				return n;
			r->eof = true;		/* shrank behind our back */
			atomic_store(&r->ic->recheck, true);
			return 0;
		}
		if (job && kc_fill_defer(r, job, p, n))
			continue;
		kc_fill_piece(r, p, data, n, &cur);
		if (job)
			kc_behind_put(r->fs, job);
	}
	return 0;
}

/*
 * The worker's part of a queued piece (fillbehind.c): store it and mark
 * its granules present, unless the file changed since it was fetched.
 */
void kc_fill_job(struct kc_fs *fs, struct kc_job *job)
{
	struct kc_icache *ic = job->ic;
	struct kc_rd r = { .fs = fs, .ic = ic, .fd = -1, .size = job->size,
			   .cache_ok = true, .stable = true, .checked = true };
	struct kc_gstore cur = KC_GSTORE_INIT;
	unsigned int i;

	pthread_rwlock_rdlock(&ic->io);
	if (ic->gen == job->gen && ic->cookie && ic->caching &&
	    !fscache_begin_read_operation(&r.cres, ic->cookie)) {
		kc_fill_piece(&r, job->lo, job->data, job->len, &cur);
		fscache_end_operation(&r.cres);
		kc_count(fs, filled_behind, 1);
	} else {
		kc_count(fs, behind_dropped, 1);
	}
	pthread_mutex_lock(&ic->lock);
	for (i = 0; i < ic->n_fills; i++) {
		if (ic->fills[i].data == job->data) {
			ic->fills[i] = ic->fills[--ic->n_fills];
			break;
		}
	}
	ic->n_jobs--;
	pthread_cond_broadcast(&ic->fill_done);
	pthread_mutex_unlock(&ic->lock);
	pthread_rwlock_unlock(&ic->io);
}

/*
 * First granule of [first, last] a running fill or a queued piece covers,
 * or UINT64_MAX; *@f: the fill that covers it.  Queued pieces of an older
 * version of the file (ic->gen moved on) are no longer there.
 */
static uint64_t kc_fill_busy(const struct kc_icache *ic, uint64_t first,
			     uint64_t last, const struct kc_fill **fp)
{
	uint64_t busy = UINT64_MAX, b;
	unsigned int i;

	for (i = 0; i < ic->n_fills; i++) {
		const struct kc_fill *f = &ic->fills[i];

		if (f->first > last || f->last < first ||
		    (f->data && f->gen != ic->gen))
			continue;
		b = f->first > first ? f->first : first;
		if (b < busy) {
			busy = b;
			*fp = f;
		}
	}
	return busy;
}

static void kc_fill_done(struct kc_icache *ic, uint64_t first)
{
	unsigned int i;

	pthread_mutex_lock(&ic->lock);
	for (i = 0; i < ic->n_fills; i++) {
		if (ic->fills[i].first == first && !ic->fills[i].data) {
			ic->fills[i] = ic->fills[--ic->n_fills];
			break;
		}
	}
	pthread_cond_broadcast(&ic->fill_done);
	pthread_mutex_unlock(&ic->lock);
}

/* Serve what the queued piece @f holds from r->pos on (ic->lock held). */
static void kc_read_queued(struct kc_rd *r, const struct kc_fill *f)
{
	off_t b = f->lo + (off_t)f->len < r->end ? f->lo + (off_t)f->len :
						   r->end;

	memcpy(r->buf + (r->pos - r->off), f->data + (r->pos - f->lo),
	       b - r->pos);
	r->from_cache += b - r->pos;
	r->pos = b;
}

/*
 * The next step at r->pos: serve a present run, or fetch an absent run no
 * other thread is fetching, or wait for the thread that is.
 */
static int kc_read_step(struct kc_rd *r)
{
	struct kc_icache *ic = r->ic;
	unsigned int shift = ic->map.shift;
	uint64_t g = r->pos >> shift, last = (r->end - 1) >> shift, run, busy;
	const struct kc_fill *f = NULL;
	uint64_t drops;
	off_t rend;
	int ret;

	pthread_mutex_lock(&ic->lock);
	run = kc_map_run(&ic->map, g, last, true);
	if (run) {
		drops = ic->map.drops;
		pthread_mutex_unlock(&ic->lock);
		rend = (off_t)((g + run) << shift);
		return kc_read_present(r, rend < r->end ? rend : r->end, drops);
	}
	run = kc_map_run(&ic->map, g, last, false);
	busy = kc_fill_busy(ic, g, g + run - 1, &f);
	if (busy == g && f->data && r->pos >= f->lo &&
	    r->pos < f->lo + (off_t)f->len) {
		kc_read_queued(r, f);
		pthread_mutex_unlock(&ic->lock);
		return 0;
	}
	if (busy == g || ic->n_fills == KC_MAX_FILLS) {
		pthread_cond_wait(&ic->fill_done, &ic->lock);
		pthread_mutex_unlock(&ic->lock);
		return 0;
	}
	if (busy != UINT64_MAX)
		run = busy - g;
	ic->fills[ic->n_fills++] = (struct kc_fill){
		.first = g, .last = g + run - 1 };
	pthread_mutex_unlock(&ic->lock);
	ret = kc_fill(r, g, g + run - 1);
	r->lost |= !r->stable || !r->cache_ok;
	kc_fill_done(ic, g);
	return ret;
}

/* A read's counters, the mount's and its file's (@ic, if cached). */
static void kc_read_stats(struct kc_fs *fs, struct kc_icache *ic,
			  uint64_t cached, uint64_t src, bool miss)
{
	bool is_miss = miss || src;

	if (is_miss)
		kc_count(fs, misses, 1);
	else
		kc_count(fs, hits, 1);
	kc_count(fs, bytes_from_cache, cached);
	kc_count(fs, bytes_from_source, src);
	if (!ic)
		return;
	atomic_fetch_add_explicit(is_miss ? &ic->fst.misses : &ic->fst.hits,
				  1, memory_order_relaxed);
	atomic_fetch_add_explicit(&ic->fst.bytes_from_cache, cached,
				  memory_order_relaxed);
	atomic_fetch_add_explicit(&ic->fst.bytes_from_source, src,
				  memory_order_relaxed);
}

/* The request in the cached range [off, end): 0 or a negative errno. */
static int kc_read_cached(struct kc_rd *r)
{
	int ret = 0;

	while (!ret && r->pos < r->end && !r->eof)
		ret = kc_read_step(r);
	return ret;
}

/*
 * Without the source (offline.c; or a file opened offline, @fd -1): the
 * part of [@off, @off + @size) below the file's known size, if the cache
 * holds all of it and no recheck of the file is pending; else -EIO.
 */
static ssize_t kc_cache_read_only(struct kc_fs *fs, struct kc_icache *ic,
				  char *buf, size_t size, off_t off)
{
	struct kc_rd r = { .fs = fs, .ic = ic, .fd = -1, .buf = buf,
			   .off = off, .pos = off };
	unsigned int shift = ic->map.shift;
	int ret = -EIO;
	uint64_t g, drops = 0;

	pthread_rwlock_rdlock(&ic->io);
	r.size = ic->known.size;
	r.end = off + (off_t)size < r.size ? off + (off_t)size : r.size;
	if (off >= r.end) {
		ret = 0;		/* at or past the end */
	} else if (!atomic_load(&ic->recheck) && ic->cookie && ic->caching &&
		   !fscache_begin_read_operation(&r.cres, ic->cookie)) {
		g = off >> shift;
		pthread_mutex_lock(&ic->lock);
		ret = kc_map_run(&ic->map, g, (r.end - 1) >> shift, true) ==
		      ((uint64_t)(r.end - 1) >> shift) - g + 1 ? 0 : -EIO;
		drops = ic->map.drops;
		pthread_mutex_unlock(&ic->lock);
		if (!ret) {
			ret = fscache_read(&r.cres, off, buf, r.end - off,
					   FSCACHE_READ_HOLE_IGNORE) ==
			      r.end - off ? 0 : -EIO;
		}
		/* verify=on: offline too, nothing unchecked is served (nor
		 * what a drop meanwhile may have made stale) */
		if (!ret && kc_verify_run(&r, r.end, buf, drops) != r.end)
			ret = -EIO;
		fscache_end_operation(&r.cres);
	}
	pthread_rwlock_unlock(&ic->io);
	if (ret)
		return ret;
	kc_read_stats(fs, ic, r.end > off ? r.end - off : 0, 0, false);
	return r.end > off ? r.end - off : 0;
}

/*
 * Does a read ending at @end, of a file known @size long, reach past the
 * page that holds its last byte?  Then the kernel may know a larger size
 * than the cache (the file grown meanwhile): the rest is asked of the
 * source.  Within that page it is only the kernel's rounding of its last
 * request to whole pages, no sign of growth (every size the kernel knows
 * came through us: kc_cache_check_stat(), writes), and no source is
 * asked, which on a network source would be a round trip on every warm
 * read of most files.
 */
static bool kc_past_known_page(int64_t size, off_t end)
{
	int64_t page = sysconf(_SC_PAGESIZE);

	return end > (size + page - 1) / page * page;
}

/*
 * Read @size bytes at @off of @in through the cache into @buf, @fd being
 * an open descriptor of the source file (-1: opened offline).  Bytes
 * read, or a negative errno of the source.
 */
ssize_t kc_cache_read(struct kc_fs *fs, struct kc_inode *in, int fd,
		      char *buf, size_t size, off_t off)
{
	struct kc_icache *ic = atomic_load(&in->ic);
	struct kc_rd r = { .fs = fs, .in = in, .ic = ic, .fd = fd, .buf = buf,
			   .off = off, .pos = off, .cache_ok = true };
	ssize_t n;
	int ret;

	if (!ic)
		goto direct;
	kc_cache_check_due(fs, in);
	if (kc_offline(fs)) {
		atomic_store(&ic->offline_used, true);
		n = kc_cache_read_only(fs, ic, buf, size, off);
		kc_count(fs, offline_served, n >= 0);
		kc_count(fs, offline_refused, n < 0);
		return n;
	}
	if (fd < 0)
		return kc_cache_read_only(fs, ic, buf, size, off);
	pthread_rwlock_rdlock(&ic->io);
	r.size = ic->known.size;
	if (!ic->cookie || !ic->caching || off >= r.size ||
	    fscache_begin_read_operation(&r.cres, ic->cookie)) {
		pthread_rwlock_unlock(&ic->io);
		goto direct;
	}
	r.end = off + (off_t)size < r.size ? off + (off_t)size : r.size;
	ret = kc_read_cached(&r);
	fscache_end_operation(&r.cres);
	pthread_rwlock_unlock(&ic->io);
	if (ret < 0 && kc_offline(fs))		/* it went offline now */
		return kc_cache_read(fs, in, fd, buf, size, off);
	if (ret < 0)
		return ret;
	if (!r.eof && kc_past_known_page(r.size, off + (off_t)size)) {
		n = kc_source_pread(fs, fd, buf + (r.end - off),
				    off + size - r.end, r.end);
		if (n > 0) {
			r.from_source += n;
			r.pos += n;
		}
	}
	kc_read_stats(fs, ic, r.from_cache, r.from_source, false);
	return r.pos - off;

direct:
	n = kc_source_pread(fs, fd, buf, size, off);
	if (n >= 0)
		kc_read_stats(fs, ic, 0, n, true);
	else if (kc_offline(fs))
		kc_count(fs, offline_refused, 1);
	return n;
}

/*
 * One piece of kc_cache_prefill(): [*@lo, @hi), KC_PIECE bytes at most,
 * into @buf; *@lo moves past it.  -EAGAIN if the cache does not hold the
 * version @id of the file any more, or a fill was not kept.
 */
static int kc_prefill_piece(struct kc_rd *r, const struct kc_attr *id,
			    off_t *lo, off_t hi)
{
	struct kc_icache *ic = r->ic;
	int ret = -EAGAIN;

	r->off = r->pos = *lo;
	r->eof = r->lost = false;
	r->cache_ok = true;
	pthread_rwlock_rdlock(&ic->io);
	r->size = ic->known.size;
	r->end = hi < r->size ? hi : r->size;
	if (r->end > *lo + (off_t)KC_PIECE)
		r->end = *lo + KC_PIECE;
	if (r->end <= r->pos) {
		ret = 0;
		r->end = hi;		/* nothing left of the file */
	} else if (ic->cookie && ic->caching && kc_attr_eq(&ic->known, id) &&
		   !fscache_begin_read_operation(&r->cres, ic->cookie)) {
		ret = kc_read_cached(r);
		fscache_end_operation(&r->cres);
		if (!ret && (r->eof || r->lost))
			ret = -EAGAIN;
	}
	pthread_rwlock_unlock(&ic->io);
	*lo = r->end;
	return ret;
}

/*
 * settle.c, holding a use of @in's cookie: read [@lo, @hi) of @in through
 * the cache, @fd open on the source, so that what is absent is fetched
 * and stored, as long as the cache holds the version @id of the file and
 * *@stop is false.  Counted in no read statistics (no reader asked).  0 if
 * every fill was kept, -EAGAIN if not, or a negative errno.
 */
int kc_cache_prefill(struct kc_fs *fs, struct kc_inode *in, int fd,
		     const struct kc_attr *id, off_t lo, off_t hi,
		     const atomic_bool *stop)
{
	struct kc_rd r = { .fs = fs, .in = in, .ic = atomic_load(&in->ic),
			   .fd = fd, .settling = true };
	int ret = 0;

	r.buf = kc_scratch(0, KC_PIECE);
	if (!r.buf || !r.ic)
		return -ENOMEM;
	while (!ret && lo < hi) {
		if (atomic_load(stop))
			return -EAGAIN;
		ret = kc_prefill_piece(&r, id, &lo, hi);
	}
	return ret;
}
