// SPDX-License-Identifier: GPL-2.0-only
/*
 * Differential test: kmc_ceph_parse() against the 6.1 tree's own parsing
 * code (kernel_ceph.c) on random sources and option strings.
 *
 *   diff_ceph [-n COUNT] [-s SEED]
 *   diff_ceph -V
 *
 * Both must accept and refuse the same inputs; a refusal must carry the
 * message the kernel logs first; an acceptance must give the same syntax,
 * name, fs_name, path, fsids, fscache settings, monitors (bytes, ports and
 * ceph_pr_addr()'s text) and volume key.  Strict mode must accept only
 * what the kernel accepts, with the same fields and no quirk, and refuse
 * the rest with the first quirk.  The seed is printed; -s replays it.
 *
 * -V replays tests/vectors/ceph.vec through the tree's code instead: the
 * kernel column and every field of the vectors must be the tree's.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ceph_gen.h"
#include "kernel_ceph.h"
#include "kmc_ceph.h"
#include "kmv_tables.h"

static const char *cur_src, *cur_opts;
static unsigned long mismatches;
static unsigned long codes[KMC_CEPH_CODE_COUNT];

static void show(const char *what, const char *s)
{
	fprintf(stderr, "  %s: ", what);
	if (!s) {
		fputs("(none)\n", stderr);
		return;
	}
	fputc('"', stderr);
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e ||
		    *s == '"' || *s == '\\')
			fprintf(stderr, "\\x%02x", (unsigned char)*s);
		else
			fputc(*s, stderr);
	fputs("\"\n", stderr);
}

static int mismatch(const char *fmt, const char *a, const char *b)
{
	if (++mismatches <= 20) {
		fprintf(stderr, "MISMATCH: %s\n", fmt);
		show("source", cur_src);
		show("options", cur_opts);
		show("core", a);
		show("kernel", b);
	}
	return 1;
}

/* A span as a C string in @buf (at most @size - 1 bytes), or NULL. */
static const char *cstr(struct kmc_ceph_span s, char *buf, size_t size)
{
	if (!s.ptr)
		return NULL;
	if (s.len >= size)
		s.len = size - 1;
	memcpy(buf, s.ptr, s.len);
	buf[s.len] = '\0';
	return buf;
}

static int same_str(const char *what, struct kmc_ceph_span s, const char *k)
{
	static char buf[8192];
	const char *c = cstr(s, buf, sizeof(buf));

	if (!c != !k || (c && strcmp(c, k)))
		return mismatch(what, c, k);
	return 0;
}

/* The refusal: what the kernel logged first. */
static int same_error(const struct kmc_ceph_mount *m,
		      const struct kceph_result *k)
{
	const char *kmsg = kmc_ceph_kernel_msg(m->diag.code);
	char want[8192], key[4096];
	size_t n;

	if (!kmsg)
		return mismatch("core refused with a strict-only code",
				kmc_ceph_code_name(m->diag.code), k->err);
	if (m->diag.where_is_key) {
		snprintf(want, sizeof(want), "%s '%s'", kmsg,
			 cstr(m->diag.where, key, sizeof(key)));
		kmsg = want;
	}
	/* The kernel's log line is cut like logfc()'s buffer here. */
	n = sizeof(k->err) - 1;
	if (m->diag.code == KMC_CEPH_E_VOLUME_KEY)
		n = strlen(kmsg);
	else if (strlen(kmsg) < n)
		n = strlen(kmsg) + 1;
	if (strncmp(k->err, kmsg, n))
		return mismatch("first error message", kmsg, k->err);
	return 0;
}

static int same_mon(const struct kmc_ceph_addr *a, const struct kceph_mon *k)
{
	char s[KMC_CEPH_ADDR_STR_MAX];

	kmc_ceph_format_addr(a, s, sizeof(s));
	if (a->family != k->family || a->port != k->port ||
	    memcmp(a->ip, k->ip, a->family == KMC_CEPH_INET ? 4 : 16) ||
	    strcmp(s, k->str))
		return mismatch("monitor", s, k->str);
	return 0;
}

static int same_mons(const struct kmc_ceph_mount *m,
		     const struct kceph_result *k)
{
	unsigned int i, n = k->num_mon;
	char a[16], b[16];

	/* messenger.c:1319 counts 32 for 31 monitors and a separator. */
	if (n == KMC_CEPH_MAX_MON + 1 &&
	    (m->diag.quirks & KMC_CEPH_QUIRK(KMC_CEPH_S_MON_TRAILING)))
		n--;
	if (n != m->num_mon || m->mon_from_opt != k->have_mon_addr) {
		snprintf(a, sizeof(a), "%u/%d", m->num_mon, m->mon_from_opt);
		snprintf(b, sizeof(b), "%d/%d", k->num_mon, k->have_mon_addr);
		return mismatch("monitor count / mon_addr given", a, b);
	}
	for (i = 0; i < n; i++)
		if (same_mon(&m->mon[i], &k->mon[i]))
			return 1;
	return 0;
}

static int same_fsids(const struct kmc_ceph_mount *m,
		      const struct kceph_result *k)
{
	if (m->have_src_fsid != k->have_src_fsid ||
	    (m->have_src_fsid && memcmp(m->src_fsid, k->src_fsid, 16)))
		return mismatch("source fsid", NULL, NULL);
	if (m->have_opt_fsid != k->have_opt_fsid ||
	    (m->have_opt_fsid && memcmp(m->opt_fsid, k->opt_fsid, 16)))
		return mismatch("fsid= option", NULL, NULL);
	return 0;
}

static int same_volume(const struct kmc_ceph_mount *m,
		       const struct kceph_result *k)
{
	const u8 *fsid = kmc_ceph_fsid(m);
	char key[8192];

	if (!fsid)
		return k->volume_key ? mismatch("volume key", NULL,
						k->volume_key) : 0;
	if (kmc_ceph_volume_key(fsid, m->uniq.ptr, m->uniq.len, key,
				sizeof(key)) < 0)
		return mismatch("volume key too long for the test", NULL, NULL);
	if (!k->volume_key || strcmp(key, k->volume_key))
		return mismatch("volume key", key, k->volume_key);
	return 0;
}

static int same_fields(const struct kmc_ceph_mount *m,
		       const struct kceph_result *k)
{
	char path[8192];
	int len;

	if ((m->syntax == KMC_CEPH_SYNTAX_NEW) != k->new_syntax)
		return mismatch("syntax", NULL, NULL);
	if (same_str("name", kmc_ceph_name(m), k->name) ||
	    same_str("fs_name", m->fs_name, k->fs_name) ||
	    same_str("fsc uniquifier", m->uniq, k->uniq))
		return 1;
	len = kmc_ceph_path(m, path, sizeof(path));
	if (!m->path.ptr != !k->path || len < 0 ||
	    (k->path && strcmp(path, k->path)))
		return mismatch("path", m->path.ptr ? path : NULL, k->path);
	if (m->fscache != k->fscache)
		return mismatch("fscache flag", NULL, NULL);
	return same_fsids(m, k) || same_mons(m, k) || same_volume(m, k);
}

/* Strict mode: a subset of what the kernel takes, quirks refused. */
static int check_strict(const char *src, const char *opts,
			const struct kmc_ceph_mount *lax, int lax_ret)
{
	struct kmc_ceph_mount *m = malloc(sizeof(*m));
	int ret, bad = 0;

	if (!m)
		abort();
	ret = kmc_ceph_parse(src, strlen(src), opts, opts ? strlen(opts) : 0,
			     KMC_CEPH_STRICT, m);
	if (lax_ret)
		bad = !ret || m->diag.code != lax->diag.code;
	else if (lax->diag.quirks)
		bad = !ret || m->diag.code != lax->diag.quirk_code;
	else
		bad = ret != 0;
	if (bad)
		mismatch("strict mode", kmc_ceph_code_name(m->diag.code),
			 kmc_ceph_code_name(lax->diag.code));
	free(m);
	return bad;
}

static int check(const char *src, const char *opts, unsigned long *accepted,
		 unsigned long *quirky)
{
	struct kmc_ceph_mount *m = malloc(sizeof(*m));
	struct kceph_result *k = malloc(sizeof(*k));
	int ret, kret, bad = 0;

	if (!m || !k)
		abort();
	cur_src = src;
	cur_opts = opts;
	ret = kmc_ceph_parse(src, strlen(src), opts, opts ? strlen(opts) : 0,
			     0, m);
	kret = kceph_mount(src, opts, ret ? NULL : kmc_ceph_fsid(m), k);
	if (!ret != !kret)
		bad = mismatch(ret ? "core refuses, kernel accepts" :
			       "core accepts, kernel refuses",
			       kmc_ceph_reason(m->diag.code), k->err);
	else if (ret)
		bad = same_error(m, k);
	else
		bad = same_fields(m, k);
	if (!bad)
		bad = check_strict(src, opts, m, ret);
	*accepted += !ret;
	*quirky += !ret && m->diag.quirks;
	codes[m->diag.code]++;
	kceph_result_free(k);
	free(k);
	free(m);
	return bad;
}

/* The printed form of the tree's result, field by field. */
static void kernel_fields(const struct kceph_result *k, char *fsid,
			  char *mons, size_t size)
{
	const uint8_t *f = k->new_syntax && k->have_src_fsid ? k->src_fsid :
			   k->have_opt_fsid ? k->opt_fsid : NULL;
	int i;

	fsid[0] = mons[0] = '\0';
	if (f)
		kmc_ceph_format_fsid(f, fsid);
	for (i = 0; i < k->num_mon && i < KMC_CEPH_MAX_MON; i++) {
		if (i)
			strncat(mons, ",", size - strlen(mons) - 1);
		strncat(mons, k->mon[i].str, size - strlen(mons) - 1);
	}
}

static int vector_fields(const struct kmv_ceph *v, const struct kceph_result *k)
{
	char fsid[KMC_CEPH_FSID_STR_LEN + 1], mons[4096];

	kernel_fields(k, fsid, mons, sizeof(mons));
	if (strcmp(v->syntax, k->new_syntax ? "new" : "old") ||
	    strcmp(v->name, k->name ? k->name : "") ||
	    strcmp(v->fsid, fsid) ||
	    strcmp(v->fs_name, k->fs_name ? k->fs_name : "") ||
	    strcmp(v->path, k->path ? k->path : "") || strcmp(v->mons, mons) ||
	    strcmp(v->volume_key, k->volume_key ? k->volume_key : ""))
		return mismatch("vector fields", v->mons, mons);
	return 0;
}

/* Every vector through the tree's code (and the core for the message). */
static int check_vectors(void)
{
	struct kmc_ceph_mount *m = malloc(sizeof(*m));
	struct kceph_result *k = malloc(sizeof(*k));
	struct kunit vec = { .name = "diff_ceph" };
	const struct kmv_ceph *kmv_ceph;
	unsigned int i, n, bad = 0;
	u8 fsid[16];

	if (!m || !k)
		abort();
	kmv_ceph = kmv_load(&vec, &kmv_ceph_table, &n);
	if (!kmv_ceph)
		return 1;
	for (i = 0; i < n; i++) {
		const struct kmv_ceph *v = &kmv_ceph[i];
		const char *opts = *v->options ? v->options : NULL;

		cur_src = v->source;
		cur_opts = opts;
		kmc_ceph_parse(v->source, strlen(v->source), opts,
			       opts ? strlen(opts) : 0, 0, m);
		kceph_mount(v->source, opts, kmc_ceph_parse_fsid(v->fsid,
			    strlen(v->fsid), fsid) ? NULL : fsid, k);
		if (strcmp(kmc_ceph_code_name(m->diag.code), v->kernel))
			bad += mismatch("vector: the core's code",
					kmc_ceph_code_name(m->diag.code),
					v->kernel);
		else if (!strcmp(v->kernel, "OK") != !k->ret)
			bad += mismatch("vector: kernel accept/refuse",
					v->kernel, k->err);
		else if (k->ret)
			bad += same_error(m, k);
		else
			bad += vector_fields(v, k);
		kceph_result_free(k);
	}
	printf("diff_ceph: %u vectors replayed through the tree's code, %u mismatches\n",
	       i, bad);
	kunit_cleanup(&vec);
	free(m);
	free(k);
	return bad ? 1 : 0;
}

/* Cases worth pinning whatever the seed. */
static const char *const fixed[][2] = {
	{ "admin@07fe3187-00d9-42a3-814b-72a4d5e7d5be.cephfs=/", "mon_addr=1.2.3.4" },
	{ "1.2.3.4:/", NULL },
	{ "1.2.3.4,1.2.3.4,1.2.3.4,1.2.3.4,1.2.3.4,1.2.3.4,1.2.3.4,1.2.3.4,"
	  "1.2.3.4,1.2.3.4,1.2.3.4,1.2.3.4,1.2.3.4,1.2.3.4,1.2.3.4,1.2.3.4,"
	  "1.2.3.4,1.2.3.4,1.2.3.4,1.2.3.4,1.2.3.4,1.2.3.4,1.2.3.4,1.2.3.4,"
	  "1.2.3.4,1.2.3.4,1.2.3.4,1.2.3.4,1.2.3.4,1.2.3.4,1.2.3.4,:/", NULL },
	{ "a@00112233445566778899aabbccddeeff=/x.y/z", "mon_addr=[::1]:80" },
	{ "x=/p@00112233-4455-6677-8899-aabbccddeeff.fs", "mon_addr=::1" },
	{ "[::ffff:1.2.3.4]:4294967376:/", "fsc=u,fsid=00112233445566778899aabbccddeeff" },
	{ "", NULL },
	{ "/", NULL },
	{ ":", NULL },
	{ "a@b.c=/", NULL },
};

int main(int argc, char **argv)
{
	unsigned long n = 100000, i, fails = 0, accepted = 0, quirky = 0;
	uint64_t seed = (uint64_t)time(NULL);
	static char src[1024], opts[1024];
	struct ceph_gen g;
	int c;

	while ((c = getopt(argc, argv, "n:s:V")) != -1) {
		if (c == 'V')
			return check_vectors();
		if (c == 'n')
			n = strtoul(optarg, NULL, 0);
		else if (c == 's')
			seed = strtoull(optarg, NULL, 0);
		else
			return 2;
	}
	/* memcheck looks for bad accesses, which a tenth of the cases reach */
	if (getenv("KMIRROR_UNDER_VALGRIND") && n > 30000)
		n = 30000;
	printf("diff_ceph: seed %" PRIu64 " (replay with -s), %lu cases\n",
	       seed, n);
	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		fails += check(fixed[i][0], fixed[i][1], &accepted, &quirky);
	ceph_gen_seed(&g, seed);
	for (i = 0; i < n; i++) {
		ceph_gen_case(&g, src, sizeof(src), opts, sizeof(opts));
		fails += check(src, opts[0] || i % 3 ? opts : NULL, &accepted,
			       &quirky);
	}
	printf("diff_ceph: %lu cases, %lu accepted (%lu only through a kernel accident), %lu mismatches\n",
	       n + sizeof(fixed) / sizeof(fixed[0]), accepted, quirky,
	       fails);
	for (c = 0; c < KMC_CEPH_CODE_COUNT; c++)
		if (codes[c])
			printf("  %-22s %lu\n", kmc_ceph_code_name(c), codes[c]);
	return fails ? 1 : 0;
}
