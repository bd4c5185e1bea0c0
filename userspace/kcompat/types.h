/* SPDX-License-Identifier: GPL-2.0-only */
/* <linux/types.h>: duplicated (the kernel's fixed-width types). */
#ifndef KMIRROR_KCOMPAT_TYPES_H
#define KMIRROR_KCOMPAT_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <limits.h>
#include <sys/types.h>

/*
 * __le32, __be64 and friends come from the kernel's UAPI <linux/types.h>
 * (linux-libc-dev), which <sys/stat.h> pulls in anyway for statx(): one
 * definition, no clash.  Sparse checks their endianness in the kernel only.
 */
#include <linux/types.h>

/* Fixed-width types as libc has them, so userspace glue mixes freely. */
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

#ifndef NAME_MAX
#define NAME_MAX 255
#endif

#endif
