/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kmirror cache put: its inputs, parsed and checked apart from the put
 * itself (cmd_cache_put.c), so that a fuzz target can drive them.
 */
#ifndef KMIRROR_CACHE_PUT_H
#define KMIRROR_CACHE_PUT_H

#include <stddef.h>
#include <stdint.h>

#include "cli.h"
#include "kmirror/cache.h"

/* What one put needs, parsed from the command line. */
struct km_put {
	const char *dir, *vkey, *file;
	uint8_t key[KMIRROR_CACHE_KEY_MAX];
	char name[KMIRROR_CACHE_COOKED_MAX + 1];	/* the cooked key */
	uint8_t aux[KM_AUX_MAX];
	size_t klen, auxlen;
};

/*
 * Parse "DIR VOLUME_KEY HEX FILE [--aux HEX]" (@argv[0] is "put") into
 * @p, checking every key as cachefiles would take it.  KM_EXIT_OK, or
 * the error printed and KM_EXIT_USAGE.
 */
int km_put_parse(int argc, char **argv, struct km_put *p);

/*
 * Open FILE into *@fd, its size in *@size: a regular file itself, never
 * a symlink, FIFO or device.  KM_EXIT_OK, or the error printed.
 */
int km_put_open(const char *file, int *fd, int64_t *size);

#endif
