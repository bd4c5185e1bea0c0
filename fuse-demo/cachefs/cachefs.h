/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kmirror-cachefs: a cached passthrough of a (slow) source directory over
 * the libfuse3 low-level API, caching file data through libkmirror's
 * fscache API in a cachefiles-layout cache.
 *
 * Files, one concept each:
 *   main.c        start-up checks, cache lock, mount, daemon, teardown
 *   base.c        clocks, error lines, scratch buffers, source attributes
 *   dirs.c        source, cache and mount point: apart, the cache ours
 *   creds.c       source calls with the caller's fsuid, fsgid and groups
 *   privs.c       what the kernel allows the caller and the source not:
 *                 its kill of set-ID bits, an exec of a 0711 program
 *   options.c     -o options, sizes, help text, the default volume key
 *   inode.c       the inode table (passthrough_ll's O_PATH inodes, hashed)
 *   ops_entry.c   name and attribute operations
 *   ops_dir.c     directory streams
 *   ops_file.c    open files: open/create/read/write/...
 *   ops_xattr.c   extended attributes
 *   cache.c       per-file caching: cookie life, coherency, changes
 *   notify.c      the kernel hears of changes made behind our back
 *   readthrough.c cached reads, granule fills
 *   fillbehind.c  storing fetched granules behind the read
 *   settle.c      files read before they settled, filled once they have
 *   writethrough.c write-through, size changes, the map's object
 *   sums.c        a CRC32C per granule, in DIR/kmirror-sums (verify=on)
 *   index.c       the in-memory index of the cache's objects (index.h)
 *   index_life.c  the index's life: built at mount, saved at unmount
 *   index_scan.c  finding the cache's objects in the background
 *   index_file.c  the index across mounts (DIR/kmirror-index)
 *   cull.c        culling, the housekeeper thread
 *   stats.c       counters and the DIR/kmirror-stats file
 *   pins.c        pinned objects, never culled (DIR/kmirror-pins)
 *   control.c     DIR/kmirror.sock: pin, evict, per-file counters
 *   control_path.c  its requests' paths, beneath the source's root
 *   objfd.c       the backing file of an fscache operation
 *   offline.c     the source's health: offline mode
 *   online.c      the source's return: probing, cached files rechecked
 *   meta.c        names, listings and attributes across mounts (meta.h)
 *   meta_file.c   one directory's file in DIR/kmirror-meta
 *   srccall.c     source calls that can be abandoned (source_timeout)
 * and in ../format (kc_format_dep, shared with `kmirror cache check`):
 *   content_map.c the content map in the object's xattrs (crash rules)
 *   sums_file.c   the checksum sidecar's format
 *   crc32c.c      CRC32C, with SSE4.2 where the CPU has it
 *
 * Layers, calls going down only (tests/tools/callcycles.py shows where
 * they do not):
 *   main.c control*.c options.c online.c  start, stop, the socket, rounds
 *   ops_*.c                               the FUSE operations
 *   inode.c (notify.c meta.c)             inodes, names, what the kernel
 *                                         is told, the metadata store
 *   cache.c readthrough.c writethrough.c fillbehind.c settle.c
 *                                         caching a file's data
 *   index_life.c index_scan.c index_file.c  the index at mount, unmount
 *   cull.c                                room: culling, the housekeeper
 *   sums.c stats.c pins.c                 checksums, counters, pins
 *   index.c                               the object table
 *   privs.c                               acting as the daemon for the caller
 *   srccall.c offline.c creds.c dirs.c    the source, the directories
 *   base.c objfd.c, ../format             leaves; the on-disk formats
 * Where a lower layer must reach an upper one, it calls through pointers
 * the upper one set, as fscache's cache ops do: struct kc_cull_ops (the
 * culler culls held files and runs the housekeeper's chores through it),
 * kc_index.kick (new data wakes the culler) and kc_index.pinned (a new
 * entry asks the pins).  Still against the grain: notify.c, meta.c,
 * fillbehind.c, settle.c and readthrough.c pin inodes and read their
 * attributes (inode.c), cache.c asks inode.c for an fd and readthrough.c
 * cache.c whether a check is due, fillbehind.c's worker and settle.c's
 * thread run readthrough.c's fills, stats.c reads the sizes of their
 * queues.
 *
 * Lock order (outer first): kc_icache.io (rwlock) -> kc_icache.lock ->
 * index lock -> inode table lock; kc_settle.lock is taken under
 * kc_icache.io and nothing is taken under it.  No libkmirror call is made with the
 * index or table lock held, except fscache_acquire_cookie() and
 * fscache_relinquish_cookie() of objects the index marks as culling.
 */
#ifndef KC_CACHEFS_H
#define KC_CACHEFS_H

#define FUSE_USE_VERSION 312
#include <fuse_lowlevel.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "kmirror/cachedir.h"
#include "kmirror/fscache.h"
#include "kmap.h"

#define KC_NAME			"kmirror-cachefs"
#define KC_GRANULE_DEFAULT	(256u * 1024)
#define KC_FILL_BEHIND_DEFAULT	8		/* buffers of KC_PIECE */
#define KC_FILL_BEHIND_MAX	1024
#define KC_LOCK_FILE		"kmirror.lock"
#define KC_STATS_FILE		"kmirror-stats"
#define KC_VOLUME_KEY_MAX	254
#define KC_SIZE_LIMIT_MIN	(1ull << 20)	/* -o size_limit= */

/* Culling limits, in struct kmc_cull's order (frun fcull fstop ...). */
enum { KC_FRUN, KC_FCULL, KC_FSTOP, KC_BRUN, KC_BCULL, KC_BSTOP, KC_NLIM };

struct kc_config {
	char		*source;
	char		*mountpoint;
	char		*cache_dir;
	char		*tag;
	unsigned int	granule_shift;
	unsigned int	limit[KC_NLIM];		/* percent */
	uint64_t	size_limit;		/* bytes, 0: none */
	uint64_t	max_age;		/* seconds unused, 0: none */
	unsigned int	source_timeout;		/* seconds, 0: none */
	uint64_t	meta_timeout;		/* seconds (meta.c) */
	uint64_t	negative_timeout;	/* seconds (meta.c) */
	double		attr_timeout;
	double		entry_timeout;
	unsigned long	source_delay_us;
	unsigned long	fill_delay_us;		/* before a store behind */
	int		no_xattr;		/* -o no_xattr: ENOSYS */
	bool		verify;			/* -o verify=on (sums.c) */
	unsigned int	fill_behind;		/* buffers, 0: fill inline */
	int		foreground;
	int		debug;
	int		singlethread;
	int		clone_fd;
	unsigned int	max_idle_threads;
	unsigned int	max_threads;
};

/* ---- inode.c / cache.c: inodes and their caching state -------------- */

/* The coherency data of a source file (its aux data, in bytes). */
struct kc_attr {
	int64_t		mtime_sec, ctime_sec;
	int64_t		size;
	uint64_t	ino;
	uint32_t	mtime_nsec, ctime_nsec;
};
#define KC_AUX_LEN	40

/* How long a source file must be left alone before it is cached. */
#define KC_SETTLE_FINE_NS	1000000000ll	/* nanosecond timestamps */
#define KC_SETTLE_COARSE_NS	2000000000ll	/* whole seconds (or FAT's 2) */

/*
 * Granules being fetched by a read, or (@data set) fetched, checked and
 * waiting in the fill-behind queue: their bytes [@lo, @lo + @len) are
 * served from @data while @gen is the icache's.
 */
struct kc_fill {
	uint64_t	first, last;	/* granules being fetched */
	const char	*data;
	off_t		lo;
	size_t		len;
	uint64_t	gen;
};
#define KC_MAX_FILLS	16

struct kc_obj;

/* Caching state of a regular file, made at its first open. */
/* One file's read counters since its inode was looked up (cache top). */
struct kc_file_stats {
	atomic_ullong		hits, misses;
	atomic_ullong		bytes_from_cache, bytes_from_source;
};

struct kc_icache {
	pthread_rwlock_t	io;	/* shared: cached reads; exclusive:
					 * changes, invalidation, cookie life */
	pthread_mutex_t		lock;	/* map, fills, use count */
	pthread_cond_t		fill_done;
	struct fscache_cookie	*cookie;	/* io excl + lock to change */
	struct kc_obj		*obj;		/* its index entry */
	unsigned int		n_use;		/* fscache_use_cookie()s */
	time_t			last_used;	/* a use began or ended */
	bool			caching;	/* the last use got an object */
	bool			had_object;	/* index knew it at acquire */
	struct kc_attr		known;		/* source attributes cached */
	_Atomic uint64_t	checked_ns;	/* last coherency check */
	atomic_bool		recheck;	/* check at the next operation */
	atomic_bool		offline_used;	/* served offline: recheck on
						 * return (offline.c) */
	atomic_bool		attr_news;	/* an open found attributes
						 * the kernel may not have:
						 * tell it (kc_op_open()) */
	struct kc_map		map;
	struct kc_fill		fills[KC_MAX_FILLS];
	unsigned int		n_fills;
	unsigned int		n_jobs;		/* in the fill-behind queue */
	uint64_t		gen;	/* bumped by every change (io excl) */
	struct kc_file_stats	fst;
};

struct kc_inode {
	struct kc_inode		*hnext;		/* table bucket, table lock */
	_Atomic int		fd;		/* O_PATH on the source, -1
						 * until kc_inode_fd() (an
						 * inode from the store) */
	dev_t			dev;
	ino_t			ino;
	mode_t			type;		/* S_IFMT bits */
	uint64_t		nlookup;	/* table lock */
	bool			used;		/* looked up since the clock
						 * hand passed (table lock) */
	atomic_uint		ref;		/* struct lifetime */
	struct kc_inode		*parent;	/* last name, table lock */
	char			*name;
	_Atomic(struct kc_icache *) ic;		/* regular files, or NULL */
	atomic_uint		fd_waiters;	/* handlers out of descriptors
						 * with this directory locked
						 * (struct kc_fd_waiter) */
	bool			has_attr;	/* @attr: the source's last
						 * answer (table lock), for
						 * offline lookups */
	int64_t			attr_learnt;	/* @attr's wall-clock time
						 * (ns), 0: not to be served
						 * (meta.c) */
	struct stat		attr;
	struct timespec		btime;		/* @attr's birth time, {0, 0}:
						 * not known (no store, or
						 * the source keeps none) */
};

/*
 * What and where a directory is, as the daemon last heard: what the
 * metadata store checks its names against (meta.c).
 */
struct kc_whence {
	struct stat		st;
	struct timespec		btime;		/* {0, 0}: not known */
	dev_t			pdev;		/* its parent; 0, 0: the root */
	ino_t			pino;
	char			name[NAME_MAX + 1];	/* "": the root */
};

struct kc_fs;

/*
 * Every open file and directory is on the filesystem's handle list, so
 * that an unmount with files still open (SIGTERM) closes them too.
 */
struct kc_handle {
	struct kc_handle	*prev, *next;
	void			(*close)(struct kc_fs *fs, struct kc_handle *h);
};

/* An open file (fuse_file_info.fh). */
struct kc_file {
	struct kc_handle	h;
	struct kc_inode		*in;
	int			fd;
	bool			append;
	bool			writable;
	bool			used;	/* holds one kc_cache_open() use */
};

struct kc_itable {
	pthread_mutex_t		lock;
	struct kc_inode		**bucket;
	size_t			nbuckets;
	size_t			n;
	size_t			hand;		/* eviction's clock hand */
};

/* Descriptors: a lookup or open out of them waits this much for more. */
#define KC_FD_TRIES		250
#define KC_FD_WAIT_US		20000
/* ... and after this many tries gives back one of the reserve's. */
#define KC_FD_RESERVE_AFTER	3
#define KC_FD_RESERVE		4	/* descriptors kept spare (inode.c) */
#define KC_FD_FIXED		32	/* the session, cache dirs, lock ... */
#define KC_FD_MAX		(1u << 24)	/* budgets beyond: no matter */

/* ---- stats.c -------------------------------------------------------- */

struct kc_stats {
	atomic_ullong	hits, misses;
	atomic_ullong	bytes_from_cache, bytes_from_source;
	atomic_ullong	bytes_written_through;
	atomic_ullong	invalidations, culls, nospace;
	atomic_ullong	culls_blocks, culls_files, culls_size_limit;
	atomic_ullong	culls_age, evictions;
	atomic_ullong	unclean_maps, cache_errors, retired;
	atomic_ullong	unstable;
	atomic_ullong	filled_behind, behind_dropped;
	atomic_ullong	settle_queued, settle_filled, settle_dropped;
	atomic_ullong	settle_full;
	atomic_ullong	map_chunks_dropped;
	atomic_ullong	offline_entered, offline_left;
	atomic_ullong	offline_served, offline_refused;
	atomic_ullong	verify_failures, sums_missing;
	atomic_ullong	meta_hits, meta_misses, negative_hits;
	atomic_ullong	source_meta_calls, source_reads;
	atomic_uint	generation;	/* bumped by every change */
};

#define kc_count(fs, ctr, n) do {					\
	atomic_fetch_add_explicit(&(fs)->stats.ctr, (n),		\
				  memory_order_relaxed);		\
	atomic_fetch_add_explicit(&(fs)->stats.generation, 1,		\
				  memory_order_relaxed);		\
} while (0)

/* ---- the filesystem ------------------------------------------------- */

struct kc_index;
struct kc_job;

/* fillbehind.c: the queue of fetched granules to store and mark. */
struct kc_behind {
	pthread_mutex_t		lock;
	pthread_cond_t		more;
	struct kc_job		*head, *tail;	/* queued */
	struct kc_job		*free;		/* buffers to reuse */
	unsigned int		n_alloc;	/* buffers made, <= max */
	unsigned int		max;
	bool			stop;
	bool			started;
	pthread_t		thread;
};

/* settle.c: files read before they settled, to fill once they have. */
#define KC_SETTLE_MAX		32	/* files waiting */
#define KC_SETTLE_SLACK_NS	20000000ll	/* after the settle time */
#define KC_SETTLE_GIVE_UP_NS	5000000000ll	/* never settled: dropped */

struct kc_settle_ent {
	struct kc_inode		*in;		/* pinned */
	int			fd;		/* a reader's, duplicated */
	bool			running;	/* being filled */
	struct kc_attr		id;		/* the source when read */
	off_t			lo, hi;		/* the range to fill */
	uint64_t		due, noted;	/* monotonic ns */
};

struct kc_settle {
	pthread_mutex_t		lock;
	pthread_cond_t		wake;	/* a note, the stop */
	struct kc_settle_ent	ent[KC_SETTLE_MAX];
	unsigned int		n;
	bool			stop, started, inited;
	atomic_bool		stopping;	/* read without the lock */
	pthread_t		thread;
};

/* srccall.c: the runner threads of source calls that can be abandoned. */
struct kc_call;
struct kc_runners {
	pthread_mutex_t		lock;
	pthread_cond_t		work;	/* calls queued; a runner ended */
	struct kc_call		*head, *tail;
	unsigned int		n, idle;	/* threads, waiting ones */
	bool			probing;	/* a probe is out */
	bool			probe_ok;	/* the last one answered */
	bool			stop;
};

struct kc_fs {
	struct kc_config	cfg;
	atomic_bool		offline;	/* offline.c */
	struct kc_runners	runners;
	struct kc_inode		root;
	dev_t			source_dev;
	int			cache_fd;	/* DIR */
	int			lock_fd;	/* DIR/kmirror.lock */
	int			sums_fd;	/* DIR/kmirror-sums, or -1 */
	char			*volume_key;
	struct fscache_cache	*cache;
	struct fscache_volume	*volume;
	struct kc_itable	itable;
	struct kc_index		*index;
	const struct kc_cull_ops *cull_ops;	/* set before the index */
	struct kc_stats		stats;
	struct fuse_session	*se;
	struct kc_notifier	*notifier;
	struct kc_control	*control;	/* control.c */
	struct kc_meta		*meta;		/* meta.c, or NULL */
	uint64_t		attr_timeout_ns;
	size_t			inode_budget;	/* inodes (descriptors) kept */
	size_t			object_budget;	/* unused objects left open */
	atomic_int		fd_reserve[KC_FD_RESERVE]; /* fd + 1, 0: none */
	pthread_mutex_t		handles_lock;
	struct kc_handle	handles;	/* list head */
	struct kc_behind	behind;
	struct kc_settle	settle;
};

static inline struct kc_fs *kc_fs(fuse_req_t req)
{
	return fuse_req_userdata(req);
}

static inline uint64_t kc_granule(const struct kc_fs *fs)
{
	return 1ull << fs->cfg.granule_shift;
}

/* dirs.c */
int kc_check_dirs(struct kc_fs *fs);

/* creds.c: kc_creds_take(req, &c); <source calls>; kc_creds_drop(&c); */
struct kc_creds {
	bool	switched;
};

int kc_creds_init(void);
void kc_creds_fini(void);
void kc_creds_take(fuse_req_t req, struct kc_creds *saved);
void kc_creds_drop(const struct kc_creds *saved);

/* A thread's filesystem ids and groups, for another to act as. */
struct kc_who {
	uid_t	uid;
	gid_t	gid;
	int	n;
	gid_t	*groups;
};

int kc_who_mine(struct kc_who *w);
void kc_who_free(struct kc_who *w);
void kc_creds_become(const struct kc_who *w);
void kc_creds_unbecome(void);

/* privs.c: what the kernel allows and the caller cannot do on the source */
void kc_op_init(void *userdata, struct fuse_conn_info *conn);
int kc_kill_privs(struct kc_fs *fs, struct kc_inode *in, mode_t mode, int fd);
bool kc_exec_open(int flags);
int kc_open_exec(fuse_req_t req, const char *proc);

/* offline.c */
bool kc_offline(struct kc_fs *fs);
void kc_go_offline(struct kc_fs *fs, const char *why);
bool kc_offline_refuse(fuse_req_t req, int err);
/* online.c */
void kc_offline_tick(struct kc_fs *fs);

/* meta.c (and meta.h) */
struct kc_ment;
int kc_meta_open(struct kc_fs *fs);
void kc_meta_close(struct kc_fs *fs);
void kc_meta_flush(struct kc_fs *fs);
bool kc_meta_fresh_attr(struct kc_fs *fs, int64_t learnt);
int kc_meta_lookup(struct kc_fs *fs, struct kc_inode *dir, const char *name,
		   struct stat *st, struct timespec *btime, int64_t *learnt);
void kc_meta_learn(struct kc_fs *fs, struct kc_inode *dir, const char *name,
		   const struct stat *st, const struct timespec *btime);
void kc_meta_stale(struct kc_fs *fs, struct kc_inode *in);
void kc_meta_learn_inode(struct kc_fs *fs, struct kc_inode *in,
			 const struct stat *st, const struct timespec *btime);
void kc_meta_dir_learnt(struct kc_fs *fs, struct kc_inode *in);
void kc_meta_made(struct kc_fs *fs, struct kc_inode *dir, const char *name);
struct kc_attr;
bool kc_meta_opened(struct kc_fs *fs, struct kc_inode *in,
		    const struct stat *st, const struct kc_attr *a);
void kc_meta_drop_key(struct kc_fs *fs, dev_t dev, ino_t ino);
void kc_meta_drop_dir(struct kc_fs *fs, struct kc_inode *in);
bool kc_meta_list(struct kc_fs *fs, struct kc_inode *dir, struct kc_ment **v,
		  size_t *n);
void kc_meta_list_free(struct kc_ment *v, size_t n);
void kc_meta_listed(struct kc_fs *fs, struct kc_inode *dir,
		    const struct kc_ment *v, size_t n, int64_t started);
bool kc_meta_may(fuse_req_t req, const struct stat *st, unsigned int mask);

/* srccall.c: as the syscalls (-1 and errno), but offline and timed. */
int kc_runners_init(struct kc_fs *fs);
void kc_runners_stop(struct kc_fs *fs);
int kc_src_fstatat(struct kc_fs *fs, int dirfd, const char *name,
		   struct stat *st, int flags);
int kc_src_fstatat_born(struct kc_fs *fs, int dirfd, const char *name,
			struct stat *st, struct timespec *btime, int flags);
int kc_fstatat_born(int dirfd, const char *name, struct stat *st,
		    struct timespec *btime, int flags);
int kc_src_openat(struct kc_fs *fs, int dirfd, const char *name, int flags,
		  mode_t mode);
int kc_src_faccessat(struct kc_fs *fs, int dirfd, const char *name, int mode,
		     int flags);
ssize_t kc_src_pread(struct kc_fs *fs, int fd, void *buf, size_t len,
		     off_t off);
void kc_src_close(struct kc_fs *fs, int fd);
struct statvfs;
int kc_src_fstatvfs(struct kc_fs *fs, int fd, struct statvfs *st);
ssize_t kc_src_readlinkat(struct kc_fs *fs, int dirfd, const char *name,
			  char *buf, size_t len);
ssize_t kc_src_xattr(struct kc_fs *fs, const char *path, const char *name,
		     char *buf, size_t len);
int kc_src_probe(struct kc_fs *fs);
bool kc_src_root_answers(struct kc_fs *fs);
void kc_source_error(struct kc_fs *fs, int err);
void kc_source_stalled(struct kc_fs *fs);

/* options.c */
int kc_parse_args(struct fuse_args *args, struct kc_config *cfg,
		  struct fuse_cmdline_opts *opts);
void kc_print_help(const char *prog);
char *kc_default_volume_key(const char *source, const struct stat *st);
int kc_check_volume_key(const char *key, const char **why);

/* inode.c */
int kc_itable_init(struct kc_fs *fs);
void kc_itable_destroy(struct kc_fs *fs);
struct kc_inode *kc_inode(fuse_req_t req, fuse_ino_t ino);
int kc_do_lookup(fuse_req_t req, struct kc_inode *dir, const char *name,
		 struct fuse_entry_param *e);
int kc_inode_fd(struct kc_fs *fs, struct kc_inode *in);
int kc_inode_fd_reply(fuse_req_t req, struct kc_inode *in);
struct kc_inode *kc_inode_parent(struct kc_fs *fs, struct kc_inode *in,
				 char name[NAME_MAX + 1]);
struct kc_inode *kc_inode_from_store(struct kc_fs *fs, struct kc_inode *dir,
				     const char *name, const struct stat *st,
				     const struct timespec *btime,
				     int64_t learnt);
bool kc_inode_fresh_attr(struct kc_fs *fs, struct kc_inode *in,
			 struct stat *st);
void kc_inode_forget(struct kc_fs *fs, struct kc_inode *in, uint64_t n);
void kc_inode_pin(struct kc_inode *in);
void kc_inode_unpin(struct kc_inode *in);
struct kc_inode *kc_inode_find(struct kc_fs *fs, dev_t dev, ino_t ino);
void kc_inode_rename(struct kc_fs *fs, struct kc_inode *in,
		     struct kc_inode *dir, const char *name);
void kc_inode_unname(struct kc_fs *fs, struct kc_inode *in,
		     struct kc_inode *dir, const char *name);
int kc_inode_check_name(struct kc_fs *fs, struct kc_inode *in);
/*
 * A handler out of descriptors, waiting for the kernel to forget names and
 * so close theirs.  @locked: the directory the kernel holds locked over the
 * request (lookup, create), or NULL.  Forgetting a name takes its
 * directory's lock, so while the handler waits no name in @locked is asked
 * for: the kernel could only forget it once this very request ended.
 */
struct kc_fd_waiter {
	struct kc_fs	*fs;
	struct kc_inode	*locked;
	int		tries;
};

/* errno EMFILE or ENFILE: wait a little and say to try again (bounded). */
bool kc_fd_wait(struct kc_fd_waiter *w);
/* After the last try (errno untouched). */
void kc_fd_wait_end(struct kc_fd_waiter *w);
void kc_fd_reserve_fill(struct kc_fs *fs);
void kc_fd_reserve_close(struct kc_fs *fs);
bool kc_itable_full(struct kc_fs *fs);
int kc_itable_each_cached(struct kc_fs *fs,
			  void (*fn)(struct kc_fs *fs, struct kc_inode *in));
struct kc_inode *kc_inode_known(struct kc_fs *fs, struct kc_inode *dir,
				const char *name, struct stat *st);
bool kc_inode_attr(struct kc_fs *fs, struct kc_inode *in, struct stat *st);
bool kc_inode_attr_for(fuse_req_t req, struct kc_inode *in, struct stat *st);
void kc_inode_set_attr(struct kc_fs *fs, struct kc_inode *in,
		       const struct stat *st, const struct timespec *btime);
bool kc_inode_whence(struct kc_fs *fs, struct kc_inode *in,
		     struct kc_whence *w);
void kc_itable_evict(struct kc_fs *fs);
void kc_itable_report(struct kc_fs *fs, FILE *f);

/* control.c: DIR/kmirror.sock, for kmirror cache pin/evict/top */
int kc_control_start(struct kc_fs *fs);
void kc_control_stop(struct kc_fs *fs);
/* control_path.c: its paths, beneath the source's root */
struct kc_ctl_dir {
	char	*path;		/* the directory open, from the root */
	int	fd;		/* or -1 */
};

#define KC_CTL_DIR_INIT	{ NULL, -1 }

int kc_ctl_key(struct kc_fs *fs, const char *path, struct kc_ctl_dir *d,
	       uint8_t key[16], size_t *len);
void kc_ctl_dir_close(struct kc_ctl_dir *d);

/* cache.c */
size_t kc_cookie_key(const struct kc_fs *fs, dev_t dev, ino_t ino,
		     uint8_t key[16]);
struct kc_icache *kc_icache_get(struct kc_fs *fs, struct kc_inode *in);
void kc_icache_free(struct kc_icache *ic);
void kc_aux_encode(const struct kc_attr *a, uint8_t aux[KC_AUX_LEN]);
int kc_cache_open(struct kc_fs *fs, struct kc_inode *in, int fd,
		  bool will_modify, bool *used);
int kc_cache_open_offline(struct kc_fs *fs, struct kc_inode *in, bool *used);
void kc_cache_release(struct kc_fs *fs, struct kc_inode *in);
bool kc_cache_use_known(struct kc_fs *fs, struct kc_inode *in,
			const struct kc_attr *id);
void kc_cache_check_stat(struct kc_fs *fs, struct kc_inode *in,
			 const struct stat *st, bool wait);
void kc_cache_check_due(struct kc_fs *fs, struct kc_inode *in);
void kc_cache_forget(struct kc_fs *fs, struct kc_inode *in);
bool kc_cache_cull(struct kc_fs *fs, struct kc_inode *in);
time_t kc_cache_last_used(struct kc_inode *in);

/* What a change of the source did, for kc_change_end(). */
enum kc_change_kind {
	KC_CH_META,	/* attributes only (mode, owner, times, xattrs) */
	KC_CH_WRITE,	/* @len bytes of @data at @off (or appended) */
	KC_CH_RANGE,	/* [@off, @off + @len) changed, data unknown */
	KC_CH_SIZE,	/* truncated or extended */
	KC_CH_ALL,	/* anything may have changed */
};

struct kc_change {
	enum kc_change_kind	kind;
	off_t			off;
	size_t			len;
	const void		*data;
	bool			append;
};

struct kc_icache *kc_change_begin(struct kc_fs *fs, struct kc_inode *in);
void kc_change_end(struct kc_fs *fs, struct kc_icache *ic,
		   struct kc_inode *in, int fd, const struct kc_change *ch);

/* notify.c */
struct kc_notifier;
int kc_notifier_start(struct kc_fs *fs);
void kc_notifier_stop(struct kc_fs *fs);
void kc_notify_changed(struct kc_fs *fs, struct kc_inode *in, bool wait);
void kc_notify_forget(struct kc_fs *fs, struct kc_inode *dir,
		      const char *name);

/* readthrough.c */
ssize_t kc_source_pread(struct kc_fs *fs, int fd, void *buf, size_t len,
			off_t off);
ssize_t kc_cache_read(struct kc_fs *fs, struct kc_inode *in, int fd,
		      char *buf, size_t size, off_t off);
int kc_cache_prefill(struct kc_fs *fs, struct kc_inode *in, int fd,
		     const struct kc_attr *id, off_t lo, off_t hi,
		     const atomic_bool *stop);

/* fillbehind.c */
struct kc_job {
	struct kc_job		*next;
	struct kc_icache	*ic;
	struct kc_inode		*in;		/* pinned */
	off_t			lo;
	size_t			len;
	int64_t			size;		/* of the object */
	uint64_t		gen;
	char			data[];		/* KC_PIECE bytes */
};

#define KC_PIECE	(1u << 20)	/* largest source read of a fill */

int kc_behind_start(struct kc_fs *fs);
void kc_behind_stop(struct kc_fs *fs);
struct kc_job *kc_behind_get(struct kc_fs *fs);
void kc_behind_put(struct kc_fs *fs, struct kc_job *job);
void kc_behind_queue(struct kc_fs *fs, struct kc_job *job);
void kc_behind_wait(struct kc_icache *ic);
void kc_fill_job(struct kc_fs *fs, struct kc_job *job);

/* settle.c */
int kc_settle_start(struct kc_fs *fs);
void kc_settle_stop(struct kc_fs *fs);
void kc_settle_note(struct kc_fs *fs, struct kc_inode *in, int fd,
		    const struct kc_attr *id, off_t lo, off_t hi);

/* writethrough.c */
int kc_apply_change(struct kc_fs *fs, struct kc_icache *ic,
		    const struct kc_change *ch, int64_t old_size,
		    int64_t new_size);
int kc_bind_map(struct kc_fs *fs, struct kc_icache *ic);
void kc_flush_map(struct kc_fs *fs, struct kc_icache *ic);

/* index_life.c */
int kc_index_build(struct kc_fs *fs);
void kc_index_release(struct kc_fs *fs);
void kc_index_close(struct kc_fs *fs);
void kc_index_destroy(struct kc_fs *fs);
/* index.c */
const char *kc_index_state(struct kc_fs *fs);
struct kc_obj *kc_index_hold(struct kc_fs *fs, const void *key,
			     size_t key_len, struct kc_inode *in, bool *old);
void kc_index_unhold(struct kc_fs *fs, struct kc_obj *obj, bool retired);
void kc_index_touch(struct kc_fs *fs, struct kc_obj *obj);
void kc_index_add_bytes(struct kc_fs *fs, struct kc_obj *obj, int64_t d);
void kc_index_set_bytes(struct kc_fs *fs, struct kc_obj *obj, uint64_t b);
void kc_index_counts(struct kc_fs *fs, uint64_t *objects, uint64_t *bytes);

/*
 * cull.c, and what it calls above itself: the culler sits below the
 * caching of files (readthrough.c asks it for room), yet culling an object
 * a file holds, or waiting for its last use, is the cache's business
 * (cache.c, inode.c), and the housekeeper's other chores are everybody's.
 * As fscache's cache ops do, these pointers let the lower layer call the
 * upper one without naming it (main.c fills them in).
 */
struct kc_cull_ops {
	void	(*pin)(struct kc_inode *in);	/* hold @in while culling */
	void	(*unpin)(struct kc_inode *in);
	bool	(*cull)(struct kc_fs *fs, struct kc_inode *in); /* gone? */
	time_t	(*last_used)(struct kc_inode *in);
	void	(*chores)(struct kc_fs *fs);	/* after each cull pass */
};

int kc_cull_check_limits(const unsigned int limit[KC_NLIM], char *why,
			 size_t size);
int kc_housekeeper_start(struct kc_fs *fs);
void kc_housekeeper_stop(struct kc_fs *fs);
bool kc_may_cache(struct kc_fs *fs, uint64_t len);
void kc_cull_kick(struct kc_fs *fs);
int kc_cull_evict(struct kc_fs *fs, const uint8_t *key, size_t len);

/* stats.c */
int kc_stats_write(struct kc_fs *fs, bool mounted);
void kc_stats_write_if_changed(struct kc_fs *fs);
void kc_stats_show(struct kc_fs *fs, FILE *f);
void kc_cache_error(struct kc_fs *fs, const char *what, long err);

/* sums.c, with the filesystem */
struct fscache_cache_resources;
int kc_sums_open(struct kc_fs *fs);
void kc_sidecar_of(struct kc_fs *fs, const struct kc_obj *o,
		   struct kc_sidecar *sc);
void kc_sums_remove(struct kc_fs *fs, const struct kc_obj *o);
int kc_object_crc(struct fscache_cache_resources *cres, off_t lo,
		  size_t len, uint32_t *crc);
void kc_verify_failed(struct kc_fs *fs, int fd, uint64_t g);
/*
 * Bytes of an object a reader holds already: [lo, lo + len) at @buf, read
 * when the map's drop count was @drops.
 */
struct kc_have {
	const char	*buf;
	off_t		lo;
	size_t		len;
	uint64_t	drops;
};
/* kc_granule_check(): the bytes held may predate a drop; read again. */
#define KC_CHECK_REREAD	2
int kc_granule_check(struct kc_icache *ic,
		     struct fscache_cache_resources *cres, uint64_t g,
		     int64_t size, const struct kc_have *have);

/* objfd.c */
int kc_cres_fd(const struct fscache_cache_resources *cres);

/* ops_file.c */
void kc_handles_init(struct kc_fs *fs);
void kc_handle_add(struct kc_fs *fs, struct kc_handle *h,
		   void (*close)(struct kc_fs *fs, struct kc_handle *h));
void kc_handle_del(struct kc_fs *fs, struct kc_handle *h);
void kc_handles_close(struct kc_fs *fs);

/* ops_*.c */
extern const struct fuse_lowlevel_ops kc_ops;
void kc_op_lookup(fuse_req_t req, fuse_ino_t parent, const char *name);
void kc_op_forget(fuse_req_t req, fuse_ino_t ino, uint64_t nlookup);
void kc_op_forget_multi(fuse_req_t req, size_t count,
			struct fuse_forget_data *forgets);
void kc_op_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi);
void kc_op_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr,
		   int valid, struct fuse_file_info *fi);
void kc_op_readlink(fuse_req_t req, fuse_ino_t ino);
void kc_op_mknod(fuse_req_t req, fuse_ino_t parent, const char *name,
		 mode_t mode, dev_t rdev);
void kc_op_mkdir(fuse_req_t req, fuse_ino_t parent, const char *name,
		 mode_t mode);
void kc_op_symlink(fuse_req_t req, const char *link, fuse_ino_t parent,
		   const char *name);
void kc_op_link(fuse_req_t req, fuse_ino_t ino, fuse_ino_t parent,
		const char *name);
void kc_op_unlink(fuse_req_t req, fuse_ino_t parent, const char *name);
void kc_op_rmdir(fuse_req_t req, fuse_ino_t parent, const char *name);
void kc_op_rename(fuse_req_t req, fuse_ino_t parent, const char *name,
		  fuse_ino_t newparent, const char *newname,
		  unsigned int flags);
void kc_op_statfs(fuse_req_t req, fuse_ino_t ino);
void kc_op_opendir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi);
void kc_op_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		   struct fuse_file_info *fi);
void kc_op_readdirplus(fuse_req_t req, fuse_ino_t ino, size_t size,
		       off_t off, struct fuse_file_info *fi);
void kc_op_releasedir(fuse_req_t req, fuse_ino_t ino,
		      struct fuse_file_info *fi);
void kc_op_fsyncdir(fuse_req_t req, fuse_ino_t ino, int datasync,
		    struct fuse_file_info *fi);
void kc_op_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi);
void kc_op_create(fuse_req_t req, fuse_ino_t parent, const char *name,
		  mode_t mode, struct fuse_file_info *fi);
void kc_op_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		struct fuse_file_info *fi);
void kc_op_write(fuse_req_t req, fuse_ino_t ino, const char *buf,
		 size_t size, off_t off, struct fuse_file_info *fi);
void kc_op_flush(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi);
void kc_op_fsync(fuse_req_t req, fuse_ino_t ino, int datasync,
		 struct fuse_file_info *fi);
void kc_op_release(fuse_req_t req, fuse_ino_t ino,
		   struct fuse_file_info *fi);
void kc_op_fallocate(fuse_req_t req, fuse_ino_t ino, int mode, off_t off,
		     off_t len, struct fuse_file_info *fi);
void kc_op_copy_file_range(fuse_req_t req, fuse_ino_t ino_in, off_t off_in,
			   struct fuse_file_info *fi_in, fuse_ino_t ino_out,
			   off_t off_out, struct fuse_file_info *fi_out,
			   size_t len, int flags);
void kc_op_lseek(fuse_req_t req, fuse_ino_t ino, off_t off, int whence,
		 struct fuse_file_info *fi);
void kc_op_setxattr(fuse_req_t req, fuse_ino_t ino, const char *name,
		    const char *value, size_t size, int flags);
void kc_op_getxattr(fuse_req_t req, fuse_ino_t ino, const char *name,
		    size_t size);
void kc_op_listxattr(fuse_req_t req, fuse_ino_t ino, size_t size);
void kc_op_removexattr(fuse_req_t req, fuse_ino_t ino, const char *name);

/* ---- base.c: the leaves, calling nothing of ours -------------------- */

/* Monotonic clock, ns. */
uint64_t kc_now_ns(void);
/* Wall clock, ns. */
int64_t kc_wall_ns(void);
/* A condition variable whose timed waits count on CLOCK_MONOTONIC. */
void kc_cond_init_monotonic(pthread_cond_t *cond);
/* Sleep @us microseconds (0: not at all), signals or not. */
void kc_sleep_us(unsigned long us);
/* One error line (control characters escaped); returns -1. */
int kc_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * One warning line, "kmirror-cachefs: ..." (control characters escaped),
 * rate-limited per call site: a warning whose cause lasts must not flood
 * the log.  kc_warn_flush() at the end says what was held back.
 */
struct kc_ratelimit {
	uint64_t		begin_ns;	/* of the current interval */
	unsigned int		printed, missed;
	bool			listed;		/* on kc_warn_flush()'s list */
	struct kc_ratelimit	*next;
	char			last[96];	/* the last line held back */
};

#define KC_WARN_BURST		10		/* lines of one site ... */
#define KC_WARN_INTERVAL_NS	(60 * 1000000000ull)	/* ... a minute */

#define kc_warn(...) do {						\
	static struct kc_ratelimit kc_rl_;				\
	kc_warn_limited(&kc_rl_, __VA_ARGS__);				\
} while (0)
void kc_warn_limited(struct kc_ratelimit *rl, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void kc_warn_flush(void);
void kc_procname(char *buf, size_t size, int fd);
/* Two per-thread buffers: the reply, and a fill's source data. */
int kc_scratch_init(void);
void kc_scratch_fini(void);
char *kc_scratch(unsigned int which, size_t len);
void kc_attr_from_stat(struct kc_attr *a, const struct stat *st);
bool kc_attr_eq(const struct kc_attr *a, const struct kc_attr *b);
int64_t kc_attr_settle_in(const struct kc_attr *a);
bool kc_attr_settled(const struct kc_attr *a);

#endif /* KC_CACHEFS_H */
