/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The 6.1 tree's CephFS source parsing, compiled from the unpacked tree
 * (kernel_ceph.c), as one call: what a legacy mount(2) of type "ceph"
 * does with its source and option string before it connects anywhere.
 */
#ifndef KERNEL_CEPH_H
#define KERNEL_CEPH_H

#include <stdbool.h>
#include <stdint.h>

#define KCEPH_MAX_MON	32	/* CEPH_MAX_MON, plus the count bug's one */

struct kceph_mon {
	int family;		/* 4 or 6 */
	uint8_t ip[16];
	uint16_t port;
	char str[64];		/* ceph_pr_addr() without its "(type)" */
};

struct kceph_result {
	int ret;
	char err[512];		/* the first error logged, "" if none */
	char err_prefix[16];	/* its log prefix: "ceph", "libceph" or "" */
	bool new_syntax;
	char *name;		/* opts->name */
	char *fs_name;		/* fsopt->mds_namespace */
	char *path;		/* fsopt->server_path */
	bool fscache;
	char *uniq;		/* fsopt->fscache_uniq */
	bool have_src_fsid;	/* what ceph_parse_new_source() parsed */
	uint8_t src_fsid[16];
	bool have_opt_fsid;	/* CEPH_OPT_FSID and opts->fsid */
	uint8_t opt_fsid[16];
	bool have_mon_addr;	/* fsopt->mon_addr */
	int num_mon;
	struct kceph_mon mon[KCEPH_MAX_MON];
	char *volume_key;	/* ceph_fscache_register_fs()'s, if an fsid */
};

/*
 * Parse @src and @opts (may be NULL) with the tree's code; @volume_fsid
 * (may be NULL) stands for the fsid the monitors would report, which
 * ceph_fscache_register_fs() puts in the volume key.  Returns r->ret.
 */
int kceph_mount(const char *src, const char *opts, const uint8_t *volume_fsid,
		struct kceph_result *r);
void kceph_result_free(struct kceph_result *r);

#endif
