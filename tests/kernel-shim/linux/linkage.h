/* SPDX-License-Identifier: GPL-2.0-only */
/* <linux/linkage.h> for kmv_data.S in userspace: duplicated (x86). */
#ifndef KMIRROR_SHIM_LINUX_LINKAGE_H
#define KMIRROR_SHIM_LINUX_LINKAGE_H
#define ASM_NL ;
#endif
