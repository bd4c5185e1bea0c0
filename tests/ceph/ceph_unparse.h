/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Test helpers over a kmc_ceph_mount: its fields in the printed form of
 * `kmirror ceph parse`, and a canonical source and option string that
 * parse back to the same fields (for results without quirks), for
 * tests/fuzz/fuzz_ceph.c (kernel/kunit/kmc_ceph_kunit.c has its own over
 * test-managed buffers).
 */
#ifndef CEPH_UNPARSE_H
#define CEPH_UNPARSE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmc_ceph.h"

/* The printed fields, each a malloc'ed string ("" when not set). */
struct ceph_fields {
	char *syntax, *name, *fsid, *fs_name, *path, *mons, *volume_key;
};

static inline char *ceph_span_dup(struct kmc_ceph_span s)
{
	char *p = malloc(s.len + 1);

	if (!p)
		abort();
	if (s.len)
		memcpy(p, s.ptr, s.len);
	p[s.len] = '\0';
	return p;
}

static inline char *ceph_str_dup(const char *s)
{
	struct kmc_ceph_span sp = { s, strlen(s) };

	return ceph_span_dup(sp);
}

/* Append @s to the malloc'ed string @*buf. */
static inline void ceph_cat(char **buf, const char *s, size_t len)
{
	size_t old = *buf ? strlen(*buf) : 0;
	char *p = realloc(*buf, old + len + 1);

	if (!p)
		abort();
	memcpy(p + old, s, len);
	p[old + len] = '\0';
	*buf = p;
}

static inline void ceph_cats(char **buf, const char *s)
{
	ceph_cat(buf, s, strlen(s));
}

static inline char *ceph_mons(const struct kmc_ceph_mount *m, const char *sep)
{
	char a[KMC_CEPH_ADDR_STR_MAX], *out = ceph_str_dup("");
	unsigned int i;

	for (i = 0; i < m->num_mon; i++) {
		if (i)
			ceph_cats(&out, sep);
		if (kmc_ceph_format_addr(&m->mon[i], a, sizeof(a)) < 0)
			abort();
		ceph_cats(&out, a);
	}
	return out;
}

static inline char *ceph_fsid_str(const u8 *fsid)
{
	char s[KMC_CEPH_FSID_STR_LEN + 1] = "";

	if (fsid)
		kmc_ceph_format_fsid(fsid, s);
	return ceph_str_dup(s);
}

static inline void ceph_fields_get(const struct kmc_ceph_mount *m,
				   struct ceph_fields *f)
{
	const u8 *fsid = kmc_ceph_fsid(m);
	size_t size = m->path_len + KMC_CEPH_VOLUME_BASE_LEN + m->uniq.len + 2;
	char *buf = malloc(size);

	if (!buf)
		abort();
	f->syntax = ceph_str_dup(m->syntax == KMC_CEPH_SYNTAX_NEW ? "new" :
				 m->syntax == KMC_CEPH_SYNTAX_OLD ? "old" : "");
	f->name = ceph_span_dup(kmc_ceph_name(m));
	f->fsid = ceph_fsid_str(fsid);
	f->fs_name = ceph_span_dup(m->fs_name);
	if (kmc_ceph_path(m, buf, size) < 0)
		abort();
	f->path = ceph_str_dup(buf);
	f->mons = ceph_mons(m, ",");
	buf[0] = '\0';
	if (fsid && kmc_ceph_volume_key(fsid, m->uniq.ptr, m->uniq.len, buf,
					size) < 0)
		abort();
	f->volume_key = ceph_str_dup(buf);
	free(buf);
}

static inline void ceph_fields_free(struct ceph_fields *f)
{
	free(f->syntax);
	free(f->name);
	free(f->fsid);
	free(f->fs_name);
	free(f->path);
	free(f->mons);
	free(f->volume_key);
}

/* The first field that differs, or NULL. */
static inline const char *ceph_fields_diff(const struct ceph_fields *a,
					   const struct ceph_fields *b)
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

/*
 * A canonical source and option string for @m: the fsid as %pU, the
 * path canonical, every monitor as ip:port, name= only if it was given.
 */
static inline void ceph_unparse(const struct kmc_ceph_mount *m, char **src,
				char **opts)
{
	char *path = malloc(m->path_len + 1), *mons, *fsid;
	bool new = m->syntax == KMC_CEPH_SYNTAX_NEW;

	if (!path || kmc_ceph_path(m, path, m->path_len + 1) < 0)
		abort();
	*src = ceph_str_dup("");
	*opts = ceph_str_dup("");
	mons = ceph_mons(m, new ? "/" : ",");
	if (new) {
		fsid = ceph_fsid_str(m->src_fsid);
		ceph_cat(src, m->src_name.ptr, m->src_name.len);
		ceph_cats(src, "@");
		ceph_cats(src, fsid);
		ceph_cats(src, ".");
		ceph_cat(src, m->fs_name.ptr, m->fs_name.len);
		ceph_cats(src, "=");
		free(fsid);
		ceph_cats(opts, "mon_addr=");
		ceph_cats(opts, mons);
	} else {
		ceph_cats(src, mons);
		ceph_cats(src, ":");
		if (m->fs_name.ptr) {
			ceph_cats(opts, ",mds_namespace=");
			ceph_cat(opts, m->fs_name.ptr, m->fs_name.len);
		}
	}
	ceph_cats(src, path);
	if (m->opt_name.ptr) {
		ceph_cats(opts, ",name=");
		ceph_cat(opts, m->opt_name.ptr, m->opt_name.len);
	}
	if (m->have_opt_fsid) {
		fsid = ceph_fsid_str(m->opt_fsid);
		ceph_cats(opts, ",fsid=");
		ceph_cats(opts, fsid);
		free(fsid);
	}
	if (m->fscache)
		ceph_cats(opts, m->uniq.ptr ? ",fsc=" : ",fsc");
	if (m->uniq.ptr)
		ceph_cat(opts, m->uniq.ptr, m->uniq.len);
	free(mons);
	free(path);
}

#endif
