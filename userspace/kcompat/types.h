/* SPDX-License-Identifier: GPL-2.0-only */
/* <linux/types.h>: duplicated (fixed-width kernel types). */
#ifndef KMIRROR_KCOMPAT_TYPES_H
#define KMIRROR_KCOMPAT_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <limits.h>
#include <sys/types.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

/* Endian-annotated types: sparse checks them in the kernel, not here. */
typedef uint16_t __le16;
typedef uint16_t __be16;
typedef uint32_t __le32;
typedef uint32_t __be32;
typedef uint64_t __le64;
typedef uint64_t __be64;

#ifndef NAME_MAX
#define NAME_MAX 255
#endif

#endif
