/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the CephFS parser's two files (kmc_ceph.c: sources, options, fsid,
 * path, volume key; kmc_ceph_addr.c: monitor and ip addresses) share:
 * recording errors and quirks into a struct kmc_ceph_diag, and hex digits.
 * Not part of the core's interface.
 */
#ifndef KMC_CEPH_PRIV_H
#define KMC_CEPH_PRIV_H

#include "kmc_ceph.h"

/* Record the first error; always returns -EINVAL. */
static inline int kmc_ceph_fail(struct kmc_ceph_diag *d,
				enum kmc_ceph_code code, const char *where,
				size_t len)
{
	if (d && d->code == KMC_CEPH_OK) {
		d->code = code;
		d->where.ptr = where;
		d->where.len = len;
	}
	return -EINVAL;
}

/* Set a quirk bit; the first quirk met keeps its code and position. */
static inline void kmc_ceph_quirk(struct kmc_ceph_diag *d,
				  enum kmc_ceph_code code, const char *where,
				  size_t len)
{
	if (!d)
		return;
	if (!d->quirks) {
		d->quirk_code = code;
		d->quirk_where.ptr = where;
		d->quirk_where.len = len;
	}
	d->quirks |= KMC_CEPH_QUIRK(code);
}

/* hex_asc_lo() of include/linux/kernel.h: the low nibble of @v. */
static inline char kmc_ceph_hexdigit(unsigned int v)
{
	return "0123456789abcdef"[v & 0xf];
}

#endif /* KMC_CEPH_PRIV_H */
