/* SPDX-License-Identifier: GPL-2.0-only */
/* <asm/byteorder.h>, <asm/unaligned.h>: duplicated over <endian.h>. */
#ifndef KMIRROR_KCOMPAT_BYTEORDER_H
#define KMIRROR_KCOMPAT_BYTEORDER_H

#include <endian.h>
#include <string.h>

#define le16_to_cpu(x) le16toh(x)
#define le32_to_cpu(x) le32toh(x)
#define le64_to_cpu(x) le64toh(x)
#define be16_to_cpu(x) be16toh(x)
#define be32_to_cpu(x) be32toh(x)
#define be64_to_cpu(x) be64toh(x)
#define cpu_to_le16(x) htole16(x)
#define cpu_to_le32(x) htole32(x)
#define cpu_to_le64(x) htole64(x)
#define cpu_to_be16(x) htobe16(x)
#define cpu_to_be32(x) htobe32(x)
#define cpu_to_be64(x) htobe64(x)

static inline u32 get_unaligned_le32(const void *p)
{
	u32 v;

	memcpy(&v, p, sizeof(v));
	return le32toh(v);
}

static inline u32 get_unaligned_be32(const void *p)
{
	u32 v;

	memcpy(&v, p, sizeof(v));
	return be32toh(v);
}

static inline u64 get_unaligned_le64(const void *p)
{
	u64 v;

	memcpy(&v, p, sizeof(v));
	return le64toh(v);
}

static inline u64 get_unaligned_be64(const void *p)
{
	u64 v;

	memcpy(&v, p, sizeof(v));
	return be64toh(v);
}

static inline void put_unaligned_be32(u32 val, void *p)
{
	val = htobe32(val);
	memcpy(p, &val, sizeof(val));
}

static inline void put_unaligned_le32(u32 val, void *p)
{
	val = htole32(val);
	memcpy(p, &val, sizeof(val));
}

static inline void put_unaligned_le64(u64 val, void *p)
{
	val = htole64(val);
	memcpy(p, &val, sizeof(val));
}

static inline void put_unaligned_be64(u64 val, void *p)
{
	val = htobe64(val);
	memcpy(p, &val, sizeof(val));
}

#endif
