/* SPDX-License-Identifier: GPL-2.0-only */
/* <linux/kernel.h> for the KUnit suites in userspace: kcompat, kstrto*(). */
#include "kcompat.h"
#include <linux/kstrtox.h>
