// SPDX-License-Identifier: GPL-2.0-only
/*
 * CephFS monitor and ip addresses (see kmc_ceph.h): the monitor lists of
 * net/ceph/messenger.c, their IP literals read by the kernel's own
 * in4_pton() and in6_pton(), and their formatting as lib/vsprintf.c prints
 * them.  File:line references are to the 6.1 tree.
 */
#include "kcompat.h"
#include "kmc_ceph.h"
#include "kmc_ceph_priv.h"

/* ----- IP literals: in4_pton() and in6_pton() ----- */

#define KMC_Q_LEADING_ZERO	KMC_CEPH_QUIRK(KMC_CEPH_S_IPV4_LEADING_ZERO)
#define KMC_Q_V4_BRACKETED	KMC_CEPH_QUIRK(KMC_CEPH_S_IPV4_BRACKETED)
#define KMC_Q_V6_BARE		KMC_CEPH_QUIRK(KMC_CEPH_S_IPV6_UNBRACKETED)
#define KMC_Q_LONG_GROUP	KMC_CEPH_QUIRK(KMC_CEPH_S_IPV6_LONG_GROUP)

/*
 * What is odd about an address the kernel accepted, s[0..n): a dotted
 * octet of two or more digits that starts with 0 ("010" is 10, not 8),
 * or an IPv6 group of more than four hex digits ("00001": in6_pton()
 * takes leading zeros without limit).  An IPv6 address's dotted tail
 * starts after its last ':' before the first '.'; in6_pton() reads that
 * first octet as a group too before it sees the dot.
 */
static u32 kmc_ceph_ip_style(const char *s, size_t n, bool v6)
{
	const char *dot = memchr(s, '.', n);
	size_t groups_end = dot ? (size_t)(dot - s) : n;
	size_t tail = 0, i, start, run = 0;
	u32 style = 0;

	if (v6) {
		tail = dot ? groups_end : n + 1;
		while (dot && tail && s[tail - 1] != ':')
			tail--;
	}
	for (i = 0; i <= n; i++) {
		if (i < n && hex_to_bin(s[i]) >= 0) {
			run++;
			continue;
		}
		start = i - run;
		if (v6 && start < groups_end && run > 4)
			style |= KMC_Q_LONG_GROUP;
		if (start >= tail && run > 1 && s[start] == '0')
			style |= KMC_Q_LEADING_ZERO;
		run = 0;
	}
	return style;
}

/*
 * ceph_pton(): IPv4 first, then IPv6, at s[0..len) up to @delim; the
 * index past the address goes to @end.
 */
static int kmc_ceph_pton(const char *s, size_t len, char delim,
			 struct kmc_ceph_addr *a, size_t *end)
{
	int n = min_t(size_t, len, INT_MAX);
	const char *e;

	memset(a, 0, sizeof(*a));
	if (in4_pton(s, n, a->ip, delim, &e))
		a->family = KMC_CEPH_INET;
	else if (in6_pton(s, n, a->ip, delim, &e))
		a->family = KMC_CEPH_INET6;
	else
		return -EINVAL;
	*end = e - s;
	return 0;
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
	size_t start = *p, at, end;
	bool bracket = start < len && s[start] == '[';
	char cur = bracket ? ']' : delim;
	u32 style;

	at = start + bracket;
	if (kmc_ceph_pton(s + at, len - at, cur, a, &end))
		return kmc_ceph_bad_addr(s, len, start, delim, cur, d);
	style = kmc_ceph_ip_style(s + at, end, kmc_ceph_is_v6(a));
	end += at;
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
