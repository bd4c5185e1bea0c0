/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The .vec tables of the KUnit suites, linked in as they are, each ending
 * in a NUL (kmc_kunit_vec.h), found on the assembler's include path: in
 * the kernel the directory the Makefile copies them to from vectors/, in
 * userspace tests/vectors/ itself (tests/kernel-shim).
 */
#include <linux/linkage.h>

#define KMV_VEC(t, file)		\
	.globl	kmv_##t##_vec ASM_NL	\
kmv_##t##_vec:				\
	.incbin	file ASM_NL		\
	.byte	0

	.section .rodata, "a"
	KMV_VEC(ceph, "ceph.vec")
	KMV_VEC(cook, "cook.vec")
	KMV_VEC(cookie, "cookie.vec")
	KMV_VEC(cookie_state, "cookie_state.vec")
	KMV_VEC(cull, "cull.vec")
	KMV_VEC(daemon, "daemon.vec")
	KMV_VEC(hash, "hash.vec")
	KMV_VEC(layout, "layout.vec")
	KMV_VEC(ptc, "ptc.vec")
	KMV_VEC(stats, "stats.vec")
	KMV_VEC(volume, "volume.vec")
	KMV_VEC(xattr, "xattr.vec")
