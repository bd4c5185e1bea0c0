// SPDX-License-Identifier: GPL-2.0-only
/*
 * mm_probe: what the running kernel offers the mm selftests, for
 * kernel/guest/jobs/mm.sh, which cannot ask a system call from the shell.
 *
 *   mm_probe madvise     exit 0 if madvise(2) exists (CONFIG_ADVISE_SYSCALLS),
 *                        1 if it is ENOSYS
 *   mm_probe thp         exit 0 if a 2 MiB-aligned anonymous fault gets a
 *                        transparent huge page (AnonHugePages grows), 1 if not
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "meminfo.h"

#define THP_SZ	(2UL << 20)

static int probe_thp(void)
{
	char *p = mmap(NULL, 2 * THP_SZ, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	long before = meminfo_kb("AnonHugePages"), after;
	char *a;

	if (p == MAP_FAILED || before < 0)
		return 1;
	a = (char *)(((uintptr_t)p + THP_SZ - 1) & ~(THP_SZ - 1));
	memset(a, 1, THP_SZ);
	after = meminfo_kb("AnonHugePages");
	munmap(p, 2 * THP_SZ);
	return after > before ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "madvise") == 0)
		return madvise(NULL, 0, MADV_NORMAL) && errno == ENOSYS;
	if (argc == 2 && strcmp(argv[1], "thp") == 0)
		return probe_thp();
	fprintf(stderr, "usage: mm_probe madvise|thp\n");
	return 2;
}
