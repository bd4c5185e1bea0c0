/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the fuzz targets of kmirror-cachefs's files (fuzz_index_file.c,
 * fuzz_pins.c) give the daemon's code in place of base.c: its warnings
 * are formatted, so that a bad argument still shows, and dropped.
 * Included by one file of each target.
 */
#ifndef KMIRROR_FUZZ_CACHEFS_H
#define KMIRROR_FUZZ_CACHEFS_H

#include <stdarg.h>
#include <stdio.h>

#include "cachefs.h"

void kc_warn_limited(struct kc_ratelimit *rl, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	(void)rl;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
}

#endif /* KMIRROR_FUZZ_CACHEFS_H */
