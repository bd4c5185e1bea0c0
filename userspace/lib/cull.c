// SPDX-License-Identifier: GPL-2.0-only
/*
 * kmirror/cull.h: cachefiles' culling policy, over the core's (kmc_cull.c).
 * The public structs carry the same fields with fixed-width types; each
 * call copies them in and out, so the core's layout stays its own.
 */
#include "kcompat.h"
#include "kmc_cull.h"
#include "kmirror/cull.h"

_Static_assert(KMIRROR_CULL_BEGIN == KMC_CULL_BEGIN &&
	       KMIRROR_CULL_CEASE == KMC_CULL_CEASE &&
	       KMIRROR_CULL_NO_WRITE == KMC_CULL_NO_WRITE &&
	       KMIRROR_CULL_NO_CREATE == KMC_CULL_NO_CREATE, "events");
_Static_assert((int)KMIRROR_SPACE_CHECK == (int)KMC_SPACE_CHECK &&
	       (int)KMIRROR_SPACE_FOR_WRITE ==
	       (int)KMC_SPACE_FOR_WRITE &&
	       (int)KMIRROR_SPACE_FOR_CREATE ==
	       (int)KMC_SPACE_FOR_CREATE, "has_space_for");

static void kmf_cull_in(struct kmc_cull *k, const struct kmirror_cull *c)
{
	k->frun_percent = c->frun_percent;
	k->fcull_percent = c->fcull_percent;
	k->fstop_percent = c->fstop_percent;
	k->brun_percent = c->brun_percent;
	k->bcull_percent = c->bcull_percent;
	k->bstop_percent = c->bstop_percent;
	k->bsize = c->bsize;
	k->bshift = c->bshift;
	k->frun = c->frun;
	k->fcull = c->fcull;
	k->fstop = c->fstop;
	k->brun = c->brun;
	k->bcull = c->bcull;
	k->bstop = c->bstop;
	k->culling = c->culling;
}

static void kmf_cull_out(struct kmirror_cull *c, const struct kmc_cull *k)
{
	c->frun_percent = k->frun_percent;
	c->fcull_percent = k->fcull_percent;
	c->fstop_percent = k->fstop_percent;
	c->brun_percent = k->brun_percent;
	c->bcull_percent = k->bcull_percent;
	c->bstop_percent = k->bstop_percent;
	c->bsize = k->bsize;
	c->bshift = k->bshift;
	c->frun = k->frun;
	c->fcull = k->fcull;
	c->fstop = k->fstop;
	c->brun = k->brun;
	c->bcull = k->bcull;
	c->bstop = k->bstop;
	c->culling = k->culling;
}

static void kmf_statfs_in(struct kmc_statfs *k, const struct kmirror_statfs *st)
{
	k->f_bsize = st->f_bsize;
	k->f_blocks = st->f_blocks;
	k->f_bavail = st->f_bavail;
	k->f_files = st->f_files;
	k->f_ffree = st->f_ffree;
}

void kmirror_cull_init(struct kmirror_cull *c)
{
	struct kmc_cull k;

	kmc_cull_init(&k);
	kmf_cull_out(c, &k);
}

int kmirror_cull_validate(const struct kmirror_cull *c)
{
	struct kmc_cull k;

	kmf_cull_in(&k, c);
	return kmc_cull_validate(&k);
}

int kmirror_cull_bind(struct kmirror_cull *c, const struct kmirror_statfs *st)
{
	struct kmc_statfs s;
	struct kmc_cull k;
	int ret;

	kmf_cull_in(&k, c);
	kmf_statfs_in(&s, st);
	ret = kmc_cull_bind(&k, &s);
	if (!ret)
		kmf_cull_out(c, &k);
	return ret;
}

int kmirror_cull_has_space(struct kmirror_cull *c,
			   const struct kmirror_statfs *st, uint64_t b_writing,
			   unsigned int fnr, unsigned int bnr,
			   enum kmirror_space_for reason,
			   unsigned int *events)
{
	struct kmc_statfs s;
	struct kmc_cull k;
	int ret;

	kmf_cull_in(&k, c);
	kmf_statfs_in(&s, st);
	ret = kmc_cull_has_space(&k, &s, b_writing, fnr, bnr,
				 (enum kmc_space_for)reason, events);
	kmf_cull_out(c, &k);
	return ret;
}
