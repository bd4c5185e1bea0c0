/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * <linux/minmax.h>: duplicated from the 6.1 tree, but for typeof spelt
 * __typeof__ (the library is C11) and __is_nonneg()'s "(long long)(ux) >= 0"
 * written as a shift (gcc's -Wtype-limits, of -Wextra, which the kernel
 * does not use, warns on it for unsigned operands, where the result is
 * never used).  min() and max() are type-checked as the kernel's:
 * comparing a signed with an unsigned operand (not a non-negative
 * constant) fails to build.  The check needs the optimizer, as in the
 * kernel (compiletime_assert(), compiler_types.h).  Checked against the
 * tree's own definitions by tests/kernel-shim/test_minmax.c, the type
 * check by tests/kernel-shim/check_typecheck.sh.
 */
#ifndef KMIRROR_KCOMPAT_MINMAX_H
#define KMIRROR_KCOMPAT_MINMAX_H

#define __sign_use(ux) (is_signed_type(__typeof__(ux)) ? \
	(2 + __is_nonneg(ux)) : (1 + 2 * (sizeof(ux) < 4)))

#if __SIZEOF_POINTER__ == __SIZEOF_LONG_LONG__
#define __is_nonneg(ux) statically_true(((long long)(ux) >> 63) == 0)
#else
#define __is_nonneg(ux) statically_true( \
	(__typeof__(__builtin_choose_expr(sizeof(ux) > 4, 1LL, 1L)))(ux) >= 0)
#endif

#define __types_ok(ux, uy) \
	(__sign_use(ux) & __sign_use(uy))

#define __types_ok3(ux, uy, uz) \
	(__sign_use(ux) & __sign_use(uy) & __sign_use(uz))

#define __cmp_op_min <
#define __cmp_op_max >

#define __cmp(op, x, y)	((x) __cmp_op_##op (y) ? (x) : (y))

#define __cmp_once_unique(op, type, x, y, ux, uy) \
	({ type ux = (x); type uy = (y); __cmp(op, ux, uy); })

#define __cmp_once(op, type, x, y) \
	__cmp_once_unique(op, type, x, y, __UNIQUE_ID(x_), __UNIQUE_ID(y_))

#define __careful_cmp_once(op, x, y, ux, uy) ({		\
	__auto_type ux = (x); __auto_type uy = (y);	\
	BUILD_BUG_ON_MSG(!__types_ok(ux, uy),		\
		#op"("#x", "#y") signedness error");	\
	__cmp(op, ux, uy); })

#define __careful_cmp(op, x, y) \
	__careful_cmp_once(op, x, y, __UNIQUE_ID(x_), __UNIQUE_ID(y_))

#define min(x, y)	__careful_cmp(min, x, y)
#define max(x, y)	__careful_cmp(max, x, y)

#define umin(x, y)	\
	__careful_cmp(min, (x) + 0u + 0ul + 0ull, (y) + 0u + 0ul + 0ull)
#define umax(x, y)	\
	__careful_cmp(max, (x) + 0u + 0ul + 0ull, (y) + 0u + 0ul + 0ull)

#define __careful_op3(op, x, y, z, ux, uy, uz) ({			\
	__auto_type ux = (x); __auto_type uy = (y); __auto_type uz = (z);\
	BUILD_BUG_ON_MSG(!__types_ok3(ux, uy, uz),			\
		#op"3("#x", "#y", "#z") signedness error");		\
	__cmp(op, ux, __cmp(op, uy, uz)); })

#define min3(x, y, z) __careful_op3(min, x, y, z, __UNIQUE_ID(x_), \
	__UNIQUE_ID(y_), __UNIQUE_ID(z_))
#define max3(x, y, z) __careful_op3(max, x, y, z, __UNIQUE_ID(x_), \
	__UNIQUE_ID(y_), __UNIQUE_ID(z_))

#define min_t(type, x, y) __cmp_once(min, type, x, y)
#define max_t(type, x, y) __cmp_once(max, type, x, y)

#define __clamp(val, lo, hi)	\
	((val) >= (hi) ? (hi) : ((val) <= (lo) ? (lo) : (val)))

#define __clamp_once(type, val, lo, hi, uval, ulo, uhi) ({		\
	type uval = (val);						\
	type ulo = (lo);						\
	type uhi = (hi);						\
	BUILD_BUG_ON_MSG(statically_true(ulo > uhi),			\
		"clamp() low limit " #lo " greater than high limit " #hi);\
	BUILD_BUG_ON_MSG(!__types_ok3(uval, ulo, uhi),			\
		"clamp("#val", "#lo", "#hi") signedness error");	\
	__clamp(uval, ulo, uhi); })

#define __careful_clamp(type, val, lo, hi) \
	__clamp_once(type, val, lo, hi, __UNIQUE_ID(v_), __UNIQUE_ID(l_), \
		__UNIQUE_ID(h_))

#define clamp(val, lo, hi) __careful_clamp(__auto_type, val, lo, hi)
#define clamp_t(type, val, lo, hi) __careful_clamp(type, val, lo, hi)
#define clamp_val(val, lo, hi) __careful_clamp(__typeof__(val), val, lo, hi)

#endif
