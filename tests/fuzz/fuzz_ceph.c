// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: the CephFS mount source parser (kmc_ceph.h) on any bytes.
 * Input: SOURCE, then optionally '\n' and OPTIONS (either may hold NULs);
 * each is an exact-size heap copy, so ASan sees any read past a length.
 * Invariants:
 *   - the result is 0, -EINVAL, or -ENAMETOOLONG for an over-long fscache
 *     volume key; a refusal has a kernel-side code and a reason, and
 *     points (if at all) into the input;
 *   - an acceptance has a syntax, 1 to 31 monitors where it needs them,
 *     spans inside the input, a canonical path no longer than the raw one;
 *   - strict mode refuses what the kernel mode refuses, with the same
 *     code; refuses an acceptance that needed a kernel accident, naming
 *     the first one; and otherwise accepts with the same fields;
 *   - an acceptance without accidents, written out canonically (the fsid
 *     as %pU, monitors as ip:port, the path canonical), parses strictly
 *     back to the same fields;
 *   - the monitor-list and fsid parsers alone never fail otherwise.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kmc_ceph.h"
#include "fuzz_common.h"
#include "../ceph/ceph_unparse.h"

struct input {
	const char *src, *opts;
	size_t src_len, opts_len;
};

static bool inside(struct kmc_ceph_span s, const struct input *in)
{
	if (!s.ptr)
		return !s.len;
	return (s.ptr >= in->src && s.ptr + s.len <= in->src + in->src_len) ||
	       (in->opts && s.ptr >= in->opts &&
		s.ptr + s.len <= in->opts + in->opts_len);
}

static void check_refusal(const struct kmc_ceph_mount *m, int ret,
			  const struct input *in)
{
	CHECK(ret == -EINVAL || (ret == -ENAMETOOLONG &&
				 m->diag.code == KMC_CEPH_E_VOLUME_KEY),
	      "ret %d code %s", ret, kmc_ceph_code_name(m->diag.code));
	CHECK(m->diag.code > KMC_CEPH_OK && m->diag.code < KMC_CEPH_S_FIRST,
	      "code %d", m->diag.code);
	CHECK(*kmc_ceph_reason(m->diag.code), "no reason");
	CHECK(inside(m->diag.where, in), "error text outside the input");
}

static void check_acceptance(const struct kmc_ceph_mount *m,
			     const struct input *in)
{
	unsigned int i;

	CHECK(m->syntax == KMC_CEPH_SYNTAX_NEW ||
	      m->syntax == KMC_CEPH_SYNTAX_OLD, "syntax %d", m->syntax);
	CHECK(m->num_mon >= 1 && m->num_mon <= KMC_CEPH_MAX_MON,
	      "%u monitors", m->num_mon);
	for (i = 0; i < m->num_mon; i++)
		CHECK(m->mon[i].family == KMC_CEPH_INET ||
		      m->mon[i].family == KMC_CEPH_INET6, "family");
	CHECK(inside(m->src_name, in) && inside(m->opt_name, in) &&
	      inside(m->fs_name, in) && inside(m->path, in) &&
	      inside(m->uniq, in), "a field outside the input");
	CHECK(!m->path.ptr || (m->path.ptr[0] == '/' &&
			       m->path_len <= m->path.len && m->path_len),
	      "path %zu of %zu", m->path_len, m->path.len);
	CHECK(!m->diag.quirks ||
	      (m->diag.quirk_code >= KMC_CEPH_S_FIRST &&
	       (m->diag.quirks & KMC_CEPH_QUIRK(m->diag.quirk_code))),
	      "quirk code %d", m->diag.quirk_code);
}

static int parse(const struct input *in, unsigned int flags,
		 struct kmc_ceph_mount *m)
{
	return kmc_ceph_parse(in->src, in->src_len, in->opts, in->opts_len,
			      flags, m);
}

/* Strict mode against the kernel mode's verdict. */
static void check_strict(const struct kmc_ceph_mount *lax, int lax_ret,
			 const struct input *in)
{
	struct kmc_ceph_mount *m = malloc(sizeof(*m));
	struct ceph_fields a, b;
	int ret = parse(in, KMC_CEPH_STRICT, m);

	if (lax_ret) {
		CHECK(ret == lax_ret && m->diag.code == lax->diag.code,
		      "strict %s, kernel mode %s", kmc_ceph_code_name(m->diag.code),
		      kmc_ceph_code_name(lax->diag.code));
	} else if (lax->diag.quirks) {
		CHECK(ret == -EINVAL && m->diag.code == lax->diag.quirk_code,
		      "strict %s for quirk %s", kmc_ceph_code_name(m->diag.code),
		      kmc_ceph_code_name(lax->diag.quirk_code));
	} else {
		CHECK(!ret, "strict refuses: %s", kmc_ceph_code_name(m->diag.code));
		ceph_fields_get(lax, &a);
		ceph_fields_get(m, &b);
		CHECK(!ceph_fields_diff(&a, &b), "strict %s differs",
		      ceph_fields_diff(&a, &b));
		ceph_fields_free(&a);
		ceph_fields_free(&b);
	}
	free(m);
}

/* Written out canonically, a quirk-free result parses back the same. */
static void check_roundtrip(const struct kmc_ceph_mount *m)
{
	struct kmc_ceph_mount *back = malloc(sizeof(*back));
	struct ceph_fields a, b;
	char *src, *opts, *s, *o;
	int ret;

	ceph_unparse(m, &src, &opts);
	s = fz_dup(src, strlen(src));
	o = fz_dup(opts, strlen(opts));
	ret = kmc_ceph_parse(s, strlen(src), o, strlen(opts), KMC_CEPH_STRICT,
			     back);
	CHECK(!ret, "'%s' -o '%s' refused: %s", src, opts,
	      kmc_ceph_reason(back->diag.code));
	ceph_fields_get(m, &a);
	ceph_fields_get(back, &b);
	CHECK(!ceph_fields_diff(&a, &b) && m->fscache == back->fscache,
	      "%s differs after '%s' -o '%s'", ceph_fields_diff(&a, &b), src,
	      opts);
	ceph_fields_free(&a);
	ceph_fields_free(&b);
	free(s);
	free(o);
	free(src);
	free(opts);
	free(back);
}

/* The building blocks alone, on the raw source. */
static void check_parts(const struct input *in)
{
	struct kmc_ceph_addr addr[KMC_CEPH_MAX_MON];
	struct kmc_ceph_diag d;
	unsigned int n = 0;
	u8 fsid[KMC_CEPH_FSID_LEN];
	int ret;

	memset(&d, 0, sizeof(d));
	ret = kmc_ceph_parse_ips(in->src, in->src_len, '/', addr,
				 KMC_CEPH_MAX_MON, &n, &d);
	CHECK(ret == -EINVAL ? d.code != KMC_CEPH_OK :
	      !ret && n >= 1 && n <= KMC_CEPH_MAX_MON, "parse_ips %d, %u", ret,
	      n);
	ret = kmc_ceph_parse_fsid(in->src, in->src_len, fsid);
	CHECK(!ret || ret == -EINVAL, "parse_fsid %d", ret);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nl = memchr(data, '\n', size);
	struct kmc_ceph_mount *m;
	struct input in;
	int ret;

	if (size > 4096)
		return 0;
	in.src_len = nl ? (size_t)(nl - data) : size;
	in.src = fz_dup(data, in.src_len);
	in.opts_len = nl ? size - in.src_len - 1 : 0;
	in.opts = nl ? fz_dup(nl + 1, in.opts_len) : NULL;
	m = malloc(sizeof(*m));
	ret = parse(&in, 0, m);
	if (ret)
		check_refusal(m, ret, &in);
	else
		check_acceptance(m, &in);
	check_strict(m, ret, &in);
	if (!ret && !m->diag.quirks)
		check_roundtrip(m);
	check_parts(&in);
	free(m);
	free((void *)in.src);
	free((void *)in.opts);
	return 0;
}
