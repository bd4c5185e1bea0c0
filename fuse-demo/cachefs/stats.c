// SPDX-License-Identifier: GPL-2.0-only
/*
 * The statistics file DIR/kmirror-stats: text, one "name: value" line per
 * counter, rewritten atomically (see kc_stats_write()) by the
 * housekeeper every second while anything changes, and at mount and
 * unmount.  Counters are since mount.  After our own lines come
 * libkmirror's fscache counters, in the kernel's /proc/fs/fscache/stats
 * format, prefixed "fscache_" (fscache_cookies, fscache_acquire, ...).
 *
 *   mounted            1 while mounted, 0 after a clean unmount
 *   pid                the daemon's process id
 *   source, volume     what is mounted, and its volume key in the cache
 *   granule            bytes per granule
 *   size_limit         -o size_limit in bytes (0: none)
 *   hits               reads served entirely from the cache
 *   misses             reads that needed the source
 *   bytes_from_cache   bytes of reads served from the cache
 *   bytes_from_source  bytes of reads served from the source
 *   bytes_written_through  bytes of writes also written into the cache
 *   invalidations      objects discarded because the source changed
 *   culls              objects culled (space or size limit)
 *   culls_blocks       of them, for the cache filesystem's free blocks
 *   culls_files        for its free inodes
 *   culls_size_limit   for -o size_limit
 *   culls_age          for -o max_age
 *   evictions          objects dropped by `kmirror cache evict`
 *   pinned             pins in this mount's volume (kmirror cache pin)
 *   nospace            cache writes that met ENOSPC/EDQUOT (the read or
 *                      write itself went on through the source)
 *   retired            objects deleted with their deleted source file
 *   unclean_maps       content maps discarded after an unclean shutdown
 *   map_chunks_dropped content map xattrs that did not fit
 *   cache_errors       other cache I/O errors (served from the source)
 *   unstable           fills served but not cached: the source changed
 *                      while they were fetched, or had changed too
 *                      recently to be trusted (see kc_attr_settled())
 *   verify             -o verify: on or off
 *   verify_failures    cached granules that did not match their CRC32C
 *                      (fetched again from the source; sums.c)
 *   sums_missing       sealed maps discarded because verify=on found no
 *                      sums bound to their object (fetched again)
 *   filled_behind      pieces of reads stored in the cache behind the
 *                      read (-o fill_behind)
 *   behind_dropped     such pieces not stored: the file was written
 *                      or invalidated before their turn came
 *   fill_behind_buffers  their buffers made so far (at most fill_behind)
 *   settle_queued      files read while unsettled (see unstable), noted
 *                      to be filled once their timestamps settle
 *                      (settle.c)
 *   settle_filled      of them, filled then: the next read is a hit
 *   settle_dropped     not filled: changed meanwhile, never settled, or
 *                      not cached whole (the cache refused, unmount)
 *   settle_full        reads of unsettled files not noted: the queue
 *                      was full (KC_SETTLE_MAX files)
 *   settling           files noted and not yet filled or dropped
 *   offline            1 while the source is offline (offline.c)
 *   offline_entered    times the source went offline
 *   offline_left       times it answered again (back online)
 *   offline_served     requests answered from the cache while offline
 *   offline_refused    requests refused while offline (EIO, EROFS)
 *   meta_timeout, negative_timeout  the -o policies, in seconds
 *   meta_hits          lookups, attributes, listings and readdirplus
 *                      entries served from the metadata store (meta.c)
 *   meta_misses        lookups and listings that asked the source
 *   negative_hits      lookups answered "no such name" by the store
 *   source_meta_calls  metadata calls made on the source: lookups,
 *                      stats, opens, directory reads, readlink, statfs,
 *                      extended attributes (not data reads)
 *   source_reads       data reads made on the source
 *   objects            data objects in the cache (all volumes)
 *   cache_bytes        their size on disk, in bytes
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cachefs.h"
#include "pins.h"

#define KC_STATS_TMP	KC_STATS_FILE ".tmp"	/* the spare */
#define KC_STATS_NEW_SUFFIX ".new"

static unsigned long long kc_get(atomic_ullong *c)
{
	return atomic_load_explicit(c, memory_order_relaxed);
}

/*
 * Fill-behind buffers made so far: never more than the option.  Read here
 * under fillbehind.c's lock rather than asked of it: its worker runs fills
 * (readthrough.c), which count into these statistics.
 */
static unsigned int kc_behind_buffers(struct kc_fs *fs)
{
	struct kc_behind *b = &fs->behind;
	unsigned int n;

	pthread_mutex_lock(&b->lock);
	n = b->n_alloc;
	pthread_mutex_unlock(&b->lock);
	return n;
}

/* Files settle.c holds, read under its lock, as kc_behind_buffers(). */
static unsigned int kc_settling(struct kc_fs *fs)
{
	struct kc_settle *q = &fs->settle;
	unsigned int n;

	if (!q->inited)
		return 0;
	pthread_mutex_lock(&q->lock);
	n = q->n;
	pthread_mutex_unlock(&q->lock);
	return n;
}

static void kc_stats_print(struct kc_fs *fs, FILE *f, bool mounted)
{
	struct kc_stats *s = &fs->stats;
	uint64_t objects, bytes;

	kc_index_counts(fs, &objects, &bytes);
	fprintf(f, "mounted: %d\npid: %ld\nsource: %s\nvolume: %s\n"
		"granule: %llu\nsize_limit: %" PRIu64 "\n",
		mounted, (long)getpid(), fs->cfg.source, fs->volume_key,
		(unsigned long long)kc_granule(fs), fs->cfg.size_limit);
	fprintf(f, "hits: %llu\nmisses: %llu\nbytes_from_cache: %llu\n"
		"bytes_from_source: %llu\nbytes_written_through: %llu\n",
		kc_get(&s->hits), kc_get(&s->misses),
		kc_get(&s->bytes_from_cache), kc_get(&s->bytes_from_source),
		kc_get(&s->bytes_written_through));
	fprintf(f, "invalidations: %llu\nculls: %llu\nnospace: %llu\n"
		"retired: %llu\nunclean_maps: %llu\nmap_chunks_dropped: %llu\n"
		"cache_errors: %llu\nunstable: %llu\n",
		kc_get(&s->invalidations), kc_get(&s->culls),
		kc_get(&s->nospace), kc_get(&s->retired),
		kc_get(&s->unclean_maps), kc_get(&s->map_chunks_dropped),
		kc_get(&s->cache_errors), kc_get(&s->unstable));
	fprintf(f, "verify: %s\nverify_failures: %llu\nsums_missing: %llu\n",
		fs->cfg.verify ? "on" : "off", kc_get(&s->verify_failures),
		kc_get(&s->sums_missing));
	fprintf(f, "culls_blocks: %llu\nculls_files: %llu\n"
		"culls_size_limit: %llu\nculls_age: %llu\nevictions: %llu\n"
		"pinned: %zu\n",
		kc_get(&s->culls_blocks), kc_get(&s->culls_files),
		kc_get(&s->culls_size_limit), kc_get(&s->culls_age),
		kc_get(&s->evictions), kc_pins_count(fs));
	fprintf(f, "filled_behind: %llu\nbehind_dropped: %llu\n"
		"fill_behind_buffers: %u\n", kc_get(&s->filled_behind),
		kc_get(&s->behind_dropped), kc_behind_buffers(fs));
	fprintf(f, "settle_queued: %llu\nsettle_filled: %llu\n"
		"settle_dropped: %llu\nsettle_full: %llu\nsettling: %u\n",
		kc_get(&s->settle_queued), kc_get(&s->settle_filled),
		kc_get(&s->settle_dropped), kc_get(&s->settle_full),
		kc_settling(fs));
	fprintf(f, "offline: %d\noffline_entered: %llu\noffline_left: %llu\n"
		"offline_served: %llu\noffline_refused: %llu\n",
		kc_offline(fs), kc_get(&s->offline_entered),
		kc_get(&s->offline_left), kc_get(&s->offline_served),
		kc_get(&s->offline_refused));
	fprintf(f, "meta_timeout: %" PRIu64 "\nnegative_timeout: %" PRIu64
		"\nmeta_hits: %llu\nmeta_misses: %llu\nnegative_hits: %llu\n"
		"source_meta_calls: %llu\nsource_reads: %llu\n",
		fs->cfg.meta_timeout, fs->cfg.negative_timeout,
		kc_get(&s->meta_hits), kc_get(&s->meta_misses),
		kc_get(&s->negative_hits), kc_get(&s->source_meta_calls),
		kc_get(&s->source_reads));
	fprintf(f, "objects: %" PRIu64 "\ncache_bytes: %" PRIu64 "\n"
		"index: %s\n", objects, bytes, kc_index_state(fs));
}

/*
 * libkmirror's /proc/fs/fscache/stats text, appended in our format:
 * "LRU    : n=0 exp=0 ..." becomes "fscache_lru: n=0 exp=0 ...".
 */
static void kc_stats_fscache(struct kc_fs *fs, FILE *f)
{
	char buf[4096], *line, *colon, *save = NULL, *p;
	int n = fscache_stats_show(fs->cache, buf, sizeof(buf));

	if (n <= 0)
		return;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		colon = strchr(line, ':');
		if (!colon)
			continue;	/* the "FS-Cache statistics" title */
		for (p = colon; p > line && p[-1] == ' '; p--)
			;
		*p = 0;
		for (p = line; *p; p++)
			*p = *p == ' ' ? '_' : tolower((unsigned char)*p);
		for (p = colon + 1; *p == ' '; p++)
			;
		fprintf(f, "fscache_%s: %s\n", line, p);
	}
}

/* The whole text, malloc'ed; NULL if out of memory. */
static char *kc_stats_text(struct kc_fs *fs, bool mounted, size_t *len)
{
	char *text = NULL;
	FILE *f = open_memstream(&text, len);

	if (!f)
		return NULL;
	kc_stats_print(fs, f, mounted);
	kc_stats_fscache(fs, f);
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}

/* The statistics as they are now, for the control socket (control.c). */
void kc_stats_show(struct kc_fs *fs, FILE *f)
{
	kc_stats_print(fs, f, true);
	kc_stats_fscache(fs, f);
}

/* Write @text into @fd from its start, and cut it there: 0 or -errno. */
static int kc_put_text(int fd, const char *text, size_t len)
{
	ssize_t n = pwrite(fd, text, len, 0);

	if (n != (ssize_t)len)
		return n < 0 ? -errno : -ENOSPC;
	return ftruncate(fd, len) ? -errno : 0;
}

/* Write @text to our file @name under DIR: 0 or -errno. */
static int kc_put_file(struct kc_fs *fs, const char *name, int flags,
		       const char *text, size_t len)
{
	int fd = kmirror_cachedir_open(fs->cache_fd, name, O_WRONLY | flags);
	int ret;

	if (fd < 0)
		return fd;
	ret = kc_put_text(fd, text, len);
	close(fd);
	return ret;
}

/*
 * The spare exists and is ours; anything else by its name (a symlink, a
 * FIFO, another's file) is removed and the spare made anew.
 */
static void kc_stats_spare(struct kc_fs *fs, const char *text, size_t len)
{
	int fd = kmirror_cachedir_open(fs->cache_fd, KC_STATS_TMP, O_RDONLY);

	if (fd >= 0) {
		close(fd);
		return;
	}
	if (fd != -ENOENT)
		kmirror_cachedir_unlink(fs->cache_fd, KC_STATS_TMP, 0);
	kc_put_file(fs, KC_STATS_TMP, O_CREAT | O_EXCL, text, len);
}

/*
 * Write the statistics file now, atomically for readers: the text goes into
 * a new kmirror-stats.new, renamed over kmirror-stats.  On a full cache
 * filesystem (no block for a new file), the spare kmirror-stats.tmp, kept
 * since the first write, is overwritten in place and exchanged with
 * kmirror-stats (renameat2(RENAME_EXCHANGE)), so that the statistics, the
 * nospace count first, stay current there too.  0 or -errno.
 */
static int kc_stats_write_locked(struct kc_fs *fs, bool mounted)
{
	size_t len = 0;
	char *text = kc_stats_text(fs, mounted, &len);
	int ret;

	if (!text)
		return -ENOMEM;
	kc_stats_spare(fs, text, len);
	ret = kmirror_cachedir_write(fs->cache_fd, KC_STATS_FILE,
				     KC_STATS_NEW_SUFFIX, text, len, 0);
	if (ret == -ENOSPC || ret == -EDQUOT) {
		int dfd = fs->cache_fd;

		ret = kc_put_file(fs, KC_STATS_TMP, 0, text, len);
		if (!ret)
			ret = kmirror_cachedir_rename(dfd, KC_STATS_TMP, dfd,
						      KC_STATS_FILE,
						      RENAME_EXCHANGE);
	}
	free(text);
	return ret;
}

/*
 * One writer of the statistics file at a time: the mount's own write and the
 * housekeeper's first round can meet, and two writers of kmirror-stats.new
 * rename each other's half-written file into place (a reader then finds
 * lines missing).
 */
static pthread_mutex_t kc_stats_lock = PTHREAD_MUTEX_INITIALIZER;

int kc_stats_write(struct kc_fs *fs, bool mounted)
{
	int ret;

	pthread_mutex_lock(&kc_stats_lock);
	ret = kc_stats_write_locked(fs, mounted);
	pthread_mutex_unlock(&kc_stats_lock);
	return ret;
}

/*
 * A cache operation failed with @err (the request was served from the
 * source instead): count it, and say so (rate-limited).
 */
void kc_cache_error(struct kc_fs *fs, const char *what, long err)
{
	kc_count(fs, cache_errors, 1);
	kc_warn("cache %s failed: %s", what, strerror(err < 0 ? -err : err));
}

/* The housekeeper's once-a-second call: write if anything changed. */
void kc_stats_write_if_changed(struct kc_fs *fs)
{
	static unsigned int last_gen;
	static bool written;
	unsigned int gen = atomic_load(&fs->stats.generation);

	pthread_mutex_lock(&kc_stats_lock);
	if ((!written || gen != last_gen) &&
	    !kc_stats_write_locked(fs, true)) {
		last_gen = gen;
		written = true;
	}
	pthread_mutex_unlock(&kc_stats_lock);
}
