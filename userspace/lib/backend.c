// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cachefiles backend: fs/cachefiles/{cache,volume,namei,interface,
 * xattr}.c of the 6.1 tree over a directory, with *at() system calls.
 *
 * Names (volume dirs, fan-outs, cooked keys, graves) come from the core's
 * kmc_layout.h / kmc_key.h, xattr bytes and coherency verdicts from
 * kmc_xattr.h, the fate of an object at withdrawal from
 * kmc_cookie_state.h.  What is the kernel's and what is ours:
 *  - new and invalidated objects are O_TMPFILEs linked into their fan-out
 *    when the cookie is withdrawn (cachefiles_commit_tmpfile()); where the
 *    filesystem has no O_TMPFILE, a file in graveyard/ renamed into place;
 *  - a stale regular file is unlinked, a directory where an object should
 *    be is moved to graveyard/ (cachefiles_bury_object());
 *  - objects are created 0600, not 0000, so that a non-root owner can open
 *    them again; a 0000 object of that owner (the kernel's) is chmod'ed;
 *  - no O_DIRECT: reads and writes go through the page cache.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "kmirror/cachedir.h"
#include "kmc_key.h"
#include "kmc_xattr.h"

#define KMF_DIO_BLOCK		4096	/* CACHEFILES_DIO_BLOCK_SIZE */
#define KMF_OBJ_PATH_SIZE	(KMC_FANOUT_NAME_LEN + 1 + NAME_MAX + 1)

/* ---- files ---------------------------------------------------------- */

static struct kmf_file *kmf_file_new(int fd)
{
	struct kmf_file *f = kmalloc(sizeof(*f), GFP_KERNEL);

	if (!f) {
		close(fd);
		return NULL;
	}
	atomic_init(&f->ref, 1);
	f->fd = fd;
	return f;
}

void kmf_fput(struct kmf_file *f)
{
	if (f && atomic_fetch_sub(&f->ref, 1) == 1) {
		close(f->fd);
		kfree(f);
	}
}

/* get_file(object->file) under object->lock. */
struct kmf_file *kmf_object_get_file(struct kmf_object *o)
{
	struct kmf_file *f;

	pthread_mutex_lock(&o->lock);
	f = o->file;
	if (f)
		atomic_fetch_add(&f->ref, 1);
	pthread_mutex_unlock(&o->lock);
	return f;
}

/* ---- directories and the graveyard --------------------------------- */

/*
 * cachefiles_get_directory(): make @name under @parent (0700) unless it
 * exists, and open it.  -ENOTDIR if it is not a directory, -ELOOP if it
 * is a symlink (kmirror/cachedir.h).
 */
static int kmf_get_directory(int parent, const char *name, bool *is_new)
{
	return kmirror_cachedir_mkdir(parent, name, is_new);
}

/* cachefiles_bury_object() for a directory: into graveyard/%08x%08x. */
static int kmf_bury_dir(struct fscache_cache *cache, int dir,
			const char *name)
{
	char grave[KMC_GRAVE_NAME_LEN + 1];
	unsigned int tries;
	int ret;
	u32 n;

	for (tries = 0; tries < 1000; tries++) {
		n = atomic_fetch_add(&cache->gravecounter, 1) + 1;
		kmc_grave_name((u32)time(NULL), n, grave, sizeof(grave));
		ret = kmirror_cachedir_rename(dir, name, cache->grave_fd, grave,
					      RENAME_NOREPLACE);
		if (ret != -EEXIST)
			return ret;
	}
	return -EEXIST;
}

/* cachefiles_bury_object(): files are unlinked, directories buried. */
static int kmf_bury(struct fscache_cache *cache, int dir, const char *name)
{
	struct stat st;
	int ret = kmirror_cachedir_stat(dir, name, &st);

	if (ret)
		return ret == -ENOENT ? 0 : ret;
	if (S_ISDIR(st.st_mode))
		return kmf_bury_dir(cache, dir, name);
	ret = kmirror_cachedir_unlink(dir, name, 0);
	return ret == -ENOENT ? 0 : ret;
}

/* 1 if the directory @fd has no entries, 0 if it has, or -errno. */
static int kmf_dir_empty(int fd)
{
	struct dirent *de;
	int dfd = dup(fd), empty = 1;
	DIR *d;

	if (dfd < 0)
		return -errno;
	d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return -errno;
	}
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			empty = 0;
	closedir(d);
	return empty;
}

/*
 * A new cache is an empty directory; an old one has cache/, which must
 * be a directory (-ENOTDIR), not a symlink to one (-ELOOP).
 */
static int kmf_check_root(int root)
{
	struct stat st;
	int ret = kmirror_cachedir_stat(root, KMC_CACHE_DIR, &st);

	if (!ret && S_ISLNK(st.st_mode))
		return -ELOOP;
	if (!ret)
		return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
	if (ret != -ENOENT)
		return ret;
	ret = kmf_dir_empty(root);
	if (ret < 0)
		return ret;
	return ret ? 0 : -ENOTDIR;
}

/* What the backing filesystem offers (cachefiles_add_cache() checks). */
static int kmf_probe_fs(struct fscache_cache *cache)
{
	struct statfs sfs;
	int fd;

	if (fgetxattr(cache->store_fd, KMC_XATTR_NAME, NULL, 0) < 0 &&
	    (errno == ENOTSUP || errno == EOPNOTSUPP))
		return -EOPNOTSUPP;
	if (fstatfs(cache->store_fd, &sfs))
		return -errno;
	cache->bsize = sfs.f_bsize > 0 ? sfs.f_bsize : KMF_DIO_BLOCK;
	fd = kmirror_cachedir_tmpfile(cache->store_fd, ".", O_RDWR);
	cache->tmpfile_ok = fd >= 0;
	if (fd >= 0)
		close(fd);
	return 0;
}

static int kmf_backend_open(struct fscache_cache *cache, const char *dir)
{
	int ret;

	cache->root_fd = kmirror_cachedir_root(dir);
	if (cache->root_fd < 0)
		return cache->root_fd;
	ret = kmf_check_root(cache->root_fd);
	if (ret)
		return ret;
	cache->store_fd = kmf_get_directory(cache->root_fd, KMC_CACHE_DIR,
					    NULL);
	if (cache->store_fd < 0)
		return cache->store_fd;
	cache->grave_fd = kmf_get_directory(cache->root_fd,
					    KMC_GRAVEYARD_DIR, NULL);
	if (cache->grave_fd < 0)
		return cache->grave_fd;
	return kmf_probe_fs(cache);
}

static void kmf_backend_close(struct fscache_cache *cache)
{
	if (cache->grave_fd >= 0)
		close(cache->grave_fd);
	if (cache->store_fd >= 0)
		close(cache->store_fd);
	if (cache->root_fd >= 0)
		close(cache->root_fd);
}

/* ---- volumes -------------------------------------------------------- */

/* cachefiles_set_volume_xattr(). */
static int kmf_set_volume_xattr(struct fscache_volume *v, int fd)
{
	struct kmc_vol_xattr x = {
		.coherency = v->coherency, .coherency_len = v->coherency_len,
	};
	u8 buf[KMC_VOL_XATTR_MAX];
	int len = kmc_vol_xattr_encode(&x, buf, sizeof(buf));

	if (len < 0)
		return len;
	if (fsetxattr(fd, KMC_XATTR_NAME, buf, len, 0))
		return -errno;
	return 0;
}

/* cachefiles_check_volume_xattr(): read exactly the expected length. */
static int kmf_check_volume_xattr(struct fscache_volume *v, int fd)
{
	u8 buf[KMC_VOL_XATTR_MAX];
	enum kmc_coherency why;
	ssize_t xlen;

	xlen = fgetxattr(fd, KMC_XATTR_NAME, buf,
			 KMC_VOL_XATTR_HDR_LEN + v->coherency_len);
	if (xlen < 0)
		xlen = -errno;
	return kmc_vol_xattr_check(buf, xlen, v->coherency, v->coherency_len,
				   &why);
}

/* The 256 fan-out directories; existing ones must be directories. */
static int kmf_make_fanouts(int vfd)
{
	char name[KMC_FANOUT_NAME_LEN + 1];
	unsigned int i;
	int fd;

	for (i = 0; i < KMC_FANOUT_NR; i++) {
		kmc_fanout_name(i, name, sizeof(name));
		fd = kmirror_cachedir_mkdir(vfd, name, NULL);
		if (fd < 0)
			return fd;
		close(fd);
	}
	return 0;
}

/*
 * Open (or make) the volume directory, checking its coherency xattr; a
 * stale one is buried and made anew (cachefiles_acquire_volume()).
 */
static int kmf_open_volume_dir(struct fscache_volume *v, const char *name)
{
	struct fscache_cache *cache = v->cache;
	unsigned int tries;
	bool is_new;
	int fd, ret;

	for (tries = 0; tries < 16; tries++) {
		is_new = false;
		fd = kmf_get_directory(cache->store_fd, name, &is_new);
		if (fd < 0)
			return fd;
		ret = is_new ? kmf_set_volume_xattr(v, fd) :
			       kmf_check_volume_xattr(v, fd);
		if (!ret)
			return fd;
		close(fd);
		if (ret != -ESTALE)
			return ret;
		ret = kmf_bury_dir(cache, cache->store_fd, name);
		if (ret)
			return ret;
	}
	return -ESTALE;
}

static int kmf_backend_acquire_volume(struct fscache_volume *v)
{
	char name[KMC_VOLUME_DIR_SIZE];
	int fd, ret;

	ret = kmc_volume_dir_name(kmf_volume_name(v), v->key[0], name,
				  sizeof(name));
	if (ret < 0)
		return ret;
	fd = kmf_open_volume_dir(v, name);
	if (fd < 0)
		return fd;
	ret = kmf_make_fanouts(fd);
	if (ret) {
		close(fd);
		return ret;
	}
	v->dir_fd = fd;
	return 0;
}

/*
 * fscache_free_volume() -> cachefiles: an invalidated volume is buried,
 * new coherency data is stored (see fscache.h: the 6.1 kernel does
 * neither before the cache is unbound).
 */
static void kmf_backend_free_volume(struct fscache_volume *v,
				    unsigned int flags)
{
	char name[KMC_VOLUME_DIR_SIZE];
	int ret = 0;

	if (v->dir_fd < 0)
		return;
	if ((flags & KMF_VOLUME_INVALIDATE) &&
	    kmc_volume_dir_name(kmf_volume_name(v), v->key[0], name,
				sizeof(name)) > 0)
		ret = kmf_bury_dir(v->cache, v->cache->store_fd, name);
	else if (flags & KMF_VOLUME_COH_CHANGED)
		ret = kmf_set_volume_xattr(v, v->dir_fd);
	if (ret)
		pr_warn("kmirror: volume %s: %s\n", kmf_volume_name(v),
			strerror(-ret));
	close(v->dir_fd);
	v->dir_fd = -1;
}

/* ---- objects -------------------------------------------------------- */

/* "@xx/<cooked key>", relative to the volume directory. */
static void kmf_object_path(const struct kmf_object *o, char *path)
{
	kmc_fanout_name(o->fanout, path, KMC_FANOUT_NAME_LEN + 1);
	path[KMC_FANOUT_NAME_LEN] = '/';
	strcpy(path + KMC_FANOUT_NAME_LEN + 1, o->name);
}

/* cachefiles_alloc_object() + cachefiles_cook_key(). */
static struct kmf_object *kmf_alloc_object(struct fscache_cookie *c)
{
	char cooked[KMC_COOKED_MAX + 1];
	struct kmf_object *o;
	int len;

	len = kmc_cook_key(c->key, c->key_len, cooked, sizeof(cooked));
	if (len < 0 || len > NAME_MAX)
		return NULL;
	o = kzalloc(sizeof(*o), GFP_KERNEL);
	if (!o)
		return NULL;
	pthread_mutex_init(&o->lock, NULL);
	o->fanout = kmc_fanout_index(c->key_hash);
	memcpy(o->name, cooked, len + 1);
	return o;
}

static void kmf_free_object(struct kmf_object *o)
{
	pthread_mutex_destroy(&o->lock);
	kfree(o);
}

/* The cookie's aux data, size and flags, read under its lock. */
struct kmf_coh {
	u8		aux[KMC_COOKIE_AUX_MAX];
	unsigned int	aux_len;
	s64		size;
	unsigned long	flags;
};

static void kmf_snapshot(struct fscache_cookie *c, struct kmf_coh *h)
{
	pthread_mutex_lock(&c->lock);
	h->aux_len = c->aux_len;
	memcpy(h->aux, c->aux, c->aux_len);
	h->size = atomic_load(&c->object_size);
	h->flags = kmf_cookie_flags(c);
	pthread_mutex_unlock(&c->lock);
}

/* cachefiles_set_object_xattr(). */
static int kmf_set_object_xattr(struct fscache_cookie *c,
				struct kmf_object *o, int fd)
{
	u8 buf[KMC_XATTR_MAX];
	struct kmf_coh h;
	struct kmc_xattr x = { .type = KMC_XATTR_TYPE_DATA };
	int len;

	kmf_snapshot(c, &h);
	x.object_size = h.size;
	x.content = (h.flags & KMC_CF(LOCAL_WRITE)) ? KMC_CONTENT_DIRTY :
						       o->content_info;
	x.aux = h.aux;
	x.aux_len = h.aux_len;
	len = kmc_xattr_encode(&x, buf, sizeof(buf));
	if (len < 0)
		return len;
	if (fsetxattr(fd, KMC_XATTR_NAME, buf, len, 0)) {
		pr_err("kmirror: Failed to set xattr with error %d\n", -errno);
		return -errno;
	}
	return 0;
}

/* cachefiles_check_auxdata(): read exactly header + aux_len bytes. */
static int kmf_check_auxdata(struct fscache_cookie *c, int fd)
{
	u8 buf[KMC_XATTR_MAX];
	enum kmc_coherency why;
	struct kmf_coh h;
	ssize_t xlen;

	kmf_snapshot(c, &h);
	xlen = fgetxattr(fd, KMC_XATTR_NAME, buf,
			 KMC_XATTR_HDR_LEN + h.aux_len);
	if (xlen < 0)
		xlen = -errno;
	return kmc_xattr_check(buf, xlen, h.aux, h.aux_len, (u64)h.size, &why);
}

/* The size cachefiles gives a backing file: whole DIO blocks. */
static off_t kmf_dio_size(s64 size)
{
	return size > 0 ? round_up((off_t)size, (off_t)KMF_DIO_BLOCK) : 0;
}

/* A new unlinked file: O_TMPFILE in the fan-out, else one in graveyard/. */
static int kmf_tmpfile_fd(struct fscache_volume *v, struct kmf_object *o,
			  char *tmpname)
{
	struct fscache_cache *cache = v->cache;
	char fan[KMC_FANOUT_NAME_LEN + 1];
	unsigned int tries;
	int fd;

	tmpname[0] = 0;
	if (cache->tmpfile_ok) {
		kmc_fanout_name(o->fanout, fan, sizeof(fan));
		return kmirror_cachedir_tmpfile(v->dir_fd, fan, O_RDWR);
	}
	for (tries = 0; tries < 1000; tries++) {
		kmc_grave_name((u32)time(NULL),
			       atomic_fetch_add(&cache->gravecounter, 1) + 1,
			       tmpname, KMC_GRAVE_NAME_LEN + 1);
		fd = kmirror_cachedir_open(cache->grave_fd, tmpname, O_CREAT |
					   O_EXCL | O_RDWR);
		if (fd != -EEXIST)
			return fd;
	}
	return -EEXIST;
}

/* cachefiles_create_tmpfile(): sized to the object, in whole blocks. */
static struct kmf_file *kmf_create_tmpfile(struct fscache_cookie *c,
					   struct kmf_object *o,
					   char *tmpname)
{
	struct fscache_cache *cache = c->volume->cache;
	off_t size = kmf_dio_size(atomic_load(&c->object_size));
	int fd = kmf_tmpfile_fd(c->volume, o, tmpname);

	if (fd == -ENOSPC || fd == -EDQUOT)
		kmf_stat(cache, no_create_space);
	if (fd < 0)
		return NULL;
	if (size && ftruncate(fd, size)) {
		close(fd);
		if (tmpname[0])
			kmirror_cachedir_unlink(cache->grave_fd, tmpname, 0);
		return NULL;
	}
	return kmf_file_new(fd);
}

/* cachefiles_create_file(). */
static bool kmf_create_file(struct fscache_cookie *c, struct kmf_object *o)
{
	char tmpname[KMC_GRAVE_NAME_LEN + 1];
	struct kmf_file *f = kmf_create_tmpfile(c, o, tmpname);

	if (!f)
		return false;
	kmf_set_flag(c, KMC_CF(NEEDS_UPDATE));
	pthread_mutex_lock(&o->lock);
	o->using_tmpfile = true;
	strcpy(o->tmpname, tmpname);
	o->file = f;
	pthread_mutex_unlock(&o->lock);
	return true;
}

/*
 * open(): an object "@xx/name" under the volume directory @dir, through
 * kmirror/cachedir.h: a regular file of the cache's owner with one name,
 * no symlink followed on the way, a FIFO in its place refused without
 * hanging us.  A 0000 object of ours (as the kernel writes them) is
 * chmod'ed 0600 first, through the O_PATH descriptor's /proc name.
 */
static int kmf_open_object(int dir, const char *path)
{
	int fd = kmirror_cachedir_open(dir, path, O_RDWR);
	struct stat st;
	char proc[64];

	if (fd != -EACCES)
		return fd;
	fd = kmirror_cachedir_open(dir, path, O_PATH);
	if (fd < 0 || fstat(fd, &st) || st.st_uid != geteuid()) {
		if (fd >= 0)
			close(fd);
		return -EACCES;
	}
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (chmod(proc, 0600)) {
		close(fd);
		return -EACCES;
	}
	close(fd);
	return kmirror_cachedir_open(dir, path, O_RDWR);
}

/* cachefiles_open_file(): an existing object, checked; stale: replaced. */
static bool kmf_open_file(struct fscache_cookie *c, struct kmf_object *o,
			  const char *path)
{
	struct timespec times[2] = { { 0, UTIME_NOW }, { 0, UTIME_OMIT } };
	struct kmf_file *f;
	int fd, ret;

	fd = kmf_open_object(c->volume->dir_fd, path);
	if (fd < 0)
		return false;
	ret = kmf_check_auxdata(c, fd);
	if (!ret && atomic_load(&c->stale_on_disk))
		ret = -ESTALE;
	if (ret < 0) {
		c->volume->cache->helpers->lookup_negative(c);
		close(fd);
		if (ret != -ESTALE || !kmf_create_file(c, o))
			return false;
		atomic_store(&c->stale_on_disk, false);
		return true;
	}
	f = kmf_file_new(fd);
	if (!f)
		return false;
	kmf_clear_flag(c, KMC_CF(NO_DATA_TO_READ));
	pthread_mutex_lock(&o->lock);
	o->file = f;
	pthread_mutex_unlock(&o->lock);
	futimens(fd, times);
	return true;
}

/* cachefiles_look_up_object(). */
static bool kmf_look_up_object(struct fscache_cookie *c, struct kmf_object *o)
{
	char path[KMF_OBJ_PATH_SIZE];
	int dir = c->volume->dir_fd;
	struct stat st;
	int ret;

	kmf_object_path(o, path);
	ret = kmirror_cachedir_stat(dir, path, &st);
	if (ret) {
		if (ret != -ENOENT)
			return false;
		goto new_file;
	}
	if (!S_ISREG(st.st_mode)) {
		pr_err("kmirror: %s is not a file\n", path);
		if (kmf_bury(c->volume->cache, dir, path) < 0)
			return false;
		goto new_file;
	}
	return kmf_open_file(c, o, path);

new_file:
	c->volume->cache->helpers->lookup_negative(c);
	atomic_store(&c->stale_on_disk, false);
	return kmf_create_file(c, o);
}

/*
 * cachefiles_adjust_size(): the file holds whole DIO blocks of the object;
 * a partial tail block is dropped before the file grows past it.
 */
static void kmf_adjust_size(struct fscache_cookie *c, struct kmf_file *f)
{
	off_t ni = kmf_dio_size(atomic_load(&c->object_size));
	struct stat st;

	if (!f || fstat(f->fd, &st) || st.st_size == ni)
		return;
	if ((st.st_size & (KMF_DIO_BLOCK - 1)) && ni > st.st_size &&
	    ftruncate(f->fd, st.st_size & ~(off_t)(KMF_DIO_BLOCK - 1)))
		return;
	if (ftruncate(f->fd, ni))
		pr_warn("kmirror: c=%08x: size set failed\n", c->debug_id);
}

/* cachefiles_lookup_cookie(). */
static bool kmf_backend_lookup_cookie(struct fscache_cookie *c)
{
	struct kmf_object *o = kmf_alloc_object(c);
	struct kmf_file *f;

	if (!o)
		return false;
	pthread_mutex_lock(&c->lock);
	c->object = o;
	pthread_mutex_unlock(&c->lock);
	if (!kmf_look_up_object(c, o)) {
		c->volume->cache->helpers->caching_failed(c);
		return false;
	}
	f = kmf_object_get_file(o);
	kmf_adjust_size(c, f);
	kmf_fput(f);
	return true;
}

/* True if @path under @dir is the very file @fd (not a newer one). */
static bool kmf_same_file(int dir, const char *path, int fd)
{
	struct stat a, b;

	return !kmirror_cachedir_stat(dir, path, &a) && !fstat(fd, &b) &&
	       a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* cachefiles_delete_object(). */
static void kmf_delete_object(struct fscache_volume *v, struct kmf_object *o,
			      int fd)
{
	char path[KMF_OBJ_PATH_SIZE];

	kmf_object_path(o, path);
	if (kmf_same_file(v->dir_fd, path, fd))
		kmirror_cachedir_unlink(v->dir_fd, path, 0);
}

/* Link a file created by kmf_tmpfile_fd() at @path. */
static int kmf_link_tmpfile(struct fscache_cache *cache, int dir,
			    const char *path, struct kmf_object *o, int fd)
{
	if (o->tmpname[0])
		return kmirror_cachedir_rename(cache->grave_fd, o->tmpname,
					       dir, path, 0);
	return kmirror_cachedir_link(fd, dir, path);
}

/* cachefiles_commit_tmpfile(): a stale file in the way is unlinked. */
static void kmf_commit_tmpfile(struct fscache_volume *v, struct kmf_object *o,
			       int fd)
{
	char path[KMF_OBJ_PATH_SIZE];
	int ret;

	kmf_object_path(o, path);
	ret = kmf_link_tmpfile(v->cache, v->dir_fd, path, o, fd);
	if (ret == -EEXIST) {
		if (kmf_same_file(v->dir_fd, path, fd))
			ret = 0;
		else if (!kmirror_cachedir_unlink(v->dir_fd, path, 0))
			ret = kmf_link_tmpfile(v->cache, v->dir_fd, path, o,
					       fd);
	}
	if (ret)
		pr_warn("kmirror: commit of %s failed: %s\n", path,
			strerror(-ret));
	else
		o->using_tmpfile = false;
}

/*
 * The fate of the object at withdrawal: the core's, except that an object
 * marked stale (see fscache_invalidate()) is never committed.
 */
static enum kmc_object_fate kmf_fate(struct fscache_cookie *c,
				     struct kmf_object *o, bool *write_xattr)
{
	enum kmc_object_fate fate;
	struct kmc_cookie_step s;

	pthread_mutex_lock(&c->lock);
	fate = kmc_cookie_object_fate(kmf_cookie_flags(c), o->using_tmpfile,
				      write_xattr, &s);
	c->volume->cache->helpers->step_locked(c, &s);
	if (fate == KMC_OBJECT_COMMIT && atomic_load(&c->stale_on_disk)) {
		fate = o->using_tmpfile ? KMC_OBJECT_DROP_TMPFILE :
					  KMC_OBJECT_DELETE;
		if (fate == KMC_OBJECT_DELETE)
			atomic_store(&c->stale_on_disk, false);
	}
	pthread_mutex_unlock(&c->lock);
	return fate;
}

/* cachefiles_clean_up_object(). */
static void kmf_clean_up_object(struct fscache_cookie *c, struct kmf_object *o)
{
	struct fscache_volume *v = c->volume;
	bool write_xattr;
	struct kmf_file *f;

	f = kmf_object_get_file(o);
	switch (kmf_fate(c, o, &write_xattr)) {
	case KMC_OBJECT_DELETE:
		kmf_delete_object(v, o, f->fd);
		break;
	case KMC_OBJECT_DROP_TMPFILE:
		if (o->tmpname[0])
			kmirror_cachedir_unlink(v->cache->grave_fd,
						o->tmpname, 0);
		break;
	case KMC_OBJECT_COMMIT:
		if (write_xattr)
			kmf_set_object_xattr(c, o, f->fd);
		if (o->using_tmpfile)
			kmf_commit_tmpfile(v, o, f->fd);
		break;
	}
	kmf_fput(f);
	pthread_mutex_lock(&o->lock);
	f = o->file;
	o->file = NULL;
	pthread_mutex_unlock(&o->lock);
	kmf_fput(f);
}

/* cachefiles_withdraw_cookie(): the object is gone afterwards. */
static void kmf_backend_withdraw_cookie(struct fscache_cookie *c)
{
	struct kmf_object *o;

	pthread_mutex_lock(&c->lock);
	o = c->object;
	pthread_mutex_unlock(&c->lock);
	if (!o)
		return;
	if (o->file)
		kmf_clean_up_object(c, o);
	pthread_mutex_lock(&c->lock);
	c->object = NULL;
	pthread_mutex_unlock(&c->lock);
	kmf_free_object(o);
}

/*
 * cachefiles_invalidate_cookie(): a new empty tmpfile replaces the file,
 * I/O resumes, then the old file is buried.
 */
static bool kmf_backend_invalidate_cookie(struct fscache_cookie *c)
{
	char tmpname[KMC_GRAVE_NAME_LEN + 1], oldtmp[KMC_GRAVE_NAME_LEN + 1];
	struct kmf_object *o;
	struct kmf_file *new, *old;
	bool old_tmpfile;

	pthread_mutex_lock(&c->lock);
	o = c->object;
	pthread_mutex_unlock(&c->lock);
	if (!o || !o->file) {
		c->volume->cache->helpers->resume_after_invalidation(c);
		return true;
	}
	new = kmf_create_tmpfile(c, o, tmpname);
	if (!new)
		return false;
	pthread_mutex_lock(&o->lock);
	old = o->file;
	old_tmpfile = o->using_tmpfile;
	strcpy(oldtmp, o->tmpname);
	o->file = new;
	o->content_info = KMC_CONTENT_NO_DATA;
	o->using_tmpfile = true;
	strcpy(o->tmpname, tmpname);
	pthread_mutex_unlock(&o->lock);
	kmf_set_flag(c, KMC_CF(NEEDS_UPDATE));
	c->volume->cache->helpers->resume_after_invalidation(c);

	if (!old_tmpfile) {
		kmf_delete_object(c->volume, o, old->fd);
		atomic_store(&c->stale_on_disk, false);
	} else if (oldtmp[0]) {
		kmirror_cachedir_unlink(c->volume->cache->grave_fd, oldtmp,
					0);
	}
	kmf_fput(old);
	return true;
}

/* cachefiles_prepare_to_write(): mark a linked object DIRTY. */
static void kmf_backend_prepare_to_write(struct fscache_cookie *c)
{
	struct kmf_object *o;
	struct kmf_file *f = NULL;

	pthread_mutex_lock(&c->lock);
	o = c->object;
	pthread_mutex_unlock(&c->lock);
	if (!o)
		return;
	pthread_mutex_lock(&o->lock);
	if (!o->using_tmpfile && o->file) {
		f = o->file;
		atomic_fetch_add(&f->ref, 1);
	}
	pthread_mutex_unlock(&o->lock);
	if (f)
		kmf_set_object_xattr(c, o, f->fd);
	kmf_fput(f);
}

/* cachefiles_shorten_object(): cut to whole blocks, zero the tail. */
static bool kmf_shorten_object(struct kmf_file *f, s64 new_size)
{
	off_t dio = kmf_dio_size(new_size);
	static const u8 zeros[KMF_DIO_BLOCK];
	off_t pos = new_size > 0 ? new_size : 0;

	if (ftruncate(f->fd, dio))
		goto failed;
	if (pos < dio &&
	    fallocate(f->fd, FALLOC_FL_ZERO_RANGE, pos, dio - pos) &&
	    pwrite(f->fd, zeros, dio - pos, pos) != dio - pos)
		goto failed;
	return true;
failed:
	fremovexattr(f->fd, KMC_XATTR_NAME);
	return false;
}

/* cachefiles_resize_cookie(). */
static void kmf_backend_resize_cookie(struct fscache_cookie *c,
				      struct kmf_file *f, s64 new_size)
{
	if (f && new_size < atomic_load(&c->object_size) &&
	    !kmf_shorten_object(f, new_size))
		pr_err("kmirror: c=%08x: Trunc-to-size failed\n", c->debug_id);
	pthread_mutex_lock(&c->lock);
	atomic_store(&c->object_size, new_size);
	pthread_mutex_unlock(&c->lock);
}

/* Retiring a cookie never looked up: its object on disk goes too. */
static void kmf_backend_delete_unused(struct fscache_cookie *c)
{
	char path[KMF_OBJ_PATH_SIZE];
	struct kmf_object *o;

	if (c->volume->dir_fd < 0)
		return;
	o = kmf_alloc_object(c);
	if (!o)
		return;
	kmf_object_path(o, path);
	kmf_bury(c->volume->cache, c->volume->dir_fd, path);
	kmf_free_object(o);
}

const struct kmf_cache_ops kmf_cachefiles_ops = {
	.name			= "cachefiles",
	.acquire_cache		= kmf_backend_open,
	.withdraw_cache		= kmf_backend_close,
	.acquire_volume		= kmf_backend_acquire_volume,
	.free_volume		= kmf_backend_free_volume,
	.lookup_cookie		= kmf_backend_lookup_cookie,
	.withdraw_cookie	= kmf_backend_withdraw_cookie,
	.invalidate_cookie	= kmf_backend_invalidate_cookie,
	.prepare_to_write	= kmf_backend_prepare_to_write,
	.resize_cookie		= kmf_backend_resize_cookie,
	.delete_unused		= kmf_backend_delete_unused,
};
