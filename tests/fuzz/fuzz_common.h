/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared by the libFuzzer targets: a bounds-checked reader over the fuzz
 * input, exact-size heap copies (so ASan sees any read past a length), and
 * a CHECK() that reports a broken invariant and aborts, which libFuzzer
 * records as a crash with its reproducer.
 */
#ifndef KMIRROR_FUZZ_COMMON_H
#define KMIRROR_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: CHECK(%s) failed: ",	\
				__FILE__, __LINE__, #cond);		\
			fprintf(stderr, __VA_ARGS__);			\
			fputc('\n', stderr);				\
			abort();					\
		}							\
	} while (0)

struct fz {
	const uint8_t	*p;
	size_t		n;
};

static inline uint8_t fz_u8(struct fz *in)
{
	uint8_t v = 0;

	if (in->n) {
		v = *in->p++;
		in->n--;
	}
	return v;
}

/* Little-endian, @bytes of them (missing bytes read as zero). */
static inline uint64_t fz_uint(struct fz *in, unsigned int bytes)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < bytes; i++)
		v |= (uint64_t)fz_u8(in) << (8 * i);
	return v;
}

/* Up to @len bytes of input, as an exact-size heap copy (*@got long). */
static inline char *fz_take(struct fz *in, size_t len, size_t *got)
{
	char *buf;

	if (len > in->n)
		len = in->n;
	buf = malloc(len ? len : 1);
	memcpy(buf, in->p, len);
	in->p += len;
	in->n -= len;
	*got = len;
	return buf;
}

/* An exact-size heap copy of [data, data + len). */
static inline void *fz_dup(const void *data, size_t len)
{
	void *buf = malloc(len ? len : 1);

	memcpy(buf, data, len);
	return buf;
}

#endif
