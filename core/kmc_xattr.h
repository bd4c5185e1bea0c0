/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cachefiles xattr codecs: the object xattr and the volume xattr, both
 * stored under "user.CacheFiles.cache", byte-identical to fs/cachefiles/xattr.c
 * of the 6.1 tree, plus the coherency decisions of cachefiles_check_auxdata()
 * and cachefiles_check_volume_xattr() as pure functions.
 *
 * Object xattr (struct cachefiles_xattr, packed, 18-byte header):
 *   be64 object_size | be64 zero_point | u8 type | u8 content | aux[]
 * Volume xattr (struct cachefiles_vol_xattr, packed, 4-byte header):
 *   be32 reserved (0) | coherency[]
 *
 * Two levels of judgement, kept apart on purpose:
 *  - kmc_xattr_decode()/kmc_vol_xattr_decode() say whether bytes are a
 *    well-formed xattr at all (what a cache reader can list);
 *  - kmc_xattr_check()/kmc_vol_xattr_check() say whether the kernel would
 *    accept the object for a given cookie, with the kernel's return value
 *    and its reason (the trace point's cachefiles_coherency_trace).
 */
#ifndef KMC_XATTR_H
#define KMC_XATTR_H

#include "kcompat.h"

#define KMC_XATTR_NAME		"user.CacheFiles.cache"
#define KMC_XATTR_HDR_LEN	18	/* sizeof(struct cachefiles_xattr) */
#define KMC_VOL_XATTR_HDR_LEN	4	/* sizeof(struct cachefiles_vol_xattr) */
/* fscache_acquire_cookie() refuses aux_data_len > 255 (cookie->aux_len: u8) */
#define KMC_AUX_MAX		255
/* fscache_volume.coherency_len is a u8 */
#define KMC_VOL_COHERENCY_MAX	255
#define KMC_XATTR_MAX		(KMC_XATTR_HDR_LEN + KMC_AUX_MAX)
#define KMC_VOL_XATTR_MAX	(KMC_VOL_XATTR_HDR_LEN + KMC_VOL_COHERENCY_MAX)

/* CACHEFILES_COOKIE_TYPE_DATA: the only object type 6.1 writes or accepts */
#define KMC_XATTR_TYPE_DATA	1

/* enum cachefiles_content: these values are saved on disk */
enum kmc_content {
	KMC_CONTENT_NO_DATA	= 0,	/* no content stored */
	KMC_CONTENT_SINGLE	= 1,	/* monolithic, all present */
	KMC_CONTENT_ALL		= 2,	/* all present, no map */
	KMC_CONTENT_BACKFS_MAP	= 3,	/* piecemeal, backing fs holes */
	KMC_CONTENT_DIRTY	= 4,	/* dirty (only seen on disk) */
	KMC_CONTENT_NR
};

/* A decoded object xattr; @aux points into the decoded buffer. */
struct kmc_xattr {
	u64		object_size;
	u64		zero_point;
	u8		type;
	u8		content;
	const u8	*aux;
	unsigned int	aux_len;
};

/* A decoded volume xattr; @coherency points into the decoded buffer. */
struct kmc_vol_xattr {
	u32		reserved;
	const u8	*coherency;
	unsigned int	coherency_len;
};

/*
 * Why a coherency check passed or failed: one value per
 * cachefiles_coherency_trace "check" value of the 6.1 tree.
 */
enum kmc_coherency {
	KMC_COH_OK,		/* check_ok / vol_check_ok */
	KMC_COH_XATTR,		/* check_xattr: missing, error or wrong length */
	KMC_COH_TYPE,		/* check_type: type != TYPE_DATA */
	KMC_COH_AUX,		/* check_aux: aux data differs */
	KMC_COH_OBJSIZE,	/* check_objsize: object_size differs */
	KMC_COH_DIRTY,		/* check_dirty: content == DIRTY */
	KMC_COH_VOL_XATTR,	/* vol_check_xattr: missing, error, length */
	KMC_COH_VOL_RESV,	/* vol_check_resv: reserved != 0 */
	KMC_COH_VOL_CMP,	/* vol_check_cmp: coherency data differs */
	KMC_COH_NR
};

/*
 * Encode: write the xattr value into @buf (@size bytes).  Returns the
 * value's length, -EINVAL for aux/coherency over the kernel's limit,
 * -ENOSPC if @buf is too small.  Writes nothing on error.
 */
int kmc_xattr_encode(const struct kmc_xattr *x, u8 *buf, size_t size);
int kmc_vol_xattr_encode(const struct kmc_vol_xattr *v, u8 *buf,
			 size_t size);

/*
 * Strict decode of a value of @len bytes.  0 on success, or:
 *   -EBADMSG	shorter than the header (truncated)
 *   -EMSGSIZE	aux/coherency longer than the kernel can ever write
 *   -EPROTO	object type is not TYPE_DATA
 *   -EDOM	content value outside enum cachefiles_content
 *   -ENOTEMPTY	volume reserved field is not zero
 * A DIRTY object decodes (it is a real on-disk state); the check refuses it.
 * @x/@v are only written on success.
 */
int kmc_xattr_decode(const u8 *buf, size_t len, struct kmc_xattr *x);
int kmc_vol_xattr_decode(const u8 *buf, size_t len, struct kmc_vol_xattr *v);
/* Human-readable reason for a decode error above (static string). */
const char *kmc_xattr_strerror(int err);

/*
 * The kernel's coherency checks.  @buf/@xlen are what vfs_getxattr() gave
 * when asked for exactly the expected length (header + @aux_len): @xlen may
 * be a negative errno (-ENODATA: no xattr, -ERANGE: stored value longer).
 * Returns what cachefiles_check_auxdata() / cachefiles_check_volume_xattr()
 * return: 0, -ESTALE, or the negative @xlen; *@why gets the reason.
 * Only the first @xlen bytes of @buf are read.
 */
int kmc_xattr_check(const u8 *buf, ssize_t xlen, const u8 *aux,
		    unsigned int aux_len, u64 object_size,
		    enum kmc_coherency *why);
int kmc_vol_xattr_check(const u8 *buf, ssize_t xlen, const u8 *coherency,
			unsigned int coherency_len, enum kmc_coherency *why);
/* Reason name (static string, e.g. "BAD aux"), as the trace prints it. */
const char *kmc_coherency_str(enum kmc_coherency why);
/* Content name ("no_data", "single", "all", "backfs_map", "dirty", "?"). */
const char *kmc_content_str(unsigned int content);

#endif
