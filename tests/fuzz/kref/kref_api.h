/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel's own cachefiles daemon interface and cull policy (6.1 tree,
 * compiled at build time, see kref.h), behind a small API the differential
 * fuzz targets drive side by side with the core.  One struct kref is one
 * open /dev/cachefiles descriptor.  Not thread-safe; libc types only.
 */
#ifndef KMIRROR_KREF_API_H
#define KMIRROR_KREF_API_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct kref;

/* The statfs answer the stubbed VFS gives at bind and in has_space. */
struct kref_statfs {
	long		bsize;
	uint64_t	blocks;
	uint64_t	bavail;
	uint64_t	files;
	uint64_t	ffree;
};

/* struct cachefiles_cache as the kernel's code left it. */
struct kref_state {
	unsigned int	pct[6];		/* frun fcull fstop brun bcull bstop */
	uint64_t	limit[6];	/* the same order, absolute */
	unsigned int	bsize;
	unsigned int	bshift;
	unsigned int	debug;		/* cachefiles_debug */
	bool		ready;
	bool		dead;
	bool		culling;
	bool		state_changed;
	bool		ondemand_mode;
	bool		have_secid;
	const char	*dir;		/* rootdirname, or NULL */
	const char	*tag;		/* tag, or NULL */
};

/* What the last call made the kernel's code ask of the world outside. */
struct kref_call {
	char		*cull;		/* name given to cachefiles_cull() */
	char		*inuse;		/* ... to cachefiles_check_in_use() */
	char		*secctx;	/* ... to security_secctx_to_secid() */
	bool		copen;		/* a copen request was completed */
	unsigned long	copen_id;
	int		copen_error;	/* req->error */
	uint64_t	copen_size;	/* cookie->object_size */
	unsigned int	no_write;	/* fscache_count_no_write_space() */
	unsigned int	no_create;	/* fscache_count_no_create_space() */
};

struct kref *kref_open(bool ondemand_config);
void kref_close(struct kref *k);
ssize_t kref_write(struct kref *k, const char *data, size_t len);
void kref_release(struct kref *k);
void kref_set_statfs(struct kref *k, const struct kref_statfs *st);
int kref_has_space(struct kref *k, uint64_t b_writing, unsigned int fnr,
		   unsigned int bnr, int reason);
void kref_set_limits(struct kref *k, const uint64_t limit[6], bool culling);
void kref_get_state(const struct kref *k, struct kref_state *st);
const struct kref_call *kref_last_call(const struct kref *k);

#endif
