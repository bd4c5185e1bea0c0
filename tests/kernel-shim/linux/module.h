/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * <linux/module.h> for kernel code in userspace (the KUnit suites, the
 * tree's fs/fscache/cookie.c): stubbed, no modules.
 */
#ifndef KMIRROR_SHIM_LINUX_MODULE_H
#define KMIRROR_SHIM_LINUX_MODULE_H
#define MODULE_LICENSE(s)
#define MODULE_DESCRIPTION(s)
#define MODULE_IMPORT_NS(ns)
#endif
