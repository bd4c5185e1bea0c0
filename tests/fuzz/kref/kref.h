/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The environment the kernel's own cachefiles daemon and cull code (cut out
 * of the 6.1 tree at build time by extract_kernel.py) is compiled in for the
 * differential fuzz targets.  Self-contained over libc: the kernel's ctype
 * and kstrtox come from the tree itself, not from userspace/kcompat.
 *
 *   custom:  struct cachefiles_cache and friends, cut to the fields used
 *   custom:  the VFS, LSM and fscache calls, answered from struct kref
 *            (statfs numbers, what cull/inuse/secctx were asked), never
 *            failing except where the test says so
 *   stubbed: tracing, printk, locking (the harness is single-threaded; a
 *            lock depth counter still asserts balance)
 */
#ifndef KMIRROR_KREF_H
#define KMIRROR_KREF_H

#include <assert.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "kref_api.h"

typedef uint32_t u32;
typedef uint64_t u64;
typedef u64 sector_t;
typedef unsigned int gfp_t;

#define __user
#define __must_check
#define noinline __attribute__((__noinline__))
#define unlikely(x) __builtin_expect(!!(x), 0)
#define GFP_KERNEL 0u
#define PAGE_SIZE 4096UL
#define MAX_ERRNO 4095
#define ULLONG_MAX (~0ULL)
#define INT_MAX ((int)(~0U >> 1))
#define KSTRTOX_OVERFLOW (1U << 31)

/* include/linux/kconfig.h's IS_ENABLED(): 1 iff the option is defined 1. */
#include "../../kernel-shim/linux/kconfig.h"

#define IS_ERR_VALUE(x) \
	unlikely((unsigned long)(void *)(x) >= (unsigned long)-MAX_ERRNO)
static inline void *ERR_PTR(long error) { return (void *)error; }
static inline long PTR_ERR(const void *ptr) { return (long)ptr; }
static inline bool IS_ERR(const void *ptr) { return IS_ERR_VALUE(ptr); }

#define ASSERT(x) assert(x)
#define pr_err(...) do { } while (0)
#define pr_warn(...) do { } while (0)
#define pr_info(...) do { } while (0)
#define _enter(...) do { } while (0)
#define _leave(...) do { } while (0)
#define _debug(...) do { } while (0)
#define trace_cachefiles_vfs_error(...) do { } while (0)
#define trace_cachefiles_ondemand_copen(...) do { } while (0)

#define do_div(n, base) ({ u32 __rem = (n) % (base); (n) /= (base); __rem; })
static inline u64 div_u64(u64 dividend, u32 divisor)
{
	return dividend / divisor;
}
#define ilog2(n) (63 - __builtin_clzll((unsigned long long)(n)))

/* Bit operations on one unsigned long, as the cache's flags use them. */
#include "../../kernel-shim/linux/bitops.h"

typedef struct { long counter; } atomic_long_t;
#define atomic_long_read(v) ((v)->counter)

struct mutex { int depth; };
static inline void mutex_lock(struct mutex *m) { assert(m->depth++ == 0); }
static inline void mutex_unlock(struct mutex *m) { assert(--m->depth == 0); }
typedef struct { int depth; } spinlock_t;
static inline void spin_lock(spinlock_t *l) { assert(l->depth++ == 0); }
static inline void spin_unlock(spinlock_t *l) { assert(--l->depth == 0); }
struct wait_queue_head { int woken; };
#define wake_up_all(wq) ((wq)->woken++)
struct completion { int done; };
#define complete(c) ((c)->done++)

/* The instance the stubs below answer for (struct kref, kref_lib.c). */
extern struct kref *kref_env;

static inline void *kref_memdup_nul(const void *src, size_t len)
{
	char *p = malloc(len + 1);

	memcpy(p, src, len);
	p[len] = '\0';
	return p;
}
#define memdup_user_nul(src, len) kref_memdup_nul(src, len)
#define kstrdup(s, gfp) strdup(s)
#define kfree(p) free((void *)(p))

/* fs/cachefiles/internal.h, cut down. */
struct file { void *private_data; };
struct cred { int unused; };
struct super_operations { int (*statfs)(void); int (*sync_fs)(void); };
struct super_block {
	unsigned long s_blocksize;
	const struct super_operations *s_op;
};
struct inode_operations {
	int (*lookup)(void);
	int (*mkdir)(void);
	int (*tmpfile)(void);
};
#define IOP_XATTR 0x8
struct inode {
	const struct inode_operations *i_op;
	unsigned short i_opflags;
};
struct dentry { struct inode *d_inode; struct super_block *d_sb; };
struct vfsmount { struct dentry *mnt_root; };
struct path { struct vfsmount *mnt; struct dentry *dentry; };
struct kstatfs {
	long f_bsize;
	u64 f_blocks;
	u64 f_bfree;
	u64 f_bavail;
	u64 f_files;
	u64 f_ffree;
};
struct fscache_cache { const char *name; };
struct fscache_cache_ops { int unused; };
struct fscache_cookie { u64 object_size; unsigned long flags; };
#define FSCACHE_COOKIE_NO_DATA_TO_READ 1

struct cachefiles_ondemand_info { spinlock_t lock; int ondemand_id; };
struct cachefiles_object {
	struct fscache_cookie *cookie;
	struct cachefiles_ondemand_info *ondemand;
};
#define CACHEFILES_OP_OPEN 0
struct cachefiles_msg { u32 opcode; };
struct cachefiles_req {
	struct cachefiles_object *object;
	struct completion done;
	int error;
	struct cachefiles_msg msg;
};
#define CACHEFILES_ONDEMAND_ID_CLOSED -1

struct xarray { int unused; };
struct xa_state { struct xarray *xa; unsigned long xa_index; };
#define XA_STATE(name, array, index) \
	struct xa_state name = { .xa = (array), .xa_index = (index) }
#define xa_lock(xa) ((void)(xa))
#define xa_unlock(xa) ((void)(xa))
#define xas_lock(xas) ((void)(xas))
#define xas_unlock(xas) ((void)(xas))
/* One OPEN request under every id: copen always finds its request. */
#define xas_load(xas) (kref_env->req_id = (xas)->xa_index, &kref_env->req)
#define xas_store(xas, entry) ((void)(entry))
#define xas_for_each(xas, entry, max) \
	for ((entry) = NULL; (entry); )
#define xas_set_mark(xas, mark) ((void)(mark))
#define CACHEFILES_REQ_NEW 1

struct cachefiles_cache {
	struct fscache_cache		*cache;
	struct vfsmount			*mnt;
	struct dentry			*store;
	struct dentry			*graveyard;
	struct file			*cachefilesd;
	const struct cred		*cache_cred;
	struct mutex			daemon_mutex;
	struct wait_queue_head		daemon_pollwq;
	atomic_long_t			b_writing;
	unsigned			frun_percent;
	unsigned			fcull_percent;
	unsigned			fstop_percent;
	unsigned			brun_percent;
	unsigned			bcull_percent;
	unsigned			bstop_percent;
	unsigned			bsize;
	unsigned			bshift;
	uint64_t			frun;
	uint64_t			fcull;
	uint64_t			fstop;
	sector_t			brun;
	sector_t			bcull;
	sector_t			bstop;
	unsigned long			flags;
#define CACHEFILES_READY		0
#define CACHEFILES_DEAD			1
#define CACHEFILES_CULLING		2
#define CACHEFILES_STATE_CHANGED	3
#define CACHEFILES_ONDEMAND_MODE	4
	char				*rootdirname;
	char				*tag;
	struct xarray			reqs;
	u32				secid;
	bool				have_secid;
};

static inline void cachefiles_state_changed(struct cachefiles_cache *cache)
{
	set_bit(CACHEFILES_STATE_CHANGED, &cache->flags);
	wake_up_all(&cache->daemon_pollwq);
}

/* One descriptor: the cache, and the world its stubs answer from. */
struct kref {
	struct cachefiles_cache		cache;
	struct file			file;
	bool				ondemand_config;
	struct kstatfs			statfs;
	struct kref_call		call;
	/* the one OPEN request every copen finds */
	struct cachefiles_req		req;
	struct cachefiles_object	object;
	struct cachefiles_ondemand_info	info;
	struct fscache_cookie		cookie;
	unsigned long			req_id;
	int				object_open;
	/* the cache root kern_path() finds */
	struct vfsmount			mnt;
	struct dentry			root;
	struct inode			inode;
	struct super_block		sb;
	struct fscache_cache		fscache;
};

static inline void cachefiles_ondemand_set_object_open(
	struct cachefiles_object *object)
{
	kref_env->object_open = 1;
}

static inline void cachefiles_ondemand_set_object_close(
	struct cachefiles_object *object)
{
	kref_env->object_open = 0;
}

enum cachefiles_has_space_for {
	cachefiles_has_space_check,
	cachefiles_has_space_for_write,
	cachefiles_has_space_for_create,
};

extern unsigned cachefiles_debug;
extern const struct fscache_cache_ops cachefiles_cache_ops;

/* The kernel's lib, extracted into kref_lib.c. */
char *skip_spaces(const char *str);
int kstrtoull(const char *s, unsigned int base, unsigned long long *res);
int kstrtoll(const char *s, unsigned int base, long long *res);
int _kstrtoul(const char *s, unsigned int base, unsigned long *res);
int _kstrtol(const char *s, unsigned int base, long *res);
unsigned long simple_strtoul(const char *cp, char **endp, unsigned int base);
int cachefiles_add_cache(struct cachefiles_cache *cache);
int cachefiles_has_space(struct cachefiles_cache *cache, unsigned fnr,
			 unsigned bnr, enum cachefiles_has_space_for reason);
int cachefiles_ondemand_copen(struct cachefiles_cache *cache, char *args);
int cachefiles_ondemand_restore(struct cachefiles_cache *cache, char *args);

/* VFS, LSM and fscache, answered from kref_env (kref_lib.c). */
#define current kref_env
#define get_fs_pwd(fs, p) ((p)->mnt = NULL, (p)->dentry = NULL)
#define d_can_lookup(d) true
#define path_put(p) ((void)(p))
#define cachefiles_begin_secure(cache, saved) ((void)(saved))
#define cachefiles_end_secure(cache, saved) ((void)(saved))
int cachefiles_cull(struct cachefiles_cache *cache, struct dentry *dir,
		    char *filename);
int cachefiles_check_in_use(struct cachefiles_cache *cache,
			    struct dentry *dir, char *filename);
int security_secctx_to_secid(const char *secdata, u32 seclen, u32 *secid);

struct fscache_cache *fscache_acquire_cache(const char *name);
void fscache_relinquish_cache(struct fscache_cache *cache);
int fscache_add_cache(struct fscache_cache *cache,
		      const struct fscache_cache_ops *ops, void *cache_priv);
void fscache_count_no_write_space(void);
void fscache_count_no_create_space(void);
int cachefiles_get_security_ID(struct cachefiles_cache *cache);
int cachefiles_determine_cache_security(struct cachefiles_cache *cache,
					struct dentry *root,
					const struct cred **_saved_cred);
#define LOOKUP_DIRECTORY 1
int kern_path(const char *name, unsigned int flags, struct path *path);
int vfs_statfs(const struct path *path, struct kstatfs *buf);
struct dentry *cachefiles_get_directory(struct cachefiles_cache *cache,
					struct dentry *dir,
					const char *name, bool *_is_new);
#define is_idmapped_mnt(mnt) false
#define d_is_negative(d) false
#define d_backing_inode(d) ((d)->d_inode)
#define d_inode(d) ((d)->d_inode)
#define sb_rdonly(sb) false
#define dput(d) ((void)(d))
#define mntput(m) ((void)(m))
#define put_cred(c) ((void)(c))
#define cachefiles_put_directory(d) ((void)(d))
#define cachefiles_io_error(cache, ...) \
	set_bit(CACHEFILES_DEAD, &(cache)->flags)

#endif
