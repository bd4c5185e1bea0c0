/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Vector files name a return value "ok" (or "0") or by its errno macro
 * ("EINVAL" for -EINVAL).  Shared by the cmocka suites; include after
 * <cmocka.h>.
 */
#ifndef KMT_ERRNO_H
#define KMT_ERRNO_H

#include <errno.h>
#include <string.h>

#define KMT_E(name) { #name, -name }

static const struct {
	const char *name;
	int err;
} kmt_errnos[] = {
	{ "ok", 0 }, { "0", 0 },
	KMT_E(EACCES), KMT_E(EBADMSG), KMT_E(EBUSY), KMT_E(EDOM),
	KMT_E(EEXIST), KMT_E(EINVAL), KMT_E(EIO), KMT_E(EMSGSIZE),
	KMT_E(ENAMETOOLONG), KMT_E(ENOBUFS), KMT_E(ENODATA), KMT_E(ENOENT),
	KMT_E(ENOSPC), KMT_E(ENOTEMPTY), KMT_E(EOPNOTSUPP), KMT_E(EPROTO),
	KMT_E(ERANGE), KMT_E(ESTALE),
};

/* The value @name stands for; an unknown name fails the test. */
static inline int kmt_errno(const char *name, const char *file, int line)
{
	unsigned int i;

	for (i = 0; i < sizeof(kmt_errnos) / sizeof(kmt_errnos[0]); i++)
		if (!strcmp(kmt_errnos[i].name, name))
			return kmt_errnos[i].err;
	fail_msg("%s line %d: unknown errno name %s", file, line, name);
	return 1;
}

#endif
