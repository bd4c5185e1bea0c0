// SPDX-License-Identifier: GPL-2.0-only
/*
 * CephFS monitor and ip addresses (see kmc_ceph.h): the IP literals of
 * net/core/utils.c, the monitor lists of net/ceph/messenger.c and their
 * formatting as lib/vsprintf.c prints them.  File:line references are to
 * the 6.1 tree.
 */
#include "kcompat.h"
#include "kmc_ceph.h"
#include "kmc_ceph_priv.h"

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
 * index goes to @end).  0 or -EINVAL.  Not inlined: its working state
 * would add to the frame of kmc_ceph_parse_ips().
 */
static noinline_for_stack int kmc_ceph_in6(const struct kmc_ip_text *t,
					   size_t i, u8 *out, size_t *end,
					   u32 *style)
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

/* ----- formatting: %pI4, %pI6c (lib/vsprintf.c) ----- */

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
			*p++ = kmc_ceph_hexdigit(word >> shift);
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
EXPORT_SYMBOL_IF_KUNIT(kmc_ceph_format_addr);
