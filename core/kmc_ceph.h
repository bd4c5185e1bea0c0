/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * CephFS mount sources as the 6.1 tree parses them (fs/ceph/super.c
 * ceph_parse_source(), net/ceph/messenger.c ceph_parse_ips(),
 * net/ceph/ceph_common.c ceph_parse_fsid()), plus the mount options that
 * shape the result, and the fscache volume key of fs/ceph/cache.c.
 *
 *   new syntax   name@fsid.fs_name=[/path]     -o mon_addr=ip[:port][/...]
 *   old syntax   ip[:port][,ip[:port]...]:[/path]
 *
 * Everything is over (buffer, length) pairs; nothing is allocated.  The
 * result points into the caller's buffers, which must outlive it.
 *
 * Two modes.  By default the core accepts and rejects exactly what the
 * 6.1 kernel does (legacy mount(2) order: the source first, then the
 * options left to right), including the corners the kernel accepts by
 * accident; each such corner sets a quirk bit in the result.
 * KMC_CEPH_STRICT refuses any input that sets a quirk bit.  docs/ceph.md
 * lists every corner with its kernel file:line.
 *
 * Options are split like generic_parse_monolithic() (fs/fs_context.c) and
 * looked up like fs_lookup_key() (fs/fs_parser.c) in the libceph and ceph
 * tables.  fsid=, name=, mds_namespace=, mon_addr=, fsc/fsc=/nofsc,
 * source=, ip= and snapdirname= are fully modelled, flags and enum values
 * are checked;
 * the values of the numeric options (rsize=, ...) are only checked for
 * presence: their form does not shape the result, and their ranges
 * depend on PAGE_SIZE.
 */
#ifndef KMC_CEPH_H
#define KMC_CEPH_H

#include "kcompat.h"

/* CEPH_MAX_MON (include/linux/ceph/ceph_fs.h). */
#define KMC_CEPH_MAX_MON	31
/* CEPH_MON_PORT (include/linux/ceph/msgr.h). */
#define KMC_CEPH_MON_PORT	6789
#define KMC_CEPH_FSID_LEN	16
/* %pU: 8-4-4-4-12 lowercase hex digits. */
#define KMC_CEPH_FSID_STR_LEN	36
/* "ceph," and the fsid: the volume key without its uniquifier. */
#define KMC_CEPH_VOLUME_BASE_LEN	(5 + KMC_CEPH_FSID_STR_LEN)
/* "[" + the longest %pI6c + "]:" + "65535" + NUL. */
#define KMC_CEPH_ADDR_STR_MAX	(1 + 45 + 2 + 5 + 1)

/* kmc_ceph_parse() flags. */
#define KMC_CEPH_STRICT		0x1

enum kmc_ceph_syntax {
	KMC_CEPH_SYNTAX_NONE,
	KMC_CEPH_SYNTAX_OLD,
	KMC_CEPH_SYNTAX_NEW,
};

/*
 * Why a parse failed (kmc_ceph_reason() for the text), or, from
 * KMC_CEPH_S_FIRST on, which accidental kernel corner strict mode refused.
 */
enum kmc_ceph_code {
	KMC_CEPH_OK,
	KMC_CEPH_E_NUL,			/* NUL inside a (buffer, length) */
	KMC_CEPH_E_EMPTY_SOURCE,
	KMC_CEPH_E_PATH_ONLY,		/* source starts with '/' */
	KMC_CEPH_E_NO_FSID,		/* new syntax: no '@' */
	KMC_CEPH_E_NO_FS_NAME,		/* new syntax: no '.' after '@' */
	KMC_CEPH_E_BAD_FSID,		/* new syntax: < 16 hex pairs */
	KMC_CEPH_E_NO_COLON,		/* neither '=' nor ':' before path */
	KMC_CEPH_E_MON_EMPTY,
	KMC_CEPH_E_MON_ADDR,		/* not an IPv4/IPv6 literal */
	KMC_CEPH_E_MON_BRACKET,		/* '[' without ']' */
	KMC_CEPH_E_MON_PORT,		/* port > 65535 */
	KMC_CEPH_E_MON_JUNK,		/* no separator after an address */
	KMC_CEPH_E_MON_TOO_MANY,
	KMC_CEPH_E_UNKNOWN_OPT,
	KMC_CEPH_E_BAD_VALUE,
	KMC_CEPH_E_UNEXPECTED_VALUE,
	KMC_CEPH_E_OPT_IP,		/* ip= option: not one address */
	KMC_CEPH_E_OPT_FSID,		/* fsid= option: < 16 hex pairs */
	KMC_CEPH_E_SNAPDIR,		/* snapdirname= > NAME_MAX */
	KMC_CEPH_E_NS_MISMATCH,
	KMC_CEPH_E_MULTI_SOURCE,
	KMC_CEPH_E_NO_MON,		/* new syntax without mon_addr= */
	KMC_CEPH_E_VOLUME_KEY,		/* fscache volume key > 255 bytes */
	KMC_CEPH_S_FIRST,
	KMC_CEPH_S_FSID_FORM = KMC_CEPH_S_FIRST,
	KMC_CEPH_S_SPEC_IN_PATH,
	KMC_CEPH_S_EMPTY_NAME,
	KMC_CEPH_S_EMPTY_FS_NAME,
	KMC_CEPH_S_PORT_ZERO,
	KMC_CEPH_S_PORT_WRAP,
	KMC_CEPH_S_IPV4_LEADING_ZERO,
	KMC_CEPH_S_IPV4_BRACKETED,
	KMC_CEPH_S_IPV6_UNBRACKETED,
	KMC_CEPH_S_IPV6_LONG_GROUP,
	KMC_CEPH_S_MON_TRAILING,
	KMC_CEPH_S_FSID_MISMATCH,
	KMC_CEPH_S_MON_OVERRIDE,
	KMC_CEPH_S_VOLUME_UNCACHED,
	KMC_CEPH_CODE_COUNT,
};

/* Quirk bit of a strict-mode code. */
#define KMC_CEPH_QUIRK(code)	(1U << ((code) - KMC_CEPH_S_FIRST))

/* A piece of a caller's buffer; ptr == NULL: not given. */
struct kmc_ceph_span {
	const char *ptr;
	size_t len;
};

#define KMC_CEPH_INET	4
#define KMC_CEPH_INET6	6

/* One monitor: family, address bytes (IPv4 in ip[0..3]), port. */
struct kmc_ceph_addr {
	u8 family;
	u8 ip[16];
	u16 port;
};

/*
 * What went wrong, or which quirks were met.  @where is the offending
 * text (an option key when @where_is_key, for the kernel's "... '%s'"
 * messages); @quirk_code/@quirk_where describe the first quirk met.
 */
struct kmc_ceph_diag {
	enum kmc_ceph_code code;
	struct kmc_ceph_span where;
	bool where_is_key;
	u32 quirks;
	enum kmc_ceph_code quirk_code;
	struct kmc_ceph_span quirk_where;
};

/*
 * The parse result.  Names are the kernel's: src_name is opts->name as
 * the new syntax sets it, opt_name as name= sets it (the later wins);
 * fs_name is fsopt->mds_namespace; path the raw text from the first '/'
 * (fsopt->server_path before canonicalize_path(); ptr NULL: no path,
 * server_path stays NULL); mon[] and num_mon are opts->mon_addr/num_mon.
 * The source's fsid is checked but dropped by the kernel (super.c:303);
 * it is kept here as src_fsid, the fsid= option's as opt_fsid.
 */
struct kmc_ceph_mount {
	enum kmc_ceph_syntax syntax;
	struct kmc_ceph_span src_name;
	struct kmc_ceph_span opt_name;
	struct kmc_ceph_span fs_name;
	struct kmc_ceph_span path;
	size_t path_len;		/* canonical length */
	struct kmc_ceph_span uniq;	/* fsc=uniq, when fscache is on */
	bool fscache;
	bool have_src_fsid;
	bool have_opt_fsid;
	bool mon_from_opt;		/* mon_addr= was given */
	u8 src_fsid[KMC_CEPH_FSID_LEN];
	u8 opt_fsid[KMC_CEPH_FSID_LEN];
	unsigned int num_mon;
	struct kmc_ceph_addr mon[KMC_CEPH_MAX_MON];
	struct kmc_ceph_diag diag;
};

/*
 * The source alone, split as ceph_parse_source() splits it, for a caller
 * that parses the options itself (fs/ceph).  New syntax: name, fsid (16
 * bytes, checked; 6.1 drops it) and fs_name; old syntax: the monitor list
 * before the ':', not parsed (kmc_ceph_parse_ips() does that).  path as
 * in struct kmc_ceph_mount, also set when the split fails.
 */
struct kmc_ceph_source {
	enum kmc_ceph_syntax syntax;
	struct kmc_ceph_span name;
	struct kmc_ceph_span fs_name;
	struct kmc_ceph_span mons;
	struct kmc_ceph_span path;
	size_t path_len;		/* canonical length */
	u8 fsid[KMC_CEPH_FSID_LEN];
};

/*
 * Split @s (@n bytes, no NUL) into @src.  0, or -EINVAL with @d's code
 * set (kmc_ceph_kernel_msg() gives the 6.1 kernel's first message).
 */
int kmc_ceph_split_source(const char *s, size_t n,
			  struct kmc_ceph_source *src,
			  struct kmc_ceph_diag *d);

/*
 * Parse @src (@src_len bytes) and the comma-separated @opts (@opts_len
 * bytes; NULL/0 for none) into @m.  Returns 0, or -EINVAL with
 * m->diag.code set (-ENAMETOOLONG for KMC_CEPH_E_VOLUME_KEY).
 */
int kmc_ceph_parse(const char *src, size_t src_len, const char *opts,
		   size_t opts_len, unsigned int flags,
		   struct kmc_ceph_mount *m);

/* The effective entity name (name= over the source's); ptr NULL: none. */
struct kmc_ceph_span kmc_ceph_name(const struct kmc_ceph_mount *m);
/* The fsid the volume key is made of (source's, else fsid='s), or NULL. */
const u8 *kmc_ceph_fsid(const struct kmc_ceph_mount *m);

/*
 * ceph_parse_fsid(): 16 bytes from hex pairs in @s, skipping punctuation
 * (the kernel's ispunct(), Latin-1 included) between pairs; @s is read
 * as if NUL-terminated at @len.  0 or -EINVAL.
 */
int kmc_ceph_parse_fsid(const char *s, size_t len, u8 *fsid);
/* True if @s is exactly 8-4-4-4-12 hex digits (either case). */
bool kmc_ceph_fsid_canonical(const char *s, size_t len);

/*
 * ceph_parse_ips(): up to @max addresses separated by @delim.  Fills
 * @addr/@count and returns 0, or -EINVAL; @diag (may be NULL) gets the
 * error code and position and the quirk bits.
 */
int kmc_ceph_parse_ips(const char *s, size_t len, char delim,
		       struct kmc_ceph_addr *addr, unsigned int max,
		       unsigned int *count, struct kmc_ceph_diag *diag);

/*
 * canonicalize_path(): drop repeated '/' and a trailing '/' (unless the
 * path is just "/").  Writes the result and a NUL to @dst (at least
 * @len + 1 bytes; @dst == @src is allowed) and returns its length.
 */
size_t kmc_ceph_canon_path(const char *src, size_t len, char *dst);
/* The canonical path of @m into @buf: its length, or -ENOSPC. */
int kmc_ceph_path(const struct kmc_ceph_mount *m, char *buf, size_t size);

/* %pU of @fsid: 36 characters and a NUL into @buf. */
void kmc_ceph_format_fsid(const u8 *fsid, char *buf);
/* "%pI4:%hu" or "[%pI6c]:%hu" into @buf: the length, or -ENOSPC. */
int kmc_ceph_format_addr(const struct kmc_ceph_addr *a, char *buf,
			 size_t size);
/*
 * "ceph,%pU" plus ",<uniq>" when @uniq_len (ceph_fscache_register_fs())
 * into @buf: the length, or -ENOSPC.
 */
int kmc_ceph_volume_key(const u8 *fsid, const char *uniq, size_t uniq_len,
			char *buf, size_t size);

/* A short human reason for @code, and its name ("E_NO_MON", ...). */
const char *kmc_ceph_reason(enum kmc_ceph_code code);
const char *kmc_ceph_code_name(enum kmc_ceph_code code);
/*
 * The message the 6.1 kernel logs first for @code ("Invalid FSID", ...;
 * for the option errors a prefix that the key in quotes completes), or
 * NULL for the strict-mode codes, which the kernel accepts.
 */
const char *kmc_ceph_kernel_msg(enum kmc_ceph_code code);

#endif
