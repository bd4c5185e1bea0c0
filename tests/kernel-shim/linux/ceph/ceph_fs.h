/* SPDX-License-Identifier: GPL-2.0-only */
/* <linux/ceph/ceph_fs.h>: duplicated, what the KUnit suites use. */
#ifndef KMIRROR_SHIM_LINUX_CEPH_CEPH_FS_H
#define KMIRROR_SHIM_LINUX_CEPH_CEPH_FS_H
#define CEPH_MAX_MON	31
#endif
