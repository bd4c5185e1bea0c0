// SPDX-License-Identifier: GPL-2.0-only
/* The userspace kcompat's min(), max(), ilog2()...: test_minmax.c's subject. */
#include "kcompat.h"

#define MM_SIDE s_
#define MM_DEFINE
#include "minmax_ops.h"
