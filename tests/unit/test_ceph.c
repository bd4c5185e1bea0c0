// SPDX-License-Identifier: GPL-2.0-only
/* Specification of kmc_ceph_parse() and its helpers (core/kmc_ceph.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "kmc_ceph.h"
#include "kmv_ceph.h"
#include "../ceph/ceph_unparse.h"

/* Parse exact-size heap copies: the core may not read past the lengths. */
static int parse(const char *src, size_t slen, const char *opts, size_t olen,
		 unsigned int flags, struct kmc_ceph_mount *m, char **bufs)
{
	bufs[0] = malloc(slen ? slen : 1);
	bufs[1] = malloc(olen ? olen : 1);
	assert_non_null(bufs[0]);
	assert_non_null(bufs[1]);
	memcpy(bufs[0], src, slen);
	memcpy(bufs[1], opts, olen);
	return kmc_ceph_parse(bufs[0], slen, olen ? bufs[1] : NULL, olen,
			      flags, m);
}

static int parse_str(const char *src, const char *opts, unsigned int flags,
		     struct kmc_ceph_mount *m, char **bufs)
{
	return parse(src, strlen(src), opts ? opts : "",
		     opts ? strlen(opts) : 0, flags, m, bufs);
}

static void free_bufs(char **bufs)
{
	free(bufs[0]);
	free(bufs[1]);
}

static void check_vector(const struct kmv_ceph *v, unsigned int flags,
			 const char *want)
{
	struct kmc_ceph_mount m;
	struct ceph_fields f;
	char *bufs[2];
	int ret = parse_str(v->source, v->options, flags, &m, bufs);

	if (strcmp(kmc_ceph_code_name(m.diag.code), want))
		fail_msg("ceph.vec line %d (%s): got %s want %s", v->line,
			 flags ? "strict" : "kernel",
			 kmc_ceph_code_name(m.diag.code), want);
	if (ret && (m.diag.code == KMC_CEPH_OK || !*kmc_ceph_reason(m.diag.code)))
		fail_msg("ceph.vec line %d: error without a reason", v->line);
	if (ret) {
		free_bufs(bufs);
		return;
	}
	ceph_fields_get(&m, &f);
	if (strcmp(f.syntax, v->syntax) || strcmp(f.name, v->name) ||
	    strcmp(f.fsid, v->fsid) || strcmp(f.fs_name, v->fs_name) ||
	    strcmp(f.path, v->path) || strcmp(f.mons, v->mons) ||
	    strcmp(f.volume_key, v->volume_key))
		fail_msg("ceph.vec line %d: fields differ (name %s fsid %s fs_name %s path %s mons %s key %s)",
			 v->line, f.name, f.fsid, f.fs_name, f.path, f.mons,
			 f.volume_key);
	ceph_fields_free(&f);
	free_bufs(bufs);
}

/* Every vector, as the 6.1 tree parses it: accept with these fields, or
 * refuse for this reason. */
static void test_vectors_kernel(void **state)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kmv_ceph); i++)
		check_vector(&kmv_ceph[i], 0, kmv_ceph[i].kernel);
	assert_true(ARRAY_SIZE(kmv_ceph) > 100);
}

/* Strict mode accepts a vector only if it needs no kernel accident, and
 * then with the same fields; otherwise it names the accident. */
static void test_vectors_strict(void **state)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kmv_ceph); i++)
		check_vector(&kmv_ceph[i], KMC_CEPH_STRICT, kmv_ceph[i].strict);
}

/* Each accepted vector without quirks, written out canonically, parses
 * back (strictly) to the same fields. */
static void test_vectors_roundtrip(void **state)
{
	struct kmc_ceph_mount a, b;
	struct ceph_fields fa, fb;
	char *bufs[2], *bufs2[2], *src, *opts;
	unsigned int i, n = 0;

	for (i = 0; i < ARRAY_SIZE(kmv_ceph); i++) {
		const struct kmv_ceph *v = &kmv_ceph[i];

		if (parse_str(v->source, v->options, KMC_CEPH_STRICT, &a, bufs)) {
			free_bufs(bufs);
			continue;
		}
		ceph_unparse(&a, &src, &opts);
		if (parse_str(src, opts, KMC_CEPH_STRICT, &b, bufs2))
			fail_msg("line %d: '%s' -o '%s' refused: %s", v->line,
				 src, opts, kmc_ceph_reason(b.diag.code));
		ceph_fields_get(&a, &fa);
		ceph_fields_get(&b, &fb);
		if (ceph_fields_diff(&fa, &fb) || a.fscache != b.fscache)
			fail_msg("line %d: %s differs after '%s' -o '%s'",
				 v->line, ceph_fields_diff(&fa, &fb), src, opts);
		ceph_fields_free(&fa);
		ceph_fields_free(&fb);
		free(src);
		free(opts);
		free_bufs(bufs);
		free_bufs(bufs2);
		n++;
	}
	assert_true(n > 30);
}

/* A NUL inside the source or the options is refused, pointing at it. */
static void test_embedded_nul(void **state)
{
	static const char src[] = "1.2.3.4:/a\0b";
	static const char opts[] = "fsc\0";
	struct kmc_ceph_mount m;
	char *bufs[2];

	assert_int_equal(parse(src, sizeof(src) - 1, "", 0, 0, &m, bufs),
			 -EINVAL);
	assert_int_equal(m.diag.code, KMC_CEPH_E_NUL);
	assert_int_equal(m.diag.where.ptr - bufs[0], 10);
	free_bufs(bufs);
	assert_int_equal(parse(src, 9, opts, sizeof(opts) - 1, 0, &m, bufs),
			 -EINVAL);
	assert_int_equal(m.diag.code, KMC_CEPH_E_NUL);
	free_bufs(bufs);
	/* The same bytes without the NUL are fine. */
	assert_int_equal(parse(src, 10, opts, 3, 0, &m, bufs), 0);
	free_bufs(bufs);
}

/* NULL buffers: no source is an empty source; NULL options mean none. */
static void test_null_buffers(void **state)
{
	struct kmc_ceph_mount m;

	assert_int_equal(kmc_ceph_parse(NULL, 0, NULL, 0, 0, &m), -EINVAL);
	assert_int_equal(m.diag.code, KMC_CEPH_E_EMPTY_SOURCE);
	assert_int_equal(kmc_ceph_parse("1.2.3.4:/", 9, NULL, 5, 0, &m),
			 -EINVAL);
	assert_int_equal(kmc_ceph_parse("1.2.3.4:/", 9, NULL, 0, 0, &m), 0);
}

/* ceph_parse_fsid() skips the kernel's punctuation, Latin-1 0xa1-0xbf,
 * 0xd7 and 0xf7 included, but not Latin-1 letters. */
static void test_fsid_latin1_punct(void **state)
{
	static const u8 want[16] = { 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66,
		0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff };
	u8 fsid[16];

	assert_int_equal(kmc_ceph_parse_fsid("\xa1" "0011\xd7" "22\xf7" "33"
					     "\xbf" "445566778899aabbccddeeff",
					     38, fsid), 0);
	assert_memory_equal(fsid, want, 16);
	assert_int_equal(kmc_ceph_parse_fsid("00\xc0" "112233445566778899aabb"
					     "ccddeeff", 35, fsid), -EINVAL);
	assert_int_equal(kmc_ceph_parse_fsid("00\xa0" "112233445566778899aabb"
					     "ccddeeff", 35, fsid), -EINVAL);
}

/* The fsid parse reads up to the length it is given, as the kernel reads
 * up to the NUL: digits past it do not count, a NUL before it ends it. */
static void test_fsid_bounds(void **state)
{
	static const char s[] = "00112233445566778899aabbccddeeff";
	u8 fsid[16];

	assert_int_equal(kmc_ceph_parse_fsid(s, 32, fsid), 0);
	assert_int_equal(kmc_ceph_parse_fsid(s, 31, fsid), -EINVAL);
	assert_int_equal(kmc_ceph_parse_fsid("0011\0" "2233445566778899aabb"
					     "ccddeeff", 33, fsid), -EINVAL);
	/* Only the canonical spelling is canonical. */
	assert_true(kmc_ceph_fsid_canonical("07FE3187-00d9-42a3-814b-72a4d5e7d5be", 36));
	assert_false(kmc_ceph_fsid_canonical(s, 32));
	assert_false(kmc_ceph_fsid_canonical("07fe3187-00d9-42a3-814b-72a4d5e7d5b-", 36));
}

/* canonicalize_path(): repeated and trailing '/' go, in place too. */
static void test_canon_path(void **state)
{
	static const char *const cases[][2] = {
		{ "//dir1////dir2///", "/dir1/dir2" }, { "///", "/" },
		{ "/", "/" }, { "/a", "/a" }, { "/a/", "/a" },
		{ "/./../", "/./.." }, { "//", "/" },
	};
	char buf[32];
	unsigned int i;
	size_t n;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		strcpy(buf, cases[i][0]);
		n = kmc_ceph_canon_path(buf, strlen(buf), buf);
		assert_string_equal(buf, cases[i][1]);
		assert_int_equal(n, strlen(cases[i][1]));
	}
}

/* The canonical path needs path_len + 1 bytes, no more. */
static void test_path_buffer(void **state)
{
	struct kmc_ceph_mount m;
	char buf[8], *bufs[2];

	assert_int_equal(parse_str("1.2.3.4:///a//bc///", NULL, 0, &m, bufs), 0);
	assert_int_equal(m.path_len, 5);
	assert_int_equal(kmc_ceph_path(&m, buf, 5), -ENOSPC);
	assert_int_equal(kmc_ceph_path(&m, buf, 6), 5);
	assert_string_equal(buf, "/a/bc");
	free_bufs(bufs);
	/* No path at all: server_path stays NULL, printed as "". */
	assert_int_equal(parse_str("1.2.3.4:", NULL, 0, &m, bufs), 0);
	assert_null(m.path.ptr);
	assert_int_equal(kmc_ceph_path(&m, buf, 1), 0);
	assert_string_equal(buf, "");
	free_bufs(bufs);
}

/* 31 monitors and a trailing separator: the kernel counts 32 with only 31
 * slots (messenger.c:1319); the core keeps 31 and flags the quirk. */
static void test_mon_trailing_count(void **state)
{
	char src[512] = "", *bufs[2];
	struct kmc_ceph_mount m;
	unsigned int i;

	for (i = 1; i <= 31; i++)
		sprintf(src + strlen(src), "10.0.0.%u,", i);
	strcat(src, ":/");
	assert_int_equal(parse_str(src, NULL, 0, &m, bufs), 0);
	assert_int_equal(m.num_mon, 31);
	assert_true(m.diag.quirks & KMC_CEPH_QUIRK(KMC_CEPH_S_MON_TRAILING));
	assert_ptr_equal(m.diag.quirk_where.ptr, bufs[0] + strlen(src) - 3);
	free_bufs(bufs);
}

/* Hostile input gets one error and touches nothing out of bounds. */
/* Split @src from an exact-size heap copy; the spans point into it. */
static int split(const char *src, struct kmc_ceph_source *out,
		 struct kmc_ceph_diag *d, char **buf)
{
	size_t n = strlen(src);

	*buf = malloc(n ? n : 1);
	assert_non_null(*buf);
	memcpy(*buf, src, n);
	memset(d, 0, sizeof(*d));
	return kmc_ceph_split_source(*buf, n, out, d);
}

static void assert_span(struct kmc_ceph_span sp, const char *want)
{
	assert_non_null(sp.ptr);
	assert_int_equal(sp.len, strlen(want));
	assert_memory_equal(sp.ptr, want, sp.len);
}

/*
 * kmc_ceph_split_source(), what fs/ceph calls: the pieces of either
 * syntax, the old one's monitors left unparsed, and the refusals with the
 * kernel's first message.
 */
static void test_split_source(void **state)
{
	static const char uuid[] = "07fe3187-00d9-42a3-814b-72a4d5e7d5be";
	struct kmc_ceph_source src;
	struct kmc_ceph_diag d;
	char text[128], *buf;

	(void)state;
	snprintf(text, sizeof(text), "admin@%s.cephfs=/a//b/", uuid);
	assert_int_equal(split(text, &src, &d, &buf), 0);
	assert_int_equal(src.syntax, KMC_CEPH_SYNTAX_NEW);
	assert_span(src.name, "admin");
	assert_span(src.fs_name, "cephfs");
	assert_span(src.path, "/a//b/");
	assert_int_equal(src.path_len, strlen("/a/b"));
	assert_null(src.mons.ptr);
	assert_int_equal(src.fsid[0], 0x07);
	assert_int_equal(src.fsid[15], 0xbe);
	free(buf);

	/* Old syntax: the monitors are the caller's to parse. */
	assert_int_equal(split("not-an-ip,[::1]:3300:", &src, &d, &buf), 0);
	assert_int_equal(src.syntax, KMC_CEPH_SYNTAX_OLD);
	assert_span(src.mons, "not-an-ip,[::1]:3300");
	assert_null(src.path.ptr);
	free(buf);

	snprintf(text, sizeof(text), "admin@%.35s.fs=/", uuid);
	assert_int_equal(split(text, &src, &d, &buf), -EINVAL);
	assert_int_equal(d.code, KMC_CEPH_E_BAD_FSID);
	assert_string_equal(kmc_ceph_kernel_msg(d.code), "Invalid FSID");
	assert_span(src.path, "/");
	free(buf);

	assert_int_equal(split("admin=/", &src, &d, &buf), -EINVAL);
	assert_string_equal(kmc_ceph_kernel_msg(d.code),
			    "missing cluster fsid");
	free(buf);
	assert_int_equal(split("1.2.3.4/", &src, &d, &buf), -EINVAL);
	assert_string_equal(kmc_ceph_kernel_msg(d.code),
			    "separator ':' missing in source");
	free(buf);
	assert_int_equal(split("/x", &src, &d, &buf), -EINVAL);
	assert_string_equal(kmc_ceph_kernel_msg(d.code),
			    "Path missing in source");
	free(buf);
}

static void test_hostile(void **state)
{
	static const char fill[] = "/,:[]@.=0-";
	size_t len = 1 << 20, i;
	struct kmc_ceph_mount m;
	char *s = malloc(len), *bufs[2];
	int ret;

	assert_non_null(s);
	for (i = 0; i < sizeof(fill) - 1; i++) {
		memset(s, fill[i], len);
		ret = parse(s, len, s, len, 0, &m, bufs);
		if (fill[i] == '/')	/* a path and nothing else */
			assert_int_equal(m.diag.code, KMC_CEPH_E_PATH_ONLY);
		assert_int_equal(ret, -EINVAL);
		assert_true(m.diag.code != KMC_CEPH_OK);
		if (m.diag.where.ptr)
			assert_true(m.diag.where.ptr >= bufs[0] &&
				    m.diag.where.ptr + m.diag.where.len <=
				    bufs[0] + len);
		free_bufs(bufs);
	}
	/* Behind a valid source, the same runs as options. */
	memcpy(s, "1.2.3.4:/", 9);
	for (i = 0; i < sizeof(fill) - 1; i++) {
		memset(s + 9, fill[i], len - 9);
		ret = parse(s, 9, s + 9, len - 9, 0, &m, bufs);
		assert_true(ret == 0 || ret == -EINVAL);
		if (ret && m.diag.where.ptr)
			assert_true(m.diag.where.ptr >= bufs[1] &&
				    m.diag.where.ptr + m.diag.where.len <=
				    bufs[1] + len - 9);
		free_bufs(bufs);
	}
	free(s);
	assert_int_equal(parse_str("[[[[[[:/", NULL, 0, &m, bufs), -EINVAL);
	assert_int_equal(m.diag.code, KMC_CEPH_E_MON_ADDR);
	free_bufs(bufs);
	assert_int_equal(parse_str("]]]]:/", NULL, 0, &m, bufs), -EINVAL);
	assert_int_equal(m.diag.code, KMC_CEPH_E_MON_ADDR);
	free_bufs(bufs);
}

/* A very long but valid path is accepted and canonicalised. */
static void test_long_path(void **state)
{
	size_t len = 1 << 20;
	struct kmc_ceph_mount m;
	char *s = malloc(len), *bufs[2], *out;

	assert_non_null(s);
	memcpy(s, "1.2.3.4:", 8);
	memset(s + 8, '/', len - 8);
	s[len - 1] = 'x';
	assert_int_equal(parse(s, len, "", 0, 0, &m, bufs), 0);
	assert_int_equal(m.path_len, 2);
	out = malloc(3);
	assert_int_equal(kmc_ceph_path(&m, out, 3), 2);
	assert_string_equal(out, "/x");
	free(out);
	free(s);
	free_bufs(bufs);
}

/* "ceph,%pU" plus ",uniq", and only into a buffer that holds it. */
static void test_volume_key(void **state)
{
	static const u8 fsid[16] = { 0x07, 0xfe, 0x31, 0x87, 0x00, 0xd9, 0x42,
		0xa3, 0x81, 0x4b, 0x72, 0xa4, 0xd5, 0xe7, 0xd5, 0xbe };
	char buf[64];

	assert_int_equal(kmc_ceph_volume_key(fsid, NULL, 0, buf, 42), 41);
	assert_string_equal(buf, "ceph,07fe3187-00d9-42a3-814b-72a4d5e7d5be");
	assert_int_equal(kmc_ceph_volume_key(fsid, NULL, 0, buf, 41), -ENOSPC);
	assert_int_equal(kmc_ceph_volume_key(fsid, "x,y", 3, buf, 46), 45);
	assert_string_equal(buf, "ceph,07fe3187-00d9-42a3-814b-72a4d5e7d5be,x,y");
	assert_int_equal(kmc_ceph_volume_key(fsid, "x,y", 3, buf, 45), -ENOSPC);
}

/* Addresses print as %pI4:port and [%pI6c]:port; small buffers fail. */
static void test_format_addr(void **state)
{
	struct kmc_ceph_addr a = { KMC_CEPH_INET6, { 0 }, 65535 };
	char buf[KMC_CEPH_ADDR_STR_MAX];
	unsigned int i;

	for (i = 0; i < 12; i++)
		a.ip[i] = 0xff;
	for (; i < 16; i++)
		a.ip[i] = 255;
	/* The longest form: eight full words, no dotted tail. */
	assert_int_equal(kmc_ceph_format_addr(&a, buf, sizeof(buf)), 47);
	assert_string_equal(buf, "[ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff]:65535");
	assert_int_equal(kmc_ceph_format_addr(&a, buf, 47), -ENOSPC);
	assert_int_equal(kmc_ceph_format_addr(&a, buf, 48), 47);
	memset(a.ip, 0, 10);
	a.ip[10] = a.ip[11] = 0xff;
	assert_true(kmc_ceph_format_addr(&a, buf, sizeof(buf)) > 0);
	assert_string_equal(buf, "[::ffff:255.255.255.255]:65535");
}

/* Every code has a name and a reason; kernel refusals carry the kernel's
 * message, strict-only codes none. */
static void test_code_texts(void **state)
{
	int c;

	for (c = 0; c < KMC_CEPH_CODE_COUNT; c++) {
		assert_true(strlen(kmc_ceph_reason(c)) > 0);
		assert_true(strlen(kmc_ceph_code_name(c)) > 0);
		if (c == KMC_CEPH_OK || c == KMC_CEPH_E_NUL ||
		    c >= KMC_CEPH_S_FIRST)
			assert_null(kmc_ceph_kernel_msg(c));
		else
			assert_non_null(kmc_ceph_kernel_msg(c));
	}
	assert_string_equal(kmc_ceph_code_name(KMC_CEPH_CODE_COUNT), "?");
	assert_null(kmc_ceph_kernel_msg(KMC_CEPH_CODE_COUNT));
}

/* Strict mode refuses with the first quirk met, and points at it. */
static void test_strict_first_quirk(void **state)
{
	struct kmc_ceph_mount m;
	char *bufs[2];

	assert_int_equal(parse_str("01.2.3.4:0,[5.6.7.8]:/", NULL,
				   KMC_CEPH_STRICT, &m, bufs), -EINVAL);
	assert_int_equal(m.diag.code, KMC_CEPH_S_IPV4_LEADING_ZERO);
	assert_ptr_equal(m.diag.where.ptr, bufs[0]);
	assert_int_equal(m.diag.where.len, 8);
	free_bufs(bufs);
	assert_int_equal(parse_str("01.2.3.4:0,[5.6.7.8]:/", NULL, 0, &m,
				   bufs), 0);
	assert_int_equal(m.diag.quirks,
			 KMC_CEPH_QUIRK(KMC_CEPH_S_IPV4_LEADING_ZERO) |
			 KMC_CEPH_QUIRK(KMC_CEPH_S_PORT_ZERO) |
			 KMC_CEPH_QUIRK(KMC_CEPH_S_IPV4_BRACKETED));
	free_bufs(bufs);
}

/*
 * in4_pton() keeps every digit's class bits in its int, so an octet with
 * many leading zeros overflows it; the kernel wraps (-fno-strict-overflow)
 * and still reads the octet.  Under UBSan the port used to trap here.
 */
static void test_ipv4_leading_zeros_overflow(void **state)
{
	static const u8 v4[4] = { 1, 2, 3, 4 };
	static const u8 v6[16] = { [10] = 0xff, 0xff, 1, 2, 3, 4 };
	struct kmc_ceph_mount m;
	char *bufs[2];

	assert_int_equal(parse_str("00000000000000000001.2.3.4:/", NULL, 0,
				   &m, bufs), 0);
	assert_int_equal(m.num_mon, 1);
	assert_int_equal(m.mon[0].family, KMC_CEPH_INET);
	assert_memory_equal(m.mon[0].ip, v4, sizeof(v4));
	assert_int_equal(m.diag.quirks,
			 KMC_CEPH_QUIRK(KMC_CEPH_S_IPV4_LEADING_ZERO));
	free_bufs(bufs);

	assert_int_equal(parse_str("[::ffff:0000000000000001.2.3.4]:/", NULL,
				   0, &m, bufs), 0);
	assert_int_equal(m.mon[0].family, KMC_CEPH_INET6);
	assert_memory_equal(m.mon[0].ip, v6, sizeof(v6));
	assert_int_equal(m.diag.quirks,
			 KMC_CEPH_QUIRK(KMC_CEPH_S_IPV4_LEADING_ZERO) |
			 KMC_CEPH_QUIRK(KMC_CEPH_S_IPV6_LONG_GROUP));
	free_bufs(bufs);
}

/* Option errors name the key, as the kernel's "... '%s'" messages do. */
static void test_option_key_errors(void **state)
{
	struct kmc_ceph_mount m;
	char *bufs[2];

	assert_int_equal(parse_str("1.2.3.4:/", "ro,bogus=1", 0, &m, bufs),
			 -EINVAL);
	assert_int_equal(m.diag.code, KMC_CEPH_E_UNKNOWN_OPT);
	assert_true(m.diag.where_is_key);
	assert_int_equal(m.diag.where.len, 5);
	assert_memory_equal(m.diag.where.ptr, "bogus", 5);
	free_bufs(bufs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vectors_kernel),
		cmocka_unit_test(test_vectors_strict),
		cmocka_unit_test(test_vectors_roundtrip),
		cmocka_unit_test(test_embedded_nul),
		cmocka_unit_test(test_null_buffers),
		cmocka_unit_test(test_fsid_latin1_punct),
		cmocka_unit_test(test_fsid_bounds),
		cmocka_unit_test(test_canon_path),
		cmocka_unit_test(test_path_buffer),
		cmocka_unit_test(test_mon_trailing_count),
		cmocka_unit_test(test_split_source),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_long_path),
		cmocka_unit_test(test_volume_key),
		cmocka_unit_test(test_format_addr),
		cmocka_unit_test(test_code_texts),
		cmocka_unit_test(test_strict_first_quirk),
		cmocka_unit_test(test_ipv4_leading_zeros_overflow),
		cmocka_unit_test(test_option_key_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
