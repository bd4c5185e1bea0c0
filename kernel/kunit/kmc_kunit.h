/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers shared by the KUnit suites of the kmirror core, the kernel
 * counterparts of tests/unit/kmt_errno.h: vector files name a return value
 * "ok" (or "0") or by its errno macro ("EINVAL" for -EINVAL).
 */
#ifndef KMC_KUNIT_H
#define KMC_KUNIT_H

#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/slab.h>
#include <linux/string.h>

#define KMK_E(name) { #name, -(name) }

/* The value @name stands for; an unknown name fails the test. */
static inline int kmk_errno(struct kunit *test, const char *name,
			    const char *file, int line)
{
	static const struct {
		const char *name;
		int err;
	} errnos[] = {
		{ "ok", 0 }, { "0", 0 },
		KMK_E(EACCES), KMK_E(EBADMSG), KMK_E(EBUSY), KMK_E(EDOM),
		KMK_E(EEXIST), KMK_E(EINVAL), KMK_E(EIO), KMK_E(EMSGSIZE),
		KMK_E(ENAMETOOLONG), KMK_E(ENOBUFS), KMK_E(ENODATA),
		KMK_E(ENOENT), KMK_E(ENOSPC), KMK_E(ENOTEMPTY),
		KMK_E(EOPNOTSUPP), KMK_E(EPROTO), KMK_E(ERANGE), KMK_E(ESTALE),
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(errnos); i++)
		if (!strcmp(errnos[i].name, name))
			return errnos[i].err;
	KUNIT_FAIL(test, "%s line %d: unknown errno name %s", file, line,
		   name);
	return 1;
}

/*
 * A test-managed copy of @len bytes of @p in a buffer of exactly that
 * size (1 byte for none), as the cmocka suites make for valgrind.
 */
static inline void *kmk_exact(struct kunit *test, const void *p, size_t len)
{
	void *q = kunit_kmalloc(test, len ? len : 1, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, q);
	if (len)
		memcpy(q, p, len);
	return q;
}

#endif /* KMC_KUNIT_H */
