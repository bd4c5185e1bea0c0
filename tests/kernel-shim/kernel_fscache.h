/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Prelude for the fscache_hash() text extracted from fs/fscache/main.c of the
 * tree (see extract_fscache_hash.py) and its declaration for the tests.
 */
#ifndef KMIRROR_DIFF_KERNEL_FSCACHE_H
#define KMIRROR_DIFF_KERNEL_FSCACHE_H

#include "kcompat.h"

unsigned int fscache_hash(unsigned int salt, const void *data, size_t len);

#endif
