/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The operations test_minmax.c compares: each is a function on both
 * sides, MM_SIDE k_ (the tree's definitions, kernel_minmax.c) and s_ (the
 * userspace kcompat's, shim_minmax.c), defined where MM_DEFINE is set.
 */
#ifndef MM_SIDE
#error "MM_SIDE (k_ or s_) must be defined"
#endif

#define MM_CAT2(a, b)	a##b
#define MM_CAT(a, b)	MM_CAT2(a, b)
#define MM_FN(name)	MM_CAT(MM_SIDE, name)

#ifdef MM_DEFINE
#define MM_OP(ret, name, params, expr) ret MM_FN(name) params { return expr; }
#else
#define MM_OP(ret, name, params, expr) ret MM_FN(name) params;
#endif

/* Both operands of one type. */
#define MM_SAME(T, n)							\
	MM_OP(T, min_##n, (T a, T b), min(a, b))			\
	MM_OP(T, max_##n, (T a, T b), max(a, b))			\
	MM_OP(T, min_t_##n, (T a, T b), min_t(T, a, b))			\
	MM_OP(T, max_t_##n, (T a, T b), max_t(T, a, b))			\
	MM_OP(T, clamp_##n, (T v, T lo, T hi), clamp(v, lo, hi))	\
	MM_OP(T, clamp_t_##n, (T v, T lo, T hi), clamp_t(T, v, lo, hi))	\
	MM_OP(T, min3_##n, (T a, T b, T c), min3(a, b, c))		\
	MM_OP(T, max3_##n, (T a, T b, T c), max3(a, b, c))

#define MM_TYPES(X)							\
	X(int, int) X(unsigned int, uint) X(long, long)			\
	X(unsigned long, ulong) X(long long, llong)			\
	X(unsigned long long, ullong) X(u8, u8) X(s8, s8)		\
	X(u16, u16) X(s16, s16)

MM_TYPES(MM_SAME)

/* Distinct types that the kernel's min() takes (same signedness), and
 * the _t forms that convert. */
MM_OP(long, min_int_long, (int a, long b), min(a, b))
MM_OP(long, max_int_long, (int a, long b), max(a, b))
MM_OP(u64, min_u32_u64, (u32 a, u64 b), min(a, b))
MM_OP(u64, max_u32_u64, (u32 a, u64 b), max(a, b))
MM_OP(unsigned int, min_u8_uint, (u8 a, unsigned int b), min(a, b))
MM_OP(int, max_s8_int, (s8 a, int b), max(a, b))
MM_OP(u8, min_t_u8_int, (int a, int b), min_t(u8, a, b))
MM_OP(int, max_t_int_uint, (unsigned int a, unsigned int b),
      max_t(int, a, b))
MM_OP(unsigned long long, umin_int_ulong, (int a, unsigned long b),
      umin(a, b))
MM_OP(unsigned long long, umax_int_ulong, (int a, unsigned long b),
      umax(a, b))

/* <linux/log2.h> and fls(), at run time. */
MM_OP(int, fls, (unsigned int x), fls(x))
MM_OP(int, fls64, (u64 x), fls64(x))
MM_OP(unsigned int, fls_long, (unsigned long x), fls_long(x))
MM_OP(int, ilog2_u32, (u32 x), ilog2(x))
MM_OP(int, ilog2_int, (int x), ilog2(x))
MM_OP(int, ilog2_u64, (u64 x), ilog2(x))
MM_OP(int, ilog2_ulong, (unsigned long x), ilog2(x))
MM_OP(bool, is_power_of_2, (unsigned long n), is_power_of_2(n))
MM_OP(unsigned long, roundup_pow_of_two, (unsigned long n),
      roundup_pow_of_two(n))
MM_OP(unsigned long, rounddown_pow_of_two, (unsigned long n),
      rounddown_pow_of_two(n))
MM_OP(int, order_base_2, (unsigned long n), order_base_2(n))

/* ... and on constants (the __builtin_constant_p() branches). */
#define MM_CONSTS(f)							\
	f(0), f(1), f(2), f(3), f(4), f(5), f(7), f(8), f(9), f(255),	\
	f(256), f(4095), f(4096), f(65535), f(65536), f(0x7fffffff),	\
	f(0x80000000U), f(0xffffffffU), f(0x100000000ULL),		\
	f(0x4000000000000000ULL), f(0x8000000000000000ULL),		\
	f(0xffffffffffffffffULL)
#define MM_NCONSTS 22
/* roundup_pow_of_two() past 1 << 63 and of 0 is undefined. */
#define MM_ROUNDUP_CONSTS(f)						\
	f(1), f(2), f(3), f(4), f(5), f(7), f(8), f(9), f(255), f(256),	\
	f(4095), f(4096), f(65535), f(65536), f(0x7fffffff),		\
	f(0x80000000U), f(0xffffffffU), f(0x100000000ULL),		\
	f(0x4000000000000000ULL), f(0x4000000000000001ULL),		\
	f(0x8000000000000000ULL), f(0x7fffffffffffffffULL)

#ifdef MM_DEFINE
#define MM_TABLE(name, list, f)						\
	long long MM_FN(name)(unsigned int i)				\
	{								\
		const long long t[MM_NCONSTS] = { list(f) };		\
		return i < MM_NCONSTS ? t[i] : 0;			\
	}
#else
#define MM_TABLE(name, list, f) long long MM_FN(name)(unsigned int i);
#endif
#define MM_ILOG2(n)		ilog2(n)
#define MM_ROUNDUP(n)		(long long)roundup_pow_of_two(n)
#define MM_ROUNDDOWN(n)		(long long)rounddown_pow_of_two(n)
#define MM_ORDER(n)		order_base_2(n)
MM_TABLE(ilog2_const, MM_CONSTS, MM_ILOG2)
MM_TABLE(roundup_const, MM_ROUNDUP_CONSTS, MM_ROUNDUP)
MM_TABLE(rounddown_const, MM_ROUNDUP_CONSTS, MM_ROUNDDOWN)
MM_TABLE(order_const, MM_CONSTS, MM_ORDER)
