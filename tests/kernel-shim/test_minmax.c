// SPDX-License-Identifier: GPL-2.0-only
/*
 * The userspace kcompat's min()/max()/min_t()/clamp()/min3()/umin(),
 * ilog2(), roundup_pow_of_two(), order_base_2() and fls() against the
 * 6.1 tree's own definitions (kernel_minmax.c), on edge values in every
 * integer type: 0, 1, each power of two and its neighbours, their
 * negations, the types' limits.  check_typecheck.sh checks that min() of
 * a signed and an unsigned operand does not build, as in the kernel.
 */
#include <stdio.h>

#include "kcompat.h"

#define MM_SIDE k_
#include "minmax_ops.h"
#undef MM_SIDE
#define MM_SIDE s_
#include "minmax_ops.h"
#undef MM_SIDE

#define NV	(3 * 64 * 2 + 2)
#define NV3	48		/* values for the three-operand forms */

static unsigned long long vals[NV];
static unsigned int passed, failed;

static void report(const char *op, unsigned long long a, unsigned long long b,
		   unsigned long long c)
{
	if (failed++ < 20)
		printf("%s(%#llx, %#llx, %#llx): the shim differs\n", op, a, b,
		       c);
}

static void fill(void)
{
	unsigned int k, n = 0;

	vals[n++] = 0;
	vals[n++] = ~0ULL;
	for (k = 0; k < 64; k++) {
		unsigned long long p = 1ULL << k;

		vals[n++] = p;
		vals[n++] = p - 1;
		vals[n++] = p + 1;
		vals[n++] = -p;
		vals[n++] = -(p - 1);
		vals[n++] = -(p + 1);
	}
}

#define CHECK(cond, op, a, b, c)					\
	do {								\
		if (cond)						\
			passed++;					\
		else							\
			report(op, a, b, c);				\
	} while (0)

#define CHECK1(name, T)							\
	for (i = 0; i < NV; i++)					\
		CHECK(k_##name((T)vals[i]) == s_##name((T)vals[i]),	\
		      #name, vals[i], 0, 0)

#define CHECK2(name, T1, T2)						\
	for (i = 0; i < NV; i++)					\
		for (j = 0; j < NV; j++)				\
			CHECK(k_##name((T1)vals[i], (T2)vals[j]) ==	\
			      s_##name((T1)vals[i], (T2)vals[j]),	\
			      #name, vals[i], vals[j], 0)

#define CHECK3(name, T)							\
	for (i = 0; i < NV3; i++)					\
		for (j = 0; j < NV3; j++)				\
			for (l = 0; l < NV3; l++)			\
				CHECK(k_##name((T)vals[i], (T)vals[j],	\
					       (T)vals[l]) ==		\
				      s_##name((T)vals[i], (T)vals[j],	\
					       (T)vals[l]),		\
				      #name, vals[i], vals[j], vals[l])

#define CHECK_SAME(T, n)						\
	do {								\
		CHECK2(min_##n, T, T);					\
		CHECK2(max_##n, T, T);					\
		CHECK2(min_t_##n, T, T);				\
		CHECK2(max_t_##n, T, T);				\
		CHECK3(clamp_##n, T);					\
		CHECK3(clamp_t_##n, T);					\
		CHECK3(min3_##n, T);					\
		CHECK3(max3_##n, T);					\
	} while (0);

int main(void)
{
	unsigned int i, j, l;

	fill();
	MM_TYPES(CHECK_SAME)
	CHECK2(min_int_long, int, long);
	CHECK2(max_int_long, int, long);
	CHECK2(min_u32_u64, u32, u64);
	CHECK2(max_u32_u64, u32, u64);
	CHECK2(min_u8_uint, u8, unsigned int);
	CHECK2(max_s8_int, s8, int);
	CHECK2(min_t_u8_int, int, int);
	CHECK2(max_t_int_uint, unsigned int, unsigned int);
	CHECK2(umin_int_ulong, int, unsigned long);
	CHECK2(umax_int_ulong, int, unsigned long);

	CHECK1(fls, unsigned int);
	CHECK1(fls64, u64);
	CHECK1(fls_long, unsigned long);
	CHECK1(ilog2_u32, u32);
	CHECK1(ilog2_int, int);
	CHECK1(ilog2_u64, u64);
	CHECK1(ilog2_ulong, unsigned long);
	CHECK1(is_power_of_2, unsigned long);
	CHECK1(order_base_2, unsigned long);
	/* Undefined for 0, and roundup_pow_of_two() past 1 << 63. */
	for (i = 0; i < NV; i++) {
		if (vals[i] && vals[i] <= 1ULL << 63)
			CHECK(k_roundup_pow_of_two(vals[i]) ==
			      s_roundup_pow_of_two(vals[i]),
			      "roundup_pow_of_two", vals[i], 0, 0);
		if (vals[i])
			CHECK(k_rounddown_pow_of_two(vals[i]) ==
			      s_rounddown_pow_of_two(vals[i]),
			      "rounddown_pow_of_two", vals[i], 0, 0);
	}
	for (i = 0; i < MM_NCONSTS; i++) {
		CHECK(k_ilog2_const(i) == s_ilog2_const(i), "const ilog2",
		      i, 0, 0);
		CHECK(k_roundup_const(i) == s_roundup_const(i),
		      "const roundup_pow_of_two", i, 0, 0);
		CHECK(k_rounddown_const(i) == s_rounddown_const(i),
		      "const rounddown_pow_of_two", i, 0, 0);
		CHECK(k_order_const(i) == s_order_const(i),
		      "const order_base_2", i, 0, 0);
	}
	/* The kernel's ilog2(0): fls(0) - 1 at run time, 0 as a constant. */
	CHECK(s_ilog2_u32(0) == -1 && s_ilog2_u64(0) == -1, "ilog2", 0, 0, 0);
	CHECK(s_ilog2_const(0) == 0, "const ilog2", 0, 0, 0);

	printf("test_minmax: %u passed, %u failed\n", passed, failed);
	return failed != 0;
}
