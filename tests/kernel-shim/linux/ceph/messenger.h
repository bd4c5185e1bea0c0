/* SPDX-License-Identifier: GPL-2.0-only */
/* <linux/ceph/messenger.h>: the core's kcompat has what the suites use. */
#include "kcompat.h"
