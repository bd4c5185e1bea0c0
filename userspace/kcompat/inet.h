/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * <linux/inet.h>: in4_pton() and in6_pton() of net/core/utils.c.
 *
 * duplicated - inet.c is the 6.1 tree's code (must stay bit-identical: the
 * CephFS monitor lists the core parses with it are compared with the
 * tree's own parser by tests/ceph/diff_ceph).
 */
#ifndef KMIRROR_KCOMPAT_INET_H
#define KMIRROR_KCOMPAT_INET_H

#include "types.h"

int in4_pton(const char *src, int srclen, u8 *dst, int delim,
	     const char **end);
int in6_pton(const char *src, int srclen, u8 *dst, int delim,
	     const char **end);

#endif
