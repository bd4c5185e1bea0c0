// SPDX-License-Identifier: GPL-2.0-only
/*
 * cachefiles culling limits and the has-space verdict (see kmc_cull.h).
 */
#include "kcompat.h"
#include "kmc_cull.h"

static const char *const kmc_cull_names[KMC_CULL_LIMIT_NR] = {
	[KMC_FRUN] = "frun",
	[KMC_FCULL] = "fcull",
	[KMC_FSTOP] = "fstop",
	[KMC_BRUN] = "brun",
	[KMC_BCULL] = "bcull",
	[KMC_BSTOP] = "bstop",
};

/* The defaults cachefiles_daemon_open() gives a fresh cache. */
void kmc_cull_init(struct kmc_cull *c)
{
	memset(c, 0, sizeof(*c));
	c->frun_percent = KMC_CULL_DEFAULT_RUN;
	c->fcull_percent = KMC_CULL_DEFAULT_CULL;
	c->fstop_percent = KMC_CULL_DEFAULT_STOP;
	c->brun_percent = KMC_CULL_DEFAULT_RUN;
	c->bcull_percent = KMC_CULL_DEFAULT_CULL;
	c->bstop_percent = KMC_CULL_DEFAULT_STOP;
}
EXPORT_SYMBOL(kmc_cull_init);

/* The percent field of @which; NULL only for an out-of-range @which. */
static unsigned int *kmc_cull_field(struct kmc_cull *c,
				    enum kmc_cull_limit which)
{
	switch (which) {
	case KMC_FRUN:
		return &c->frun_percent;
	case KMC_FCULL:
		return &c->fcull_percent;
	case KMC_FSTOP:
		return &c->fstop_percent;
	case KMC_BRUN:
		return &c->brun_percent;
	case KMC_BCULL:
		return &c->bcull_percent;
	case KMC_BSTOP:
		return &c->bstop_percent;
	default:
		return NULL;
	}
}

/* Current percentage of @which (0 for an invalid @which). */
unsigned int kmc_cull_percent(const struct kmc_cull *c,
			      enum kmc_cull_limit which)
{
	unsigned int *p = kmc_cull_field((struct kmc_cull *)c, which);

	return p ? *p : 0;
}
EXPORT_SYMBOL_IF_KUNIT(kmc_cull_percent);

/*
 * Would cachefiles_daemon_<which>() accept @percent now?  Each setter only
 * compares with its neighbours as they are (daemon.c:419,443,467 for files,
 * 491,515,539 for blocks):
 *   run:  cull < percent < 100
 *   cull: stop < percent < run
 *   stop: percent < cull
 * so "0 <= stop < cull < run < 100" always holds, and raising a pair needs
 * the right order (run before cull).  -EINVAL is the kernel's range error.
 */
int kmc_cull_check_percent(const struct kmc_cull *c,
			   enum kmc_cull_limit which, unsigned long percent)
{
	unsigned int run, cull, stop;
	bool ok;

	if ((unsigned int)which >= KMC_CULL_LIMIT_NR)
		return -EINVAL;
	run = kmc_cull_percent(c, which - which % 3);
	cull = kmc_cull_percent(c, which - which % 3 + 1);
	stop = kmc_cull_percent(c, which - which % 3 + 2);
	switch (which % 3) {
	case 0:
		ok = percent > cull && percent < 100;
		break;
	case 1:
		ok = percent > stop && percent < run;
		break;
	default:
		ok = percent < cull;
		break;
	}
	return ok ? 0 : -EINVAL;
}

/* Set @which to @percent if the ordering rules allow it; else -EINVAL. */
int kmc_cull_set_percent(struct kmc_cull *c, enum kmc_cull_limit which,
			 unsigned long percent)
{
	int ret = kmc_cull_check_percent(c, which, percent);

	if (ret)
		return ret;
	*kmc_cull_field(c, which) = percent;
	return 0;
}
EXPORT_SYMBOL(kmc_cull_set_percent);

/*
 * cachefiles_daemon_bind()'s re-check (daemon.c:761-769): -ERANGE unless
 * stop < cull < run < 100 for both files and blocks.  The setters keep this
 * true, so only a struct filled in by other means can fail it.
 */
int kmc_cull_validate(const struct kmc_cull *c)
{
	if (c->fstop_percent >= c->fcull_percent ||
	    c->fcull_percent >= c->frun_percent ||
	    c->frun_percent >= 100)
		return -ERANGE;
	if (c->bstop_percent >= c->bcull_percent ||
	    c->bcull_percent >= c->brun_percent ||
	    c->brun_percent >= 100)
		return -ERANGE;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(kmc_cull_validate);

/*
 * The statfs part of cachefiles_add_cache() (cache.c:87-124): -ERANGE for
 * f_bsize <= 0, -EOPNOTSUPP above PAGE_SIZE, else the block size and the
 * absolute limits, (total / 100) * percent, division first.  @c is not
 * touched on error.
 */
int kmc_cull_bind(struct kmc_cull *c, const struct kmc_statfs *st)
{
	u64 files = st->f_files / 100;
	u64 blocks = st->f_blocks / 100;

	if (st->f_bsize <= 0)
		return -ERANGE;
	if ((unsigned long)st->f_bsize > PAGE_SIZE)
		return -EOPNOTSUPP;

	c->bsize = st->f_bsize;
	c->bshift = ilog2(st->f_bsize);
	c->fstop = files * c->fstop_percent;
	c->fcull = files * c->fcull_percent;
	c->frun = files * c->frun_percent;
	c->bstop = blocks * c->bstop_percent;
	c->bcull = blocks * c->bcull_percent;
	c->brun = blocks * c->brun_percent;
	return 0;
}
EXPORT_SYMBOL(kmc_cull_bind);

/* @a - @b, or 0 when @b is not smaller (cachefiles never goes negative). */
static inline u64 kmc_sat_sub(u64 a, u64 b)
{
	return a > b ? a - b : 0;
}

/*
 * Free files and blocks as cachefiles_has_space() sees them after an
 * operation needing @fnr files and @bnr blocks, with @b_writing blocks of
 * writes still in flight (cache.c:221-239).
 */
void kmc_cull_avail(const struct kmc_statfs *st, u64 b_writing,
		    unsigned int fnr, unsigned int bnr, u64 *ffree,
		    u64 *bavail)
{
	*ffree = kmc_sat_sub(st->f_ffree, fnr);
	*bavail = kmc_sat_sub(kmc_sat_sub(st->f_bavail, b_writing), bnr);
}
EXPORT_SYMBOL(kmc_cull_avail);

/*
 * Classify free space: either count below its stop limit is STOP, below
 * its cull limit CULL; RUN needs both at or above their run limits
 * (cache.c:241-256).  Strict "<" throughout: a limit of 0 never trips.
 */
enum kmc_cull_level kmc_cull_level(const struct kmc_cull *c, u64 ffree,
				   u64 bavail)
{
	if (ffree < c->fstop || bavail < c->bstop)
		return KMC_LEVEL_STOP;
	if (ffree < c->fcull || bavail < c->bcull)
		return KMC_LEVEL_CULL;
	if (ffree >= c->frun && bavail >= c->brun)
		return KMC_LEVEL_RUN;
	return KMC_LEVEL_HOLD;
}
EXPORT_SYMBOL(kmc_cull_level);

/*
 * cachefiles_has_space(): 0 if the operation may go ahead, -ENOBUFS below
 * a stop limit.  Below cull (or stop) culling is switched on; it is only
 * switched off at RUN, so it holds between cull and run.  The operation's
 * own @fnr/@bnr count in every comparison, also for switching off.
 * *@events gets what the caller must do (KMC_CULL_*).
 */
int kmc_cull_has_space(struct kmc_cull *c, const struct kmc_statfs *st,
		       u64 b_writing, unsigned int fnr, unsigned int bnr,
		       enum kmc_space_for reason, unsigned int *events)
{
	enum kmc_cull_level level;
	u64 ffree, bavail;

	*events = 0;
	kmc_cull_avail(st, b_writing, fnr, bnr, &ffree, &bavail);
	level = kmc_cull_level(c, ffree, bavail);

	if (level == KMC_LEVEL_RUN && c->culling) {
		c->culling = false;
		*events |= KMC_CULL_CEASE;
	}
	if (level > KMC_LEVEL_CULL)
		return 0;

	if (level == KMC_LEVEL_STOP && reason == KMC_SPACE_FOR_WRITE)
		*events |= KMC_CULL_NO_WRITE;
	if (level == KMC_LEVEL_STOP && reason == KMC_SPACE_FOR_CREATE)
		*events |= KMC_CULL_NO_CREATE;
	if (!c->culling) {
		c->culling = true;
		*events |= KMC_CULL_BEGIN;
	}
	return level == KMC_LEVEL_STOP ? -ENOBUFS : 0;
}
EXPORT_SYMBOL_IF_KUNIT(kmc_cull_has_space);

/* The block count cachefiles asks for a write of @len bytes: whole pages. */
unsigned int kmc_cull_write_pages(u64 len)
{
	return len / PAGE_SIZE;
}
EXPORT_SYMBOL(kmc_cull_write_pages);

/* The blocks a write of @len bytes adds to b_writing (io.c:319): round up. */
u64 kmc_cull_writing_blocks(const struct kmc_cull *c, u64 len)
{
	return (len + (1ULL << c->bshift) - 1) >> c->bshift;
}
EXPORT_SYMBOL(kmc_cull_writing_blocks);

/* "frun" ... "bstop", or "?" for an invalid @which. */
const char *kmc_cull_limit_name(enum kmc_cull_limit which)
{
	if ((unsigned int)which >= KMC_CULL_LIMIT_NR)
		return "?";
	return kmc_cull_names[which];
}
EXPORT_SYMBOL_IF_KUNIT(kmc_cull_limit_name);
