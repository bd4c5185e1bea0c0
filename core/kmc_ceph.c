// SPDX-License-Identifier: GPL-2.0-only
/*
 * CephFS mount source parser (see kmc_ceph.h): sources, options, fsid, path
 * and volume key; the monitor addresses are kmc_ceph_addr.c's.  File:line
 * references are to the 6.1 tree; docs/ceph.md lists every accidental
 * corner with its quirk.
 */
#include "kcompat.h"
#include "kmc_ceph.h"
#include "kmc_ceph_priv.h"
#include "kmc_volume.h"

struct kmc_ceph_text {
	const char *reason;
	const char *name;
	const char *kmsg;
};

#define KMC_T(code, reason, kmsg) \
	[KMC_CEPH_##code] = { reason, #code, kmsg }
#define KMC_MON_KMSG	"Failed to parse monitor IPs: -22"

/* Reason, name and the kernel's first message of each code. */
static const struct kmc_ceph_text kmc_ceph_texts[KMC_CEPH_CODE_COUNT] = {
	KMC_T(OK, "no error", NULL),
	KMC_T(E_NUL, "embedded NUL byte", NULL),
	KMC_T(E_EMPTY_SOURCE, "empty source", "Bad value for 'source'"),
	KMC_T(E_PATH_ONLY, "nothing before the path",
	      "Path missing in source"),
	KMC_T(E_NO_FSID, "no '@' in name@fsid.fs_name=",
	      "missing cluster fsid"),
	KMC_T(E_NO_FS_NAME, "no '.' after the fsid in name@fsid.fs_name=",
	      "missing file system name"),
	KMC_T(E_BAD_FSID, "fsid needs 16 pairs of hex digits", "Invalid FSID"),
	KMC_T(E_NO_COLON, "no ':' (old syntax) or '=' (new) before the path",
	      "separator ':' missing in source"),
	KMC_T(E_MON_EMPTY, "empty monitor address", KMC_MON_KMSG),
	KMC_T(E_MON_ADDR, "monitor is not an IPv4 or IPv6 address",
	      KMC_MON_KMSG),
	KMC_T(E_MON_BRACKET, "missing ']' after a bracketed address",
	      KMC_MON_KMSG),
	KMC_T(E_MON_PORT, "port above 65535", KMC_MON_KMSG),
	KMC_T(E_MON_JUNK, "junk after a monitor address", KMC_MON_KMSG),
	KMC_T(E_MON_TOO_MANY, "more than 31 monitors", KMC_MON_KMSG),
	KMC_T(E_UNKNOWN_OPT, "unknown option", "ceph: Unknown parameter"),
	KMC_T(E_BAD_VALUE, "missing or bad value for option", "Bad value for"),
	KMC_T(E_UNEXPECTED_VALUE, "value given to a flag option",
	      "Unexpected value for"),
	KMC_T(E_OPT_IP, "ip= is not one IPv4 or IPv6 address",
	      "Failed to parse ip: -22"),
	KMC_T(E_OPT_FSID, "fsid= needs 16 pairs of hex digits",
	      "Failed to parse fsid: -22"),
	KMC_T(E_SNAPDIR, "snapdirname= longer than 255 bytes",
	      "snapdirname too long"),
	KMC_T(E_NS_MISMATCH, "mds_namespace= differs from the file system name",
	      "Mismatching mds_namespace"),
	KMC_T(E_MULTI_SOURCE, "source given twice",
	      "Multiple sources specified"),
	KMC_T(E_NO_MON, "new syntax needs -o mon_addr=", "No monitor address"),
	KMC_T(E_VOLUME_KEY, "fscache volume key longer than 255 bytes",
	      "Unable to register fscache cookie for"),
	KMC_T(S_FSID_FORM, "fsid not written as 8-4-4-4-12 hex digits", NULL),
	KMC_T(S_SPEC_IN_PATH, "'@' or '.' of name@fsid.fs_name= in the path",
	      NULL),
	KMC_T(S_EMPTY_NAME, "empty client name", NULL),
	KMC_T(S_EMPTY_FS_NAME, "empty file system name", NULL),
	KMC_T(S_PORT_ZERO, "empty or zero port", NULL),
	KMC_T(S_PORT_WRAP, "port above 65535 (the kernel wraps it)", NULL),
	KMC_T(S_IPV4_LEADING_ZERO, "IPv4 octet with a leading zero", NULL),
	KMC_T(S_IPV4_BRACKETED, "IPv4 address in brackets", NULL),
	KMC_T(S_IPV6_UNBRACKETED, "IPv6 address without brackets", NULL),
	KMC_T(S_IPV6_LONG_GROUP, "IPv6 group of more than 4 hex digits", NULL),
	KMC_T(S_MON_TRAILING, "separator after the 31st monitor", NULL),
	KMC_T(S_FSID_MISMATCH, "fsid= differs from the source's fsid", NULL),
	KMC_T(S_MON_OVERRIDE, "mon_addr= replaces the source's monitors", NULL),
	KMC_T(S_VOLUME_UNCACHED, "fsc uniquifier cachefiles cannot store",
	      NULL),
};

static const struct kmc_ceph_text *kmc_ceph_text(enum kmc_ceph_code code)
{
	static const struct kmc_ceph_text unknown = { "unknown error", "?",
						      NULL };

	if ((unsigned int)code >= KMC_CEPH_CODE_COUNT)
		return &unknown;
	return &kmc_ceph_texts[code];
}

const char *kmc_ceph_reason(enum kmc_ceph_code code)
{
	return kmc_ceph_text(code)->reason;
}
EXPORT_SYMBOL(kmc_ceph_reason);

const char *kmc_ceph_code_name(enum kmc_ceph_code code)
{
	return kmc_ceph_text(code)->name;
}
EXPORT_SYMBOL_IF_KUNIT(kmc_ceph_code_name);

const char *kmc_ceph_kernel_msg(enum kmc_ceph_code code)
{
	return kmc_ceph_text(code)->kmsg;
}
EXPORT_SYMBOL(kmc_ceph_kernel_msg);

static bool kmc_ceph_span_eq(struct kmc_ceph_span a, const char *s,
			     size_t len)
{
	return a.len == len && !memcmp(a.ptr, s, len);
}

/*
 * The kernel's ispunct() (lib/ctype.c _P): ASCII punctuation and, unlike
 * the C library's, Latin-1 0xa1-0xbf, 0xd7 and 0xf7.
 */
static bool kmc_ceph_ispunct(char ch)
{
	unsigned char c = ch;

	if (c >= 0xa1)
		return c <= 0xbf || c == 0xd7 || c == 0xf7;
	return (c >= '!' && c <= '/') || (c >= ':' && c <= '@') ||
	       (c >= '[' && c <= '`') || (c >= '{' && c <= '~');
}

/* ----- fsid: ceph_parse_fsid() of net/ceph/ceph_common.c ----- */

int kmc_ceph_parse_fsid(const char *s, size_t len, u8 *fsid)
{
	u8 b[KMC_CEPH_FSID_LEN];
	unsigned int i = 0;
	size_t p = 0;

	while (p < len && s[p] && i < sizeof(b)) {
		if (kmc_ceph_ispunct(s[p])) {
			p++;
			continue;
		}
		if (p + 1 >= len || hex2bin(&b[i], s + p, 1))
			break;
		i++;
		p += 2;
	}
	if (i != sizeof(b))
		return -EINVAL;
	memcpy(fsid, b, sizeof(b));
	return 0;
}
EXPORT_SYMBOL(kmc_ceph_parse_fsid);

bool kmc_ceph_fsid_canonical(const char *s, size_t len)
{
	size_t i;

	if (len != KMC_CEPH_FSID_STR_LEN)
		return false;
	for (i = 0; i < len; i++) {
		bool dash = i == 8 || i == 13 || i == 18 || i == 23;

		if (dash ? s[i] != '-' : hex_to_bin(s[i]) < 0)
			return false;
	}
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(kmc_ceph_fsid_canonical);

/* ----- paths: canonicalize_path() of fs/ceph/super.c ----- */

size_t kmc_ceph_canon_path(const char *src, size_t len, char *dst)
{
	size_t i, j = 0;

	for (i = 0; i < len; i++)
		if (src[i] != '/' || j < 1 || dst[j - 1] != '/')
			dst[j++] = src[i];
	if (j > 1 && dst[j - 1] == '/')
		j--;
	dst[j] = '\0';
	return j;
}
EXPORT_SYMBOL(kmc_ceph_canon_path);

/* The length canonicalize_path() leaves, without writing anything. */
static size_t kmc_ceph_canon_len(const char *src, size_t len)
{
	size_t i, j = 0;
	bool slash = false;

	for (i = 0; i < len; i++) {
		if (src[i] == '/' && j >= 1 && slash)
			continue;
		slash = src[i] == '/';
		j++;
	}
	return j > 1 && slash ? j - 1 : j;
}

int kmc_ceph_path(const struct kmc_ceph_mount *m, char *buf, size_t size)
{
	if (size <= m->path_len || m->path_len > INT_MAX)
		return -ENOSPC;
	if (!m->path.ptr) {
		buf[0] = '\0';
		return 0;
	}
	/* Writes at most path_len + 1 bytes (the NUL included). */
	return kmc_ceph_canon_path(m->path.ptr, m->path.len, buf);
}
EXPORT_SYMBOL_IF_KUNIT(kmc_ceph_path);

/* ----- the source: ceph_parse_source() of fs/ceph/super.c ----- */

/*
 * ceph_parse_new_source(): @sep is the '=' before the path.  '@' and '.'
 * are searched in the whole source (strchr()), and the fsid is read
 * across the '.' up to the end of the source, as the kernel does.
 */
static int kmc_ceph_new_source(struct kmc_ceph_source *src, const char *s,
			       size_t n, size_t sep, struct kmc_ceph_diag *d)
{
	const char *at = memchr(s, '@', n), *dot, *fsid, *end;

	if (!at)
		return kmc_ceph_fail(d, KMC_CEPH_E_NO_FSID, s, sep + 1);
	src->name.ptr = s;
	src->name.len = at - s;
	fsid = at + 1;
	dot = memchr(fsid, '.', s + n - fsid);
	if (!dot)
		return kmc_ceph_fail(d, KMC_CEPH_E_NO_FS_NAME, fsid,
				     s + n - fsid);
	if (kmc_ceph_parse_fsid(fsid, s + n - fsid, src->fsid))
		return kmc_ceph_fail(d, KMC_CEPH_E_BAD_FSID, fsid, dot - fsid);
	if (dot > s + sep)
		kmc_ceph_quirk(d, KMC_CEPH_S_SPEC_IN_PATH, s, n);
	if (!kmc_ceph_fsid_canonical(fsid, dot - fsid))
		kmc_ceph_quirk(d, KMC_CEPH_S_FSID_FORM, fsid, dot - fsid);
	/* super.c:306: a negative length (dot past '=') copies to the end. */
	end = dot < s + sep ? s + sep : s + n;
	src->fs_name.ptr = dot + 1;
	src->fs_name.len = end - (dot + 1);
	src->syntax = KMC_CEPH_SYNTAX_NEW;
	return 0;
}

/*
 * The path is everything from the first '/'; the byte before it decides
 * the syntax ('=' new, ':' old).  A failed new syntax falls back to the
 * old one, which then fails too: the new syntax's error is reported, as
 * the kernel logs it first.
 */
int kmc_ceph_split_source(const char *s, size_t n,
			  struct kmc_ceph_source *src,
			  struct kmc_ceph_diag *d)
{
	const char *slash;
	size_t sep;

	memset(src, 0, sizeof(*src));
	if (!n)
		return kmc_ceph_fail(d, KMC_CEPH_E_EMPTY_SOURCE, s, 0);
	slash = memchr(s, '/', n);
	if (slash) {
		src->path.ptr = slash;
		src->path.len = s + n - slash;
		src->path_len = kmc_ceph_canon_len(slash, src->path.len);
	}
	sep = slash ? (size_t)(slash - s) : n;
	if (!sep)
		return kmc_ceph_fail(d, KMC_CEPH_E_PATH_ONLY, s, n);
	sep--;
	if (s[sep] == '=')
		return kmc_ceph_new_source(src, s, n, sep, d);
	if (s[sep] != ':')
		return kmc_ceph_fail(d, KMC_CEPH_E_NO_COLON, s, sep + 1);
	src->mons.ptr = s;
	src->mons.len = sep;
	src->syntax = KMC_CEPH_SYNTAX_OLD;
	return 0;
}
EXPORT_SYMBOL(kmc_ceph_split_source);

/* ceph_parse_source(); the old syntax's monitors as ceph_parse_ips(). */
static int kmc_ceph_source(struct kmc_ceph_mount *m, const char *s, size_t n)
{
	struct kmc_ceph_source src;
	int ret = kmc_ceph_split_source(s, n, &src, &m->diag);

	m->path = src.path;
	m->path_len = src.path_len;
	if (ret)
		return ret;
	if (src.syntax == KMC_CEPH_SYNTAX_OLD) {
		ret = kmc_ceph_parse_ips(src.mons.ptr, src.mons.len, ',',
					 m->mon, KMC_CEPH_MAX_MON, &m->num_mon,
					 &m->diag);
		if (!ret)
			m->syntax = KMC_CEPH_SYNTAX_OLD;
		return ret;
	}
	m->src_name = src.name;
	m->fs_name = src.fs_name;
	memcpy(m->src_fsid, src.fsid, KMC_CEPH_FSID_LEN);
	m->have_src_fsid = true;
	m->syntax = KMC_CEPH_SYNTAX_NEW;
	return 0;
}

/* ----- options: fs/fs_context.c, fs/fs_parser.c and the two tables ----- */

enum kmc_ceph_kind {
	KMC_OPT_FLAG,		/* fsparam_flag */
	KMC_OPT_FLAG_NO,	/* fsparam_flag_no: "noX" negates */
	KMC_OPT_STRING,		/* fsparam_string: non-empty value */
	KMC_OPT_ENUM,		/* fsparam_enum: one of a list */
	KMC_OPT_VALUE,		/* u32, s32: a value, not checked */
};

enum kmc_ceph_opt_id {
	KMC_OPT_OTHER,
	KMC_OPT_FSID,
	KMC_OPT_NAME,
	KMC_OPT_FSC,
	KMC_OPT_MDS_NS,
	KMC_OPT_SOURCE,
	KMC_OPT_MON_ADDR,
	KMC_OPT_IP,
	KMC_OPT_SNAPDIR,
};

struct kmc_ceph_opt {
	const char *name;
	u8 kind;
	u8 id;
	const char *const *values;	/* KMC_OPT_ENUM */
};

#define KMC_OPT(n, k, i)	{ n, KMC_OPT_##k, KMC_OPT_##i, NULL }
#define KMC_OPT_E(n, v)		{ n, KMC_OPT_ENUM, KMC_OPT_OTHER, v }

/* The constant tables of ceph_common.c:258-280 and super.c:175-179. */
static const char *const kmc_ceph_replica[] = {
	"no", "balance", "localize", NULL,
};

static const char *const kmc_ceph_ms_mode[] = {
	"legacy", "crc", "secure", "prefer-crc", "prefer-secure", NULL,
};

static const char *const kmc_ceph_recover[] = { "no", "clean", NULL };

/* ceph_parameters[], net/ceph/ceph_common.c:282-306. */
static const struct kmc_ceph_opt kmc_ceph_libceph_opts[] = {
	KMC_OPT("abort_on_full", FLAG, OTHER),
	KMC_OPT("cephx_require_signatures", FLAG_NO, OTHER),
	KMC_OPT("cephx_sign_messages", FLAG_NO, OTHER),
	KMC_OPT("crc", FLAG_NO, OTHER),
	KMC_OPT("crush_location", STRING, OTHER),
	KMC_OPT("fsid", STRING, FSID),
	KMC_OPT("ip", STRING, IP),
	KMC_OPT("key", STRING, OTHER),
	KMC_OPT("mount_timeout", VALUE, OTHER),
	KMC_OPT("name", STRING, NAME),
	KMC_OPT("osd_idle_ttl", VALUE, OTHER),
	KMC_OPT("osd_request_timeout", VALUE, OTHER),
	KMC_OPT("osdkeepalive", VALUE, OTHER),
	KMC_OPT_E("read_from_replica", kmc_ceph_replica),
	KMC_OPT("rxbounce", FLAG, OTHER),
	KMC_OPT_E("ms_mode", kmc_ceph_ms_mode),
	KMC_OPT("secret", STRING, OTHER),
	KMC_OPT("share", FLAG_NO, OTHER),
	KMC_OPT("tcp_nodelay", FLAG_NO, OTHER),
	{ NULL, 0, 0, NULL },
};

/* ceph_mount_parameters[], fs/ceph/super.c:181-211. */
static const struct kmc_ceph_opt kmc_ceph_fs_opts[] = {
	KMC_OPT("acl", FLAG_NO, OTHER),
	KMC_OPT("asyncreaddir", FLAG_NO, OTHER),
	KMC_OPT("caps_max", VALUE, OTHER),
	KMC_OPT("caps_wanted_delay_max", VALUE, OTHER),
	KMC_OPT("caps_wanted_delay_min", VALUE, OTHER),
	KMC_OPT("write_congestion_kb", VALUE, OTHER),
	KMC_OPT("copyfrom", FLAG_NO, OTHER),
	KMC_OPT("dcache", FLAG_NO, OTHER),
	KMC_OPT("dirstat", FLAG_NO, OTHER),
	KMC_OPT("fsc", FLAG_NO, FSC),
	KMC_OPT("fsc", STRING, FSC),
	KMC_OPT("ino32", FLAG_NO, OTHER),
	KMC_OPT("mds_namespace", STRING, MDS_NS),
	KMC_OPT("poolperm", FLAG_NO, OTHER),
	KMC_OPT("quotadf", FLAG_NO, OTHER),
	KMC_OPT("rasize", VALUE, OTHER),
	KMC_OPT("rbytes", FLAG_NO, OTHER),
	KMC_OPT("readdir_max_bytes", VALUE, OTHER),
	KMC_OPT("readdir_max_entries", VALUE, OTHER),
	KMC_OPT_E("recover_session", kmc_ceph_recover),
	KMC_OPT("require_active_mds", FLAG_NO, OTHER),
	KMC_OPT("rsize", VALUE, OTHER),
	KMC_OPT("snapdirname", STRING, SNAPDIR),
	KMC_OPT("source", STRING, SOURCE),
	KMC_OPT("mon_addr", STRING, MON_ADDR),
	KMC_OPT("wsize", VALUE, OTHER),
	KMC_OPT("wsync", FLAG_NO, OTHER),
	KMC_OPT("pagecache", FLAG_NO, OTHER),
	{ NULL, 0, 0, NULL },
};

/* common_set_sb_flag[] and common_clear_sb_flag[], fs/fs_context.c:41-56. */
static const char *const kmc_ceph_sb_flags[] = {
	"dirsync", "lazytime", "mand", "ro", "sync",
	"async", "nolazytime", "nomand", "rw", NULL,
};

/* One option token of the list: key, and value unless it is a flag. */
struct kmc_ceph_param {
	struct kmc_ceph_span key;
	struct kmc_ceph_span val;	/* ptr NULL: a flag */
};

static bool kmc_ceph_key_is(const struct kmc_ceph_param *p, const char *name,
			    size_t skip)
{
	struct kmc_ceph_span k = { p->key.ptr + skip, p->key.len - skip };

	return kmc_ceph_span_eq(k, name, strlen(name));
}

static bool kmc_ceph_sb_flag(const struct kmc_ceph_param *p)
{
	const char *const *f;

	for (f = kmc_ceph_sb_flags; *f; f++)
		if (kmc_ceph_key_is(p, *f, 0))
			return true;
	return false;
}

/* is_flag() of fs/fs_parser.c. */
static bool kmc_ceph_is_flag(const struct kmc_ceph_opt *o)
{
	return o->kind <= KMC_OPT_FLAG_NO;
}

/*
 * fs_lookup_key(): the entry whose flag-ness matches the parameter's,
 * else "noX" for a negatable flag X, else a same-named entry of the
 * other kind (whose type check then fails).
 */
static const struct kmc_ceph_opt *
kmc_ceph_lookup(const struct kmc_ceph_opt *tab, const struct kmc_ceph_param *p,
		bool *negated)
{
	const struct kmc_ceph_opt *o, *other = NULL;
	bool want_flag = !p->val.ptr;

	*negated = false;
	for (o = tab; o->name; o++) {
		if (!kmc_ceph_key_is(p, o->name, 0))
			continue;
		if (kmc_ceph_is_flag(o) == want_flag)
			return o;
		other = o;
	}
	if (!want_flag || p->key.len <= 2 || memcmp(p->key.ptr, "no", 2))
		return other;
	for (o = tab; o->name; o++) {
		if (o->kind != KMC_OPT_FLAG_NO ||
		    !kmc_ceph_key_is(p, o->name, 2))
			continue;
		*negated = true;
		return o;
	}
	return other;
}

/* __lookup_constant(): @v is one of @values. */
static bool kmc_ceph_one_of(struct kmc_ceph_span v, const char *const *values)
{
	for (; *values; values++)
		if (kmc_ceph_span_eq(v, *values, strlen(*values)))
			return true;
	return false;
}

/* __fs_parse()'s type check: flags take no value, the rest a non-empty one. */
static int kmc_ceph_type_check(struct kmc_ceph_mount *m,
			       const struct kmc_ceph_opt *o,
			       const struct kmc_ceph_param *p)
{
	enum kmc_ceph_code code = KMC_CEPH_OK;

	if (kmc_ceph_is_flag(o) && p->val.ptr)
		code = KMC_CEPH_E_UNEXPECTED_VALUE;
	else if (!kmc_ceph_is_flag(o) && (!p->val.ptr || !p->val.len))
		code = KMC_CEPH_E_BAD_VALUE;
	else if (o->kind == KMC_OPT_ENUM && !kmc_ceph_one_of(p->val, o->values))
		code = KMC_CEPH_E_BAD_VALUE;
	if (code == KMC_CEPH_OK)
		return 0;
	m->diag.where_is_key = true;
	return kmc_ceph_fail(&m->diag, code, p->key.ptr, p->key.len);
}

/* fsid=: ceph_parse_param(), net/ceph/ceph_common.c:442. */
static int kmc_ceph_opt_fsid(struct kmc_ceph_mount *m, struct kmc_ceph_span v)
{
	if (kmc_ceph_parse_fsid(v.ptr, v.len, m->opt_fsid))
		return kmc_ceph_fail(&m->diag, KMC_CEPH_E_OPT_FSID, v.ptr,
				     v.len);
	if (!kmc_ceph_fsid_canonical(v.ptr, v.len))
		kmc_ceph_quirk(&m->diag, KMC_CEPH_S_FSID_FORM, v.ptr, v.len);
	m->have_opt_fsid = true;
	return 0;
}

/* mds_namespace=: namespace_equals() against what is set, then set. */
static int kmc_ceph_opt_ns(struct kmc_ceph_mount *m, struct kmc_ceph_span v)
{
	if (m->fs_name.ptr && !kmc_ceph_span_eq(m->fs_name, v.ptr, v.len))
		return kmc_ceph_fail(&m->diag, KMC_CEPH_E_NS_MISMATCH, v.ptr,
				     v.len);
	m->fs_name = v;
	return 0;
}

/*
 * ip=: one address, checked and not kept (net/ceph/ceph_common.c:431);
 * its own diagnosis is not kept either, so none is asked for.
 */
static int kmc_ceph_opt_ip(struct kmc_ceph_mount *m, struct kmc_ceph_span v)
{
	struct kmc_ceph_addr a;
	unsigned int n;

	if (kmc_ceph_parse_ips(v.ptr, v.len, ',', &a, 1, &n, NULL))
		return kmc_ceph_fail(&m->diag, KMC_CEPH_E_OPT_IP, v.ptr, v.len);
	return 0;
}

/* ceph_parse_mount_param() for the options that shape the result. */
static int kmc_ceph_apply(struct kmc_ceph_mount *m,
			  const struct kmc_ceph_opt *o,
			  const struct kmc_ceph_param *p, bool negated)
{
	struct kmc_ceph_span none = { NULL, 0 };

	switch (o->id) {
	case KMC_OPT_FSID:
		return kmc_ceph_opt_fsid(m, p->val);
	case KMC_OPT_NAME:
		m->opt_name = p->val;
		return 0;
	case KMC_OPT_FSC:
		m->fscache = !negated;
		m->uniq = negated ? none : p->val;
		return 0;
	case KMC_OPT_MDS_NS:
		return kmc_ceph_opt_ns(m, p->val);
	case KMC_OPT_SOURCE:
		return kmc_ceph_fail(&m->diag, KMC_CEPH_E_MULTI_SOURCE,
				     p->val.ptr, p->val.len);
	case KMC_OPT_IP:
		return kmc_ceph_opt_ip(m, p->val);
	case KMC_OPT_SNAPDIR:
		if (p->val.len <= NAME_MAX)
			return 0;
		return kmc_ceph_fail(&m->diag, KMC_CEPH_E_SNAPDIR, p->val.ptr,
				     p->val.len);
	case KMC_OPT_MON_ADDR:
		m->mon_from_opt = true;
		return kmc_ceph_parse_ips(p->val.ptr, p->val.len, '/', m->mon,
					  KMC_CEPH_MAX_MON, &m->num_mon,
					  &m->diag);
	}
	return 0;
}

/*
 * vfs_parse_fs_param(): superblock flags first, then libceph's table,
 * then ceph's; an unknown key is refused.  Not inlined: what the options
 * need (fsid and ip parsers) would add to the frame of kmc_ceph_parse(),
 * which parses the source as well.
 */
static noinline_for_stack int kmc_ceph_param(struct kmc_ceph_mount *m,
					     const struct kmc_ceph_param *p)
{
	const struct kmc_ceph_opt *o;
	bool negated;
	int ret;

	if (kmc_ceph_sb_flag(p))
		return 0;
	o = kmc_ceph_lookup(kmc_ceph_libceph_opts, p, &negated);
	if (!o)
		o = kmc_ceph_lookup(kmc_ceph_fs_opts, p, &negated);
	if (!o) {
		m->diag.where_is_key = true;
		return kmc_ceph_fail(&m->diag, KMC_CEPH_E_UNKNOWN_OPT,
				     p->key.ptr, p->key.len);
	}
	ret = kmc_ceph_type_check(m, o, p);
	return ret ? ret : kmc_ceph_apply(m, o, p, negated);
}

/*
 * generic_parse_monolithic(): split at ',', skip empty entries and those
 * starting with '=', split each at its first '='.
 */
static int kmc_ceph_options(struct kmc_ceph_mount *m, const char *o, size_t n)
{
	struct kmc_ceph_param p;
	const char *end = o + n, *tok, *comma, *eq;
	int ret;

	for (tok = o; tok && tok <= end; tok = comma ? comma + 1 : NULL) {
		comma = memchr(tok, ',', end - tok);
		p.key.ptr = tok;
		p.key.len = (comma ? comma : end) - tok;
		eq = memchr(tok, '=', p.key.len);
		if (!p.key.len || eq == tok)
			continue;
		p.val.ptr = eq ? eq + 1 : NULL;
		p.val.len = eq ? p.key.len - (eq + 1 - tok) : 0;
		p.key.len = eq ? (size_t)(eq - tok) : p.key.len;
		ret = kmc_ceph_param(m, &p);
		if (ret)
			return ret;
	}
	return 0;
}

/* ----- after the options: ceph_get_tree() and ceph_real_mount() ----- */

/*
 * ceph_fscache_register_fs() (fs/ceph/cache.c:94): "ceph,%pU[,uniq]" must
 * pass fscache (else the mount fails) and, to be cached at all,
 * cachefiles.  "ceph,%pU," is hex digits, '-' and ',', which both take:
 * only the length and uniq's bytes can fail, so they are checked without
 * building the key (KMC_VOLUME_KEY_MAX + 1 bytes of stack).
 */
static int kmc_ceph_check_volume(struct kmc_ceph_mount *m)
{
	size_t klen = KMC_CEPH_VOLUME_BASE_LEN;

	if (m->uniq.len)
		klen += 1 + m->uniq.len;
	if (klen > KMC_VOLUME_KEY_MAX) {
		kmc_ceph_fail(&m->diag, KMC_CEPH_E_VOLUME_KEY, m->uniq.ptr,
			      m->uniq.len);
		return -ENAMETOOLONG;
	}
	if (kmc_volume_key_check(m->uniq.ptr, m->uniq.len))
		return kmc_ceph_fail(&m->diag, KMC_CEPH_E_VOLUME_KEY,
				     m->uniq.ptr, m->uniq.len);
	if (klen > KMC_VOLUME_KEY_CACHEFILES_MAX ||
	    kmc_volume_key_check_cachefiles(m->uniq.ptr, m->uniq.len))
		kmc_ceph_quirk(&m->diag, KMC_CEPH_S_VOLUME_UNCACHED,
			       m->uniq.ptr, m->uniq.len);
	return 0;
}

/* What the kernel accepts but a careful reader would not. */
static void kmc_ceph_final_quirks(struct kmc_ceph_mount *m)
{
	struct kmc_ceph_span name = kmc_ceph_name(m);
	struct kmc_ceph_diag *d = &m->diag;

	if (name.ptr && !name.len)
		kmc_ceph_quirk(d, KMC_CEPH_S_EMPTY_NAME, name.ptr, 0);
	if (m->fs_name.ptr && !m->fs_name.len)
		kmc_ceph_quirk(d, KMC_CEPH_S_EMPTY_FS_NAME, m->fs_name.ptr, 0);
	if (m->have_src_fsid && m->have_opt_fsid &&
	    memcmp(m->src_fsid, m->opt_fsid, KMC_CEPH_FSID_LEN))
		kmc_ceph_quirk(d, KMC_CEPH_S_FSID_MISMATCH, NULL, 0);
	if (m->syntax == KMC_CEPH_SYNTAX_OLD && m->mon_from_opt)
		kmc_ceph_quirk(d, KMC_CEPH_S_MON_OVERRIDE, NULL, 0);
}

/* ceph_get_tree() (super.c:1222-1225), then the fscache volume. */
static int kmc_ceph_finish(struct kmc_ceph_mount *m)
{
	int ret;

	if (m->syntax == KMC_CEPH_SYNTAX_NEW && !m->mon_from_opt)
		return kmc_ceph_fail(&m->diag, KMC_CEPH_E_NO_MON, NULL, 0);
	if (m->fscache) {
		ret = kmc_ceph_check_volume(m);
		if (ret)
			return ret;
	}
	kmc_ceph_final_quirks(m);
	return 0;
}

int kmc_ceph_parse(const char *src, size_t src_len, const char *opts,
		   size_t opts_len, unsigned int flags,
		   struct kmc_ceph_mount *m)
{
	const char *nul;
	int ret;

	memset(m, 0, sizeof(*m));
	if (!src || (!opts && opts_len))
		return kmc_ceph_fail(&m->diag, KMC_CEPH_E_EMPTY_SOURCE, src, 0);
	nul = memchr(src, '\0', src_len);
	if (!nul && opts)
		nul = memchr(opts, '\0', opts_len);
	if (nul)
		return kmc_ceph_fail(&m->diag, KMC_CEPH_E_NUL, nul, 1);
	ret = kmc_ceph_source(m, src, src_len);
	if (!ret && opts)
		ret = kmc_ceph_options(m, opts, opts_len);
	if (!ret)
		ret = kmc_ceph_finish(m);
	if (ret || !(flags & KMC_CEPH_STRICT) || !m->diag.quirks)
		return ret;
	m->diag.code = m->diag.quirk_code;
	m->diag.where = m->diag.quirk_where;
	return -EINVAL;
}
EXPORT_SYMBOL_IF_KUNIT(kmc_ceph_parse);

struct kmc_ceph_span kmc_ceph_name(const struct kmc_ceph_mount *m)
{
	return m->opt_name.ptr ? m->opt_name : m->src_name;
}
EXPORT_SYMBOL_IF_KUNIT(kmc_ceph_name);

const u8 *kmc_ceph_fsid(const struct kmc_ceph_mount *m)
{
	if (m->have_src_fsid)
		return m->src_fsid;
	return m->have_opt_fsid ? m->opt_fsid : NULL;
}
EXPORT_SYMBOL_IF_KUNIT(kmc_ceph_fsid);

/* ----- formatting: %pU (lib/vsprintf.c) ----- */

void kmc_ceph_format_fsid(const u8 *fsid, char *buf)
{
	unsigned int i;

	for (i = 0; i < KMC_CEPH_FSID_LEN; i++) {
		*buf++ = kmc_ceph_hexdigit(fsid[i] >> 4);
		*buf++ = kmc_ceph_hexdigit(fsid[i]);
		if (i == 3 || i == 5 || i == 7 || i == 9)
			*buf++ = '-';
	}
	*buf = '\0';
}
EXPORT_SYMBOL_IF_KUNIT(kmc_ceph_format_fsid);

int kmc_ceph_volume_key(const u8 *fsid, const char *uniq, size_t uniq_len,
			char *buf, size_t size)
{
	size_t len = KMC_CEPH_VOLUME_BASE_LEN + (uniq_len ? 1 + uniq_len : 0);

	if (len >= size || len > INT_MAX)
		return -ENOSPC;
	memcpy(buf, "ceph,", 5);
	kmc_ceph_format_fsid(fsid, buf + 5);
	if (uniq_len) {
		buf[KMC_CEPH_VOLUME_BASE_LEN] = ',';
		memcpy(buf + KMC_CEPH_VOLUME_BASE_LEN + 1, uniq, uniq_len);
	}
	buf[len] = '\0';
	return len;
}
EXPORT_SYMBOL(kmc_ceph_volume_key);
