/* SPDX-License-Identifier: GPL-2.0-only */
/* <linux/errno.h>: duplicated; the core returns negative errno values. */
#ifndef KMIRROR_KCOMPAT_ERRNO_H
#define KMIRROR_KCOMPAT_ERRNO_H

#include <errno.h>

#ifndef EOPNOTSUPP
#define EOPNOTSUPP ENOTSUP
#endif

#endif
