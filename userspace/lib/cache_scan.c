// SPDX-License-Identifier: GPL-2.0-only
/*
 * Read-only walk of a cachefiles-layout cache (see kmirror/cache.h).
 *
 * The walk keeps one sorted directory listing per level: cache/, the
 * volume directory, the fan-out directory.  Every name is judged by the
 * core's layout and xattr codecs; every xattr read goes into a fixed buffer
 * one byte larger than the longest value the kernel can write, so an
 * oversized value is seen as such and never truncated silently.
 */
#include <dirent.h>
#include <stdarg.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "kcompat.h"
#include "kmc_cookie.h"
#include "kmc_key.h"
#include "kmc_layout.h"
#include "kmc_volume.h"
#include "kmc_xattr.h"
#include "kmirror/cache.h"
#include "kmirror/cachedir.h"

enum { KM_LV_CACHE, KM_LV_VOLUME, KM_LV_FANOUT, KM_LV_NR };

struct km_dent {
	char *name;
	unsigned char type;	/* DT_* from readdir, maybe DT_UNKNOWN */
};

/* One open directory and its sorted entries; pos is the next to return. */
struct km_level {
	DIR *dir;
	struct km_dent *ents;
	size_t n, pos;
	size_t plen;		/* length of the path prefix of its entries */
};

struct kmirror_cache_scan {
	int root_fd;
	int depth;		/* open levels */
	int fatal;		/* sticky negative errno */
	unsigned long errors;
	struct km_level lv[KM_LV_NR];
	char path[KMC_OBJECT_PATH_SIZE];
	char volume[KMC_VOLUME_DIR_SIZE];
	size_t volume_len;
	u32 volume_hash;
	u8 vol_xattr[KMC_VOL_XATTR_MAX + 1];
	struct kmc_vol_xattr vx;
	bool vx_ok;
	unsigned int fanout;
	u8 key[KMC_UNCOOKED_MAX];
	u8 xattr[KMC_XATTR_MAX + 1];
	char msg[160];
	char errbuf[96];
};

static int km_dent_cmp(const void *a, const void *b)
{
	const struct km_dent *x = a, *y = b;

	return strcmp(x->name, y->name);
}

static void km_level_free(struct km_level *lv)
{
	size_t i;

	for (i = 0; i < lv->n; i++)
		free(lv->ents[i].name);
	free(lv->ents);
	if (lv->dir)
		closedir(lv->dir);
	memset(lv, 0, sizeof(*lv));
}

/* Append one entry; the array grows geometrically. */
static int km_level_add(struct km_level *lv, size_t *cap,
			const struct dirent *de)
{
	struct km_dent *ents;

	if (lv->n == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		ents = realloc(lv->ents, *cap * sizeof(*ents));
		if (!ents)
			return -ENOMEM;
		lv->ents = ents;
	}
	lv->ents[lv->n].name = strdup(de->d_name);
	if (!lv->ents[lv->n].name)
		return -ENOMEM;
	lv->ents[lv->n++].type = de->d_type;
	return 0;
}

/*
 * Take ownership of the directory @fd (closed on error too) and read all
 * its entries but "." and "..", sorted by name.
 */
static int km_level_load(struct km_level *lv, int fd)
{
	struct dirent *de;
	size_t cap = 0;
	int ret = 0;

	lv->dir = fdopendir(fd);
	if (!lv->dir) {
		ret = -errno;
		close(fd);
		return ret;
	}
	for (errno = 0; (de = readdir(lv->dir)) != NULL; errno = 0) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		ret = km_level_add(lv, &cap, de);
		if (ret < 0)
			return ret;
	}
	if (errno)
		return -errno;
	if (lv->n)
		qsort(lv->ents, lv->n, sizeof(*lv->ents), km_dent_cmp);
	return 0;
}

static int km_level_fd(const struct km_level *lv)
{
	return dirfd(lv->dir);
}

/* Push a level for directory @fd whose entries get path prefix @plen. */
static int km_push(struct kmirror_cache_scan *s, int fd, size_t plen)
{
	struct km_level *lv = &s->lv[s->depth];
	int ret;

	lv->plen = plen;
	ret = km_level_load(lv, fd);
	if (ret < 0) {
		km_level_free(lv);
		return ret;
	}
	s->depth++;
	return 0;
}

static void km_pop(struct kmirror_cache_scan *s)
{
	km_level_free(&s->lv[--s->depth]);
}

/*
 * Set path to the prefix of level @lv plus @name.  Returns the new length.
 * Invariant: every prefix ends in '/' and fits; readdir() names are at most
 * NAME_MAX; only "@xx" fan-outs are pushed, so the longest path is
 * "cache/" + 255 + "/@xx/" + 255, which is what KMC_OBJECT_PATH_SIZE holds.
 */
static size_t km_path_set(struct kmirror_cache_scan *s,
			  const struct km_level *lv, const char *name)
{
	size_t len = strnlen(name, NAME_MAX);

	memcpy(s->path + lv->plen, name, len);
	s->path[lv->plen + len] = '\0';
	return lv->plen + len;
}

static void km_path_dir(struct kmirror_cache_scan *s, size_t len)
{
	s->path[len] = '/';
	s->path[len + 1] = '\0';
}

/* strerror() without its shared buffer: scanners may run in parallel. */
static const char *km_strerror(struct kmirror_cache_scan *s, int err)
{
	if (strerror_r(-err, s->errbuf, sizeof(s->errbuf)))
		snprintf(s->errbuf, sizeof(s->errbuf), "error %d", -err);
	return s->errbuf;
}

/* Mark @obj in error with a static @msg. */
static int km_fail(struct kmirror_cache_scan *s,
		   struct kmirror_cache_object *obj, int err, const char *msg)
{
	obj->error = err;
	obj->error_msg = msg;
	s->errors++;
	return 1;
}

/* Mark @obj in error with a formatted message kept in the scanner. */
__attribute__((format(printf, 4, 5)))
static int km_failf(struct kmirror_cache_scan *s,
		    struct kmirror_cache_object *obj, int err,
		    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->msg, sizeof(s->msg), fmt, ap);
	va_end(ap);
	return km_fail(s, obj, err, s->msg);
}

/* Error text for a failed fgetxattr() of the cachefiles xattr. */
static const char *km_getxattr_msg(int err)
{
	switch (err) {
	case -ENODATA:
		return "no user.CacheFiles.cache xattr";
	case -ERANGE:
		return "xattr too long (longer than cachefiles ever writes)";
	case -EOPNOTSUPP:
		return "filesystem does not support user xattrs";
	default:
		return NULL;
	}
}

/* Read the cachefiles xattr of @fd into @buf (@size bytes). */
static ssize_t km_read_xattr(int fd, u8 *buf, size_t size)
{
	ssize_t n = fgetxattr(fd, KMC_XATTR_NAME, buf, size);

	return n < 0 ? -errno : n;
}

static int km_xattr_fail(struct kmirror_cache_scan *s,
			 struct kmirror_cache_object *obj, int err)
{
	const char *msg = km_getxattr_msg(err);

	if (msg)
		return km_fail(s, obj, err, msg);
	return km_failf(s, obj, err, "cannot read xattr: %s",
			km_strerror(s, err));
}

/*
 * Type of entry @d of directory @dfd, without following a symlink: from
 * readdir() when the filesystem gives it, else from fstatat().
 */
static int km_dent_type(int dfd, const struct km_dent *d, mode_t *mode)
{
	struct stat st;

	if (d->type != DT_UNKNOWN) {
		*mode = DTTOIF(d->type);
		return 0;
	}
	int ret = kmirror_cachedir_stat(dfd, d->name, &st);

	if (ret)
		return ret;
	*mode = st.st_mode & S_IFMT;
	return 0;
}

/* Open subdirectory @name of @dfd, never through a symlink. */
static int km_open_dir(int dfd, const char *name)
{
	return kmirror_cachedir_open(dfd, name, O_RDONLY | O_DIRECTORY);
}

/* Open directory entry @d of @dfd: it must be a directory itself. */
static int km_open_subdir(int dfd, const struct km_dent *d)
{
	mode_t mode = 0;
	int ret = km_dent_type(dfd, d, &mode);

	if (ret < 0)
		return ret;
	if (mode != S_IFDIR)
		return -ENOTDIR;
	return km_open_dir(dfd, d->name);
}

/*
 * Push directory @fd, whose path is the first @plen bytes of s->path, as
 * the next level (its entries get the prefix "<path>/").  The path is left
 * without the '/', as the record of the directory itself wants it.
 */
static int km_push_dir(struct kmirror_cache_scan *s, int fd, size_t plen)
{
	int ret;

	km_path_dir(s, plen);
	ret = km_push(s, fd, plen + 1);
	s->path[plen] = '\0';
	return ret;
}

static void km_obj_init(struct kmirror_cache_scan *s,
			struct kmirror_cache_object *obj,
			enum kmirror_cache_kind kind)
{
	memset(obj, 0, sizeof(*obj));
	obj->kind = kind;
	obj->path = s->path;
	obj->volume = s->volume;
}

/* The volume's fields every object of it carries. */
static void km_obj_volume(struct kmirror_cache_scan *s,
			  struct kmirror_cache_object *obj)
{
	obj->volume_len = s->volume_len;
	if (s->vx_ok) {
		obj->volume_coherency = s->vx.coherency;
		obj->volume_coherency_len = s->vx.coherency_len;
	}
}

/*
 * Judge the volume directory just opened (fd @fd): its xattr must decode.
 * Returns 0 if fine, else a negative errno and a message in *@msg.
 */
static int km_volume_xattr(struct kmirror_cache_scan *s, int fd,
			   const char **msg)
{
	ssize_t n = km_read_xattr(fd, s->vol_xattr, sizeof(s->vol_xattr));
	int ret;

	if (n < 0) {
		*msg = km_getxattr_msg((int)n);
		if (!*msg)
			*msg = km_strerror(s, (int)n);
		return (int)n;
	}
	ret = kmc_vol_xattr_decode(s->vol_xattr, (size_t)n, &s->vx);
	if (ret < 0) {
		*msg = kmc_xattr_strerror(ret);
		return ret;
	}
	s->vx_ok = true;
	return 0;
}

/* Remember the volume key of directory @name and its fscache hash. */
static int km_volume_enter(struct kmirror_cache_scan *s, const char *name)
{
	const char *vkey;
	size_t vlen;

	if (kmc_parse_volume_dir(name, strlen(name), &vkey, &vlen) < 0)
		return -EINVAL;
	memcpy(s->volume, vkey, vlen);
	s->volume[vlen] = '\0';
	s->volume_len = vlen;
	s->vx_ok = false;
	return kmc_volume_hash(vkey, vlen, &s->volume_hash);
}

/*
 * An entry of cache/.  A good volume directory is pushed and yields no
 * record (0); anything wrong with it yields a record (1), pushed anyway
 * when it is a readable directory so that its objects still get listed.
 * Only -ENOMEM is returned as such: the walk cannot go on.
 */
static int km_step_volume(struct kmirror_cache_scan *s,
			  const struct km_dent *d,
			  struct kmirror_cache_object *obj)
{
	const struct km_level *lv = &s->lv[KM_LV_CACHE];
	size_t plen = km_path_set(s, lv, d->name);
	const char *msg = NULL;
	int fd, bad, err;

	km_obj_init(s, obj, KMIRROR_CACHE_VOLUME);
	if (km_volume_enter(s, d->name) < 0) {
		obj->kind = KMIRROR_CACHE_STRAY;
		return km_fail(s, obj, -EINVAL,
			       "not a volume directory (no 'I' prefix)");
	}
	obj->volume_len = s->volume_len;
	fd = km_open_subdir(km_level_fd(lv), d);
	if (fd < 0)
		return km_failf(s, obj, fd, "cannot open volume: %s",
				km_strerror(s, fd));
	bad = km_volume_xattr(s, fd, &msg);
	err = km_push_dir(s, fd, plen);
	if (err == -ENOMEM)
		return err;
	if (err < 0)
		return km_failf(s, obj, err, "cannot list volume: %s",
				km_strerror(s, err));
	if (bad < 0)
		return km_failf(s, obj, bad, "volume xattr: %s", msg);
	return 0;
}

/* An entry of a volume directory: a fan-out is pushed (0), else a record. */
static int km_step_fanout(struct kmirror_cache_scan *s,
			  const struct km_dent *d,
			  struct kmirror_cache_object *obj)
{
	const struct km_level *lv = &s->lv[KM_LV_VOLUME];
	size_t plen = km_path_set(s, lv, d->name);
	int idx = kmc_parse_fanout(d->name, strlen(d->name));
	int err;

	km_obj_init(s, obj, KMIRROR_CACHE_FANOUT);
	km_obj_volume(s, obj);
	if (idx < 0) {
		obj->kind = KMIRROR_CACHE_STRAY;
		return km_fail(s, obj, -EINVAL,
			       "not a fan-out directory (@xx)");
	}
	obj->fanout = s->fanout = (unsigned int)idx;
	err = km_open_subdir(km_level_fd(lv), d);
	if (err >= 0)
		err = km_push_dir(s, err, plen);
	if (err == -ENOMEM)
		return err;
	if (err < 0)
		return km_failf(s, obj, err, "cannot open fan-out: %s",
				km_strerror(s, err));
	return 0;
}

/*
 * Open object @d of the fan-out @dfd for reading its xattr: a regular file
 * (cachefiles_look_up_object() buries anything else), never a symlink,
 * and never opened at all when it is a device or FIFO (kmirror/cachedir.h
 * checks the rest: one name, the cache's owner).  Returns the fd, -EINVAL
 * for a wrong file type, or another negative errno.
 */
static int km_open_object(int dfd, const struct km_dent *d)
{
	mode_t mode = 0;
	int fd, ret;

	ret = km_dent_type(dfd, d, &mode);
	if (ret < 0)
		return ret;
	if (mode != S_IFREG)
		return -EINVAL;
	fd = kmirror_cachedir_open(dfd, d->name, O_RDONLY);
	return fd == -ELOOP ? -EINVAL : fd;
}

/* Read and decode the object xattr of @fd into @obj. */
static int km_object_xattr(struct kmirror_cache_scan *s, int fd,
			   struct kmirror_cache_object *obj)
{
	struct kmc_xattr x;
	ssize_t n = km_read_xattr(fd, s->xattr, sizeof(s->xattr));
	int ret;

	if (n < 0)
		return km_xattr_fail(s, obj, (int)n);
	ret = kmc_xattr_decode(s->xattr, (size_t)n, &x);
	if (ret < 0)
		return km_fail(s, obj, ret, kmc_xattr_strerror(ret));
	obj->object_size = x.object_size;
	obj->zero_point = x.zero_point;
	obj->type = x.type;
	obj->content = x.content;
	obj->aux = x.aux;
	obj->aux_len = x.aux_len;
	return 0;
}

/*
 * The object must sit in the fan-out its key hashes to, or the kernel
 * would never find it.  S/T names give whole words, but the hash pads the
 * key with zeros to whole words anyway, so the check holds for them too.
 */
static int km_object_fanout(struct kmirror_cache_scan *s,
			    struct kmirror_cache_object *obj)
{
	int ret = kmc_cookie_hash(s->volume_hash, obj->key, obj->key_len,
				  &obj->key_hash);

	if (ret < 0)
		return km_fail(s, obj, ret,
			       "key is not a valid fscache cookie key");
	if (kmc_cookie_fanout(obj->key_hash) != obj->fanout)
		return km_failf(s, obj, -EXDEV,
				"object is in fan-out @%02x but its key hashes to @%02x",
				obj->fanout, kmc_cookie_fanout(obj->key_hash));
	return 0;
}

/* An entry of a fan-out directory: always one record. */
static int km_step_object(struct kmirror_cache_scan *s,
			  const struct km_dent *d,
			  struct kmirror_cache_object *obj)
{
	const struct km_level *lv = &s->lv[KM_LV_FANOUT];
	int len, fd, ret;

	km_path_set(s, lv, d->name);
	km_obj_init(s, obj, KMIRROR_CACHE_OBJECT);
	km_obj_volume(s, obj);
	obj->fanout = s->fanout;
	len = kmc_parse_object_name(d->name, strlen(d->name), s->key,
				    sizeof(s->key));
	if (len < 0)
		return km_fail(s, obj, len, "not a cachefiles object name");
	obj->key = s->key;
	obj->key_len = (size_t)len;
	fd = km_open_object(km_level_fd(lv), d);
	if (fd == -EINVAL)
		return km_fail(s, obj, fd, "not a regular file");
	if (fd < 0)
		return km_failf(s, obj, fd, "cannot open object: %s",
				kmirror_cachedir_refused(fd) ?
				kmirror_cachedir_strerror(fd) :
				km_strerror(s, fd));
	ret = km_object_xattr(s, fd, obj);
	close(fd);
	if (!ret)
		km_object_fanout(s, obj);
	return 1;
}

/* Dispatch the next entry of the deepest level; 1 if it made a record. */
static int km_step(struct kmirror_cache_scan *s,
		   struct kmirror_cache_object *obj)
{
	struct km_level *lv = &s->lv[s->depth - 1];
	const struct km_dent *d = &lv->ents[lv->pos++];

	/* A record for the directory itself may have cut its '/' off. */
	s->path[lv->plen - 1] = '/';

	switch (s->depth - 1) {
	case KM_LV_CACHE:
		return km_step_volume(s, d, obj);
	case KM_LV_VOLUME:
		return km_step_fanout(s, d, obj);
	default:
		return km_step_object(s, d, obj);
	}
}

int kmirror_cache_next(struct kmirror_cache_scan *s,
		       struct kmirror_cache_object *obj)
{
	int ret;

	while (!s->fatal && s->depth) {
		if (s->lv[s->depth - 1].pos == s->lv[s->depth - 1].n) {
			km_pop(s);
			continue;
		}
		ret = km_step(s, obj);
		if (ret < 0)
			s->fatal = ret;
		else if (ret)
			return ret;
	}
	return s->fatal;
}

unsigned long kmirror_cache_errors(const struct kmirror_cache_scan *s)
{
	return s->errors;
}

/* Open and load cache/ of the root @root_fd as the first level. */
static int km_open_store(struct kmirror_cache_scan *s)
{
	struct stat st;
	int fd, ret = kmirror_cachedir_stat(s->root_fd, KMC_CACHE_DIR, &st);

	if (ret)
		return ret == -ENOENT ? -EMEDIUMTYPE : ret;
	if (S_ISLNK(st.st_mode))
		return -ELOOP;		/* never followed: said plainly */
	if (!S_ISDIR(st.st_mode))
		return -EMEDIUMTYPE;
	fd = km_open_dir(s->root_fd, KMC_CACHE_DIR);
	if (fd < 0)
		return fd;
	memcpy(s->path, KMC_CACHE_DIR "/", sizeof(KMC_CACHE_DIR));
	return km_push(s, fd, sizeof(KMC_CACHE_DIR));
}

int kmirror_cache_openat(int dirfd, const char *dir,
			 struct kmirror_cache_scan **scan)
{
	struct kmirror_cache_scan *s = calloc(1, sizeof(*s));
	int ret;

	if (!s)
		return -ENOMEM;
	/* The root the caller named (followed), or one beneath @dirfd. */
	s->root_fd = dirfd == AT_FDCWD ? kmirror_cachedir_root(dir) :
		     kmirror_cachedir_open(dirfd, dir, O_RDONLY | O_DIRECTORY);
	if (s->root_fd < 0) {
		ret = s->root_fd;
		free(s);
		return ret;
	}
	ret = km_open_store(s);
	if (ret < 0) {
		kmirror_cache_close(s);
		return ret;
	}
	*scan = s;
	return 0;
}

int kmirror_cache_open(const char *dir, struct kmirror_cache_scan **scan)
{
	return kmirror_cache_openat(AT_FDCWD, dir, scan);
}

void kmirror_cache_close(struct kmirror_cache_scan *s)
{
	if (!s)
		return;
	while (s->depth)
		km_pop(s);
	close(s->root_fd);
	free(s);
}

const char *kmirror_cache_content_name(unsigned int content)
{
	return kmc_content_str(content);
}

_Static_assert(KMIRROR_CACHE_PATH_SIZE == KMC_OBJECT_PATH_SIZE,
	       "kmirror/cache.h's path size is the core's");

int kmirror_cache_object_path(const char *volume, const void *key,
			      size_t key_len, char *path, size_t size)
{
	size_t vlen = strlen(volume);
	u32 vhash = 0, hash = 0;
	int ret;

	ret = kmc_volume_hash(volume, vlen, &vhash);
	if (!ret)
		ret = kmc_cookie_hash(vhash, key, key_len, &hash);
	if (ret < 0)
		return ret;
	return kmc_object_path(volume, vlen, hash, key, key_len, path, size);
}
