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
/*
 * The crc32 instruction takes 3 cycles and the next step needs its
 * result: one lane runs at a third of what the CPU can do, and a warm
 * read's first pass with verify=on spent most of its extra time here.
 * So blocks of three lanes of KC_LANE bytes are summed side by side and
 * joined: the CRC of A||B is the CRC of A carried over |B| zero bytes,
 * xor the CRC of B from 0 (the register is linear), and carrying over
 * KC_LANE zeros is a table look-up per byte of the register (kc_shift,
 * made at start from the instruction itself).
 */
#define KC_LANE		4096u

static uint32_t kc_shift[4][256];

__attribute__((target("sse4.2")))
static uint32_t kc_crc_hw1(uint32_t crc, const uint8_t *p, size_t len)
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

/* The register @x carried over KC_LANE zero bytes. */
static uint32_t kc_lane_shift(uint32_t x)
{
	return kc_shift[0][x & 0xff] ^ kc_shift[1][(x >> 8) & 0xff] ^
	       kc_shift[2][(x >> 16) & 0xff] ^ kc_shift[3][x >> 24];
}

static void kc_shift_init(void)
{
	static const uint8_t zeros[KC_LANE];
	uint32_t basis[32], x;
	int i, k, b;

	for (i = 0; i < 32; i++)
		basis[i] = kc_crc_hw1(1u << i, zeros, KC_LANE);
	for (k = 0; k < 4; k++) {
		for (b = 0; b < 256; b++) {
			for (x = 0, i = 0; i < 8; i++)
				if (b & (1 << i))
					x ^= basis[8 * k + i];
			kc_shift[k][b] = x;
		}
	}
}

__attribute__((target("sse4.2")))
static uint32_t kc_crc_hw(uint32_t crc, const uint8_t *p, size_t len)
{
	uint64_t a, b, c, v;
	size_t i;

	for (; len >= 3 * KC_LANE; len -= 3 * KC_LANE, p += 3 * KC_LANE) {
		a = crc;
		b = c = 0;
		for (i = 0; i < KC_LANE; i += 8) {
			memcpy(&v, p + i, 8);
			a = __builtin_ia32_crc32di(a, v);
			memcpy(&v, p + KC_LANE + i, 8);
			b = __builtin_ia32_crc32di(b, v);
			memcpy(&v, p + 2 * KC_LANE + i, 8);
			c = __builtin_ia32_crc32di(c, v);
		}
		crc = kc_lane_shift(kc_lane_shift(a) ^ b) ^ c;
	}
	return kc_crc_hw1(crc, p, len);
}
#endif

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
	if (kc_crc_use_hw)
		kc_shift_init();
#endif
}

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
