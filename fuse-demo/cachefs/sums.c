// SPDX-License-Identifier: GPL-2.0-only
/*
 * Checksums of cached granules (-o verify=on, the default): a CRC32C per
 * granule, computed from the bytes when they are stored, checked when a
 * read is first served from a granule (struct kc_map's sum[] and
 * "verified" bits): the first read served from it sums the bytes it read
 * for its reply and the rest of the granule, and compares; later reads
 * trust the page cache, which is what keeps warm reads cheap.  A granule
 * stored by this daemon is verified from the start (its sum was taken
 * from the bytes written).
 *
 * The format of the sums and their sidecar file: sums_file.c.  Here: where
 * the daemon keeps the sidecars, and the check of a granule it serves.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cachefs.h"
#include "crc32c.h"
#include "index.h"

/* Name the sidecar of the object @o (held or culling: its key stays) of
 * the index @x; kc_vol_at() takes the index lock. */
static void kc_sums_name(struct kc_index *x, const struct kc_obj *o,
			 char *name)
{
	kc_sums_name_for(kc_vol_at(x, o->vol)->key, kc_obj_key(o), o->key_len,
			 name);
}

/* Where the sums of @o (held or culling) live; verify=off: not kept. */
void kc_sidecar_of(struct kc_fs *fs, const struct kc_obj *o,
		   struct kc_sidecar *sc)
{
	sc->dirfd = fs->sums_fd;
	sc->verify = fs->cfg.verify;
	sc->name[0] = 0;
	if (!o || sc->dirfd < 0)
		return;
	kc_sums_name(fs->index, o, sc->name);
}

/* The object @o is gone, or about to be: so are its sums. */
void kc_sums_remove(struct kc_fs *fs, const struct kc_obj *o)
{
	struct kc_sidecar sc;

	kc_sidecar_of(fs, o, &sc);
	if (sc.name[0])
		kmirror_cachedir_unlink(sc.dirfd, sc.name, 0);
}

/*
 * DIR/kmirror-sums, made if missing: a directory of ours, not a symlink
 * (nothing planted there makes the daemon write elsewhere).  With
 * verify=off it is still opened if it exists, to remove stale sums; one
 * that cannot be made is then no error.
 */
int kc_sums_open(struct kc_fs *fs)
{
	int fd = kmirror_cachedir_mkdir(fs->cache_fd, KC_SUMS_DIR, NULL);

	fs->sums_fd = -1;
	if (fd < 0)
		return fs->cfg.verify || kmirror_cachedir_refused(fd) ? fd : 0;
	fs->sums_fd = fd;
	return 0;
}

/* Continue *@crc over the object's bytes [lo, lo + len): 0 or -errno. */
static int kc_object_crc_more(struct fscache_cache_resources *cres,
			      off_t lo, size_t len, uint32_t *crc)
{
	size_t piece = len < KC_PIECE ? len : KC_PIECE, want;
	char *buf = len ? kc_scratch(1, piece) : NULL;
	ssize_t n;

	if (len && !buf)
		return -ENOMEM;
	while (len) {
		want = len < piece ? len : piece;
		n = fscache_read(cres, lo, buf, want,
				 FSCACHE_READ_HOLE_IGNORE);
		if (n != (ssize_t)want)
			return n < 0 ? n : -ENODATA;
		*crc = kc_crc32c(*crc, buf, want);
		lo += want;
		len -= want;
	}
	return 0;
}

/* CRC32C of the object's bytes [lo, lo + len): 0 or a negative errno. */
int kc_object_crc(struct fscache_cache_resources *cres, off_t lo,
		  size_t len, uint32_t *crc)
{
	*crc = 0;
	return kc_object_crc_more(cres, lo, len, crc);
}

/*
 * CRC32C of the object's bytes [lo, hi), the part @have holds (if any)
 * summed where it lies, the rest read from the object.
 */
static int kc_granule_crc(struct fscache_cache_resources *cres, off_t lo,
			  off_t hi, const struct kc_have *have, uint32_t *crc)
{
	off_t hlo = lo, hhi = lo;
	int ret;

	if (have) {
		hlo = have->lo > lo ? have->lo : lo;
		hhi = have->lo + (off_t)have->len < hi ?
		      have->lo + (off_t)have->len : hi;
	}
	if (hlo >= hhi)
		return kc_object_crc(cres, lo, hi - lo, crc);
	ret = kc_object_crc(cres, lo, hlo - lo, crc);
	if (ret)
		return ret;
	*crc = kc_crc32c(*crc, have->buf + (hlo - have->lo), hhi - hlo);
	return kc_object_crc_more(cres, hhi, hi - hhi, crc);
}

/* A granule did not match its sum: counted, and one line says where. */
void kc_verify_failed(struct kc_fs *fs, int fd, uint64_t g)
{
	char link[64], path[PATH_MAX];
	ssize_t n = -1;

	if (fd >= 0) {
		kc_procname(link, sizeof(link), fd);
		n = readlink(link, path, sizeof(path) - 1);
	}
	if (n < 0)
		n = snprintf(path, sizeof(path), "(a file, path unknown)");
	path[n] = 0;
	kc_count(fs, verify_failures, 1);
	kc_warn("%s: granule %" PRIu64 ": checksum mismatch, fetched again "
		"from the source", path, g);
}

/*
 * Wait while another reader checks granule @g (ic->lock held), then say
 * whether it still needs a check: present and not verified.  If it does,
 * it is marked as being checked by the caller (if memory allows).
 */
static bool kc_granule_check_begin(struct kc_icache *ic, uint64_t g)
{
	struct kc_map *m = &ic->map;

	while (kc_map_test(m, g) && !kc_map_verified(m, g) &&
	       kc_map_checking(m, g))
		pthread_cond_wait(&ic->fill_done, &ic->lock);
	if (!kc_map_test(m, g) || kc_map_verified(m, g))
		return false;
	kc_map_set_checking(m, g, true);	/* else: two may check it */
	return true;
}

/* The check of granule @g is over: its waiters look again (ic->lock
 * held). */
static void kc_granule_check_end(struct kc_icache *ic, uint64_t g)
{
	kc_map_set_checking(&ic->map, g, false);
	pthread_cond_broadcast(&ic->fill_done);
}

/* The bytes @have (or none) were read before a granule was dropped:
 * they may be what a check found rotten (ic->lock held). */
static bool kc_have_stale(struct kc_icache *ic, const struct kc_have *have)
{
	return have && have->drops != ic->map.drops;
}

/*
 * verify=on: check the present granule @g of @ic (the file @size long)
 * against its sum, unless done since the map was loaded.  0 if it
 * matches or needs no check, 1 if it does not, KC_CHECK_REREAD if the
 * bytes @have may be stale, or a negative errno of the object.
 *
 * @have (or NULL): bytes of the object the caller read already, to be
 * served once checked; the check sums them where they lie and reads only
 * the rest of the granule (a first pass over a warm file then reads each
 * byte 1.5 times rather than twice, with the kernel's 128 KiB requests
 * and 256 KiB granules), and what is served is exactly what was checked.
 * If any granule of the map was dropped since they were read (another
 * reader's check found it rotten, and it may have been fetched and
 * stored again since), they are not vouched for: the caller reads again.
 *
 * A granule is checked by one reader at a time: readers of the same
 * granule (the kernel splits a 1 MiB read into requests smaller than a
 * granule, served side by side) wait for its verdict instead of reading
 * and summing it again.
 */
int kc_granule_check(struct kc_icache *ic,
		     struct fscache_cache_resources *cres, uint64_t g,
		     int64_t size, const struct kc_have *have)
{
	uint64_t lo = g << ic->map.shift, hi = lo + (1ull << ic->map.shift);
	uint32_t want, crc;
	bool check;
	int ret;

	pthread_mutex_lock(&ic->lock);
	check = kc_granule_check_begin(ic, g);
	want = kc_map_sum(&ic->map, g);
	if (kc_have_stale(ic, have)) {
		if (check)
			kc_granule_check_end(ic, g);
		pthread_mutex_unlock(&ic->lock);
		return KC_CHECK_REREAD;
	}
	pthread_mutex_unlock(&ic->lock);
	if (!check)
		return 0;
	if (hi > (uint64_t)size)
		hi = size;
	ret = kc_granule_crc(cres, lo, hi, have, &crc);
	if (!ret && crc != want)
		ret = 1;
	pthread_mutex_lock(&ic->lock);
	kc_granule_check_end(ic, g);
	if (!ret && kc_have_stale(ic, have))
		ret = KC_CHECK_REREAD;
	else if (!ret && kc_map_test(&ic->map, g) &&
		 kc_map_sum(&ic->map, g) == want)
		ret = kc_map_sum_set(&ic->map, g, want);
	pthread_mutex_unlock(&ic->lock);
	return ret;
}
