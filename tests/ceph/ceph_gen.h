/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Random CephFS mount sources and option strings for the differential
 * test and the fuzz seeds: mostly well-formed pieces (IPv4, IPv6 with and
 * without brackets and ports, fsids in many spellings, paths with runs of
 * '/'), joined right or wrong, then sometimes mutated byte by byte.
 */
#ifndef CEPH_GEN_H
#define CEPH_GEN_H

#include <stddef.h>
#include <stdint.h>

struct ceph_gen {
	uint64_t state;
	int clean;	/* this case: well-formed pieces only */
};

void ceph_gen_seed(struct ceph_gen *g, uint64_t seed);
uint64_t ceph_gen_next(struct ceph_gen *g);
/* A source into @src and an option string into @opts (NUL-terminated). */
void ceph_gen_case(struct ceph_gen *g, char *src, size_t src_size,
		   char *opts, size_t opts_size);

#endif
