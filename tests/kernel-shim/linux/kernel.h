/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * <linux/kernel.h> for the KUnit suites in userspace: kcompat, kstrto*(),
 * and U64_MAX duplicated from <linux/limits.h> (which the kernel's
 * <linux/kernel.h> includes; the shim can not have a linux/limits.h, glibc
 * includes its own).
 */
#include "kcompat.h"
#include <linux/kstrtox.h>

#ifndef U64_MAX
#define U64_MAX		((u64)~0ULL)
#endif
