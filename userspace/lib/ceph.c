// SPDX-License-Identifier: GPL-2.0-only
/*
 * kmirror/ceph.h: a parse of the core (kmc_ceph.c) and its result as text,
 * formatted once so that the caller needs none of the core's types.
 */
#include <stdlib.h>

#include "kcompat.h"
#include "kmc_ceph.h"
#include "kmirror/ceph.h"

_Static_assert(KMIRROR_CEPH_STRICT == KMC_CEPH_STRICT, "flags");
_Static_assert((int)KMIRROR_CEPH_SYNTAX_OLD == (int)KMC_CEPH_SYNTAX_OLD &&
	       (int)KMIRROR_CEPH_SYNTAX_NEW == (int)KMC_CEPH_SYNTAX_NEW,
	       "syntax");

struct kmirror_ceph {
	struct kmc_ceph_mount m;
	int ret;
	struct kmirror_ceph_mount pub;
	struct kmirror_ceph_text mon[KMC_CEPH_MAX_MON];
	char addr[KMC_CEPH_MAX_MON][KMC_CEPH_ADDR_STR_MAX];
	char fsid[KMC_CEPH_FSID_STR_LEN + 1];
	char *path;		/* m.path_len + 1 bytes */
	char *volume_key;	/* KMC_CEPH_VOLUME_BASE_LEN + 2 + uniq bytes */
};

static struct kmirror_ceph_text kmf_text(const char *ptr, int len)
{
	struct kmirror_ceph_text t = { NULL, 0 };

	if (len > 0) {
		t.ptr = ptr;
		t.len = len;
	}
	return t;
}

/* The result as text: every field as `kmirror ceph parse` prints it. */
static int kmf_ceph_format(struct kmirror_ceph *c)
{
	const struct kmc_ceph_mount *m = &c->m;
	struct kmirror_ceph_mount *p = &c->pub;
	struct kmc_ceph_span name = kmc_ceph_name(m);
	const u8 *fsid = kmc_ceph_fsid(m);
	size_t key_size = KMC_CEPH_VOLUME_BASE_LEN + 2 + m->uniq.len;
	unsigned int i;

	c->path = malloc(m->path_len + 1);
	c->volume_key = malloc(key_size);
	if (!c->path || !c->volume_key)
		return -ENOMEM;
	p->syntax = (enum kmirror_ceph_syntax)m->syntax;
	p->name.ptr = name.ptr;
	p->name.len = name.len;
	if (fsid) {
		kmc_ceph_format_fsid(fsid, c->fsid);
		p->fsid = kmf_text(c->fsid, KMC_CEPH_FSID_STR_LEN);
		p->volume_key = kmf_text(c->volume_key,
					 kmc_ceph_volume_key(fsid, m->uniq.ptr,
							     m->uniq.len,
							     c->volume_key,
							     key_size));
	}
	p->fs_name.ptr = m->fs_name.ptr;
	p->fs_name.len = m->fs_name.len;
	p->path = kmf_text(c->path, kmc_ceph_path(m, c->path,
						  m->path_len + 1));
	for (i = 0; i < m->num_mon; i++)
		c->mon[i] = kmf_text(c->addr[i],
				     kmc_ceph_format_addr(&m->mon[i],
							  c->addr[i],
							  sizeof(c->addr[i])));
	p->num_mon = m->num_mon;
	p->mon_addr = c->mon;
	return 0;
}

int kmirror_ceph_parse(const char *src, size_t src_len, const char *opts,
		       size_t opts_len, unsigned int flags,
		       struct kmirror_ceph **cp)
{
	struct kmirror_ceph *c = calloc(1, sizeof(*c));
	int ret;

	*cp = NULL;
	if (!c)
		return -ENOMEM;
	c->ret = kmc_ceph_parse(src, src_len, opts, opts_len, flags, &c->m);
	if (!c->ret) {
		ret = kmf_ceph_format(c);
		if (ret) {
			kmirror_ceph_free(c);
			return ret;
		}
	}
	*cp = c;
	return c->ret;
}

void kmirror_ceph_free(struct kmirror_ceph *c)
{
	if (!c)
		return;
	free(c->path);
	free(c->volume_key);
	free(c);
}

const struct kmirror_ceph_mount *
kmirror_ceph_mount(const struct kmirror_ceph *c)
{
	return c->ret ? NULL : &c->pub;
}

const char *kmirror_ceph_error(const struct kmirror_ceph *c,
			       struct kmirror_ceph_text *where,
			       bool *where_is_key)
{
	if (!c->ret)
		return NULL;
	where->ptr = c->m.diag.where.ptr;
	where->len = c->m.diag.where.len;
	*where_is_key = c->m.diag.where_is_key;
	return kmc_ceph_reason(c->m.diag.code);
}

const char *kmirror_ceph_quirk(const struct kmirror_ceph *c, unsigned int i,
			       struct kmirror_ceph_text *where)
{
	const struct kmc_ceph_diag *d = &c->m.diag;
	enum kmc_ceph_code code;

	for (code = KMC_CEPH_S_FIRST; code < KMC_CEPH_CODE_COUNT; code++) {
		if (!(d->quirks & KMC_CEPH_QUIRK(code)) || i--)
			continue;
		where->ptr = code == d->quirk_code ? d->quirk_where.ptr : NULL;
		where->len = code == d->quirk_code ? d->quirk_where.len : 0;
		return kmc_ceph_reason(code);
	}
	return NULL;
}
