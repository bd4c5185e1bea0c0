/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * CRC32C (Castagnoli, reflected polynomial 0x82F63B78), the checksum of
 * iSCSI, ext4 and btrfs.  Private to kmirror-cachefs (crc32c.c).
 */
#ifndef KC_CRC32C_H
#define KC_CRC32C_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* CRC32C of @len bytes at @buf, continuing @crc (0 to start). */
uint32_t kc_crc32c(uint32_t crc, const void *buf, size_t len);
/* The table-driven version alone (the unit test compares both). */
uint32_t kc_crc32c_sw(uint32_t crc, const void *buf, size_t len);
/* True if kc_crc32c() uses the CPU's crc32 instruction. */
bool kc_crc32c_hw(void);

#endif /* KC_CRC32C_H */
