/* SPDX-License-Identifier: GPL-2.0-only */
/* <linux/slab.h> for the KUnit suites in userspace: the core's kcompat. */
#include "kcompat.h"
