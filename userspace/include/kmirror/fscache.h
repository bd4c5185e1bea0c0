/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kmirror/fscache.h - the fscache netfs API of Linux 6.1, in userspace.
 *
 * Names and semantics follow include/linux/fscache.h and
 * Documentation/filesystems/caching/netfs-api.rst of the 6.1 tree; the one
 * backend is cachefiles: objects are files in exactly the cachefiles
 * on-disk layout, with its "user.CacheFiles.cache" xattrs, so a cache
 * written here can be bound by the kernel's cachefiles and a cache the
 * kernel wrote opens here.
 *
 *   cache/I<volume key>/               volume directory (+ volume xattr)
 *   cache/I<volume key>/@xx/           256 fan-outs, xx = (u8)cookie hash
 *   cache/I<volume key>/@xx/<cooked>   one data object per cookie
 *   graveyard/                         buried (stale) volume directories
 *
 * Where userspace differs from the kernel API:
 *  - There is no global cache registry: a struct fscache_cache is opened on
 *    a directory and passed to fscache_acquire_volume() in place of the
 *    kernel's cache_name.
 *  - Functions that return a pointer return NULL on failure with errno set
 *    (the kernel returns NULL or ERR_PTR()); see each function.
 *  - Work the kernel queues to fscache_wq (lookup, invalidation, withdrawal,
 *    relinquishment) runs synchronously in the calling thread, or, if
 *    another thread is already running that cookie's work, in that thread
 *    (like a non-reentrant work item).  fscache_use_cookie() returns once
 *    the lookup is over.
 *  - Reads and writes are synchronous pread()/pwrite() on the object: they
 *    return the byte count instead of calling a netfs_io_terminated_t.
 *  - Statistics (/proc/fs/fscache/stats) are kept per cache handle.
 *
 * Threads and RCU: cookie lookups are lock-free under liburcu (urcu-memb
 * flavour).  Every thread that calls into this library is registered with
 * urcu-memb transparently on its first call and unregistered when it exits;
 * a thread the application registered itself is left alone.  An
 * application that uses another liburcu flavour on the same threads must
 * not call fscache_lookup_cookie_rcu() from them.
 *
 * All functions are thread-safe.  A NULL volume or cookie is accepted
 * everywhere and does nothing, like the kernel's NULL cookies.
 */
#ifndef KMIRROR_FSCACHE_H
#define KMIRROR_FSCACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct fscache_cache;
struct fscache_volume;
struct fscache_cookie;

/* Advice flags (fscache_acquire_cookie() @advice), as the kernel's. */
#define FSCACHE_ADV_SINGLE_CHUNK	0x01
#define FSCACHE_ADV_WRITE_CACHE		0x00
#define FSCACHE_ADV_WRITE_NOCACHE	0x02
#define FSCACHE_ADV_WANT_CACHE_SIZE	0x04

/* fscache_invalidate() @flags. */
#define FSCACHE_INVAL_DIO_WRITE		0x01

/* Data cookie states, same order and meaning as the kernel's. */
enum fscache_cookie_state {
	FSCACHE_COOKIE_STATE_QUIESCENT,		/* uncached */
	FSCACHE_COOKIE_STATE_LOOKING_UP,	/* object being looked up */
	FSCACHE_COOKIE_STATE_CREATING,		/* object being created */
	FSCACHE_COOKIE_STATE_ACTIVE,		/* readable and writable */
	FSCACHE_COOKIE_STATE_INVALIDATING,	/* object being invalidated */
	FSCACHE_COOKIE_STATE_FAILED,		/* caching failed */
	FSCACHE_COOKIE_STATE_LRU_DISCARDING,	/* discarded by the LRU */
	FSCACHE_COOKIE_STATE_WITHDRAWING,	/* being withdrawn */
	FSCACHE_COOKIE_STATE_RELINQUISHING,	/* being relinquished */
	FSCACHE_COOKIE_STATE_DROPPED,		/* gone */
};
#define FSCACHE_COOKIE_STATE__NR (FSCACHE_COOKIE_STATE_DROPPED + 1)

/* ---- cache --------------------------------------------------------- */

/* The kernel's fscache_lru_cookie_timeout: 10 * HZ. */
#define FSCACHE_LRU_TIMEOUT_DEFAULT_MS	10000

/* struct fscache_cache_params .flags */
#define FSCACHE_CACHE_NO_REAPER		0x1	/* no LRU thread: the caller
						 * runs fscache_cache_reap() */

struct fscache_cache_params {
	/* Delay before an unused cookie is discarded; < 0: the default. */
	int64_t		lru_timeout_ms;
	unsigned int	flags;
	/*
	 * At most this many unused cookies wait on the LRU with their
	 * objects (and so their backing files) open; past it the oldest is
	 * discarded at once.  0: no cap (the kernel has none).
	 */
	unsigned long	lru_max;
};

/*
 * Open the cache rooted at @dir (the kernel's "dir" command): an empty
 * directory becomes a new cache (cache/ and graveyard/ are created, mode
 * 0700 like cachefiles_get_directory()); a directory holding cache/ is
 * opened, and graveyard/ created if missing.  Refused: a non-empty
 * directory without cache/ (-ENOTDIR, it is not a cachefiles cache), a
 * cache/ or graveyard/ that is not a directory (-ENOTDIR), a filesystem
 * without user xattrs (-EOPNOTSUPP).  @params may be NULL for defaults.
 * Returns 0 or a negative errno.
 */
int fscache_cache_open(const char *dir,
		       const struct fscache_cache_params *params,
		       struct fscache_cache **cachep);
/*
 * Close a cache.  Every cookie and volume must have been relinquished and
 * every operation ended (relinquished cookies are already committed to
 * disk); if some are not, they still point at the cache, which is then
 * left allocated with a warning.  Frees everything after an RCU grace
 * period.
 */
void fscache_cache_close(struct fscache_cache *cache);
/*
 * Run one LRU pass now: discard the cached objects of cookies unused for
 * at least the LRU timeout (fscache_cookie_lru_worker()).  Returns how many
 * were discarded.
 */
unsigned int fscache_cache_reap(struct fscache_cache *cache);

/* ---- volumes ------------------------------------------------------- */

/*
 * Acquire a volume (fscache_acquire_volume()).  @volume_key is a string
 * (no '/', at most 254 bytes, so that "I" + key is a file name); the
 * coherency data (at most 255 bytes, NULL for none) is checked against
 * the volume directory's xattr: on a mismatch the old directory is buried
 * in the graveyard and a new one made, as cachefiles_acquire_volume().
 * NULL with errno: EBUSY (the key is acquired in this cache already),
 * EACCES ('/' in the key), ENAMETOOLONG, EINVAL, EMSGSIZE (coherency too
 * long), ENOMEM, or the I/O error of the backing filesystem.
 */
struct fscache_volume *fscache_acquire_volume(struct fscache_cache *cache,
					      const char *volume_key,
					      const void *coherency_data,
					      size_t coherency_len);
/*
 * Relinquish a volume after all its cookies (fscache_relinquish_volume()).
 * New coherency data (exactly the acquired length) is stored in the volume
 * xattr; @invalidate buries the volume directory instead.  (The 6.1
 * cachefiles backend keeps neither until the cache is unbound: see
 * docs/.)
 */
void fscache_relinquish_volume(struct fscache_volume *volume,
			       const void *coherency_data, bool invalidate);

/* ---- cookies ------------------------------------------------------- */

/*
 * Acquire a data cookie (fscache_acquire_cookie()): @index_key 1..255
 * bytes, aux data 0..255 bytes (NULL: none), @object_size the netfs's file
 * size.  NULL with errno: EINVAL (no key, NULL volume), EMSGSIZE (key or
 * aux too long), EEXIST (a live cookie with the same key exists in the
 * volume: the kernel's "Duplicate cookie detected"), ENOMEM.  A cookie of
 * the same key still being relinquished is waited for.
 */
struct fscache_cookie *fscache_acquire_cookie(struct fscache_volume *volume,
					      uint8_t advice,
					      const void *index_key,
					      size_t index_key_len,
					      const void *aux_data,
					      size_t aux_data_len,
					      int64_t object_size);
/*
 * Give the cookie back; @retire deletes its object.  The cookie must not be
 * in use (no fscache_use_cookie() outstanding).
 */
void fscache_relinquish_cookie(struct fscache_cookie *cookie, bool retire);

/*
 * Start using a cookie for I/O: the first user looks the object up (or
 * creates it), checking the xattr against the cookie's aux data and object
 * size; a stale object is never served: it is replaced by a new, empty one.
 * Returns 0 if the cookie is now caching, or why not (-ENOBUFS: caching
 * failed or was disabled).  The kernel's version returns void; the value
 * may be ignored.
 */
int fscache_use_cookie(struct fscache_cookie *cookie, bool will_modify);
/*
 * Stop using a cookie, optionally with new aux data (exactly the acquired
 * length) and object size, which are written to the xattr when the object
 * is committed.  The last user puts the cookie on the LRU.
 */
void fscache_unuse_cookie(struct fscache_cookie *cookie,
			  const void *aux_data, const int64_t *object_size);
/* New aux data and/or object size, committed later (NEEDS_UPDATE). */
void fscache_update_cookie(struct fscache_cookie *cookie,
			   const void *aux_data, const int64_t *object_size);
/*
 * The object's size changes; shrinking discards data past @new_size.  Only
 * a cookie that is caching is resized (else a null resize is counted and
 * the size kept, as in the kernel).  Like netfs, which resizes under the
 * inode lock, the caller keeps reads and writes of the same bytes from
 * running during a resize: they are not serialised here.
 */
void fscache_resize_cookie(struct fscache_cookie *cookie, int64_t new_size);
/*
 * The netfs's file changed: discard the cached data, take the new aux data
 * and size, bump the cookie's invalidation counter.  Reads begun before
 * fail with -ESTALE.  FSCACHE_INVAL_DIO_WRITE disables caching until the
 * cookie is no longer in use.
 */
void fscache_invalidate(struct fscache_cookie *cookie, const void *aux_data,
			int64_t size, unsigned int flags);

/*
 * Find the live (not relinquished) cookie of @index_key in @volume.
 * fscache_lookup_cookie() returns it with a reference the caller drops
 * with fscache_put_cookie(); fscache_lookup_cookie_rcu() takes no
 * reference and must be called between fscache_read_lock() and
 * fscache_read_unlock(): the pointer is good until the unlock.  NULL with
 * errno ENOENT (or EINVAL) if there is none.  Lock-free.
 */
struct fscache_cookie *fscache_lookup_cookie(struct fscache_volume *volume,
					     const void *index_key,
					     size_t index_key_len);
struct fscache_cookie *fscache_lookup_cookie_rcu(struct fscache_volume *volume,
						 const void *index_key,
						 size_t index_key_len);
void fscache_read_lock(void);
void fscache_read_unlock(void);
struct fscache_cookie *fscache_get_cookie(struct fscache_cookie *cookie);
void fscache_put_cookie(struct fscache_cookie *cookie);

/* Introspection (the kernel's /proc/fs/fscache/cookies columns). */
enum fscache_cookie_state fscache_cookie_state(const struct fscache_cookie *c);
int64_t fscache_cookie_object_size(const struct fscache_cookie *cookie);
unsigned int fscache_cookie_inval_counter(const struct fscache_cookie *c);
unsigned int fscache_cookie_n_active(const struct fscache_cookie *cookie);
/* Copy the aux data into @buf; returns its length (may exceed @size). */
size_t fscache_cookie_get_aux(const struct fscache_cookie *cookie, void *buf,
			      size_t size);
/* True while nothing can be read (new or invalidated object). */
bool fscache_cookie_no_data_to_read(const struct fscache_cookie *cookie);

/* ---- I/O ----------------------------------------------------------- */

/* netfs_read_from_hole */
enum fscache_read_hole {
	FSCACHE_READ_HOLE_IGNORE,	/* just read (holes read as zeros) */
	FSCACHE_READ_HOLE_CLEAR,	/* seek for data, zero what is skipped */
	FSCACHE_READ_HOLE_FAIL,		/* -ENODATA if the range has no data */
};

/*
 * struct netfs_cache_resources: what an operation holds between
 * fscache_begin_*_operation() and fscache_end_operation().  Opaque.
 */
struct fscache_cache_resources {
	struct fscache_cookie	*cookie;	/* cache_priv */
	void			*object;	/* cache_priv2: the object file */
	unsigned int		inval_counter;	/* cookie's, at begin */
	unsigned int		debug_id;
};

/*
 * Begin an operation: pins the cookie's backing object so that withdrawal
 * waits for it.  0, or -ENOBUFS if the cookie is not caching (not in use,
 * failed, disabled).  A successful begin must be paired with
 * fscache_end_operation().
 */
int fscache_begin_read_operation(struct fscache_cache_resources *cres,
				 struct fscache_cookie *cookie);
int fscache_begin_write_operation(struct fscache_cache_resources *cres,
				  struct fscache_cookie *cookie);
void fscache_end_operation(struct fscache_cache_resources *cres);
/*
 * The descriptor of the object file an operation holds (the kernel's
 * cachefiles_cres_file()), for a netfs that keeps data of its own in the
 * object's xattrs; -1 if @cres holds none.  Good until
 * fscache_end_operation(); the caller must not close it.
 */
int fscache_cres_fd(const struct fscache_cache_resources *cres);

/*
 * Read up to @len bytes at @start_pos, never past the cookie's object
 * size.  Returns the byte count (holes skipped under READ_HOLE_CLEAR
 * included, zero-filled), 0 at or past the object size, -ENODATA (hole
 * under READ_HOLE_FAIL), -ESTALE if the cookie was invalidated since the
 * operation began (the data must not be used), -ENOBUFS, or an I/O error.
 */
ssize_t fscache_read(struct fscache_cache_resources *cres, int64_t start_pos,
		     void *buf, size_t len, enum fscache_read_hole read_hole);
/*
 * Write @len bytes at @start_pos.  Byte count, -ENOBUFS or an I/O error.
 * A write past the end fills the file to a whole 4 KiB block, as netfs's
 * page writes do.  Overlapping reads and writes of the same bytes are not
 * atomic with respect to each other (pread()/pwrite()): the netfs
 * serialises them, as it does in the kernel.
 */
ssize_t fscache_write(struct fscache_cache_resources *cres, int64_t start_pos,
		      const void *buf, size_t len);
/*
 * Where the next cached data in [@start, @start + @len) begins and how long
 * it is, in units of @granularity (at least the filesystem block).
 * 0, -ENODATA (none), -ENOBUFS.
 */
int fscache_query_occupancy(struct fscache_cache_resources *cres,
			    int64_t start, size_t len, size_t granularity,
			    int64_t *data_start, size_t *data_len);

/* ---- keys ---------------------------------------------------------- */

/* Longest volume key fscache takes (a length byte holds it). */
#define FSCACHE_VOLUME_KEY_MAX		255

/*
 * The index hash, fscache_hash() of fs/fscache/main.c, over @len bytes of
 * @data taken as little-endian 32-bit words, a trailing partial word
 * ignored (fscache zero-pads keys to a multiple of 4 first).  Its low
 * byte names a cookie's fan-out directory: it is on-disk format.
 */
uint32_t fscache_key_hash(uint32_t salt, const void *data, size_t len);
/*
 * The hash fscache_acquire_volume() gives the volume key @volume_key
 * (@len bytes, no NUL inside): fscache_hash() salted with 0 over the
 * buffer [len][key]\0, zero-padded to 4 bytes.  0 and *@hash, -EINVAL
 * (a NUL in the key), or -ENAMETOOLONG (over FSCACHE_VOLUME_KEY_MAX).
 */
int fscache_volume_key_hash(const char *volume_key, size_t len,
			    uint32_t *hash);

/* ---- statistics (/proc/fs/fscache/stats) --------------------------- */

/*
 * The counters of fs/fscache/stats.c.  cookies, volumes and cookies_lru are
 * gauges (objects alive now), the rest count events since open.
 */
struct fscache_stats {
	uint32_t cookies, volumes, volumes_collision, volumes_nomem;
	uint32_t acquires, acquires_ok, acquires_oom;
	uint32_t cookies_lru, cookies_lru_expired, cookies_lru_removed;
	uint32_t cookies_lru_dropped;
	int64_t lru_timer_ms;	/* until the next LRU pass, 0 if none */
	uint32_t invalidates;
	uint32_t updates, resizes, resizes_null;
	uint32_t relinquishes, relinquishes_retire, relinquishes_dropped;
	uint32_t no_write_space, no_create_space, culled;
	uint32_t read, write;
};

void fscache_get_stats(struct fscache_cache *cache,
		       struct fscache_stats *stats);
/*
 * The text of /proc/fs/fscache/stats (fscache_stats_show(), without the
 * netfs lines; "at=" in milliseconds, which are jiffies at HZ=1000), like
 * snprintf(): returns the full length, writes at most @size bytes.
 */
int fscache_stats_show(struct fscache_cache *cache, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* KMIRROR_FSCACHE_H */
