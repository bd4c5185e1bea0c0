/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kmirror/cache.h - read a cache in the cachefiles on-disk layout.
 *
 * A cache root is the directory given to cachefiles' "dir" command: it holds
 * cache/ (cache/I<volume>/@xx/<cooked key> data objects) and graveyard/.
 * The scanner walks cache/ in name order and returns every entry it finds
 * there: each data object with its decoded user.CacheFiles.cache xattr, and
 * each entry that is damaged or has no place in the layout, with an error.
 * Nothing is skipped silently and nothing is written.
 *
 * Not thread-safe per scanner; independent scanners may run concurrently.
 */
#ifndef KMIRROR_CACHE_H
#define KMIRROR_CACHE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What a record describes. */
enum kmirror_cache_kind {
	KMIRROR_CACHE_OBJECT = 0,	/* cache/I<vol>/@xx/<name> */
	KMIRROR_CACHE_VOLUME = 1,	/* cache/I<vol>: only when in error */
	KMIRROR_CACHE_FANOUT = 2,	/* cache/I<vol>/@xx: only when in error */
	KMIRROR_CACHE_STRAY = 3,	/* an entry the layout has no place for */
};

/* The object's content byte (enum cachefiles_content of Linux 6.1). */
enum kmirror_cache_content {
	KMIRROR_CONTENT_NO_DATA = 0,
	KMIRROR_CONTENT_SINGLE = 1,
	KMIRROR_CONTENT_ALL = 2,
	KMIRROR_CONTENT_BACKFS_MAP = 3,
	KMIRROR_CONTENT_DIRTY = 4,
};

/*
 * One record.  Every pointer stays valid until the next
 * kmirror_cache_next() or kmirror_cache_close() on the same scanner.
 *
 * error is 0 or a negative errno; error_msg then says what is wrong in
 * words (e.g. "xattr truncated (shorter than its header)").  Fields that
 * could be read before the error are filled in, the others are zero/empty:
 * a record with an error still has its path, and an object whose name
 * decoded still has its volume and key.
 */
struct kmirror_cache_object {
	enum kmirror_cache_kind kind;
	const char *path;		/* relative to the cache root */
	const char *volume;		/* volume key, NUL-terminated */
	size_t volume_len;
	const uint8_t *volume_coherency; /* the volume xattr's data */
	size_t volume_coherency_len;
	const uint8_t *key;		/* cookie key, uncooked from the name;
					 * S/T names give whole 32-bit words */
	size_t key_len;
	uint32_t key_hash;		/* fscache hash of the key */
	unsigned int fanout;		/* @xx directory it lives in */
	uint64_t object_size;
	uint64_t zero_point;
	uint8_t type;			/* 1: data */
	uint8_t content;		/* enum kmirror_cache_content */
	const uint8_t *aux;		/* netfs coherency (aux) data */
	size_t aux_len;
	int error;
	const char *error_msg;
};

struct kmirror_cache_scan;

/*
 * Open the cache root @dir.  0 and *@scan on success; the open(2) error
 * (-ENOENT, -ENOTDIR, -EACCES, ...) if @dir cannot be opened;
 * -EMEDIUMTYPE if @dir has no cache/ directory (not a cachefiles cache);
 * -ELOOP if its cache/ is a symbolic link (never followed); -ENOMEM.
 * graveyard/ is not required and is not walked: it only ever holds dead
 * directories.
 */
int kmirror_cache_open(const char *dir, struct kmirror_cache_scan **scan);
/* The same, relative to the directory @dirfd (or AT_FDCWD). */
int kmirror_cache_openat(int dirfd, const char *dir,
			 struct kmirror_cache_scan **scan);

/*
 * Fill @obj with the next record.  1: a record (check obj->error), 0: the
 * walk is over, negative errno: the walk cannot go on (-ENOMEM, or cache/
 * itself became unreadable); the scanner may then only be closed.
 */
int kmirror_cache_next(struct kmirror_cache_scan *scan,
		       struct kmirror_cache_object *obj);

/* Number of records with an error returned so far. */
unsigned long kmirror_cache_errors(const struct kmirror_cache_scan *scan);

void kmirror_cache_close(struct kmirror_cache_scan *scan);

/* Room for any object path, NUL included (cache/I<vol>/@xx/<name>). */
#define KMIRROR_CACHE_PATH_SIZE	522

/*
 * The path, relative to the cache root, at which cachefiles keeps the
 * object of cookie key @key (@key_len bytes) in volume @volume (a
 * NUL-terminated volume key): "cache/I<volume>/@xx/<cooked key>".  Its
 * length; -EINVAL for an empty key, -EMSGSIZE for one over 255 bytes,
 * -EACCES or -ENAMETOOLONG for a volume key no directory can be named
 * after, -ENAMETOOLONG for a cooked name over NAME_MAX, -ENOSPC if @size
 * is too small.
 */
int kmirror_cache_object_path(const char *volume, const void *key,
			      size_t key_len, char *path, size_t size);

/*
 * Bounds of the names cachefiles makes.  A cookie key it can store is 1
 * to KMIRROR_CACHE_KEY_MAX bytes (cachefiles BUG()s past it), its cooked
 * name at most KMIRROR_CACHE_COOKED_MAX bytes; an uncooked S or T name
 * gives whole 32-bit words, at most KMIRROR_CACHE_UNCOOKED_MAX bytes.  A
 * volume key that names a directory is at most
 * KMIRROR_CACHE_VOLUME_KEY_MAX bytes ("I" + key is a file name).
 */
#define KMIRROR_CACHE_KEY_MAX		252
#define KMIRROR_CACHE_COOKED_MAX	338
#define KMIRROR_CACHE_UNCOOKED_MAX	252
#define KMIRROR_CACHE_VOLUME_KEY_MAX	254

/*
 * cachefiles_cook_key(): the object file name of cookie key @key
 * (@key_len bytes), bit-identical to fs/cachefiles/key.c, into @name
 * (NUL-terminated, @size bytes; KMIRROR_CACHE_COOKED_MAX + 1 always
 * suffices).  Its length; -ENAMETOOLONG for a key cachefiles cannot take,
 * -ENOSPC if @size is too small.  Bytes of @name past the NUL may be
 * written too, never past @size.
 */
int kmirror_cache_cook_key(const void *key, size_t key_len, char *name,
			   size_t size);
/*
 * The inverse, which the kernel does not have: the key of the object
 * name @name (@len bytes, no NUL needed) into @key (@size bytes).  Its
 * length, or -EINVAL for a name cachefiles would never make (cooking the
 * key again must give back exactly @name) or a key longer than @size.
 */
int kmirror_cache_uncook_key(const char *name, size_t len, void *key,
			     size_t size);

/*
 * The directory name "I<volume>" cachefiles_acquire_volume() gives the
 * NUL-terminated volume key @volume, into @name (@size bytes; NAME_MAX +
 * 1 suffices).  Its length; -EACCES for a '/' in the key (lookup_one_len()
 * refuses it), -ENAMETOOLONG past KMIRROR_CACHE_VOLUME_KEY_MAX, -ENOSPC
 * if @size is too small.
 */
int kmirror_cache_volume_dir(const char *volume, char *name, size_t size);

/*
 * The kernel's hex decoders (lib/hexdump.c), for keys written as hex:
 * hex_to_bin() gives a hex digit's value or -1; hex2bin() decodes the
 * 2 * @count digits of @src into @count bytes of @dst, 0 or -EINVAL at the
 * first non-digit (what it wrote before stays written).
 */
int kmirror_hex_to_bin(unsigned char ch);
int kmirror_hex2bin(uint8_t *dst, const char *src, size_t count);

/* "no_data", "single", "all", "backfs_map", "dirty" or "?". */
const char *kmirror_cache_content_name(unsigned int content);

#ifdef __cplusplus
}
#endif

#endif /* KMIRROR_CACHE_H */
