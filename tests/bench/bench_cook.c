// SPDX-License-Identifier: GPL-2.0-only
/*
 * Key cooking throughput: the core's kmc_cook_key() against the 6.1 tree's
 * own cachefiles_cook_key(), compiled from the unpacked tree, on the same
 * keys, in one run.  Outputs must be identical (that part is pass/fail);
 * the timings are reported, not judged.
 *
 * The kernel's function kmallocs every name; the core writes into the
 * caller's buffer.  "core+alloc" adds a kmalloc and copy per name so the
 * ratio without that design difference is visible too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"
#include "kmc_key.h"

#define NKEYS	4096
#define ROUNDS	200

int kmirror_diff_bugs;

struct bkey {
	u8 *padded;	/* kernel contract: zero-padded to 4 */
	unsigned int len;
};

static struct bkey keys[NKEYS];

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Mixed keys like real cookies: 8-byte inode numbers, text, binary. */
static void make_keys(void)
{
	unsigned int i, j;
	u64 x = 0x9e3779b97f4a7c15ULL;

	for (i = 0; i < NKEYS; i++) {
		unsigned int cls = i % 4;

		keys[i].len = cls == 0 ? 8 : 1 + (i * 37) % 64;
		keys[i].padded = calloc(1, round_up(keys[i].len, 4) + 4);
		for (j = 0; j < keys[i].len; j++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			if (cls == 0)
				keys[i].padded[j] = j < 3 ? (u8)x : 0;
			else if (cls == 1)
				keys[i].padded[j] = 'a' + x % 26;
			else
				keys[i].padded[j] = (u8)x;
		}
	}
}

static double run_kernel(void)
{
	struct fscache_cookie c;
	struct cachefiles_object o = { .cookie = &c };
	double t = now();
	unsigned int r, i;

	for (r = 0; r < ROUNDS; r++)
		for (i = 0; i < NKEYS; i++) {
			c.key = keys[i].padded;
			c.key_len = keys[i].len;
			cachefiles_cook_key(&o);
			kfree(o.d_name);
		}
	return now() - t;
}

static double run_core(bool alloc)
{
	char name[KMC_COOKED_MAX + 1];
	double t = now();
	unsigned int r, i;
	int len;

	for (r = 0; r < ROUNDS; r++)
		for (i = 0; i < NKEYS; i++) {
			len = kmc_cook_key(keys[i].padded, keys[i].len, name,
					   sizeof(name));
			if (alloc) {
				char *p = kmalloc(len + 1, GFP_KERNEL);

				memcpy(p, name, len + 1);
				kfree(p);
			}
		}
	__asm__ volatile("" : : "r"(name) : "memory");
	return now() - t;
}

static int check_identical(void)
{
	struct fscache_cookie c;
	struct cachefiles_object o = { .cookie = &c };
	char name[KMC_COOKED_MAX + 1];
	unsigned int i;
	int bad = 0;

	for (i = 0; i < NKEYS; i++) {
		c.key = keys[i].padded;
		c.key_len = keys[i].len;
		cachefiles_cook_key(&o);
		kmc_cook_key(keys[i].padded, keys[i].len, name, sizeof(name));
		bad += strcmp(name, o.d_name) != 0;
		kfree(o.d_name);
	}
	return bad;
}

int main(void)
{
	double tk = 1e9, tc = 1e9, ta = 1e9;
	unsigned int i;
	int bad;

	make_keys();
	bad = check_identical();
	for (i = 0; i < 5; i++) {	/* best of 5, interleaved */
		tk = min(tk, run_kernel());
		tc = min(tc, run_core(false));
		ta = min(ta, run_core(true));
	}
	printf("cook: kernel %.1f ns/key, core %.1f ns/key, core+alloc %.1f ns/key\n",
	       tk * 1e9 / (NKEYS * ROUNDS), tc * 1e9 / (NKEYS * ROUNDS),
	       ta * 1e9 / (NKEYS * ROUNDS));
	printf("cook: core/kernel speed-up %.2fx (goal >= 3x), with alloc %.2fx; %d of %d names differ\n",
	       tk / tc, tk / ta, bad, NKEYS);
	for (i = 0; i < NKEYS; i++)
		free(keys[i].padded);
	return bad ? 1 : 0;
}
