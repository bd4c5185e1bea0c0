/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The set of pins in memory (pins_set.c), for pins.c: one array sorted by
 * volume then key, searched by bisection.  A change is made on a copy
 * (struct kc_pins_next) that pins.c writes to disk before it swaps it in,
 * so a batch of N changes to a set of M pins costs O(M + N log N) and one
 * write of the file, and a change that cannot be kept on disk is dropped
 * whole.
 *
 * Locking (pins.c): every change holds kc_pins.lock throughout; the array
 * and the volume table change, and are read by the index's users, under
 * the index lock.  So a change reads its own set without the index lock.
 */
#ifndef KC_PINS_SET_H
#define KC_PINS_SET_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pins.h"

#define KC_PINS_MAX	(1u << 20)	/* pins */

struct kc_pin {
	char		*path;		/* it was pinned by, from the root */
	uint32_t	vol;		/* in kc_pins.vols */
	uint8_t		key_len;	/* 1..KC_PIN_KEY_MAX */
	uint8_t		key[KC_PIN_KEY_MAX];
};

struct kc_pins {
	pthread_mutex_t	lock;		/* whole changes: set and file */
	char		**vols;		/* volume keys, in the order met */
	uint32_t	nvols;
	struct kc_pin	*v;		/* sorted by volume, then key */
	size_t		n, cap;
};

/* A set being made from @s's: the array to swap in. */
struct kc_pins_next {
	struct kc_pin	*v;
	size_t		n;
};

/* The number of volume @key in @s, or -ENOENT; _add makes it (-ENOMEM). */
long kc_pins_vol_find(const struct kc_pins *s, const char *key);
long kc_pins_vol_add(struct kc_pins *s, const char *key);
struct kc_pin *kc_pins_find(const struct kc_pins *s, uint32_t vol,
			    const uint8_t *key, size_t len);
/* Loading: add @p unsorted (its path is the set's), then sort once. */
int kc_pins_append(struct kc_pins *s, const struct kc_pin *p);
int kc_pins_sort(struct kc_pins *s);
/* Drop every pin (the volume table stays). */
void kc_pins_clear(struct kc_pins *s);
/* @s's pins and the @k new ones @add (sorted, none in @s) merged. */
int kc_pins_next_add(const struct kc_pins *s, const struct kc_pin *add,
		     size_t k, struct kc_pins_next *next);
/* @s's pins but those @drop[] marks. */
int kc_pins_next_drop(const struct kc_pins *s, const bool *drop,
		      struct kc_pins_next *next);
/* Swap @next in (index lock held): @next has the old array then. */
void kc_pins_swap(struct kc_pins *s, struct kc_pins_next *next);
int kc_pin_cmp(const void *a, const void *b);

#endif /* KC_PINS_SET_H */
