/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fscache index hash, bit-identical to fscache_hash() in
 * fs/fscache/main.c.  Its low byte picks the cachefiles fan-out directory,
 * so it is on-disk format: never change it.
 */
#ifndef KMC_HASH_H
#define KMC_HASH_H

#include "kcompat.h"

u32 kmc_hash(u32 salt, const void *data, size_t len);

#endif
