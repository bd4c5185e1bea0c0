// SPDX-License-Identifier: GPL-2.0-only
/*
 * The index across mounts: DIR/kmirror-index.
 *
 * Written at every clean unmount, and as a checkpoint once a minute while
 * mounted (when the index changed): the volumes, the directories of the
 * cache with their inode number and ctime, and every object (volume, key,
 * space) in LRU order, oldest first.  A header carries a checksum of all
 * that and whether the file was written by a clean unmount.  A new file is
 * written beside the old one and renamed over it.
 *
 * At mount the file is trusted, and no scan runs, only when it was written
 * clean, its checksum holds, it describes this very cache/ directory and
 * every directory it lists has the ctime it had: creating, removing or
 * renaming an object changes its fan-out directory's ctime, a new fan-out
 * or volume its parent's.  The header is marked unclean at once, so a
 * crash (kill -9) leaves a file that is loaded but checked by a scan.  A
 * file that is damaged or not ours is ignored with a warning; the cache
 * is then scanned.  What an object holds is never taken from this file:
 * libkmirror checks each object against its source when it is opened.
 *
 * A directory changed in the same tick of the filesystem's clock as the
 * ctime we record could keep that ctime ("racy", as git calls its index
 * entries).  A clean save waits the tick out and looks again; a directory
 * still racy makes the file unclean.
 */
#include <dirent.h>
#include <stddef.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "bytes.h"
#include "index.h"
#include "kmirror/cache.h"

#define KC_IDX_MAGIC	"KMIRIDX"
#define KC_IDX_ORDER	0x01020304u	/* byte order of the writer */
#define KC_IDX_VERSION	1u
#define KC_CHECKPOINT_S	60	/* seconds between checkpoints, at least */
#define KC_DIRS_MAX	(1u << 20)
#define KC_RACY_FINE_NS	(100 * 1000000ll)	/* ns-timestamp filesystems */
#define KC_RACY_NS	(2 * 1000000000ll)	/* others: FAT's 2 s */

struct kc_idx_hdr {
	char		magic[8];
	uint32_t	order;
	uint32_t	version;
	uint32_t	clean;		/* 1: written by a clean unmount */
	uint32_t	nvol;
	uint32_t	ndir;
	uint32_t	racy;		/* directories that may lie */
	uint64_t	nobj;
	uint64_t	cache_dev;	/* of DIR/cache */
	uint64_t	cache_ino;
	uint64_t	payload_len;
	uint64_t	checksum;	/* FNV-1a 64: payload, then nvol...
					 * payload_len of this header */
};

/* The payload's sum, then the header's fields from nvol on (not clean). */
static uint64_t kc_hdr_sum(const struct kc_idx_hdr *h, uint64_t payload_sum)
{
	return kc_fnv(payload_sum, &h->nvol, offsetof(struct kc_idx_hdr,
			checksum) - offsetof(struct kc_idx_hdr, nvol));
}

/* ---- writing ------------------------------------------------------- */

struct kc_writer {
	FILE		*f;
	uint64_t	len, sum;
	int64_t		racy_ns;	/* newer ctimes than now - this: racy */
	int64_t		now_ns;
	uint32_t	ndir, racy;
};

static void kc_put(struct kc_writer *w, const void *p, size_t len)
{
	fwrite(p, 1, len, w->f);
	w->sum = kc_fnv(w->sum, p, len);
	w->len += len;
}

static int64_t kc_ctime_ns(const struct stat *st)
{
	return (int64_t)st->st_ctim.tv_sec * 1000000000ll + st->st_ctim.tv_nsec;
}

/* One directory: "path\0" ino ctime. */
static void kc_put_dir(struct kc_writer *w, const char *path,
		       const struct stat *st)
{
	uint64_t ino = st->st_ino;
	int64_t ctime = kc_ctime_ns(st);
	uint16_t len = strlen(path);

	kc_put(w, &len, sizeof(len));
	kc_put(w, path, len);
	kc_put(w, &ino, sizeof(ino));
	kc_put(w, &ctime, sizeof(ctime));
	w->ndir++;
	if (ctime > w->now_ns - w->racy_ns)
		w->racy++;
}

/* Every directory the cache's layout has: cache/, volumes, fan-outs. */
static void kc_put_dirs(struct kc_fs *fs, struct kc_writer *w,
			const char *path, int depth)
{
	char sub[KMIRROR_CACHE_PATH_SIZE];
	struct dirent *d;
	struct stat st;
	DIR *dir;
	int fd;

	if (kmirror_cachedir_stat(fs->cache_fd, path, &st) ||
	    !S_ISDIR(st.st_mode) || w->ndir == KC_DIRS_MAX)
		return;
	kc_put_dir(w, path, &st);
	if (depth == 2)
		return;
	fd = kmirror_cachedir_open(fs->cache_fd, path, O_RDONLY | O_DIRECTORY);
	dir = fd >= 0 ? fdopendir(fd) : NULL;
	if (!dir) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.' ||
		    (d->d_type != DT_DIR && d->d_type != DT_UNKNOWN) ||
		    snprintf(sub, sizeof(sub), "%s/%s", path, d->d_name) >=
		    (int)sizeof(sub))
			continue;
		kc_put_dirs(fs, w, sub, depth + 1);
	}
	closedir(dir);
}

static void kc_put_vols(struct kc_index *x, struct kc_writer *w)
{
	uint32_t clen;
	uint16_t klen;
	size_t i;

	for (i = 0; i < x->nvol; i++) {
		klen = strlen(x->vol[i]->key);
		clen = x->vol[i]->coh_len;
		kc_put(w, &klen, sizeof(klen));
		kc_put(w, x->vol[i]->key, klen);
		kc_put(w, &clen, sizeof(clen));
		kc_put(w, x->vol[i]->coh, clen);
	}
}

/* The objects, oldest first (index lock held). */
static uint64_t kc_put_objs(struct kc_index *x, struct kc_writer *w)
{
	uint64_t n = 0;
	struct kc_obj *o;

	for (o = kc_lru_first(x); o; o = kc_lru_next(x, o), n++) {
		kc_put(w, &o->vol, sizeof(o->vol));
		kc_put(w, &o->key_len, sizeof(o->key_len));
		kc_put(w, kc_obj_key(o), o->key_len);
		kc_put(w, &o->bytes, sizeof(o->bytes));
	}
	return n;
}

static int64_t kc_racy_margin(struct kc_fs *fs)
{
	struct statfs sf;

	if (fstatfs(fs->cache_fd, &sf))
		return KC_RACY_NS;
	switch ((unsigned long)sf.f_type) {
	case 0xEF53:		/* ext2/3/4 */
	case 0x58465342:	/* xfs */
	case 0x9123683E:	/* btrfs */
	case 0x01021994:	/* tmpfs */
		return KC_RACY_FINE_NS;
	}
	return KC_RACY_NS;
}

static int64_t kc_realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

/* Write the payload after the header's room; the header tells of it. */
static int kc_write_body(struct kc_fs *fs, struct kc_writer *w,
			 struct kc_idx_hdr *h)
{
	struct kc_index *x = fs->index;
	struct stat st;
	int ret;

	if (fseeko(w->f, sizeof(*h), SEEK_SET))
		return -errno;
	w->now_ns = kc_realtime_ns();
	kc_put_dirs(fs, w, "cache", 0);
	pthread_mutex_lock(&x->lock);
	kc_put_vols(x, w);
	h->nvol = x->nvol;
	h->nobj = kc_put_objs(x, w);
	pthread_mutex_unlock(&x->lock);
	ret = kmirror_cachedir_stat(fs->cache_fd, "cache", &st);
	if (ret)
		return ret;
	h->ndir = w->ndir;
	h->racy = w->racy;
	h->cache_dev = st.st_dev;
	h->cache_ino = st.st_ino;
	h->payload_len = w->len;
	h->checksum = kc_hdr_sum(h, w->sum);
	return 0;
}

/*
 * One attempt: the new file under its temporary name, written into @t
 * (kmirror/cachedir.h: nothing planted by that name is followed).
 */
static int kc_write_file(struct kc_fs *fs, bool clean, uint32_t *racy,
			 struct kmirror_cachedir_temp *t)
{
	struct kc_writer w = { .sum = KC_FNV_INIT };
	struct kc_idx_hdr h = { .magic = KC_IDX_MAGIC, .order = KC_IDX_ORDER,
				.version = KC_IDX_VERSION };
	int fd, ret;

	fd = kmirror_cachedir_temp(t, fs->cache_fd, KC_INDEX_FILE, NULL);
	if (fd < 0)
		return fd;
	fd = dup(fd);		/* the stream's own, closed by fclose() */
	w.f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!w.f) {
		if (fd >= 0)
			close(fd);
		return -ENOMEM;
	}
	w.racy_ns = kc_racy_margin(fs);
	ret = kc_write_body(fs, &w, &h);
	*racy = h.racy;
	h.clean = clean && !h.racy;
	errno = 0;
	if (!ret && (fflush(w.f) || ferror(w.f) ||
		     pwrite(fd, &h, sizeof(h), 0) != sizeof(h) ||
		     (clean && fdatasync(fd))))
		ret = errno ? -errno : -EIO;	/* a short pwrite: no errno */
	if (fclose(w.f) && !ret)
		ret = -errno;
	return ret;
}

/*
 * Write the index file (@clean: at a clean unmount, the index complete).
 * A clean save whose directories are racy waits the tick out once and
 * writes again.
 */
int kc_index_save(struct kc_fs *fs, bool clean)
{
	int64_t margin = kc_racy_margin(fs);
	struct kmirror_cachedir_temp t;
	uint32_t racy = 0;
	int ret;

	ret = kc_write_file(fs, clean, &racy, &t);
	if (!ret && clean && racy) {
		struct timespec ts = { margin / 1000000000ll,
				       margin % 1000000000ll };

		kmirror_cachedir_abort(&t);
		nanosleep(&ts, NULL);
		ret = kc_write_file(fs, clean, &racy, &t);
	}
	if (ret)
		kmirror_cachedir_abort(&t);
	else
		ret = kmirror_cachedir_commit(&t, 0);
	if (ret)
		kc_warn("cannot write %s: %s", KC_INDEX_FILE,
			kmirror_cachedir_strerror(ret));
	return ret;
}

/*
 * Once a minute at most, when the index changed and is complete.  A save
 * that failed is tried again after 1 s, then 2, 4, ... up to a minute:
 * a cause that lasts (no descriptor left, no space, a name in the way)
 * must not have the housekeeper try, and warn, at every round.
 */
void kc_index_checkpoint(struct kc_fs *fs)
{
	static unsigned int last_gen, fails;
	static uint64_t next_ns;
	struct kc_index *x = fs->index;
	unsigned int gen = atomic_load(&x->generation);
	uint64_t now = kc_now_ns(), wait_s = KC_CHECKPOINT_S;

	if (gen == last_gen || !atomic_load(&x->complete) || now < next_ns)
		return;
	if (!kc_index_save(fs, false)) {
		last_gen = gen;
		fails = 0;
	} else if (fails < 6) {		/* 2^6 s: past the minute */
		wait_s = 1ull << fails++;
		wait_s = wait_s < KC_CHECKPOINT_S ? wait_s : KC_CHECKPOINT_S;
	}
	next_ns = now + wait_s * 1000000000ull;
}

/* ---- reading ------------------------------------------------------- */

#define KC_GET(r, var) do {						\
	const void *_p = kc_take(r, sizeof(var));			\
	if (_p)								\
		memcpy(&(var), _p, sizeof(var));			\
} while (0)

static int kc_load_vols(struct kc_index *x, struct kc_bytes *r,
			uint32_t nvol, uint16_t *map)
{
	char key[KC_VOLUME_KEY_MAX + 2];
	const uint8_t *coh;
	uint32_t i, clen = 0;
	uint16_t klen = 0;
	const char *k;
	int v;

	for (i = 0; i < nvol; i++) {
		KC_GET(r, klen);
		k = (const char *)kc_take(r, klen);
		KC_GET(r, clen);
		coh = kc_take(r, clen);
		if (r->bad || klen > KC_VOLUME_KEY_MAX || memchr(k, 0, klen))
			return -EBADMSG;
		memcpy(key, k, klen);
		key[klen] = 0;
		v = kc_vol_index(x, key, coh, clen);
		if (v < 0)
			return -ENOMEM;
		map[i] = v;
	}
	return 0;
}

/* Does every directory still have the inode and ctime recorded? */
static bool kc_dirs_unchanged(struct kc_fs *fs, struct kc_bytes *r,
			      uint32_t ndir)
{
	char path[KMIRROR_CACHE_PATH_SIZE];
	bool same = true;
	uint64_t ino = 0;
	int64_t ctime = 0;
	uint16_t len = 0;
	struct stat st;
	const char *p;
	uint32_t i;

	for (i = 0; i < ndir && !r->bad; i++) {
		KC_GET(r, len);
		p = (const char *)kc_take(r, len);
		KC_GET(r, ino);
		KC_GET(r, ctime);
		if (r->bad || len >= sizeof(path))
			return r->bad = true, false;
		if (!same)
			continue;
		memcpy(path, p, len);
		path[len] = 0;
		same = !kmirror_cachedir_stat(fs->cache_fd, path, &st) &&
		       S_ISDIR(st.st_mode) && st.st_ino == ino &&
		       kc_ctime_ns(&st) == ctime;
	}
	return same && !r->bad;
}

static int kc_load_objs(struct kc_index *x, struct kc_bytes *r,
			uint64_t nobj, const uint16_t *map, uint32_t nvol)
{
	uint64_t i, bytes = 0;
	const uint8_t *key;
	struct kc_obj *o;
	uint16_t vol = 0;
	uint8_t klen = 0;

	for (i = 0; i < nobj; i++) {
		KC_GET(r, vol);
		KC_GET(r, klen);
		key = kc_take(r, klen);
		KC_GET(r, bytes);
		if (r->bad || vol >= nvol || !klen ||
		    kc_obj_find_locked(x, map[vol], key, klen))
			return -EBADMSG;
		o = kc_obj_add_locked(x, map[vol], key, klen);
		if (!o)
			return -ENOMEM;
		o->bytes = bytes;
		atomic_fetch_add(&x->bytes, (int64_t)bytes);
		kc_lru_add_tail(x, o);
	}
	return r->p == r->end ? 0 : -EBADMSG;
}

/* Is the header ours, whole, and about this cache? Why not, if not. */
static const char *kc_check_hdr(struct kc_fs *fs, const struct kc_idx_hdr *h,
				size_t size, const uint8_t *payload)
{
	struct stat st;

	if (size < sizeof(*h) || memcmp(h->magic, KC_IDX_MAGIC, 8))
		return "not an index file";
	if (h->order != KC_IDX_ORDER || h->version != KC_IDX_VERSION)
		return "written by another version or machine";
	if (h->payload_len != size - sizeof(*h) ||
	    kc_hdr_sum(h, kc_fnv(KC_FNV_INIT, payload, h->payload_len)) !=
	    h->checksum)
		return "damaged (size or checksum wrong)";
	if (kmirror_cachedir_stat(fs->cache_fd, "cache", &st) ||
	    st.st_dev != h->cache_dev || st.st_ino != h->cache_ino)
		return "written for another cache directory";
	if (h->nvol > UINT16_MAX + 1u || h->ndir > KC_DIRS_MAX ||
	    h->nobj > KC_OBJ_MAX)
		return "damaged (counts out of range)";
	return NULL;
}

/* Parse a checked file into the (empty) index; *@unchanged: dirs agree. */
static int kc_load_body(struct kc_fs *fs, const struct kc_idx_hdr *h,
			const uint8_t *payload, bool *unchanged)
{
	struct kc_bytes r = { payload, payload + h->payload_len, false };
	uint16_t *map = calloc(h->nvol ? h->nvol : 1, sizeof(*map));
	struct kc_index *x = fs->index;
	int ret;

	if (!map)
		return -ENOMEM;
	*unchanged = kc_dirs_unchanged(fs, &r, h->ndir);
	pthread_mutex_lock(&x->lock);
	ret = r.bad ? -EBADMSG : kc_load_vols(x, &r, h->nvol, map);
	if (!ret)
		ret = kc_load_objs(x, &r, h->nobj, map, h->nvol);
	pthread_mutex_unlock(&x->lock);
	free(map);
	return ret;
}

/* Forget a half-loaded file: back to an empty index. */
static void kc_index_empty(struct kc_index *x)
{
	struct kc_obj *o;

	pthread_mutex_lock(&x->lock);
	while ((o = kc_lru_first(x)))
		kc_obj_del_locked(x, o);
	pthread_mutex_unlock(&x->lock);
}

static void kc_mark_unclean(int fd)
{
	uint32_t zero = 0;

	if (pwrite(fd, &zero, sizeof(zero),
		   offsetof(struct kc_idx_hdr, clean)) != sizeof(zero))
		kc_warn("cannot mark %s in use: %s", KC_INDEX_FILE,
			strerror(errno));
}

/*
 * Load DIR/kmirror-index into the empty index.  *@trusted: no scan is
 * needed.  Only running out of memory is an error: a file that cannot be
 * used leaves the index empty, with a warning, for the scan to fill.
 */
int kc_index_load(struct kc_fs *fs, bool *trusted)
{
	const struct kc_idx_hdr *h;
	const char *why = NULL;
	bool unchanged = false;
	struct stat st;
	void *map;
	int fd, ret;

	*trusted = false;
	fs->index->origin = KC_ORIGIN_NONE;
	fd = kmirror_cachedir_open(fs->cache_fd, KC_INDEX_FILE, O_RDWR);
	if (fd == -ENOENT)
		return 0;
	if (fd < 0) {
		kc_warn("ignoring %s: %s", KC_INDEX_FILE,
			kmirror_cachedir_strerror(fd));
		return 0;
	}
	if (fstat(fd, &st) || !st.st_size ||
	    (map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0)) ==
	    MAP_FAILED) {
		close(fd);
		kc_warn("ignoring %s: empty or unreadable; scanning the cache",
			KC_INDEX_FILE);
		return 0;
	}
	h = map;
	why = kc_check_hdr(fs, h, st.st_size, (const uint8_t *)(h + 1));
	ret = why ? 0 : kc_load_body(fs, h, (const uint8_t *)(h + 1),
				     &unchanged);
	if (ret == -EBADMSG)
		why = "damaged (records do not parse)";
	if (!why && !ret) {
		*trusted = h->clean && unchanged;
		fs->index->origin = *trusted ? KC_ORIGIN_CLEAN :
					       KC_ORIGIN_RECHECKED;
		kc_mark_unclean(fd);
	}
	munmap(map, st.st_size);
	close(fd);
	if (why) {
		kc_index_empty(fs->index);
		kc_warn("ignoring %s: %s; scanning the cache", KC_INDEX_FILE,
			why);
		return 0;
	}
	return ret == -EBADMSG ? 0 : ret;
}
