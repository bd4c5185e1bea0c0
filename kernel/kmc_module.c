// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the kmirror core needs to be a module (CONFIG_KMIRROR_CORE=m, when
 * only modules select it): its licence and description.  The core's own
 * sources stay free of module boilerplate, as its userspace build has none.
 */
#include <linux/module.h>

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kmirror core: fscache, cachefiles, page-table check and CephFS logic");
