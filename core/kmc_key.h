/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cachefiles key cooking: a cookie's binary index key becomes the file name
 * of its backing object, bit-identical to cachefiles_cook_key() in
 * fs/cachefiles/key.c, plus the inverse.
 *
 * Encodings, chosen in this order:
 *   D<key>            every byte is printable and not '/'
 *   S<hex>,<hex>...   32-bit big-endian words, zero words left empty
 *   T<hex>,<hex>...   the same, little-endian (the shorter of S/T wins,
 *                     S on a tie), used when shorter than base64
 *   E<pad><base64>    3 bytes per 4 characters, <pad> = '0' + fill bytes
 *
 * Buffer contract, explicit here where the kernel's is implicit: the kernel
 * reads S/T words past key_len and relies on fscache's zero padding.
 * kmc_cook_key() reads exactly @keylen bytes and treats the missing bytes of
 * a last partial word as zero, which gives the kernel's names for every key
 * fscache can hold.
 */
#ifndef KMC_KEY_H
#define KMC_KEY_H

#include "kcompat.h"

/* cachefiles BUG()s above this; the core refuses instead. */
#define KMC_KEY_MAX		(NAME_MAX - 3)
/* Longest cooked name, base64 of KMC_KEY_MAX bytes, without the NUL. */
#define KMC_COOKED_MAX		(2 + 4 * DIV_ROUND_UP(KMC_KEY_MAX, 3))
/* Longest uncooked key: S/T names carry whole words. */
#define KMC_UNCOOKED_MAX	round_up(KMC_KEY_MAX, 4)

int kmc_cook_key(const u8 *key, unsigned int keylen, char *name, size_t size);
/* The length kmc_cook_key() would return, without cooking. */
int kmc_cooked_len(const u8 *key, unsigned int keylen);
int kmc_uncook_key(const char *name, size_t namelen, u8 *key, size_t size);

#endif
