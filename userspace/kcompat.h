/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kcompat.h - the one header the core includes, userspace flavour.
 *
 * The core (core/) is kernel C.  In the kernel, kernel/kcompat.h maps these
 * names onto <linux/...>; here each primitive has one small header under
 * kcompat/, named after the kernel header it stands in for.  Every entry is
 * marked in its own file as one of:
 *
 *   duplicated - same definition as the kernel (must stay bit-identical)
 *   stubbed    - kernel facility with no userspace meaning (no-op by design)
 *   custom     - userspace implementation with the kernel's contract
 *
 * If this grows past a few hundred lines, the core is asking for too much.
 */
#ifndef KMIRROR_KCOMPAT_H
#define KMIRROR_KCOMPAT_H

#include "kcompat/types.h"
#include "kcompat/compiler_types.h"
#include "kcompat/kernel.h"
#include "kcompat/minmax.h"
#include "kcompat/byteorder.h"
#include "kcompat/bitops.h"
#include "kcompat/log2.h"
#include "kcompat/errno.h"
#include "kcompat/slab.h"
#include "kcompat/printk.h"
#include "kcompat/ctype.h"
#include "kcompat/page.h"
#include "kcompat/err.h"
#include "kcompat/atomic.h"
#include "kcompat/inet.h"

#endif /* KMIRROR_KCOMPAT_H */
