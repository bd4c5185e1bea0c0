/* SPDX-License-Identifier: GPL-2.0-only */
/* <linux/slab.h> for the tree's own sources: the userspace kcompat's. */
#include "kcompat.h"
