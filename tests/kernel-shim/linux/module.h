/* SPDX-License-Identifier: GPL-2.0-only */
/* <linux/module.h> for the KUnit suites in userspace: stubbed, no modules. */
#ifndef KMIRROR_SHIM_LINUX_MODULE_H
#define KMIRROR_SHIM_LINUX_MODULE_H
#define MODULE_LICENSE(s)
#define MODULE_DESCRIPTION(s)
#define MODULE_IMPORT_NS(ns)
#endif
