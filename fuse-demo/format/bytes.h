/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the daemon's own files (the index file, the metadata store, the
 * checksum sidecars) share to read and sum their bytes: a reader that
 * never runs past its buffer, and FNV-1a 64.
 */
#ifndef KC_BYTES_H
#define KC_BYTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A buffer being read; @bad once a read asked for more than was left. */
struct kc_bytes {
	const uint8_t	*p, *end;
	bool		bad;
};

/* The next @n bytes, or NULL (and @r bad for good) if fewer are left. */
static inline const uint8_t *kc_take(struct kc_bytes *r, size_t n)
{
	const uint8_t *p = r->p;

	if (r->bad || (size_t)(r->end - r->p) < n) {
		r->bad = true;
		return NULL;
	}
	r->p += n;
	return p;
}

#define KC_FNV_INIT	0xcbf29ce484222325ull

/* FNV-1a 64 of @len bytes at @p, carrying on from @h (KC_FNV_INIT). */
static inline uint64_t kc_fnv(uint64_t h, const void *p, size_t len)
{
	const uint8_t *b = p;

	while (len--)
		h = (h ^ *b++) * 0x100000001b3ull;
	return h;
}

#endif /* KC_BYTES_H */
