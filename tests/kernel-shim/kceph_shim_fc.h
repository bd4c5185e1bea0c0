/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Second half of the shim (see kceph_shim.h), included by the extracted
 * code right after the tree's struct p_log and logging macros.
 */
#ifndef KCEPH_SHIM_FC_H
#define KCEPH_SHIM_FC_H

/* custom: the log records the first error and the first message */
struct fc_log {
	char first_error[512];
	char first_error_prefix[16];
	int errors;
};

struct fs_context;
struct fs_parameter;

/* custom: the members of <linux/fs_context.h> the parsers use */
struct fs_context_operations {
	int (*parse_param)(struct fs_context *fc, struct fs_parameter *param);
	int (*parse_monolithic)(struct fs_context *fc, void *data);
};

struct file_system_type {
	const char *name;
};

struct fs_context {
	const struct fs_context_operations *ops;
	struct file_system_type *fs_type;
	void *fs_private;
	struct p_log log;
	const char *source;
	void *security;
	unsigned int sb_flags;
	unsigned int sb_flags_mask;
};

/* custom: the members of fs/ceph/super.h and libceph.h cache.c uses */
struct ceph_client {
	struct ceph_fsid fsid;
};

struct fscache_volume;

struct ceph_fs_client {
	struct ceph_client *client;
	struct ceph_mount_options *mount_options;
	struct fscache_volume *fscache;
};

/*
 * custom: fscache_acquire_volume() records the key; like
 * fs/fscache/volume.c:223 and :341 it refuses one longer than NAME_MAX
 * with ERR_PTR(-ENOMEM).
 */
struct fscache_volume *fscache_acquire_volume(const char *volume_key,
					      const char *cache_name,
					      const void *coherency_data,
					      size_t coherency_len);

/* stubbed: ceph_parse_param()'s key= helper */
static inline int get_secret(struct ceph_crypto_key *dst, const char *name,
			     struct p_log *log)
{
	abort();
}

/* The hook for the fsid that ceph_parse_new_source() parses and drops. */
int ceph_parse_fsid(const char *str, struct ceph_fsid *fsid);
int kceph_parse_fsid_hook(const char *str, struct ceph_fsid *fsid);

#define snprintf kceph_snprintf

#endif
