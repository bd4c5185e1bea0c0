/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The .vec tables of the KUnit suites, linked in as they are, each ending
 * in a NUL (kmc_kunit_vec.h).  The Makefile copies them here from
 * vectors/, so that the paths below are relative to the object tree.
 */
#include <linux/linkage.h>

#define KMV_VEC(t, file)		\
	.globl	kmv_##t##_vec ASM_NL	\
kmv_##t##_vec:				\
	.incbin	file ASM_NL		\
	.byte	0

	.section .rodata, "a"
	KMV_VEC(ceph, "lib/kmirror/kunit/ceph.vec")
	KMV_VEC(cook, "lib/kmirror/kunit/cook.vec")
	KMV_VEC(cookie, "lib/kmirror/kunit/cookie.vec")
	KMV_VEC(cookie_state, "lib/kmirror/kunit/cookie_state.vec")
	KMV_VEC(cull, "lib/kmirror/kunit/cull.vec")
	KMV_VEC(daemon, "lib/kmirror/kunit/daemon.vec")
	KMV_VEC(hash, "lib/kmirror/kunit/hash.vec")
	KMV_VEC(layout, "lib/kmirror/kunit/layout.vec")
	KMV_VEC(ptc, "lib/kmirror/kunit/ptc.vec")
	KMV_VEC(stats, "lib/kmirror/kunit/stats.vec")
	KMV_VEC(volume, "lib/kmirror/kunit/volume.vec")
	KMV_VEC(xattr, "lib/kmirror/kunit/xattr.vec")
