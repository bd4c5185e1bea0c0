/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Page-table trace generator: simulates processes, the page allocator, the
 * page cache, THP and DAX, and writes what mm/page_table_check.c would see
 * as a trace in the `kmirror ptc replay` format.
 *
 * The simulation keeps its own per-page mapping counts and only emits a
 * line that the "Double mapping detection logic" allows, so a trace
 * without injection must replay clean.  With injection, exactly one line
 * breaks one rule, chosen from the simulated state so that its rule is
 * certain; the simulation then carries on as if the line had not been
 * there, so that lines follow the violation.
 *
 * What is simulated (x86-64 6.1 paths, all through set_*_at / *_get_and_clear):
 *   anonymous faults (alloc + set pte anon rw), anonymous THP faults
 *   (alloc order 9 + set pmd), shared and private file faults from a page
 *   cache, shmem THP, DAX mapped by PUD/PMD/PTE, fork (the child maps every
 *   page read-only; the parent's write-protect does not go through the
 *   check), write faults (reuse when exclusive, else COW to a new page:
 *   clear old + set new rw), mprotect (clear + set), THP PMD split (clear
 *   pmd + 512 set pte), munmap and exit, page free and LIFO reuse, page
 *   cache eviction.
 */
#ifndef KMIRROR_PTC_GEN_H
#define KMIRROR_PTC_GEN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct ptc_gen_opts {
	uint64_t seed;
	unsigned int events;	/* simulated events (lines: several each) */
	int inject;		/* a verdict to inject, 0: none, -1: any */
	uint64_t base;		/* first PFN of RAM; UINT64_MAX: from seed */
	unsigned int ram_gib;	/* RAM size in GiB (1..64) */
	bool dax;		/* a 1 GiB DAX region after RAM (PUD maps) */
	bool inject_last;	/* inject after the last event, not at random */
};

struct ptc_gen_result {
	unsigned long lines;		/* lines written */
	unsigned long inject_line;	/* line of the injected violation */
	int inject_verdict;		/* its rule (kmc_ptc_verdict) */
};

/* Defaults: 1000 events, 1 GiB RAM, DAX on, base from the seed. */
void ptc_gen_defaults(struct ptc_gen_opts *o, uint64_t seed);

/* True if @verdict can be injected (every rule but file-map-overflow). */
bool ptc_gen_can_inject(int verdict);

/* Write a trace to @out.  0, or -1 (out of memory, bad options). */
int ptc_gen(const struct ptc_gen_opts *o, FILE *out,
	    struct ptc_gen_result *res);

#endif
