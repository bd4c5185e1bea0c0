/* SPDX-License-Identifier: GPL-2.0-only */
/* <linux/sizes.h>: duplicated, the sizes the suites use. */
#ifndef KMIRROR_SHIM_LINUX_SIZES_H
#define KMIRROR_SHIM_LINUX_SIZES_H
#define SZ_1K	0x00000400
#define SZ_4K	0x00001000
#define SZ_1M	0x00100000
#endif
