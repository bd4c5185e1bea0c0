// SPDX-License-Identifier: GPL-2.0-only
/*
 * CRC32C of cached granules (sums.c).  On x86-64 with SSE4.2 the crc32
 * instruction does 8 bytes a step (several GB/s: a warm read with
 * verification costs little); elsewhere a slice-by-8 table does.  The
 * choice is made once, at the first call, from the CPU's feature bits,
 * so one binary runs on any x86-64.  Debian packages no maintained C
 * crc32c library, hence this file.
 */
#include <pthread.h>
#include <string.h>

#include "crc32c.h"

#define KC_CRC32C_POLY	0x82F63B78u	/* reflected Castagnoli */

static uint32_t kc_crc_table[8][256];
static pthread_once_t kc_crc_once = PTHREAD_ONCE_INIT;
static bool kc_crc_use_hw;

static void kc_crc_init(void)
{
	uint32_t c;
	int i, j;

	for (i = 0; i < 256; i++) {
		c = i;
		for (j = 0; j < 8; j++)
			c = c & 1 ? (c >> 1) ^ KC_CRC32C_POLY : c >> 1;
		kc_crc_table[0][i] = c;
	}
	for (i = 0; i < 256; i++)
		for (j = 1; j < 8; j++)
			kc_crc_table[j][i] = (kc_crc_table[j - 1][i] >> 8) ^
				kc_crc_table[0][kc_crc_table[j - 1][i] & 0xff];
#if defined(__x86_64__)
	kc_crc_use_hw = __builtin_cpu_supports("sse4.2");
#endif
}

/* Slice-by-8: eight table look-ups per 8 bytes (little-endian words;
 * a big-endian CPU goes byte by byte). */
static uint32_t kc_crc_sw(uint32_t crc, const uint8_t *p, size_t len)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t v;

	for (; len >= 8; len -= 8, p += 8) {
		memcpy(&v, p, 8);
		v ^= crc;
		crc = kc_crc_table[7][v & 0xff] ^
		      kc_crc_table[6][(v >> 8) & 0xff] ^
		      kc_crc_table[5][(v >> 16) & 0xff] ^
		      kc_crc_table[4][(v >> 24) & 0xff] ^
		      kc_crc_table[3][(v >> 32) & 0xff] ^
		      kc_crc_table[2][(v >> 40) & 0xff] ^
		      kc_crc_table[1][(v >> 48) & 0xff] ^
		      kc_crc_table[0][v >> 56];
	}
#endif
	while (len--)
		crc = (crc >> 8) ^ kc_crc_table[0][(crc ^ *p++) & 0xff];
	return crc;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2")))
static uint32_t kc_crc_hw(uint32_t crc, const uint8_t *p, size_t len)
{
	uint64_t c = crc, v;

	for (; len >= 8; len -= 8, p += 8) {
		memcpy(&v, p, 8);
		c = __builtin_ia32_crc32di(c, v);
	}
	crc = c;
	while (len--)
		crc = __builtin_ia32_crc32qi(crc, *p++);
	return crc;
}
#endif

uint32_t kc_crc32c_sw(uint32_t crc, const void *buf, size_t len)
{
	pthread_once(&kc_crc_once, kc_crc_init);
	return ~kc_crc_sw(~crc, buf, len);
}

bool kc_crc32c_hw(void)
{
	pthread_once(&kc_crc_once, kc_crc_init);
	return kc_crc_use_hw;
}

uint32_t kc_crc32c(uint32_t crc, const void *buf, size_t len)
{
#if defined(__x86_64__)
	if (kc_crc32c_hw())
		return ~kc_crc_hw(~crc, buf, len);
#endif
	return kc_crc32c_sw(crc, buf, len);
}
