/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The one /proc/meminfo reader of the guest programs (header-only: each
 * program is one static binary built from one .c file).
 */
#ifndef KMIRROR_GUEST_MEMINFO_H
#define KMIRROR_GUEST_MEMINFO_H

#include <stdio.h>
#include <string.h>

/* The value of /proc/meminfo's "@key:" line in kB, -1 if there is none. */
static inline long meminfo_kb(const char *key)
{
	FILE *f = fopen("/proc/meminfo", "r");
	size_t klen = strlen(key);
	char line[128];
	long kb = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, klen) == 0 && line[klen] == ':' &&
		    sscanf(line + klen + 1, "%ld", &kb) == 1)
			break;
	}
	fclose(f);
	return kb;
}

#endif
