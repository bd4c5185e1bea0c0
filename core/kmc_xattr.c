// SPDX-License-Identifier: GPL-2.0-only
/*
 * cachefiles object and volume xattrs (see kmc_xattr.h for the formats).
 * Offsets are spelled out instead of overlaying a packed struct so that the
 * codec never reads a byte it has not bounds-checked.
 */
#include "kcompat.h"
#include "kmc_xattr.h"

#define KMC_XATTR_OFF_SIZE	0
#define KMC_XATTR_OFF_ZERO	8
#define KMC_XATTR_OFF_TYPE	16
#define KMC_XATTR_OFF_CONTENT	17

/*
 * Serialise @x into @buf.  Invariant: @buf receives exactly
 * KMC_XATTR_HDR_LEN + aux_len bytes and nothing beyond, or nothing at all.
 */
int kmc_xattr_encode(const struct kmc_xattr *x, u8 *buf, size_t size)
{
	size_t len = KMC_XATTR_HDR_LEN + (size_t)x->aux_len;

	if (x->aux_len > KMC_AUX_MAX || (x->aux_len && !x->aux))
		return -EINVAL;
	if (size < len)
		return -ENOSPC;
	put_unaligned_be64(x->object_size, buf + KMC_XATTR_OFF_SIZE);
	put_unaligned_be64(x->zero_point, buf + KMC_XATTR_OFF_ZERO);
	buf[KMC_XATTR_OFF_TYPE] = x->type;
	buf[KMC_XATTR_OFF_CONTENT] = x->content;
	if (x->aux_len)
		memcpy(buf + KMC_XATTR_HDR_LEN, x->aux, x->aux_len);
	return (int)len;
}
EXPORT_SYMBOL(kmc_xattr_encode);

/* Same invariant as kmc_xattr_encode(), with the 4-byte volume header. */
int kmc_vol_xattr_encode(const struct kmc_vol_xattr *v, u8 *buf, size_t size)
{
	size_t len = KMC_VOL_XATTR_HDR_LEN + (size_t)v->coherency_len;

	if (v->coherency_len > KMC_VOL_COHERENCY_MAX ||
	    (v->coherency_len && !v->coherency))
		return -EINVAL;
	if (size < len)
		return -ENOSPC;
	put_unaligned_be32(v->reserved, buf);
	if (v->coherency_len)
		memcpy(buf + KMC_VOL_XATTR_HDR_LEN, v->coherency,
		       v->coherency_len);
	return (int)len;
}
EXPORT_SYMBOL(kmc_vol_xattr_encode);

/*
 * Well-formedness of an object xattr: the header is whole, the aux data fits
 * the cookie's u8 length, the type is the only one 6.1 knows and the content
 * is a value of enum cachefiles_content.  @x is untouched on failure.
 */
int kmc_xattr_decode(const u8 *buf, size_t len, struct kmc_xattr *x)
{
	if (len < KMC_XATTR_HDR_LEN)
		return -EBADMSG;
	if (len > KMC_XATTR_MAX)
		return -EMSGSIZE;
	if (buf[KMC_XATTR_OFF_TYPE] != KMC_XATTR_TYPE_DATA)
		return -EPROTO;
	if (buf[KMC_XATTR_OFF_CONTENT] >= KMC_CONTENT_NR)
		return -EDOM;
	x->object_size = get_unaligned_be64(buf + KMC_XATTR_OFF_SIZE);
	x->zero_point = get_unaligned_be64(buf + KMC_XATTR_OFF_ZERO);
	x->type = buf[KMC_XATTR_OFF_TYPE];
	x->content = buf[KMC_XATTR_OFF_CONTENT];
	x->aux_len = (unsigned int)(len - KMC_XATTR_HDR_LEN);
	x->aux = x->aux_len ? buf + KMC_XATTR_HDR_LEN : NULL;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(kmc_xattr_decode);

/* Same for a volume xattr: whole header, bounded data, reserved == 0. */
int kmc_vol_xattr_decode(const u8 *buf, size_t len, struct kmc_vol_xattr *v)
{
	if (len < KMC_VOL_XATTR_HDR_LEN)
		return -EBADMSG;
	if (len > KMC_VOL_XATTR_MAX)
		return -EMSGSIZE;
	if (get_unaligned_be32(buf) != 0)
		return -ENOTEMPTY;
	v->reserved = 0;
	v->coherency_len = (unsigned int)(len - KMC_VOL_XATTR_HDR_LEN);
	v->coherency = v->coherency_len ? buf + KMC_VOL_XATTR_HDR_LEN : NULL;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(kmc_vol_xattr_decode);

/* Explains the errors of the decoders; anything else is "unknown". */
const char *kmc_xattr_strerror(int err)
{
	switch (err) {
	case 0:
		return "ok";
	case -EBADMSG:
		return "xattr truncated (shorter than its header)";
	case -EMSGSIZE:
		return "xattr too long (aux data over 255 bytes)";
	case -EPROTO:
		return "unknown object type (not data)";
	case -EDOM:
		return "invalid content value";
	case -ENOTEMPTY:
		return "volume xattr reserved field not zero";
	case -ENODATA:
		return "no user.CacheFiles.cache xattr";
	default:
		return "unknown xattr error";
	}
}
EXPORT_SYMBOL_IF_KUNIT(kmc_xattr_strerror);

/*
 * The outcome of a failed check, as the kernel returns it: a getxattr error
 * passes through, everything else makes the object stale.
 */
static int kmc_check_ret(ssize_t xlen, enum kmc_coherency why)
{
	if (why == KMC_COH_OK)
		return 0;
	if (xlen < 0)
		return (int)xlen;
	return -ESTALE;
}

/*
 * cachefiles_check_auxdata(): the tests run in the kernel's order and the
 * first failing one names the reason.  The content byte is only compared
 * against DIRTY; 6.1 accepts any other value, even past the enum.
 */
int kmc_xattr_check(const u8 *buf, ssize_t xlen, const u8 *aux,
		    unsigned int aux_len, u64 object_size,
		    enum kmc_coherency *why)
{
	ssize_t tlen = KMC_XATTR_HDR_LEN + (ssize_t)aux_len;

	if (xlen != tlen)
		*why = KMC_COH_XATTR;
	else if (buf[KMC_XATTR_OFF_TYPE] != KMC_XATTR_TYPE_DATA)
		*why = KMC_COH_TYPE;
	else if (aux_len && memcmp(buf + KMC_XATTR_HDR_LEN, aux, aux_len))
		*why = KMC_COH_AUX;
	else if (get_unaligned_be64(buf + KMC_XATTR_OFF_SIZE) != object_size)
		*why = KMC_COH_OBJSIZE;
	else if (buf[KMC_XATTR_OFF_CONTENT] == KMC_CONTENT_DIRTY)
		*why = KMC_COH_DIRTY;
	else
		*why = KMC_COH_OK;
	return kmc_check_ret(xlen, *why);
}
EXPORT_SYMBOL(kmc_xattr_check);

/* cachefiles_check_volume_xattr(), in the kernel's order. */
int kmc_vol_xattr_check(const u8 *buf, ssize_t xlen, const u8 *coherency,
			unsigned int coherency_len, enum kmc_coherency *why)
{
	ssize_t len = KMC_VOL_XATTR_HDR_LEN + (ssize_t)coherency_len;

	if (xlen != len)
		*why = KMC_COH_VOL_XATTR;
	else if (get_unaligned_be32(buf) != 0)
		*why = KMC_COH_VOL_RESV;
	else if (coherency_len &&
		 memcmp(buf + KMC_VOL_XATTR_HDR_LEN, coherency, coherency_len))
		*why = KMC_COH_VOL_CMP;
	else
		*why = KMC_COH_OK;
	return kmc_check_ret(xlen, *why);
}
EXPORT_SYMBOL(kmc_vol_xattr_check);

static const char *const kmc_coherency_names[KMC_COH_NR] = {
	[KMC_COH_OK]		= "OK",
	[KMC_COH_XATTR]		= "BAD xatt",
	[KMC_COH_TYPE]		= "BAD type",
	[KMC_COH_AUX]		= "BAD aux",
	[KMC_COH_OBJSIZE]	= "BAD osiz",
	[KMC_COH_DIRTY]		= "BAD dirt",
	[KMC_COH_VOL_XATTR]	= "VOL BAD xatt",
	[KMC_COH_VOL_RESV]	= "VOL BAD resv",
	[KMC_COH_VOL_CMP]	= "VOL BAD cmp",
};

/* The trace point's label for @why; "?" for a value outside the enum. */
const char *kmc_coherency_str(enum kmc_coherency why)
{
	if ((unsigned int)why >= KMC_COH_NR)
		return "?";
	return kmc_coherency_names[why];
}
EXPORT_SYMBOL_IF_KUNIT(kmc_coherency_str);

static const char *const kmc_content_names[KMC_CONTENT_NR] = {
	[KMC_CONTENT_NO_DATA]		= "no_data",
	[KMC_CONTENT_SINGLE]		= "single",
	[KMC_CONTENT_ALL]		= "all",
	[KMC_CONTENT_BACKFS_MAP]	= "backfs_map",
	[KMC_CONTENT_DIRTY]		= "dirty",
};

/* Name of a content value; "?" outside enum cachefiles_content. */
const char *kmc_content_str(unsigned int content)
{
	if (content >= KMC_CONTENT_NR)
		return "?";
	return kmc_content_names[content];
}
EXPORT_SYMBOL_IF_KUNIT(kmc_content_str);
