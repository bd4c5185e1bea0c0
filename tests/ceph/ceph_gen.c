// SPDX-License-Identifier: GPL-2.0-only
/* Random CephFS mount sources and options (see ceph_gen.h). */
#include <stdio.h>
#include <string.h>

#include "ceph_gen.h"

/* A growing string with a hard size limit (silently truncated). */
struct sbuf {
	char *p;
	size_t len, size;
};

static void put(struct sbuf *b, const char *s)
{
	size_t n = strlen(s);

	if (b->len + n >= b->size)
		n = b->size - 1 - b->len;
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static void putc_(struct sbuf *b, char c)
{
	char s[2] = { c, '\0' };

	if (c)
		put(b, s);
}

void ceph_gen_seed(struct ceph_gen *g, uint64_t seed)
{
	g->state = seed * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL;
	if (!g->state)
		g->state = 1;
}

/* xorshift64*. */
uint64_t ceph_gen_next(struct ceph_gen *g)
{
	uint64_t x = g->state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	g->state = x;
	return x * 0x2545f4914f6cdd1dULL;
}

static unsigned int rnd(struct ceph_gen *g, unsigned int n)
{
	return (unsigned int)(ceph_gen_next(g) % n);
}

static const char *pick(struct ceph_gen *g, const char *const *v, size_t n)
{
	return v[rnd(g, (unsigned int)n)];
}

#define PICK(g, v) pick(g, v, sizeof(v) / sizeof(v[0]))

/* Bytes that matter to the parsers, Latin-1 punctuation included. */
static const char alphabet[] =
	"0123456789abcdefABCDEFgxz.:[]/,@=-_ \t\xa1\xbf\xd7\xf7\xc0\xff";

static char any_char(struct ceph_gen *g)
{
	return alphabet[rnd(g, sizeof(alphabet) - 1)];
}

static void put_dec(struct sbuf *b, unsigned long long v)
{
	char s[24];

	snprintf(s, sizeof(s), "%llu", v);
	put(b, s);
}

static void gen_octet(struct ceph_gen *g, struct sbuf *b)
{
	unsigned int z;

	switch (g->clean ? 3 : rnd(g, 12)) {
	case 0:
		for (z = rnd(g, 4); z; z--)
			putc_(b, '0');
		put_dec(b, rnd(g, 256));
		break;
	case 1:
		put_dec(b, 250 + rnd(g, 20));
		break;
	case 2:
		break;
	default:
		put_dec(b, rnd(g, 256));
	}
}

static void gen_ipv4(struct ceph_gen *g, struct sbuf *b)
{
	unsigned int i, n = rnd(g, 10) || g->clean ? 4 : 3 + rnd(g, 3);

	for (i = 0; i < n; i++) {
		if (i)
			putc_(b, '.');
		gen_octet(g, b);
	}
}

static void gen_group(struct ceph_gen *g, struct sbuf *b)
{
	static const char hex[] = "0123456789abcdefABCDEF";
	unsigned int i, n = 1 + rnd(g, 4);

	if (!g->clean && !rnd(g, 10))
		for (i = rnd(g, 3); i; i--)
			putc_(b, '0');
	if (!g->clean && !rnd(g, 25))
		n += 1;
	for (i = 0; i < n; i++)
		putc_(b, hex[rnd(g, sizeof(hex) - 1)]);
}

/*
 * A well-formed IPv6 address: eight words (the last two maybe as a
 * dotted IPv4 tail), or fewer around one "::" that stands for at least
 * one zero word.
 */
static void gen_ipv6_clean(struct ceph_gen *g, struct sbuf *b)
{
	unsigned int v4 = !rnd(g, 5), words = v4 ? 6 : 8;
	unsigned int i, n = rnd(g, 2) ? words : rnd(g, words);
	unsigned int gap = n == words ? words + 1 : rnd(g, n + 1);

	for (i = 0; i < n; i++) {
		if (i == gap)
			put(b, "::");
		else if (i)
			putc_(b, ':');
		gen_group(g, b);
	}
	if (gap == n)
		put(b, "::");
	if (v4) {
		if (n && gap != n)
			putc_(b, ':');
		gen_ipv4(g, b);
	}
}

/* Eight groups, a "::" somewhere (or not), an IPv4 tail sometimes. */
static void gen_ipv6(struct ceph_gen *g, struct sbuf *b)
{
	static const char *const fixed[] = {
		"::", "::1", "1::", "::ffff:1.2.3.4", "fe80::5efe:10.0.0.1",
		"2001:db8::1", "1:2:3:4:5:6:7:8", "::1:2:3:4:5:6:7",
		"1:2:3:4:5:6:1.2.3.4", "::0:0:0:0:0:0:0", "0:0:0:0:0:ffff:1.2.3.4",
	};
	unsigned int i, n = 1 + rnd(g, 9), gap = rnd(g, n + 2), v4 = !rnd(g, 6);

	if (g->clean) {
		gen_ipv6_clean(g, b);
		return;
	}
	if (!rnd(g, 4)) {
		put(b, PICK(g, fixed));
		return;
	}
	for (i = 0; i < n; i++) {
		if (i == gap)
			put(b, i ? ":" : "::");
		else if (i)
			putc_(b, ':');
		if (v4 && i == n - 1)
			gen_ipv4(g, b);
		else
			gen_group(g, b);
	}
	if (gap == n)
		put(b, "::");
}

static void gen_port(struct ceph_gen *g, struct sbuf *b)
{
	static const char *const ports[] = {
		":", ":0", ":00", ":6789", ":3300", ":65535", ":65536",
		":99999", ":4294967296", ":4294967376", ":4294973085",
		":2147483647", ":2147483648", ":12ab", ":-1", ":+80",
		":000000000000000000080",
	};

	if (g->clean) {
		if (rnd(g, 2)) {
			putc_(b, ':');
			put_dec(b, 1 + rnd(g, 65535));
		}
		return;
	}
	switch (rnd(g, 6)) {
	case 0:
		put(b, PICK(g, ports));
		break;
	case 1:
		putc_(b, ':');
		put_dec(b, ceph_gen_next(g) % 100000000000000ULL);
		break;
	case 2:
		putc_(b, ':');
		put_dec(b, rnd(g, 70000));
		break;
	default:
		break;
	}
}

static void gen_addr(struct ceph_gen *g, struct sbuf *b)
{
	unsigned int v6 = rnd(g, 2), br = v6 ? rnd(g, 5) != 0 : !rnd(g, 8);

	if (g->clean)
		br = v6;
	if (br && (g->clean || rnd(g, 20)))
		putc_(b, '[');
	if (v6)
		gen_ipv6(g, b);
	else
		gen_ipv4(g, b);
	if (br && (g->clean || rnd(g, 20)))
		putc_(b, ']');
	gen_port(g, b);
}

static void gen_monlist(struct ceph_gen *g, struct sbuf *b, char delim)
{
	unsigned int i, n = rnd(g, 8) ? 1 + rnd(g, 3) : 28 + rnd(g, 6);

	if (g->clean && n > 31)
		n = 31;
	for (i = 0; i < n; i++) {
		if (i)
			putc_(b, rnd(g, 30) || g->clean ? delim : any_char(g));
		if (rnd(g, 40) || g->clean)
			gen_addr(g, b);
	}
	if (!rnd(g, 8) && (!g->clean || n == 31))
		putc_(b, delim);
}

static void gen_fsid(struct ceph_gen *g, struct sbuf *b)
{
	static const char hex[] = "0123456789abcdef";
	static const char punct[] = "-:.!~{}\xa1\xbf\xd7";
	unsigned int i, style = g->clean ? rnd(g, 3) : rnd(g, 8), bytes = 16;

	if (style == 5)
		bytes = rnd(g, 17);
	for (i = 0; i < bytes; i++) {
		if (style < 3 && (i == 4 || i == 6 || i == 8 || i == 10))
			putc_(b, '-');
		else if (style == 4 && !rnd(g, 4))
			putc_(b, punct[rnd(g, sizeof(punct) - 1)]);
		putc_(b, hex[rnd(g, 16)]);
		putc_(b, style == 6 && !rnd(g, 40) ? 'g' : hex[rnd(g, 16)]);
	}
	if (style == 7)
		putc_(b, any_char(g));
}

static void gen_word(struct ceph_gen *g, struct sbuf *b, const char *const *v,
		     size_t n)
{
	unsigned int i;

	if (rnd(g, 4) || g->clean) {
		put(b, pick(g, v, n));
		return;
	}
	for (i = rnd(g, 6); i; i--)
		putc_(b, any_char(g));
}

static void gen_path(struct ceph_gen *g, struct sbuf *b)
{
	static const char *const paths[] = {
		"", "/", "//", "/a", "//a//b/", "/a/b/c", "/x.y", "/a@b.c",
		"/volumes/_nogroup/sub/", "///", "/.", "/a=b:c",
	};

	gen_word(g, b, paths, sizeof(paths) / sizeof(paths[0]));
}

static void gen_new(struct ceph_gen *g, struct sbuf *b)
{
	static const char *const names[] = {
		"admin", "client.admin", "", "a=b", "x.y", "guest",
	};
	static const char *const fsnames[] = {
		"cephfs", "a", "", "a.b", "fs=x", "0123456789abcdef",
	};

	gen_word(g, b, names, sizeof(names) / sizeof(names[0]));
	if (rnd(g, 20) || g->clean)
		putc_(b, '@');
	if (rnd(g, 20) || g->clean)
		gen_fsid(g, b);
	if (rnd(g, 20) || g->clean)
		putc_(b, '.');
	gen_word(g, b, fsnames, sizeof(fsnames) / sizeof(fsnames[0]));
	if (rnd(g, 20) || g->clean)
		putc_(b, '=');
	gen_path(g, b);
}

static void gen_old(struct ceph_gen *g, struct sbuf *b)
{
	gen_monlist(g, b, ',');
	if (rnd(g, 20) || g->clean)
		putc_(b, ':');
	gen_path(g, b);
}

static void gen_source(struct ceph_gen *g, struct sbuf *b)
{
	unsigned int i;

	switch (g->clean ? 1 + rnd(g, 9) : rnd(g, 10)) {
	case 0:
		for (i = rnd(g, 16); i; i--)
			putc_(b, any_char(g));
		break;
	case 1:
	case 2:
	case 3:
	case 4:
		gen_new(g, b);
		break;
	default:
		gen_old(g, b);
	}
}

static void gen_option(struct ceph_gen *g, struct sbuf *b)
{
	static const char *const fixed[] = {
		"fsc", "nofsc", "fsc=", "ro", "rw", "acl", "noacl", "acl=1",
		"noacl=1", "foo", "=x", "fsid", "name", "mon_addr", "mon_addr=",
		"nofsid", "noname", "source=x", "source", "ms_mode=crc",
		"ms_mode=bogus", "recover_session=clean", "snapdirname=.snap",
		"nocrc", "crc", "abort_on_full", "noabort_on_full", "rxbounce",
		"nocephx_require_signatures", "share", "noshare", "wsync",
		"mds_namespace", "mds_namespace=", "ip=1.2.3.4", "ip=::1",
		"ip=[::1]:6789", "ip=1.2.3", "ip=1.2.3.4,", "sync", "mand",
	};
	static const char *const names[] = { "admin", "x", "cephfs", "a.b" };

	switch (rnd(g, 12)) {
	case 0:
	case 1:
	case 2:
		put(b, "mon_addr=");
		gen_monlist(g, b, '/');
		break;
	case 3:
		put(b, "mds_namespace=");
		gen_word(g, b, names, sizeof(names) / sizeof(names[0]));
		break;
	case 4:
		put(b, "fsid=");
		gen_fsid(g, b);
		break;
	case 5:
		put(b, "name=");
		gen_word(g, b, names, sizeof(names) / sizeof(names[0]));
		break;
	case 6:
		put(b, "fsc=");
		gen_word(g, b, names, sizeof(names) / sizeof(names[0]));
		break;
	default:
		put(b, PICK(g, fixed));
	}
}

/* Up to three byte edits: insert, delete or replace. */
static void mutate(struct ceph_gen *g, struct sbuf *b)
{
	unsigned int i, at;

	for (i = 1 + rnd(g, 3); i; i--) {
		at = rnd(g, (unsigned int)b->len + 1);
		switch (rnd(g, 3)) {
		case 0:
			if (b->len + 1 >= b->size)
				break;
			memmove(b->p + at + 1, b->p + at, b->len - at + 1);
			b->p[at] = any_char(g);
			b->len++;
			break;
		case 1:
			if (at < b->len) {
				memmove(b->p + at, b->p + at + 1, b->len - at);
				b->len--;
			}
			break;
		default:
			if (at < b->len)
				b->p[at] = any_char(g);
		}
	}
}

void ceph_gen_case(struct ceph_gen *g, char *src, size_t src_size,
		   char *opts, size_t opts_size)
{
	struct sbuf s = { src, 0, src_size }, o = { opts, 0, opts_size };
	unsigned int i, n = rnd(g, 5);

	src[0] = opts[0] = '\0';
	g->clean = rnd(g, 2);
	gen_source(g, &s);
	if (!g->clean && !rnd(g, 4))
		mutate(g, &s);
	if (g->clean && s.p[0] != '[' && strchr(s.p, '@')) {
		put(&o, "mon_addr=");
		gen_monlist(g, &o, '/');
	}
	for (i = 0; i < n; i++) {
		if (i || o.len)
			putc_(&o, rnd(g, 20) || g->clean ? ',' : any_char(g));
		gen_option(g, &o);
	}
	if (!g->clean && !rnd(g, 6))
		mutate(g, &o);
}
