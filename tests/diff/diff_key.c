// SPDX-License-Identifier: GPL-2.0-only
/*
 * Differential test: cachefiles_cook_key() and fscache_hash() compiled from
 * the 6.1 tree against the core's kmc_cook_key() and kmc_hash().
 *
 * Keys cover every length 0..255 in four classes (printable, sparse binary,
 * random bytes, half zero bytes).  The kernel gets its contract (a
 * zero-padded buffer); the core gets an exact-size heap buffer so that
 * ASan/valgrind catch any over-read, and cooks again into an exact-size
 * name buffer as cachefiles does, to catch any over-write.  Usage: diff_key [-n COUNT] [-s SEED] [-v hash|cook]
 *
 * -v prints test-vector lines computed by the kernel's code (for
 * tests/vectors/NAME.vec) instead of comparing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "kernel_fscache.h"
#include "kmc_hash.h"
#include "kmc_key.h"

int kmirror_diff_bugs;

static u64 rng_state;

static u64 rng(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1DULL;
}

enum key_class { KEY_PRINTABLE, KEY_SPARSE, KEY_RANDOM, KEY_HALF_ZERO,
		 NR_KEY_CLASSES };

static void make_key(u8 *key, unsigned int len, enum key_class cls)
{
	unsigned int i;

	for (i = 0; i < len; i++) {
		switch (cls) {
		case KEY_PRINTABLE:
			key[i] = 0x20 + rng() % 0x5f;
			break;
		case KEY_SPARSE:
			key[i] = rng() % 8 ? 0 : (u8)rng();
			break;
		case KEY_HALF_ZERO:	/* S, T and E all win some */
			key[i] = rng() % 2 ? 0 : (u8)rng();
			break;
		default:
			key[i] = (u8)rng();
		}
	}
}

static void dump(const char *what, const u8 *key, unsigned int len)
{
	unsigned int i;

	fprintf(stderr, "%s [%u] ", what, len);
	for (i = 0; i < len; i++)
		fprintf(stderr, "%02x", key[i]);
	fputc('\n', stderr);
}

/* Cook with the kernel's code; NULL if it refused (BUG_ON). */
static char *kernel_cook(const u8 *key, unsigned int len)
{
	struct fscache_cookie cookie = { .key_len = len };
	struct cachefiles_object obj = { .cookie = &cookie };
	u8 *padded = calloc(1, round_up(len, 4) + 4);

	memcpy(padded, key, len);
	cookie.key = padded;
	if (!cachefiles_cook_key(&obj))
		obj.d_name = NULL;
	free(padded);
	return obj.d_name;
}

/*
 * The way cachefiles cooks (patch 0020): kmc_cooked_len(), then a buffer of
 * exactly that many bytes and the NUL, where nothing may be written past
 * the name.  Must give @name, which had a buffer of KMC_COOKED_MAX + 1.
 */
static int check_exact_name(const u8 *key, unsigned int len, const char *name,
			    int ret)
{
	char *exact = malloc(ret + 1);
	int bad = kmc_cooked_len(key, len) != ret ||
		  kmc_cook_key(key, len, exact, ret) != -ENOSPC ||
		  kmc_cook_key(key, len, exact, ret + 1) != ret ||
		  strcmp(exact, name);

	if (bad) {
		dump("exact-size buffer gives another name", key, len);
		fprintf(stderr, "want %s\n", name);
	}
	free(exact);
	return bad;
}

static int check_key(const u8 *key, unsigned int len)
{
	char name[KMC_COOKED_MAX + 1];
	u8 back[KMC_UNCOOKED_MAX];
	u8 *exact = malloc(len ? len : 1);
	char *kname;
	int ret, blen, bugs = kmirror_diff_bugs;

	memcpy(exact, key, len);
	ret = kmc_cook_key(exact, len, name, sizeof(name));
	if (ret >= 0 && check_exact_name(exact, len, name, ret)) {
		free(exact);
		return 1;
	}
	free(exact);
	kname = kernel_cook(key, len);
	if (len > KMC_KEY_MAX) {
		/* The kernel BUG()s on these; the core must refuse. */
		if (ret != -ENAMETOOLONG || kmirror_diff_bugs != bugs + 1) {
			dump("long key not refused by both", key, len);
			return 1;
		}
		return 0;
	}
	if (!kname || ret < 0 || strcmp(kname, name)) {
		dump("cook mismatch", key, len);
		fprintf(stderr, "kernel %s\ncore   %s\n", kname, name);
		kfree(kname);
		return 1;
	}
	kfree(kname);
	blen = kmc_uncook_key(name, ret, back, sizeof(back));
	if (blen < (int)len || blen > (int)round_up(len, 4) ||
	    memcmp(back, key, len) ||
	    (blen > (int)len && memchr(back + len, 0, blen - len) != back + len)) {
		dump("uncook does not give the key back", key, len);
		fprintf(stderr, "name %s -> %d\n", name, blen);
		return 1;
	}
	return 0;
}

/* The kernel hashes aligned words; the core must also take unaligned data. */
static int check_hash(void)
{
	u32 aligned[65];
	u8 unaligned[sizeof(aligned) + 1];
	unsigned int len = 4 * (rng() % 65), i;
	u32 salt = (u32)rng(), want;

	for (i = 0; i < ARRAY_SIZE(aligned); i++)
		aligned[i] = (u32)rng();
	memcpy(unaligned + 1, aligned, len);
	want = fscache_hash(salt, aligned, len);
	if (kmc_hash(salt, aligned, len) == want &&
	    kmc_hash(salt, unaligned + 1, len) == want)
		return 0;
	dump("hash mismatch", (const u8 *)aligned, len);
	return 1;
}

static void print_hex(const void *p, unsigned int len)
{
	const u8 *b = p;
	unsigned int i;

	if (!len)
		putchar('-');
	for (i = 0; i < len; i++)
		printf("%02x", b[i]);
}

/* Vector lines from the kernel's own code, for tests/vectors. */
static void emit_vectors(const char *which)
{
	static const char *const fixed[] = {
		"", "61", "68656c6c6f", "7769746820737061636521", "2f", "00",
		"ff", "00000000", "d3c0ab0000000000", "ffc0ab0000000000",
		"0102030405", "000000010000000200", "7e21", "80818283848586",
	};
	u8 key[256];
	unsigned int i, len;
	char *name;

	for (i = 0; i < ARRAY_SIZE(fixed) + 3 * 24; i++) {
		if (i < ARRAY_SIZE(fixed)) {
			len = strlen(fixed[i]) / 2;
			for (unsigned int j = 0; j < len; j++)
				sscanf(fixed[i] + 2 * j, "%2hhx", &key[j]);
		} else {
			unsigned int k = i - ARRAY_SIZE(fixed);

			len = (k / 3) * 11 % (KMC_KEY_MAX + 1);
			if (k / 3 == 23)
				len = KMC_KEY_MAX;
			make_key(key, len, k % 3);
		}
		if (!strcmp(which, "hash")) {
			u32 salt = i % 2 ? (u32)rng() : 0;
			u32 words[64] = { 0 };

			memcpy(words, key, len);
			printf("%#x ", salt);
			print_hex(words, round_up(len, 4));
			printf(" %#x\n", fscache_hash(salt, words,
							round_up(len, 4)));
			continue;
		}
		name = kernel_cook(key, len);
		print_hex(key, len);
		printf(" %s\n", name);
		kfree(name);
	}
}

int main(int argc, char **argv)
{
	unsigned long n = 1000000, i, failures = 0;
	u8 key[256];
	int opt;

	rng_state = (u64)time(NULL) ^ ((u64)getpid() << 32);
	while ((opt = getopt(argc, argv, "n:s:v:")) != -1) {
		if (opt == 'v') {
			rng_state = 0x6b6d6972726f72ULL;
			emit_vectors(optarg);
			return 0;
		} else if (opt == 'n')
			n = strtoul(optarg, NULL, 0);
		else if (opt == 's')
			rng_state = strtoull(optarg, NULL, 0);
		else
			return 2;
	}
	if (!rng_state)
		rng_state = 1;
	/* memcheck is ~30x slower; a tenth of the keys still covers every
	 * length and class many times over. */
	if (getenv("KMIRROR_UNDER_VALGRIND") && n > 100000)
		n = 100000;
	printf("seed 0x%llx (rerun with -s), %lu keys\n",
	       (unsigned long long)rng_state, n);

	for (i = 0; i < n && failures < 10; i++) {
		unsigned int len = i % 256;

		make_key(key, len, (i / 256) % NR_KEY_CLASSES);
		failures += check_key(key, len);
		failures += check_hash();
	}
	printf("%lu keys and hashes compared, %lu mismatches\n", i, failures);
	return failures ? 1 : 0;
}
