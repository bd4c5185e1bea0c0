// SPDX-License-Identifier: GPL-2.0-only
/*
 * CephFS mount source parser (see kmc_ceph.h).  File:line references are to
 * the 6.1 tree; docs/ceph.md lists every accidental corner with its quirk.
 */
#include "kcompat.h"
#include "kmc_ceph.h"
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
EXPORT_SYMBOL(kmc_ceph_code_name);

const char *kmc_ceph_kernel_msg(enum kmc_ceph_code code)
{
	return kmc_ceph_text(code)->kmsg;
}
EXPORT_SYMBOL(kmc_ceph_kernel_msg);

/* Record the first error; always returns -EINVAL. */
static int kmc_ceph_fail(struct kmc_ceph_diag *d, enum kmc_ceph_code code,
			 const char *where, size_t len)
{
	if (d && d->code == KMC_CEPH_OK) {
		d->code = code;
		d->where.ptr = where;
		d->where.len = len;
	}
	return -EINVAL;
}

/* Set a quirk bit; the first quirk met keeps its code and position. */
static void kmc_ceph_quirk(struct kmc_ceph_diag *d, enum kmc_ceph_code code,
			   const char *where, size_t len)
{
	if (!d)
		return;
	if (!d->quirks) {
		d->quirk_code = code;
		d->quirk_where.ptr = where;
		d->quirk_where.len = len;
	}
	d->quirks |= KMC_CEPH_QUIRK(code);
}

static bool kmc_ceph_span_eq(struct kmc_ceph_span a, const char *s,
			     size_t len)
{
	return a.len == len && !memcmp(a.ptr, s, len);
}

/* hex_to_bin() of lib/hexdump.c: 0-15, or -1 for anything else. */
static int kmc_ceph_hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
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

/* ----- IP literals: in4_pton() and in6_pton() of net/core/utils.c ----- */

/*
 * Byte classes of xdigit2bin(), which double as the IPv6 parser's
 * "may come next" set (its state).
 */
#define KMC_IP_XDIGIT	0x001
#define KMC_IP_DIGIT	0x002
#define KMC_IP_COLON1	0x004	/* a single ':' */
#define KMC_IP_COLON2	0x008	/* the second ':' of "::" */
#define KMC_IP_COLON12	0x010	/* a "::" may start */
#define KMC_IP_COLONS	(KMC_IP_COLON1 | KMC_IP_COLON2 | KMC_IP_COLON12)
#define KMC_IP_DOT	0x020
#define KMC_IP_END	0x040	/* the delimiter, NUL or the end */
#define KMC_IP_NOWORD	0x080	/* state only: no 16-bit word pending */
#define KMC_IP_OTHER	0x100

#define KMC_Q_LEADING_ZERO	KMC_CEPH_QUIRK(KMC_CEPH_S_IPV4_LEADING_ZERO)
#define KMC_Q_V4_BRACKETED	KMC_CEPH_QUIRK(KMC_CEPH_S_IPV4_BRACKETED)
#define KMC_Q_V6_BARE		KMC_CEPH_QUIRK(KMC_CEPH_S_IPV6_UNBRACKETED)
#define KMC_Q_LONG_GROUP	KMC_CEPH_QUIRK(KMC_CEPH_S_IPV6_LONG_GROUP)

/* An address candidate: bytes s[0..len), read as NUL past @len. */
struct kmc_ip_text {
	const char *s;
	size_t len;
	char delim;
};

/* Class of byte @i; @val gets a hex digit's value. */
static unsigned int kmc_ip_class(const struct kmc_ip_text *t, size_t i,
				 unsigned int *val)
{
	char c = i < t->len ? t->s[i] : '\0';
	int v;

	if (c == t->delim || c == '\0')
		return KMC_IP_END;
	if (c == ':')
		return KMC_IP_COLONS;
	if (c == '.')
		return KMC_IP_DOT;
	v = kmc_ceph_hexval(c);
	if (v < 0)
		return KMC_IP_OTHER;
	*val = v;
	return KMC_IP_XDIGIT | (v < 10 ? KMC_IP_DIGIT : 0);
}

/*
 * in4_pton() from index @i: four decimal octets (0-255, any number of
 * leading zeros) split by '.', ended by the delimiter, ':' or the end,
 * whose index goes to @end.  0 or -EINVAL.
 */
static int kmc_ceph_in4(const struct kmc_ip_text *t, size_t i, u8 *out,
			size_t *end, u32 *style)
{
	unsigned int octets = 0, value = 0, digits = 0, cls, v = 0;
	u8 b[4];

	for (;; i++) {
		cls = kmc_ip_class(t, i, &v);
		if (cls & KMC_IP_DIGIT) {
			if (digits++ && !value)
				*style |= KMC_Q_LEADING_ZERO;
			value = value * 10 + v;
			if (value > 255)
				return -EINVAL;
			continue;
		}
		if (!(cls & (KMC_IP_DOT | KMC_IP_END | KMC_IP_COLONS)) ||
		    !digits)
			return -EINVAL;
		b[octets++] = value;
		value = 0;
		digits = 0;
		if (!(cls & KMC_IP_DOT))
			break;
		if (octets >= 4)
			return -EINVAL;
	}
	if (octets != 4)
		return -EINVAL;
	memcpy(out, b, sizeof(b));
	*end = i;
	return 0;
}

/* in6_pton()'s working state. */
struct kmc_in6 {
	u8 buf[16];
	unsigned int d;		/* bytes of buf[] written */
	int dc;			/* where "::" stands in buf[], or -1 */
	unsigned int state;	/* KMC_IP_* classes that may come next */
	unsigned int w;		/* the pending 16-bit word */
	unsigned int digits;	/* hex digits of the pending word */
	size_t tok;		/* start of the current group */
};

/*
 * A ':' or the end closes the pending word (unless NOWORD); after a ':'
 * the state says what may follow.  Returns 1 at the end, 0 after a ':',
 * -EINVAL if buf[] would overflow (never, for reachable states).
 */
static int kmc_in6_close(struct kmc_in6 *v, unsigned int cls, size_t i)
{
	if (!(v->state & KMC_IP_NOWORD)) {
		if (v->d > sizeof(v->buf) - 2)
			return -EINVAL;
		v->buf[v->d++] = v->w >> 8;
		v->buf[v->d++] = v->w & 0xff;
	}
	v->w = 0;
	v->digits = 0;
	if (cls & KMC_IP_END)
		return 1;
	switch (v->state & KMC_IP_COLONS) {
	case KMC_IP_COLON2:
		v->dc = v->d;
		v->state = KMC_IP_XDIGIT | KMC_IP_END;
		if (v->d >= sizeof(v->buf))
			v->state |= KMC_IP_NOWORD;
		break;
	case KMC_IP_COLON1 | KMC_IP_COLON12:
		v->state = KMC_IP_XDIGIT | KMC_IP_COLON2;
		break;
	case KMC_IP_COLON1:
		v->state = KMC_IP_XDIGIT;
		break;
	case KMC_IP_COLON12:
		v->state = KMC_IP_COLON2;
		break;
	default:
		v->state = 0;
	}
	v->tok = i + 1;
	return 0;
}

/*
 * A hex digit: at most 16 bits per word (leading zeros are free), and a
 * ':' may follow unless the buffer is about full.
 */
static void kmc_in6_digit(struct kmc_in6 *v, unsigned int val, u32 *style)
{
	v->w = (v->w << 4) | val;
	if (++v->digits > 4)
		*style |= KMC_Q_LONG_GROUP;
	v->state = KMC_IP_COLON1 | KMC_IP_END;
	if (!(v->w & 0xf000))
		v->state |= KMC_IP_XDIGIT;
	if (v->dc < 0 && v->d + 2 < sizeof(v->buf)) {
		v->state |= KMC_IP_COLON12;
		v->state &= ~KMC_IP_END;
	}
	if (v->d + 2 >= sizeof(v->buf))
		v->state &= ~(KMC_IP_COLON1 | KMC_IP_COLON12);
}

/* After each byte: room for a dotted IPv4 tail, or for nothing more. */
static void kmc_in6_room(struct kmc_in6 *v)
{
	if ((v->dc >= 0 && v->d + 4 < sizeof(v->buf)) ||
	    v->d + 4 == sizeof(v->buf))
		v->state |= KMC_IP_DOT;
	if (v->d >= sizeof(v->buf))
		v->state &= ~(KMC_IP_XDIGIT | KMC_IP_COLONS);
}

/* Words before "::" stay in front, those after it go to the back. */
static void kmc_in6_finish(const struct kmc_in6 *v, u8 *out)
{
	unsigned int tail;

	if (v->dc < 0) {
		memcpy(out, v->buf, sizeof(v->buf));
		return;
	}
	tail = v->d - v->dc;
	memset(out, 0, sizeof(v->buf));
	memcpy(out, v->buf, v->dc);
	memcpy(out + sizeof(v->buf) - tail, v->buf + v->dc, tail);
}

/*
 * in6_pton() from index @i: up to eight hex groups, one "::", an
 * optional dotted IPv4 tail, ended by the delimiter or the end (whose
 * index goes to @end).  0 or -EINVAL.
 */
static int kmc_ceph_in6(const struct kmc_ip_text *t, size_t i, u8 *out,
			size_t *end, u32 *style)
{
	struct kmc_in6 v = { .dc = -1, .tok = i,
		.state = KMC_IP_COLON12 | KMC_IP_XDIGIT | KMC_IP_NOWORD };
	unsigned int cls, val = 0;
	int ret;

	for (;; i++) {
		cls = kmc_ip_class(t, i, &val);
		if (!(cls & v.state))
			return -EINVAL;
		if (cls & KMC_IP_DOT) {
			if (v.d + 4 > sizeof(v.buf) ||
			    kmc_ceph_in4(t, v.tok, v.buf + v.d, &i, style))
				return -EINVAL;
			v.d += 4;
			break;
		}
		if (cls & (KMC_IP_END | KMC_IP_COLONS)) {
			ret = kmc_in6_close(&v, cls, i);
			if (ret < 0)
				return ret;
			if (ret)
				break;
		} else {
			kmc_in6_digit(&v, val, style);
		}
		kmc_in6_room(&v);
	}
	kmc_in6_finish(&v, out);
	*end = i;
	return 0;
}

/*
 * ceph_pton(): IPv4 first, then IPv6, from index @i; only the style of
 * the attempt that succeeded counts.
 */
static int kmc_ceph_pton(const struct kmc_ip_text *t, size_t i,
			 struct kmc_ceph_addr *a, size_t *end, u32 *style)
{
	u32 s4 = 0, s6 = 0;

	memset(a, 0, sizeof(*a));
	if (!kmc_ceph_in4(t, i, a->ip, end, &s4)) {
		a->family = KMC_CEPH_INET;
		*style |= s4;
		return 0;
	}
	if (!kmc_ceph_in6(t, i, a->ip, end, &s6)) {
		a->family = KMC_CEPH_INET6;
		*style |= s6;
		return 0;
	}
	return -EINVAL;
}

/* ----- monitor lists: ceph_parse_ips() of net/ceph/messenger.c ----- */

/* Length of the list element that starts at @p (up to @delim). */
static size_t kmc_ceph_elem_len(const char *s, size_t len, size_t p,
				char delim)
{
	const char *e = memchr(s + p, delim, len - p);

	return e ? (size_t)(e - s) - p : len - p;
}

/* Add the quirk bits of @style, located at @where. */
static void kmc_ceph_quirks(struct kmc_ceph_diag *d, u32 style,
			    const char *where, size_t len)
{
	enum kmc_ceph_code c;

	for (c = KMC_CEPH_S_FIRST; c < KMC_CEPH_CODE_COUNT; c++)
		if (style & KMC_CEPH_QUIRK(c))
			kmc_ceph_quirk(d, c, where, len);
}

/*
 * ":port" after an address at @*p: decimal digits into an int that wraps
 * (the kernel builds with -fno-strict-overflow), 0 or none meaning 6789,
 * more than 65535 refused, anything else truncated to 16 bits.
 */
static int kmc_ceph_port(const char *s, size_t len, size_t *p,
			 struct kmc_ceph_addr *a, struct kmc_ceph_diag *d)
{
	size_t q = *p + 1;
	u32 port = 0, exact = 0;

	a->port = KMC_CEPH_MON_PORT;
	if (*p >= len || s[*p] != ':')
		return 0;
	for (; q < len && s[q] >= '0' && s[q] <= '9'; q++) {
		port = port * 10 + (s[q] - '0');
		exact = min_t(u32, exact * 10 + (s[q] - '0'), 65536);
	}
	if ((s32)port > 65535)
		return kmc_ceph_fail(d, KMC_CEPH_E_MON_PORT, s + *p, q - *p);
	if (exact > 65535)
		kmc_ceph_quirk(d, KMC_CEPH_S_PORT_WRAP, s + *p, q - *p);
	else if (!port)
		kmc_ceph_quirk(d, KMC_CEPH_S_PORT_ZERO, s + *p, q - *p);
	if (port)
		a->port = (u16)port;
	*p = q;
	return 0;
}

/* Why an address at @p did not parse: empty, or not an IP literal. */
static int kmc_ceph_bad_addr(const char *s, size_t len, size_t p,
			     char delim, char cur, struct kmc_ceph_diag *d)
{
	size_t n = kmc_ceph_elem_len(s, len, p, delim);
	size_t start = p + (cur == ']');

	if (start >= len || s[start] == cur)
		return kmc_ceph_fail(d, KMC_CEPH_E_MON_EMPTY, s + p, n);
	return kmc_ceph_fail(d, KMC_CEPH_E_MON_ADDR, s + p, n);
}

static bool kmc_ceph_is_v6(const struct kmc_ceph_addr *a)
{
	return a->family == KMC_CEPH_INET6;
}

/*
 * One "ip[:port]" or "[ip][:port]" at @*p; @*p ends on what follows it.
 * Brackets make ']' the address delimiter.
 */
static int kmc_ceph_one_ip(const char *s, size_t len, char delim, size_t *p,
			   struct kmc_ceph_addr *a, struct kmc_ceph_diag *d)
{
	size_t start = *p, end;
	struct kmc_ip_text t = { s, len, delim };
	bool bracket = start < len && s[start] == '[';
	u32 style = 0;

	if (bracket)
		t.delim = ']';
	if (kmc_ceph_pton(&t, start + bracket, a, &end, &style))
		return kmc_ceph_bad_addr(s, len, start, delim, t.delim, d);
	if (bracket) {
		if (end >= len || s[end] != ']')
			return kmc_ceph_fail(d, KMC_CEPH_E_MON_BRACKET,
					     s + start, end - start);
		end++;
	}
	if (bracket != kmc_ceph_is_v6(a))
		style |= bracket ? KMC_Q_V4_BRACKETED : KMC_Q_V6_BARE;
	kmc_ceph_quirks(d, style, s + start, end - start);
	*p = end;
	return kmc_ceph_port(s, len, p, a, d);
}

int kmc_ceph_parse_ips(const char *s, size_t len, char delim,
		       struct kmc_ceph_addr *addr, unsigned int max,
		       unsigned int *count, struct kmc_ceph_diag *diag)
{
	size_t p = 0;
	unsigned int i;
	int ret;

	if (!max)
		return kmc_ceph_fail(diag, KMC_CEPH_E_MON_TOO_MANY, s, len);
	for (i = 0; i < max; i++) {
		ret = kmc_ceph_one_ip(s, len, delim, &p, &addr[i], diag);
		if (ret)
			return ret;
		if (p == len)
			break;
		if (s[p] != delim)
			return kmc_ceph_fail(diag, KMC_CEPH_E_MON_JUNK, s + p,
				kmc_ceph_elem_len(s, len, p, delim));
		p++;
	}
	if (i == max) {
		if (p != len)
			return kmc_ceph_fail(diag, KMC_CEPH_E_MON_TOO_MANY,
					     s + p, len - p);
		/* messenger.c:1319: the kernel counts max + 1 here. */
		kmc_ceph_quirk(diag, KMC_CEPH_S_MON_TRAILING, s + p - 1, 1);
		i = max - 1;
	}
	*count = i + 1;
	return 0;
}
EXPORT_SYMBOL(kmc_ceph_parse_ips);

/* ----- fsid: ceph_parse_fsid() of net/ceph/ceph_common.c ----- */

int kmc_ceph_parse_fsid(const char *s, size_t len, u8 *fsid)
{
	u8 b[KMC_CEPH_FSID_LEN];
	unsigned int i = 0;
	size_t p = 0;
	int hi, lo;

	while (p < len && s[p] && i < sizeof(b)) {
		if (kmc_ceph_ispunct(s[p])) {
			p++;
			continue;
		}
		hi = kmc_ceph_hexval(s[p]);
		lo = p + 1 < len ? kmc_ceph_hexval(s[p + 1]) : -1;
		if (hi < 0 || lo < 0)
			break;
		b[i++] = hi << 4 | lo;
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

		if (dash ? s[i] != '-' : kmc_ceph_hexval(s[i]) < 0)
			return false;
	}
	return true;
}
EXPORT_SYMBOL(kmc_ceph_fsid_canonical);

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
EXPORT_SYMBOL(kmc_ceph_path);

/* ----- the source: ceph_parse_source() of fs/ceph/super.c ----- */

/*
 * ceph_parse_new_source(): @sep is the '=' before the path.  '@' and '.'
 * are searched in the whole source (strchr()), and the fsid is read
 * across the '.' up to the end of the source, as the kernel does.
 */
static int kmc_ceph_new_source(struct kmc_ceph_mount *m, const char *s,
			       size_t n, size_t sep)
{
	struct kmc_ceph_diag *d = &m->diag;
	const char *at = memchr(s, '@', n), *dot, *fsid, *end;

	if (!at)
		return kmc_ceph_fail(d, KMC_CEPH_E_NO_FSID, s, sep + 1);
	m->src_name.ptr = s;
	m->src_name.len = at - s;
	fsid = at + 1;
	dot = memchr(fsid, '.', s + n - fsid);
	if (!dot)
		return kmc_ceph_fail(d, KMC_CEPH_E_NO_FS_NAME, fsid,
				     s + n - fsid);
	if (kmc_ceph_parse_fsid(fsid, s + n - fsid, m->src_fsid))
		return kmc_ceph_fail(d, KMC_CEPH_E_BAD_FSID, fsid, dot - fsid);
	if (dot > s + sep)
		kmc_ceph_quirk(d, KMC_CEPH_S_SPEC_IN_PATH, s, n);
	if (!kmc_ceph_fsid_canonical(fsid, dot - fsid))
		kmc_ceph_quirk(d, KMC_CEPH_S_FSID_FORM, fsid, dot - fsid);
	/* super.c:306: a negative length (dot past '=') copies to the end. */
	end = dot < s + sep ? s + sep : s + n;
	m->fs_name.ptr = dot + 1;
	m->fs_name.len = end - (dot + 1);
	m->have_src_fsid = true;
	m->syntax = KMC_CEPH_SYNTAX_NEW;
	return 0;
}

/* ceph_parse_old_source(): monitors before the ':' at @sep. */
static int kmc_ceph_old_source(struct kmc_ceph_mount *m, const char *s,
			       size_t sep)
{
	int ret = kmc_ceph_parse_ips(s, sep, ',', m->mon, KMC_CEPH_MAX_MON,
				     &m->num_mon, &m->diag);

	if (!ret)
		m->syntax = KMC_CEPH_SYNTAX_OLD;
	return ret;
}

/*
 * The path is everything from the first '/'; the byte before it decides
 * the syntax ('=' new, ':' old).  A failed new syntax falls back to the
 * old one, which then fails too: the new syntax's error is reported, as
 * the kernel logs it first.
 */
static int kmc_ceph_source(struct kmc_ceph_mount *m, const char *s, size_t n)
{
	const char *slash;
	size_t sep;

	if (!n)
		return kmc_ceph_fail(&m->diag, KMC_CEPH_E_EMPTY_SOURCE, s, 0);
	slash = memchr(s, '/', n);
	if (slash) {
		m->path.ptr = slash;
		m->path.len = s + n - slash;
		m->path_len = kmc_ceph_canon_len(slash, m->path.len);
	}
	sep = slash ? (size_t)(slash - s) : n;
	if (!sep)
		return kmc_ceph_fail(&m->diag, KMC_CEPH_E_PATH_ONLY, s, n);
	sep--;
	if (s[sep] == '=')
		return kmc_ceph_new_source(m, s, n, sep);
	if (s[sep] != ':')
		return kmc_ceph_fail(&m->diag, KMC_CEPH_E_NO_COLON, s, sep + 1);
	return kmc_ceph_old_source(m, s, sep);
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

/* ip=: one address, checked and not kept (net/ceph/ceph_common.c:431). */
static int kmc_ceph_opt_ip(struct kmc_ceph_mount *m, struct kmc_ceph_span v)
{
	struct kmc_ceph_diag d = { 0 };
	struct kmc_ceph_addr a;
	unsigned int n;

	if (kmc_ceph_parse_ips(v.ptr, v.len, ',', &a, 1, &n, &d))
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
 * then ceph's; an unknown key is refused.
 */
static int kmc_ceph_param(struct kmc_ceph_mount *m,
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
 * cachefiles.
 */
static int kmc_ceph_check_volume(struct kmc_ceph_mount *m)
{
	char key[KMC_VOLUME_KEY_MAX + 1];
	static const u8 zero[KMC_CEPH_FSID_LEN];
	const u8 *fsid = kmc_ceph_fsid(m) ? kmc_ceph_fsid(m) : zero;
	size_t klen = KMC_CEPH_VOLUME_BASE_LEN;
	int ret;

	if (m->uniq.len)
		klen += 1 + m->uniq.len;
	if (klen > KMC_VOLUME_KEY_MAX) {
		kmc_ceph_fail(&m->diag, KMC_CEPH_E_VOLUME_KEY, m->uniq.ptr,
			      m->uniq.len);
		return -ENAMETOOLONG;
	}
	ret = kmc_ceph_volume_key(fsid, m->uniq.ptr, m->uniq.len, key,
				  sizeof(key));
	if (ret < 0 || kmc_volume_key_check(key, ret))
		return kmc_ceph_fail(&m->diag, KMC_CEPH_E_VOLUME_KEY,
				     m->uniq.ptr, m->uniq.len);
	if (kmc_volume_key_check_cachefiles(key, ret))
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
EXPORT_SYMBOL(kmc_ceph_parse);

struct kmc_ceph_span kmc_ceph_name(const struct kmc_ceph_mount *m)
{
	return m->opt_name.ptr ? m->opt_name : m->src_name;
}
EXPORT_SYMBOL(kmc_ceph_name);

const u8 *kmc_ceph_fsid(const struct kmc_ceph_mount *m)
{
	if (m->have_src_fsid)
		return m->src_fsid;
	return m->have_opt_fsid ? m->opt_fsid : NULL;
}
EXPORT_SYMBOL(kmc_ceph_fsid);

/* ----- formatting: %pU, %pI4, %pI6c (lib/vsprintf.c) ----- */

static const char kmc_ceph_hex[16] = "0123456789abcdef";

/* @v in decimal at @p; returns the new end. */
static char *kmc_ceph_put_dec(char *p, unsigned int v)
{
	char tmp[10];
	int i = 0;

	do {
		tmp[i++] = '0' + v % 10;
		v /= 10;
	} while (v);
	while (i)
		*p++ = tmp[--i];
	return p;
}

void kmc_ceph_format_fsid(const u8 *fsid, char *buf)
{
	unsigned int i;

	for (i = 0; i < KMC_CEPH_FSID_LEN; i++) {
		*buf++ = kmc_ceph_hex[fsid[i] >> 4];
		*buf++ = kmc_ceph_hex[fsid[i] & 0xf];
		if (i == 3 || i == 5 || i == 7 || i == 9)
			*buf++ = '-';
	}
	*buf = '\0';
}
EXPORT_SYMBOL(kmc_ceph_format_fsid);

/* ip4_string(): dotted decimal. */
static char *kmc_ceph_put_ip4(char *p, const u8 *ip)
{
	unsigned int i;

	for (i = 0; i < 4; i++) {
		p = kmc_ceph_put_dec(p, ip[i]);
		if (i < 3)
			*p++ = '.';
	}
	return p;
}

/* ipv6_addr_v4mapped() || ipv6_addr_is_isatap() (include/net/ipv6.h). */
static bool kmc_ceph_ip6_dotted(const u8 *ip)
{
	static const u8 zero[8];
	bool isatap = (ip[8] | 0x02) == 0x02 && !ip[9] && ip[10] == 0x5e &&
		      ip[11] == 0xfe;

	return isatap || (!memcmp(ip, zero, 8) && !ip[8] && !ip[9] &&
			  ip[10] == 0xff && ip[11] == 0xff);
}

/* First longest run of two or more zero words among the first @range. */
static int kmc_ceph_zero_run(const u8 *ip, int range, int *longest)
{
	int i, j, pos = -1;

	*longest = 1;
	for (i = 0; i < range; i++) {
		for (j = i; j < range && !ip[2 * j] && !ip[2 * j + 1]; j++)
			;
		if (j - i > *longest) {
			*longest = j - i;
			pos = i;
		}
	}
	return pos;
}

/* ip6_compressed_string(): %pI6c. */
static char *kmc_ceph_put_ip6(char *p, const u8 *ip)
{
	bool dotted = kmc_ceph_ip6_dotted(ip), colon = false;
	int range = dotted ? 6 : 8, longest, i;
	int run = kmc_ceph_zero_run(ip, range, &longest);
	unsigned int word, shift;

	for (i = 0; i < range; i++) {
		if (i == run) {
			if (colon || !i)
				*p++ = ':';
			*p++ = ':';
			colon = false;
			i += longest - 1;
			continue;
		}
		if (colon)
			*p++ = ':';
		word = ip[2 * i] << 8 | ip[2 * i + 1];
		for (shift = 12; shift && !(word >> shift); shift -= 4)
			;
		for (;; shift -= 4) {
			*p++ = kmc_ceph_hex[(word >> shift) & 0xf];
			if (!shift)
				break;
		}
		colon = true;
	}
	if (dotted) {
		if (colon)
			*p++ = ':';
		p = kmc_ceph_put_ip4(p, ip + 12);
	}
	return p;
}

int kmc_ceph_format_addr(const struct kmc_ceph_addr *a, char *buf,
			 size_t size)
{
	char tmp[KMC_CEPH_ADDR_STR_MAX], *p = tmp;

	if (a->family == KMC_CEPH_INET) {
		p = kmc_ceph_put_ip4(p, a->ip);
	} else {
		*p++ = '[';
		p = kmc_ceph_put_ip6(p, a->ip);
		*p++ = ']';
	}
	*p++ = ':';
	p = kmc_ceph_put_dec(p, a->port);
	if ((size_t)(p - tmp) >= size)
		return -ENOSPC;
	memcpy(buf, tmp, p - tmp);
	buf[p - tmp] = '\0';
	return p - tmp;
}
EXPORT_SYMBOL(kmc_ceph_format_addr);

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
