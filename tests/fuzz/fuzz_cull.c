// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: a sequence of cull-policy operations on one struct kmc_cull.
 * Input: records of an op byte (mod 4) and operands, little-endian:
 *   0 set       u8 limit (mod 7; 6 is invalid), u8 form, then a u8 value
 *               (form even) or a u64 one (form odd)
 *   1 bind      s64 bsize (mod 2^13, minus 2^12 when form bit set), u64
 *               blocks, u64 files
 *   2 has_space u64 ffree, bavail, b_writing, u32 fnr, bnr, u8 reason
 *   3 levels    u64 ffree, bavail, delta: more space never ranks lower
 * Invariants, from the rules written out again here: each setter obeys its
 * neighbour rule and the limits stay ordered; bind gives (total/100)*pct,
 * ordered and within the totals; has_space's verdict, culling state and
 * events follow stop/cull/run with hysteresis.  fuzz_kernel compares the
 * same code with the tree's cachefiles_has_space().
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kmc_cull.h"
#include "fuzz_common.h"

static uint64_t pct(const struct kmc_cull *c, int which)
{
	return kmc_cull_percent(c, which);
}

static void op_set(struct kmc_cull *c, struct fz *in)
{
	int which = fz_u8(in) % 7, base = which - which % 3;
	uint64_t v = fz_u8(in) & 1 ? fz_uint(in, 8) : fz_u8(in);
	struct kmc_cull before;
	bool ok;
	int ret;

	memcpy(&before, c, sizeof(before));
	ret = kmc_cull_set_percent(c, which, v);
	if (which == 6)
		ok = false;
	else if (which % 3 == 0)
		ok = v > pct(&before, base + 1) && v < 100;
	else if (which % 3 == 1)
		ok = v > pct(&before, base + 2) && v < pct(&before, base);
	else
		ok = v < pct(&before, base + 1);
	CHECK(ret == (ok ? 0 : -EINVAL), "set %d=%llu: %d", which,
	      (unsigned long long)v, ret);
	if (ok)
		CHECK(pct(c, which) == v, "set did not stick");
	else
		CHECK(!memcmp(&before, c, sizeof(before)), "refused set moved");
	CHECK(kmc_cull_validate(c) == 0, "limits out of order");
}

static void check_limits(uint64_t total, uint64_t run, uint64_t cull,
			 uint64_t stop, const struct kmc_cull *c, int base)
{
	CHECK(run == total / 100 * pct(c, base) &&
	      cull == total / 100 * pct(c, base + 1) &&
	      stop == total / 100 * pct(c, base + 2), "limit arithmetic");
	CHECK(stop <= cull && cull <= run && run <= total, "limit order");
}

static void op_bind(struct kmc_cull *c, struct fz *in)
{
	uint8_t form = fz_u8(in);
	long bsize = (long)(fz_uint(in, 2) % 8192) - (form & 1 ? 4096 : 0);
	struct kmc_statfs st = { .f_bsize = bsize };
	struct kmc_cull before;
	int ret;

	st.f_blocks = fz_uint(in, 8);
	st.f_files = fz_uint(in, 8);
	memcpy(&before, c, sizeof(before));
	ret = kmc_cull_bind(c, &st);
	if (bsize <= 0 || bsize > 4096) {
		CHECK(ret == (bsize <= 0 ? -ERANGE : -EOPNOTSUPP),
		      "bind bsize %ld: %d", bsize, ret);
		CHECK(!memcmp(&before, c, sizeof(before)), "failed bind set");
		return;
	}
	CHECK(ret == 0, "bind bsize %ld: %d", bsize, ret);
	CHECK(c->bsize == (unsigned long)bsize &&
	      (1UL << c->bshift) <= (unsigned long)bsize &&
	      (2UL << c->bshift) > (unsigned long)bsize, "bshift %u for %ld",
	      c->bshift, bsize);
	check_limits(st.f_files, c->frun, c->fcull, c->fstop, c, KMC_FRUN);
	check_limits(st.f_blocks, c->brun, c->bcull, c->bstop, c, KMC_BRUN);
}

static uint64_t sat(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

static void op_has_space(struct kmc_cull *c, struct fz *in)
{
	struct kmc_statfs st = { .f_bsize = 4096 };
	uint64_t writing, f, b;
	unsigned int fnr, bnr, ev, want = 0;
	int reason, ret;
	bool was = c->culling, stop, cull, run;

	st.f_ffree = fz_uint(in, 8);
	st.f_bavail = fz_uint(in, 8);
	writing = fz_uint(in, 8);
	fnr = fz_uint(in, 4);
	bnr = fz_uint(in, 4);
	reason = fz_u8(in) % 3;
	f = sat(st.f_ffree, fnr);
	b = sat(sat(st.f_bavail, writing), bnr);
	stop = f < c->fstop || b < c->bstop;
	cull = !stop && (f < c->fcull || b < c->bcull);
	run = !stop && !cull && f >= c->frun && b >= c->brun;

	ret = kmc_cull_has_space(c, &st, writing, fnr, bnr, reason, &ev);
	CHECK(ret == (stop ? -ENOBUFS : 0), "has_space %d", ret);
	if ((stop || cull) && !was)
		want |= KMC_CULL_BEGIN;
	if (run && was)
		want |= KMC_CULL_CEASE;
	if (stop && reason == KMC_SPACE_FOR_WRITE)
		want |= KMC_CULL_NO_WRITE;
	if (stop && reason == KMC_SPACE_FOR_CREATE)
		want |= KMC_CULL_NO_CREATE;
	CHECK(ev == want, "events %#x, want %#x", ev, want);
	CHECK(c->culling == (stop || cull || (was && !run)), "culling %d",
	      c->culling);
}

static void op_levels(struct kmc_cull *c, struct fz *in)
{
	uint64_t f = fz_uint(in, 8), b = fz_uint(in, 8);
	uint64_t df = fz_uint(in, 2), db = fz_uint(in, 2);
	enum kmc_cull_level lo = kmc_cull_level(c, f, b);

	if (f + df >= f && b + db >= b)
		CHECK(kmc_cull_level(c, f + df, b + db) >= lo,
		      "more space ranked lower");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz in = { data, size };
	struct kmc_cull c;

	kmc_cull_init(&c);
	while (in.n) {
		switch (fz_u8(&in) % 4) {
		case 0:
			op_set(&c, &in);
			break;
		case 1:
			op_bind(&c, &in);
			break;
		case 2:
			op_has_space(&c, &in);
			break;
		default:
			op_levels(&c, &in);
			break;
		}
	}
	return 0;
}
