/* SPDX-License-Identifier: GPL-2.0-only */
/* <linux/slab.h> for the tree's fs/fscache/cookie.c: see ../internal.h. */
