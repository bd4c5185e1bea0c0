/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * <linux/module.h> for the tree's fs/fscache/cookie.c: empty, see
 * fs/fscache/internal.h.
 */
