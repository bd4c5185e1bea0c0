// SPDX-License-Identifier: GPL-2.0-only
/*
 * The tree's lib helpers (ctype, kstrtox, simple_strtoul, skip_spaces) and
 * cachefiles_add_cache()/cachefiles_has_space(), plus the stubbed world they
 * call into and the kref_api.h entry points.
 */
#include "kref.h"
#include "kernel_hdr.inc"
#include "kernel_lib.inc"

struct kref *kref_env;
unsigned cachefiles_debug;
const struct fscache_cache_ops cachefiles_cache_ops;

ssize_t kref_std_daemon_write(struct file *file, const char *data,
			      size_t len);
ssize_t kref_od_daemon_write(struct file *file, const char *data, size_t len);

static int kref_op(void)
{
	return 0;
}

static const struct inode_operations kref_iops = {
	.lookup = kref_op, .mkdir = kref_op, .tmpfile = kref_op,
};
static const struct super_operations kref_sops = {
	.statfs = kref_op, .sync_fs = kref_op,
};

/* Keep the last name the kernel handed to the world (freed on reuse). */
static int kref_record(char **slot, const char *name)
{
	free(*slot);
	*slot = strdup(name);
	return 0;
}

int cachefiles_cull(struct cachefiles_cache *cache, struct dentry *dir,
		    char *filename)
{
	return kref_record(&kref_env->call.cull, filename);
}

int cachefiles_check_in_use(struct cachefiles_cache *cache,
			    struct dentry *dir, char *filename)
{
	return kref_record(&kref_env->call.inuse, filename);
}

/* An LSM that accepts every context (security.c with a permissive hook). */
int security_secctx_to_secid(const char *secdata, u32 seclen, u32 *secid)
{
	assert(strlen(secdata) == seclen);
	*secid = 1;
	return kref_record(&kref_env->call.secctx, secdata);
}

struct fscache_cache *fscache_acquire_cache(const char *name)
{
	kref_env->fscache.name = name;
	return &kref_env->fscache;
}

void fscache_relinquish_cache(struct fscache_cache *cache)
{
}

int fscache_add_cache(struct fscache_cache *cache,
		      const struct fscache_cache_ops *ops, void *cache_priv)
{
	return 0;
}

void fscache_count_no_write_space(void)
{
	kref_env->call.no_write++;
}

void fscache_count_no_create_space(void)
{
	kref_env->call.no_create++;
}

int cachefiles_get_security_ID(struct cachefiles_cache *cache)
{
	return 0;
}

int cachefiles_determine_cache_security(struct cachefiles_cache *cache,
					struct dentry *root,
					const struct cred **_saved_cred)
{
	return 0;
}

int kern_path(const char *name, unsigned int flags, struct path *path)
{
	path->mnt = &kref_env->mnt;
	path->dentry = &kref_env->root;
	return 0;
}

int vfs_statfs(const struct path *path, struct kstatfs *buf)
{
	*buf = kref_env->statfs;
	return 0;
}

struct dentry *cachefiles_get_directory(struct cachefiles_cache *cache,
					struct dentry *dir,
					const char *name, bool *_is_new)
{
	return &kref_env->root;
}

struct kref *kref_open(bool ondemand_config)
{
	struct kref *k = calloc(1, sizeof(*k));
	struct cachefiles_cache *cache = &k->cache;

	/* cachefiles_daemon_open()'s defaults (daemon.c:125-130) */
	cache->frun_percent = 7;
	cache->fcull_percent = 5;
	cache->fstop_percent = 1;
	cache->brun_percent = 7;
	cache->bcull_percent = 5;
	cache->bstop_percent = 1;
	k->file.private_data = cache;
	k->ondemand_config = ondemand_config;
	k->inode.i_op = &kref_iops;
	k->inode.i_opflags = IOP_XATTR;
	k->sb.s_blocksize = PAGE_SIZE;
	k->sb.s_op = &kref_sops;
	k->root.d_inode = &k->inode;
	k->root.d_sb = &k->sb;
	k->mnt.mnt_root = &k->root;
	k->cookie.flags = 0;
	k->info.ondemand_id = 1;
	k->object.cookie = &k->cookie;
	k->object.ondemand = &k->info;
	k->req.object = &k->object;
	k->req.msg.opcode = CACHEFILES_OP_OPEN;
	cachefiles_debug = 0;
	return k;
}

static void kref_forget_call(struct kref *k)
{
	free(k->call.cull);
	free(k->call.inuse);
	free(k->call.secctx);
	memset(&k->call, 0, sizeof(k->call));
}

void kref_close(struct kref *k)
{
	kref_forget_call(k);
	free(k->cache.rootdirname);
	free(k->cache.tag);
	free(k);
}

ssize_t kref_write(struct kref *k, const char *data, size_t len)
{
	ssize_t ret;

	kref_env = k;
	kref_forget_call(k);
	k->req.error = 0;
	k->req.done.done = 0;
	k->cookie.object_size = 0;
	ret = k->ondemand_config ? kref_od_daemon_write(&k->file, data, len) :
				   kref_std_daemon_write(&k->file, data, len);
	if (k->req.done.done) {
		k->call.copen = true;
		k->call.copen_id = k->req_id;
		k->call.copen_error = k->req.error;
		k->call.copen_size = k->cookie.object_size;
	}
	return ret;
}

/* cachefiles_daemon_release(): the descriptor is dead from now on. */
void kref_release(struct kref *k)
{
	set_bit(CACHEFILES_DEAD, &k->cache.flags);
}

void kref_set_statfs(struct kref *k, const struct kref_statfs *st)
{
	memset(&k->statfs, 0, sizeof(k->statfs));
	k->statfs.f_bsize = st->bsize;
	k->statfs.f_blocks = st->blocks;
	k->statfs.f_bavail = st->bavail;
	k->statfs.f_files = st->files;
	k->statfs.f_ffree = st->ffree;
}

/* Only meaningful on a bound cache: the kernel reads cache->mnt. */
int kref_has_space(struct kref *k, uint64_t b_writing, unsigned int fnr,
		   unsigned int bnr, int reason)
{
	kref_env = k;
	kref_forget_call(k);
	clear_bit(CACHEFILES_STATE_CHANGED, &k->cache.flags);
	k->cache.b_writing.counter = (long)b_writing;
	return cachefiles_has_space(&k->cache, fnr, bnr, reason);
}

void kref_set_limits(struct kref *k, const uint64_t limit[6], bool culling)
{
	k->cache.frun = limit[0];
	k->cache.fcull = limit[1];
	k->cache.fstop = limit[2];
	k->cache.brun = limit[3];
	k->cache.bcull = limit[4];
	k->cache.bstop = limit[5];
	if (culling)
		set_bit(CACHEFILES_CULLING, &k->cache.flags);
	else
		clear_bit(CACHEFILES_CULLING, &k->cache.flags);
}

void kref_get_state(const struct kref *k, struct kref_state *st)
{
	const struct cachefiles_cache *c = &k->cache;

	st->pct[0] = c->frun_percent;
	st->pct[1] = c->fcull_percent;
	st->pct[2] = c->fstop_percent;
	st->pct[3] = c->brun_percent;
	st->pct[4] = c->bcull_percent;
	st->pct[5] = c->bstop_percent;
	st->limit[0] = c->frun;
	st->limit[1] = c->fcull;
	st->limit[2] = c->fstop;
	st->limit[3] = c->brun;
	st->limit[4] = c->bcull;
	st->limit[5] = c->bstop;
	st->bsize = c->bsize;
	st->bshift = c->bshift;
	st->debug = cachefiles_debug;
	st->ready = test_bit(CACHEFILES_READY, &c->flags);
	st->dead = test_bit(CACHEFILES_DEAD, &c->flags);
	st->culling = test_bit(CACHEFILES_CULLING, &c->flags);
	st->state_changed = test_bit(CACHEFILES_STATE_CHANGED, &c->flags);
	st->ondemand_mode = test_bit(CACHEFILES_ONDEMAND_MODE, &c->flags);
	st->have_secid = c->have_secid;
	st->dir = c->rootdirname;
	st->tag = c->tag;
}

const struct kref_call *kref_last_call(const struct kref *k)
{
	return &k->call;
}
