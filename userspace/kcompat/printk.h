/* SPDX-License-Identifier: GPL-2.0-only */
/* <linux/printk.h>: custom, to stderr with the kernel's level prefixes. */
#ifndef KMIRROR_KCOMPAT_PRINTK_H
#define KMIRROR_KCOMPAT_PRINTK_H

#include <stdio.h>

#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif

#define pr_err(fmt, ...) fprintf(stderr, "error: " pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...) fprintf(stderr, "warning: " pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...) fprintf(stderr, pr_fmt(fmt), ##__VA_ARGS__)
#define pr_debug(fmt, ...) do { } while (0)

#endif
