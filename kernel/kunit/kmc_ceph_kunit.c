// SPDX-License-Identifier: GPL-2.0-only
/*
 * CephFS mount source parsing (kmc_ceph.h), against ceph.vec: a KUnit
 * suite in the kernel, and run by cmocka in userspace (tests/kernel-shim).
 * The printed fields of `kmirror ceph parse` (tests/ceph/ceph_unparse.h)
 * are rebuilt here over test-managed buffers.
 */
#include <kunit/test.h>
#include <linux/ceph/messenger.h>
#include <linux/ceph/ceph_fs.h>
#include <linux/kernel.h>
#include <linux/sizes.h>
#include <linux/string.h>

#include "kmc_ceph.h"
#include "kmc_kunit.h"
#include "kmv_tables.h"

static const struct kmv_ceph *kmv_ceph;
static unsigned int kmv_ceph_n;

/* Each case starts with the rows of ceph.vec. */
static int kmc_ceph_test_init(struct kunit *test)
{
	kmv_ceph = kmv_load(test, &kmv_ceph_table, &kmv_ceph_n);
	return kmv_ceph ? 0 : -EINVAL;
}

/* The source and option buffers a parse result points into. */
struct bufs {
	char *src, *opts;
};

/* Parse exact-size copies: the core may not read past the lengths. */
static int parse(struct kunit *test, const char *src, size_t slen,
		 const char *opts, size_t olen, unsigned int flags,
		 struct kmc_ceph_mount *m, struct bufs *b)
{
	b->src = kmk_exact(test, src, slen);
	b->opts = kmk_exact(test, opts, olen);
	return kmc_ceph_parse(b->src, slen, olen ? b->opts : NULL, olen,
			      flags, m);
}

static int parse_str(struct kunit *test, const char *src, const char *opts,
		     unsigned int flags, struct kmc_ceph_mount *m,
		     struct bufs *b)
{
	return parse(test, src, strlen(src), opts ? opts : "",
		     opts ? strlen(opts) : 0, flags, m, b);
}

static void free_bufs(struct kunit *test, struct bufs *b)
{
	kunit_kfree(test, b->src);
	kunit_kfree(test, b->opts);
}

static struct kmc_ceph_mount *new_mount(struct kunit *test)
{
	struct kmc_ceph_mount *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, m);
	return m;
}

/* A bounded string under construction, test-managed. */
struct sbuf {
	char *p;
	size_t len, size;
};

static void sb_init(struct kunit *test, struct sbuf *sb, size_t size)
{
	sb->p = kunit_kzalloc(test, size + 1, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sb->p);
	sb->len = 0;
	sb->size = size;
}

static void sb_put(struct kunit *test, struct sbuf *sb, const char *s,
		   size_t n)
{
	KUNIT_ASSERT_LE(test, sb->len + n, sb->size);
	if (n)	/* an empty span's pointer may be NULL */
		memcpy(sb->p + sb->len, s, n);
	sb->len += n;
	sb->p[sb->len] = '\0';
}

static void sb_puts(struct kunit *test, struct sbuf *sb, const char *s)
{
	sb_put(test, sb, s, strlen(s));
}

static char *span_dup(struct kunit *test, struct kmc_ceph_span s)
{
	struct sbuf sb;

	sb_init(test, &sb, s.len);
	sb_put(test, &sb, s.ptr, s.len);
	return sb.p;
}

/* The monitors as ip:port, separated by @sep. */
static char *mons_str(struct kunit *test, const struct kmc_ceph_mount *m,
		      const char *sep)
{
	char a[KMC_CEPH_ADDR_STR_MAX];
	struct sbuf sb;
	unsigned int i;

	sb_init(test, &sb, m->num_mon * KMC_CEPH_ADDR_STR_MAX);
	for (i = 0; i < m->num_mon; i++) {
		if (i)
			sb_puts(test, &sb, sep);
		KUNIT_ASSERT_GT(test, kmc_ceph_format_addr(&m->mon[i], a,
							   sizeof(a)), 0);
		sb_puts(test, &sb, a);
	}
	return sb.p;
}

static char *fsid_str(struct kunit *test, const u8 *fsid)
{
	struct sbuf sb;

	sb_init(test, &sb, KMC_CEPH_FSID_STR_LEN);
	if (fsid)
		kmc_ceph_format_fsid(fsid, sb.p);
	return sb.p;
}

/* The canonical path, "" when there is none. */
static char *path_str(struct kunit *test, const struct kmc_ceph_mount *m)
{
	struct sbuf sb;

	sb_init(test, &sb, m->path_len);
	KUNIT_ASSERT_EQ(test, kmc_ceph_path(m, sb.p, m->path_len + 1),
			(int)m->path_len);
	return sb.p;
}

/* The printed fields of a parse result ("" when not set). */
struct fields {
	const char *syntax;
	char *name, *fsid, *fs_name, *path, *mons, *volume_key;
};

static void fields_get(struct kunit *test, const struct kmc_ceph_mount *m,
		       struct fields *f)
{
	const u8 *fsid = kmc_ceph_fsid(m);
	struct sbuf vk;

	f->syntax = m->syntax == KMC_CEPH_SYNTAX_NEW ? "new" :
		    m->syntax == KMC_CEPH_SYNTAX_OLD ? "old" : "";
	f->name = span_dup(test, kmc_ceph_name(m));
	f->fsid = fsid_str(test, fsid);
	f->fs_name = span_dup(test, m->fs_name);
	f->path = path_str(test, m);
	f->mons = mons_str(test, m, ",");
	sb_init(test, &vk, KMC_CEPH_VOLUME_BASE_LEN + m->uniq.len + 1);
	if (fsid)
		KUNIT_ASSERT_GT(test, kmc_ceph_volume_key(fsid, m->uniq.ptr,
							  m->uniq.len, vk.p,
							  vk.size + 1), 0);
	f->volume_key = vk.p;
}

/* The first field that differs, or NULL. */
static const char *fields_diff(const struct fields *a, const struct fields *b)
{
	if (strcmp(a->syntax, b->syntax))
		return "syntax";
	if (strcmp(a->name, b->name))
		return "name";
	if (strcmp(a->fsid, b->fsid))
		return "fsid";
	if (strcmp(a->fs_name, b->fs_name))
		return "fs_name";
	if (strcmp(a->path, b->path))
		return "path";
	if (strcmp(a->mons, b->mons))
		return "mons";
	if (strcmp(a->volume_key, b->volume_key))
		return "volume_key";
	return NULL;
}

/* An accepted vector's fields, each against its column. */
static void check_fields(struct kunit *test, const struct kmv_ceph *v,
			 const struct kmc_ceph_mount *m)
{
	struct fields f;

	fields_get(test, m, &f);
	KUNIT_EXPECT_STREQ_MSG(test, f.syntax, v->syntax,
			       "ceph.vec line %d: syntax", v->line);
	KUNIT_EXPECT_STREQ_MSG(test, f.name, v->name,
			       "ceph.vec line %d: name", v->line);
	KUNIT_EXPECT_STREQ_MSG(test, f.fsid, v->fsid,
			       "ceph.vec line %d: fsid", v->line);
	KUNIT_EXPECT_STREQ_MSG(test, f.fs_name, v->fs_name,
			       "ceph.vec line %d: fs_name", v->line);
	KUNIT_EXPECT_STREQ_MSG(test, f.path, v->path,
			       "ceph.vec line %d: path", v->line);
	KUNIT_EXPECT_STREQ_MSG(test, f.mons, v->mons,
			       "ceph.vec line %d: mons", v->line);
	KUNIT_EXPECT_STREQ_MSG(test, f.volume_key, v->volume_key,
			       "ceph.vec line %d: volume_key", v->line);
}

/* One vector in one mode: the code @want, and the fields if accepted. */
static void check_vector(struct kunit *test, const struct kmv_ceph *v,
			 unsigned int flags, const char *want)
{
	struct kmc_ceph_mount *m = new_mount(test);
	struct bufs b;
	int ret = parse_str(test, v->source, v->options, flags, m, &b);

	KUNIT_EXPECT_STREQ_MSG(test, kmc_ceph_code_name(m->diag.code), want,
			       "ceph.vec line %d (%s)", v->line,
			       flags ? "strict" : "kernel");
	if (ret)
		KUNIT_EXPECT_TRUE_MSG(test, m->diag.code != KMC_CEPH_OK &&
				      *kmc_ceph_reason(m->diag.code),
				      "ceph.vec line %d: no reason", v->line);
	else
		check_fields(test, v, m);
	free_bufs(test, &b);
	kunit_kfree(test, m);
}

/* Every vector, as the 6.1 tree parses it: accepted with these fields, or
 * refused for this reason.
 */
static void test_vectors_kernel(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < kmv_ceph_n; i++)
		check_vector(test, &kmv_ceph[i], 0, kmv_ceph[i].kernel);
	KUNIT_EXPECT_GT(test, kmv_ceph_n, 100);
}

/* Strict mode accepts a vector only if it needs no kernel accident, and
 * then with the same fields; otherwise it names the accident.
 */
static void test_vectors_strict(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < kmv_ceph_n; i++)
		check_vector(test, &kmv_ceph[i], KMC_CEPH_STRICT,
			     kmv_ceph[i].strict);
}

/* The new syntax's source: name@fsid.fs_name= (the path comes after). */
static void unparse_new(struct kunit *test, const struct kmc_ceph_mount *m,
			struct sbuf *src, struct sbuf *opts)
{
	sb_put(test, src, m->src_name.ptr, m->src_name.len);
	sb_puts(test, src, "@");
	sb_puts(test, src, fsid_str(test, m->src_fsid));
	sb_puts(test, src, ".");
	sb_put(test, src, m->fs_name.ptr, m->fs_name.len);
	sb_puts(test, src, "=");
	sb_puts(test, opts, "mon_addr=");
	sb_puts(test, opts, mons_str(test, m, "/"));
}

/* The old syntax's source: mon,mon: (and the fs name as an option). */
static void unparse_old(struct kunit *test, const struct kmc_ceph_mount *m,
			struct sbuf *src, struct sbuf *opts)
{
	sb_puts(test, src, mons_str(test, m, ","));
	sb_puts(test, src, ":");
	if (m->fs_name.ptr) {
		sb_puts(test, opts, ",mds_namespace=");
		sb_put(test, opts, m->fs_name.ptr, m->fs_name.len);
	}
}

/*
 * A canonical source and option string for @m: the fsid as %pU, the path
 * canonical, every monitor as ip:port, name= only if it was given.
 */
static void unparse(struct kunit *test, const struct kmc_ceph_mount *m,
		    struct sbuf *src, struct sbuf *opts)
{
	size_t size = m->src_name.len + m->opt_name.len + m->fs_name.len +
		      m->path_len + m->uniq.len + 2 * KMC_CEPH_FSID_STR_LEN +
		      m->num_mon * KMC_CEPH_ADDR_STR_MAX + 64;

	sb_init(test, src, size);
	sb_init(test, opts, size);
	if (m->syntax == KMC_CEPH_SYNTAX_NEW)
		unparse_new(test, m, src, opts);
	else
		unparse_old(test, m, src, opts);
	sb_puts(test, src, path_str(test, m));
	if (m->opt_name.ptr) {
		sb_puts(test, opts, ",name=");
		sb_put(test, opts, m->opt_name.ptr, m->opt_name.len);
	}
	if (m->have_opt_fsid) {
		sb_puts(test, opts, ",fsid=");
		sb_puts(test, opts, fsid_str(test, m->opt_fsid));
	}
	if (m->fscache)
		sb_puts(test, opts, m->uniq.ptr ? ",fsc=" : ",fsc");
	if (m->uniq.ptr)
		sb_put(test, opts, m->uniq.ptr, m->uniq.len);
}

/* A strictly accepted vector, written out canonically, parses back. */
static bool roundtrip_one(struct kunit *test, const struct kmv_ceph *v,
			  struct kmc_ceph_mount *a, struct kmc_ceph_mount *b)
{
	struct bufs ba, bb;
	struct fields fa, fb;
	struct sbuf src, opts;
	bool done = false;

	if (parse_str(test, v->source, v->options, KMC_CEPH_STRICT, a, &ba))
		goto out;
	unparse(test, a, &src, &opts);
	done = true;
	if (parse_str(test, src.p, opts.p, KMC_CEPH_STRICT, b, &bb)) {
		KUNIT_FAIL(test, "ceph.vec line %d: '%s' -o '%s' refused: %s",
			   v->line, src.p, opts.p,
			   kmc_ceph_reason(b->diag.code));
		goto out_b;
	}
	fields_get(test, a, &fa);
	fields_get(test, b, &fb);
	KUNIT_EXPECT_NULL_MSG(test, fields_diff(&fa, &fb),
			      "ceph.vec line %d: differs after '%s' -o '%s'",
			      v->line, src.p, opts.p);
	KUNIT_EXPECT_EQ_MSG(test, a->fscache, b->fscache,
			    "ceph.vec line %d: fscache", v->line);
out_b:
	free_bufs(test, &bb);
out:
	free_bufs(test, &ba);
	return done;
}

/* Each accepted vector without quirks, written out canonically, parses
 * back (strictly) to the same fields.
 */
static void test_vectors_roundtrip(struct kunit *test)
{
	struct kmc_ceph_mount *a = new_mount(test), *b = new_mount(test);
	unsigned int i, n = 0;

	for (i = 0; i < kmv_ceph_n; i++)
		n += roundtrip_one(test, &kmv_ceph[i], a, b);
	KUNIT_EXPECT_GT(test, n, 30);
}

/* A NUL inside the source or the options is refused, pointing at it. */
static void test_embedded_nul(struct kunit *test)
{
	static const char src[] = "1.2.3.4:/a\0b";
	static const char opts[] = "fsc\0";
	struct kmc_ceph_mount *m = new_mount(test);
	struct bufs b;

	KUNIT_EXPECT_EQ(test, parse(test, src, sizeof(src) - 1, "", 0, 0, m,
				    &b), -EINVAL);
	KUNIT_EXPECT_EQ(test, m->diag.code, KMC_CEPH_E_NUL);
	KUNIT_EXPECT_EQ(test, m->diag.where.ptr - b.src, 10);
	free_bufs(test, &b);
	KUNIT_EXPECT_EQ(test, parse(test, src, 9, opts, sizeof(opts) - 1, 0,
				    m, &b), -EINVAL);
	KUNIT_EXPECT_EQ(test, m->diag.code, KMC_CEPH_E_NUL);
	free_bufs(test, &b);
	/* The same bytes without the NUL are fine. */
	KUNIT_EXPECT_EQ(test, parse(test, src, 10, opts, 3, 0, m, &b), 0);
	free_bufs(test, &b);
}

/* NULL buffers: no source is an empty source; NULL options mean none. */
static void test_null_buffers(struct kunit *test)
{
	struct kmc_ceph_mount *m = new_mount(test);

	KUNIT_EXPECT_EQ(test, kmc_ceph_parse(NULL, 0, NULL, 0, 0, m), -EINVAL);
	KUNIT_EXPECT_EQ(test, m->diag.code, KMC_CEPH_E_EMPTY_SOURCE);
	KUNIT_EXPECT_EQ(test, kmc_ceph_parse("1.2.3.4:/", 9, NULL, 5, 0, m),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, kmc_ceph_parse("1.2.3.4:/", 9, NULL, 0, 0, m),
			0);
}

/* ceph_parse_fsid() skips the kernel's punctuation, Latin-1 0xa1-0xbf,
 * 0xd7 and 0xf7 included, but not Latin-1 letters.
 */
static void test_fsid_latin1_punct(struct kunit *test)
{
	static const u8 want[16] = { 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66,
		0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff };
	static const char punct[] =
		"\2410011\32722\36733\277445566778899aabbccddeeff";
	static const char letter[] = "00\300112233445566778899aabbccddeeff";
	static const char nbsp[] = "00\240112233445566778899aabbccddeeff";
	u8 fsid[16];

	KUNIT_ASSERT_EQ(test, kmc_ceph_parse_fsid(punct, sizeof(punct) - 1,
						  fsid), 0);
	KUNIT_EXPECT_EQ(test, memcmp(fsid, want, 16), 0);
	KUNIT_EXPECT_EQ(test, kmc_ceph_parse_fsid(letter, sizeof(letter) - 1,
						  fsid), -EINVAL);
	KUNIT_EXPECT_EQ(test, kmc_ceph_parse_fsid(nbsp, sizeof(nbsp) - 1,
						  fsid), -EINVAL);
}

/* The fsid parse reads up to the length it is given, as the kernel reads
 * up to the NUL: digits past it do not count, a NUL before it ends it.
 */
static void test_fsid_bounds(struct kunit *test)
{
	static const char s[] = "00112233445566778899aabbccddeeff";
	static const char nul[] = "0011\0002233445566778899aabbccddeeff";
	static const char canon[] = "07FE3187-00d9-42a3-814b-72a4d5e7d5be";
	static const char bad[] = "07fe3187-00d9-42a3-814b-72a4d5e7d5b-";
	u8 fsid[16];

	KUNIT_EXPECT_EQ(test, kmc_ceph_parse_fsid(s, 32, fsid), 0);
	KUNIT_EXPECT_EQ(test, kmc_ceph_parse_fsid(s, 31, fsid), -EINVAL);
	KUNIT_EXPECT_EQ(test, kmc_ceph_parse_fsid(nul, sizeof(nul) - 1, fsid),
			-EINVAL);
	/* Only the canonical spelling is canonical. */
	KUNIT_EXPECT_TRUE(test, kmc_ceph_fsid_canonical(canon, 36));
	KUNIT_EXPECT_FALSE(test, kmc_ceph_fsid_canonical(s, 32));
	KUNIT_EXPECT_FALSE(test, kmc_ceph_fsid_canonical(bad, 36));
}

/* canonicalize_path(): repeated and trailing '/' go, in place too. */
static void test_canon_path(struct kunit *test)
{
	static const char *const cases[][2] = {
		{ "//dir1////dir2///", "/dir1/dir2" }, { "///", "/" },
		{ "/", "/" }, { "/a", "/a" }, { "/a/", "/a" },
		{ "/./../", "/./.." }, { "//", "/" },
	};
	unsigned int i;
	char buf[32];
	size_t n;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		strscpy(buf, cases[i][0], sizeof(buf));
		n = kmc_ceph_canon_path(buf, strlen(buf), buf);
		KUNIT_EXPECT_STREQ(test, buf, cases[i][1]);
		KUNIT_EXPECT_EQ(test, n, strlen(cases[i][1]));
	}
}

/* The canonical path needs path_len + 1 bytes, no more. */
static void test_path_buffer(struct kunit *test)
{
	struct kmc_ceph_mount *m = new_mount(test);
	struct bufs b;
	char buf[8];

	KUNIT_ASSERT_EQ(test, parse_str(test, "1.2.3.4:///a//bc///", NULL, 0,
					m, &b), 0);
	KUNIT_EXPECT_EQ(test, m->path_len, 5);
	KUNIT_EXPECT_EQ(test, kmc_ceph_path(m, buf, 5), -ENOSPC);
	KUNIT_EXPECT_EQ(test, kmc_ceph_path(m, buf, 6), 5);
	KUNIT_EXPECT_STREQ(test, buf, "/a/bc");
	free_bufs(test, &b);
	/* No path at all: server_path stays NULL, printed as "". */
	KUNIT_ASSERT_EQ(test, parse_str(test, "1.2.3.4:", NULL, 0, m, &b), 0);
	KUNIT_EXPECT_NULL(test, m->path.ptr);
	KUNIT_EXPECT_EQ(test, kmc_ceph_path(m, buf, 1), 0);
	KUNIT_EXPECT_STREQ(test, buf, "");
	free_bufs(test, &b);
}

/* 31 monitors and a trailing separator: the kernel counts 32 with only 31
 * slots (messenger.c:1319); the core keeps 31 and flags the quirk.
 */
static void test_mon_trailing_count(struct kunit *test)
{
	struct kmc_ceph_mount *m = new_mount(test);
	size_t len = 0;
	char src[512];
	unsigned int i;
	struct bufs b;

	for (i = 1; i <= 31; i++)
		len += scnprintf(src + len, sizeof(src) - len, "10.0.0.%u,",
				 i);
	len += scnprintf(src + len, sizeof(src) - len, ":/");
	KUNIT_ASSERT_EQ(test, parse_str(test, src, NULL, 0, m, &b), 0);
	KUNIT_EXPECT_EQ(test, m->num_mon, 31);
	KUNIT_EXPECT_TRUE(test, m->diag.quirks &
			  KMC_CEPH_QUIRK(KMC_CEPH_S_MON_TRAILING));
	KUNIT_EXPECT_PTR_EQ(test, m->diag.quirk_where.ptr,
			    (const char *)b.src + len - 3);
	free_bufs(test, &b);
}

/* Split @src from an exact-size copy; the spans point into *@buf. */
static int split(struct kunit *test, const char *src,
		 struct kmc_ceph_source *out, struct kmc_ceph_diag *d,
		 char **buf)
{
	size_t n = strlen(src);

	*buf = kmk_exact(test, src, n);
	memset(d, 0, sizeof(*d));
	return kmc_ceph_split_source(*buf, n, out, d);
}

/* @sp is set and holds exactly @want. */
static void expect_span(struct kunit *test, struct kmc_ceph_span sp,
			const char *want)
{
	KUNIT_ASSERT_NOT_NULL_MSG(test, sp.ptr, "want '%s'", want);
	KUNIT_ASSERT_EQ_MSG(test, sp.len, strlen(want), "want '%s'", want);
	KUNIT_EXPECT_EQ_MSG(test, memcmp(sp.ptr, want, sp.len), 0,
			    "want '%s'", want);
}

/*
 * kmc_ceph_split_source(), what fs/ceph calls: the pieces of either
 * syntax, the old one's monitors left unparsed, and the refusals with the
 * kernel's first message.
 */
static void test_split_source(struct kunit *test)
{
	static const char uuid[] = "07fe3187-00d9-42a3-814b-72a4d5e7d5be";
	struct kmc_ceph_source src;
	struct kmc_ceph_diag d;
	char text[128], *buf;

	snprintf(text, sizeof(text), "admin@%s.cephfs=/a//b/", uuid);
	KUNIT_ASSERT_EQ(test, split(test, text, &src, &d, &buf), 0);
	KUNIT_EXPECT_EQ(test, src.syntax, KMC_CEPH_SYNTAX_NEW);
	expect_span(test, src.name, "admin");
	expect_span(test, src.fs_name, "cephfs");
	expect_span(test, src.path, "/a//b/");
	KUNIT_EXPECT_EQ(test, src.path_len, strlen("/a/b"));
	KUNIT_EXPECT_NULL(test, src.mons.ptr);
	KUNIT_EXPECT_EQ(test, src.fsid[0], 0x07);
	KUNIT_EXPECT_EQ(test, src.fsid[15], 0xbe);
	kunit_kfree(test, buf);

	/* Old syntax: the monitors are the caller's to parse. */
	KUNIT_ASSERT_EQ(test, split(test, "not-an-ip,[::1]:3300:", &src, &d,
				    &buf), 0);
	KUNIT_EXPECT_EQ(test, src.syntax, KMC_CEPH_SYNTAX_OLD);
	expect_span(test, src.mons, "not-an-ip,[::1]:3300");
	KUNIT_EXPECT_NULL(test, src.path.ptr);
	kunit_kfree(test, buf);

	/* An fsid one digit short: refused, the path still found. */
	snprintf(text, sizeof(text), "admin@%.35s.fs=/", uuid);
	KUNIT_EXPECT_EQ(test, split(test, text, &src, &d, &buf), -EINVAL);
	KUNIT_EXPECT_EQ(test, d.code, KMC_CEPH_E_BAD_FSID);
	KUNIT_EXPECT_STREQ(test, kmc_ceph_kernel_msg(d.code), "Invalid FSID");
	expect_span(test, src.path, "/");
	kunit_kfree(test, buf);

	KUNIT_EXPECT_EQ(test, split(test, "admin=/", &src, &d, &buf), -EINVAL);
	KUNIT_EXPECT_STREQ(test, kmc_ceph_kernel_msg(d.code),
			   "missing cluster fsid");
	kunit_kfree(test, buf);
	KUNIT_EXPECT_EQ(test, split(test, "1.2.3.4/", &src, &d, &buf),
			-EINVAL);
	KUNIT_EXPECT_STREQ(test, kmc_ceph_kernel_msg(d.code),
			   "separator ':' missing in source");
	kunit_kfree(test, buf);
	KUNIT_EXPECT_EQ(test, split(test, "/x", &src, &d, &buf), -EINVAL);
	KUNIT_EXPECT_STREQ(test, kmc_ceph_kernel_msg(d.code),
			   "Path missing in source");
	kunit_kfree(test, buf);
}

/* libceph does not export ceph_parse_ips(): only a built-in suite calls it. */
#if IS_BUILTIN(CONFIG_CEPH_LIB) && !defined(MODULE)
/*
 * The same list through libceph's ceph_parse_ips(), as ceph_parse_mon_ips()
 * calls it: the 6.1 loop said 32 for an array of CEPH_MAX_MON, and
 * build_initial_monmap() read the 32nd from past its end.  The series'
 * first patch counts CEPH_MAX_MON; one address more is refused.
 */
static void ceph_parse_ips_mon_trailing_no_overrun(struct kunit *test)
{
	struct ceph_entity_addr *addr;
	size_t len = 0;
	char src[512];
	unsigned int i;
	int count = -1;

	addr = kunit_kcalloc(test, CEPH_MAX_MON, sizeof(*addr), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, addr);
	for (i = 1; i <= CEPH_MAX_MON; i++)
		len += scnprintf(src + len, sizeof(src) - len, "10.0.0.%u,",
				 i);
	KUNIT_ASSERT_EQ(test, ceph_parse_ips(src, src + len, addr,
					     CEPH_MAX_MON, &count, ','), 0);
	KUNIT_EXPECT_EQ(test, count, CEPH_MAX_MON);
	len += scnprintf(src + len, sizeof(src) - len, "10.0.0.32");
	KUNIT_EXPECT_EQ(test, ceph_parse_ips(src, src + len, addr,
					     CEPH_MAX_MON, &count, ','),
			-EINVAL);
}
#endif

#define HOSTILE_LEN	SZ_1M

/* A run of one byte as the source: one error, nothing out of bounds. */
static void hostile_source(struct kunit *test, char *s, char fill,
			   struct kmc_ceph_mount *m)
{
	struct bufs b;
	int ret;

	memset(s, fill, HOSTILE_LEN);
	ret = parse(test, s, HOSTILE_LEN, s, HOSTILE_LEN, 0, m, &b);
	if (fill == '/')	/* a path and nothing else */
		KUNIT_EXPECT_EQ(test, m->diag.code, KMC_CEPH_E_PATH_ONLY);
	KUNIT_EXPECT_EQ_MSG(test, ret, -EINVAL, "fill '%c'", fill);
	KUNIT_EXPECT_NE_MSG(test, m->diag.code, KMC_CEPH_OK, "fill '%c'",
			    fill);
	if (m->diag.where.ptr)
		KUNIT_EXPECT_TRUE_MSG(test, m->diag.where.ptr >= b.src &&
				      m->diag.where.ptr + m->diag.where.len <=
				      b.src + HOSTILE_LEN, "fill '%c'", fill);
	free_bufs(test, &b);
}

/* The same run as options behind a valid source. */
static void hostile_options(struct kunit *test, char *s, char fill,
			    struct kmc_ceph_mount *m)
{
	struct bufs b;
	int ret;

	memcpy(s, "1.2.3.4:/", 9);
	memset(s + 9, fill, HOSTILE_LEN - 9);
	ret = parse(test, s, 9, s + 9, HOSTILE_LEN - 9, 0, m, &b);
	KUNIT_EXPECT_TRUE_MSG(test, ret == 0 || ret == -EINVAL, "fill '%c'",
			      fill);
	if (ret && m->diag.where.ptr)
		KUNIT_EXPECT_TRUE_MSG(test, m->diag.where.ptr >= b.opts &&
				      m->diag.where.ptr + m->diag.where.len <=
				      b.opts + HOSTILE_LEN - 9, "fill '%c'",
				      fill);
	free_bufs(test, &b);
}

/* Hostile input gets one error and touches nothing out of bounds. */
static void test_hostile(struct kunit *test)
{
	static const char fill[] = "/,:[]@.=0-";
	struct kmc_ceph_mount *m = new_mount(test);
	char *s = kunit_kmalloc(test, HOSTILE_LEN, GFP_KERNEL);
	struct bufs b;
	size_t i;

	KUNIT_ASSERT_NOT_NULL(test, s);
	for (i = 0; i < sizeof(fill) - 1; i++)
		hostile_source(test, s, fill[i], m);
	for (i = 0; i < sizeof(fill) - 1; i++)
		hostile_options(test, s, fill[i], m);
	kunit_kfree(test, s);
	KUNIT_EXPECT_EQ(test, parse_str(test, "[[[[[[:/", NULL, 0, m, &b),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, m->diag.code, KMC_CEPH_E_MON_ADDR);
	free_bufs(test, &b);
	KUNIT_EXPECT_EQ(test, parse_str(test, "]]]]:/", NULL, 0, m, &b),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, m->diag.code, KMC_CEPH_E_MON_ADDR);
	free_bufs(test, &b);
}

/* A very long but valid path is accepted and canonicalised. */
static void test_long_path(struct kunit *test)
{
	struct kmc_ceph_mount *m = new_mount(test);
	char *s = kunit_kmalloc(test, HOSTILE_LEN, GFP_KERNEL);
	struct bufs b;
	char out[3];

	KUNIT_ASSERT_NOT_NULL(test, s);
	memcpy(s, "1.2.3.4:", 8);
	memset(s + 8, '/', HOSTILE_LEN - 8);
	s[HOSTILE_LEN - 1] = 'x';
	KUNIT_ASSERT_EQ(test, parse(test, s, HOSTILE_LEN, "", 0, 0, m, &b), 0);
	KUNIT_EXPECT_EQ(test, m->path_len, 2);
	KUNIT_EXPECT_EQ(test, kmc_ceph_path(m, out, 3), 2);
	KUNIT_EXPECT_STREQ(test, out, "/x");
	free_bufs(test, &b);
	kunit_kfree(test, s);
}

/* "ceph,%pU" plus ",uniq", and only into a buffer that holds it. */
static void test_volume_key(struct kunit *test)
{
	static const u8 fsid[16] = { 0x07, 0xfe, 0x31, 0x87, 0x00, 0xd9, 0x42,
		0xa3, 0x81, 0x4b, 0x72, 0xa4, 0xd5, 0xe7, 0xd5, 0xbe };
	char buf[64];

	KUNIT_EXPECT_EQ(test, kmc_ceph_volume_key(fsid, NULL, 0, buf, 42), 41);
	KUNIT_EXPECT_STREQ(test, buf,
			   "ceph,07fe3187-00d9-42a3-814b-72a4d5e7d5be");
	KUNIT_EXPECT_EQ(test, kmc_ceph_volume_key(fsid, NULL, 0, buf, 41),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, kmc_ceph_volume_key(fsid, "x,y", 3, buf, 46),
			45);
	KUNIT_EXPECT_STREQ(test, buf,
			   "ceph,07fe3187-00d9-42a3-814b-72a4d5e7d5be,x,y");
	KUNIT_EXPECT_EQ(test, kmc_ceph_volume_key(fsid, "x,y", 3, buf, 45),
			-ENOSPC);
}

/* Addresses print as %pI4:port and [%pI6c]:port; small buffers fail. */
static void test_format_addr(struct kunit *test)
{
	struct kmc_ceph_addr a = { KMC_CEPH_INET6, { 0 }, 65535 };
	char buf[KMC_CEPH_ADDR_STR_MAX];

	memset(a.ip, 0xff, sizeof(a.ip));
	/* The longest form: eight full words, no dotted tail. */
	KUNIT_EXPECT_EQ(test, kmc_ceph_format_addr(&a, buf, sizeof(buf)), 47);
	KUNIT_EXPECT_STREQ(test, buf,
			   "[ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff]:65535");
	KUNIT_EXPECT_EQ(test, kmc_ceph_format_addr(&a, buf, 47), -ENOSPC);
	KUNIT_EXPECT_EQ(test, kmc_ceph_format_addr(&a, buf, 48), 47);
	memset(a.ip, 0, 10);
	KUNIT_EXPECT_GT(test, kmc_ceph_format_addr(&a, buf, sizeof(buf)), 0);
	KUNIT_EXPECT_STREQ(test, buf, "[::ffff:255.255.255.255]:65535");
}

/* Every code has a name and a reason; kernel refusals carry the kernel's
 * message, strict-only codes none.
 */
static void test_code_texts(struct kunit *test)
{
	int c;

	for (c = 0; c < KMC_CEPH_CODE_COUNT; c++) {
		KUNIT_EXPECT_GT_MSG(test, strlen(kmc_ceph_reason(c)), 0,
				    "code %d", c);
		KUNIT_EXPECT_GT_MSG(test, strlen(kmc_ceph_code_name(c)), 0,
				    "code %d", c);
		if (c == KMC_CEPH_OK || c == KMC_CEPH_E_NUL ||
		    c >= KMC_CEPH_S_FIRST)
			KUNIT_EXPECT_NULL_MSG(test, kmc_ceph_kernel_msg(c),
					      "code %d", c);
		else
			KUNIT_EXPECT_NOT_NULL_MSG(test, kmc_ceph_kernel_msg(c),
						  "code %d", c);
	}
	KUNIT_EXPECT_STREQ(test, kmc_ceph_code_name(KMC_CEPH_CODE_COUNT), "?");
	KUNIT_EXPECT_NULL(test, kmc_ceph_kernel_msg(KMC_CEPH_CODE_COUNT));
}

/* Strict mode refuses with the first quirk met, and points at it. */
static void test_strict_first_quirk(struct kunit *test)
{
	static const char src[] = "01.2.3.4:0,[5.6.7.8]:/";
	struct kmc_ceph_mount *m = new_mount(test);
	struct bufs b;

	KUNIT_EXPECT_EQ(test, parse_str(test, src, NULL, KMC_CEPH_STRICT, m,
					&b), -EINVAL);
	KUNIT_EXPECT_EQ(test, m->diag.code, KMC_CEPH_S_IPV4_LEADING_ZERO);
	KUNIT_EXPECT_PTR_EQ(test, m->diag.where.ptr, (const char *)b.src);
	KUNIT_EXPECT_EQ(test, m->diag.where.len, 8);
	free_bufs(test, &b);
	KUNIT_EXPECT_EQ(test, parse_str(test, src, NULL, 0, m, &b), 0);
	KUNIT_EXPECT_EQ(test, m->diag.quirks,
			KMC_CEPH_QUIRK(KMC_CEPH_S_IPV4_LEADING_ZERO) |
			KMC_CEPH_QUIRK(KMC_CEPH_S_PORT_ZERO) |
			KMC_CEPH_QUIRK(KMC_CEPH_S_IPV4_BRACKETED));
	free_bufs(test, &b);
}

/*
 * in4_pton() keeps every digit's class bits in its int, so an octet with
 * many leading zeros overflows it; the kernel wraps (-fno-strict-overflow)
 * and still reads the octet.  Under UBSan the port used to trap here.
 */
static void test_ipv4_leading_zeros_overflow(struct kunit *test)
{
	static const u8 v4[4] = { 1, 2, 3, 4 };
	static const u8 v6[16] = { [10] = 0xff, 0xff, 1, 2, 3, 4 };
	struct kmc_ceph_mount *m = new_mount(test);
	struct bufs b;

	KUNIT_ASSERT_EQ(test, parse_str(test, "00000000000000000001.2.3.4:/",
					NULL, 0, m, &b), 0);
	KUNIT_EXPECT_EQ(test, m->num_mon, 1);
	KUNIT_EXPECT_EQ(test, m->mon[0].family, KMC_CEPH_INET);
	KUNIT_EXPECT_EQ(test, memcmp(m->mon[0].ip, v4, sizeof(v4)), 0);
	KUNIT_EXPECT_EQ(test, m->diag.quirks,
			KMC_CEPH_QUIRK(KMC_CEPH_S_IPV4_LEADING_ZERO));
	free_bufs(test, &b);

	KUNIT_ASSERT_EQ(test, parse_str(test,
					"[::ffff:0000000000000001.2.3.4]:/",
					NULL, 0, m, &b), 0);
	KUNIT_EXPECT_EQ(test, m->mon[0].family, KMC_CEPH_INET6);
	KUNIT_EXPECT_EQ(test, memcmp(m->mon[0].ip, v6, sizeof(v6)), 0);
	KUNIT_EXPECT_EQ(test, m->diag.quirks,
			KMC_CEPH_QUIRK(KMC_CEPH_S_IPV4_LEADING_ZERO) |
			KMC_CEPH_QUIRK(KMC_CEPH_S_IPV6_LONG_GROUP));
	free_bufs(test, &b);
}

/* Option errors name the key, as the kernel's "... '%s'" messages do. */
static void test_option_key_errors(struct kunit *test)
{
	struct kmc_ceph_mount *m = new_mount(test);
	struct bufs b;

	KUNIT_EXPECT_EQ(test, parse_str(test, "1.2.3.4:/", "ro,bogus=1", 0, m,
					&b), -EINVAL);
	KUNIT_EXPECT_EQ(test, m->diag.code, KMC_CEPH_E_UNKNOWN_OPT);
	KUNIT_EXPECT_TRUE(test, m->diag.where_is_key);
	KUNIT_ASSERT_EQ(test, m->diag.where.len, 5);
	KUNIT_EXPECT_EQ(test, memcmp(m->diag.where.ptr, "bogus", 5), 0);
	free_bufs(test, &b);
}

static struct kunit_case kmc_ceph_cases[] = {
	KUNIT_CASE(test_vectors_kernel),
	KUNIT_CASE(test_vectors_strict),
	KUNIT_CASE(test_vectors_roundtrip),
	KUNIT_CASE(test_embedded_nul),
	KUNIT_CASE(test_null_buffers),
	KUNIT_CASE(test_fsid_latin1_punct),
	KUNIT_CASE(test_fsid_bounds),
	KUNIT_CASE(test_canon_path),
	KUNIT_CASE(test_path_buffer),
	KUNIT_CASE(test_mon_trailing_count),
	KUNIT_CASE(test_split_source),
#if IS_BUILTIN(CONFIG_CEPH_LIB) && !defined(MODULE)
	KUNIT_CASE(ceph_parse_ips_mon_trailing_no_overrun),
#endif
	KUNIT_CASE(test_hostile),
	KUNIT_CASE(test_long_path),
	KUNIT_CASE(test_volume_key),
	KUNIT_CASE(test_format_addr),
	KUNIT_CASE(test_code_texts),
	KUNIT_CASE(test_strict_first_quirk),
	KUNIT_CASE(test_ipv4_leading_zeros_overflow),
	KUNIT_CASE(test_option_key_errors),
	{}
};

static struct kunit_suite kmc_ceph_suite = {
	.name = "kmc_ceph",
	.init = kmc_ceph_test_init,
	.test_cases = kmc_ceph_cases,
};

kunit_test_suite(kmc_ceph_suite);
