/* SPDX-License-Identifier: GPL-2.0-only */
/* Pinned objects (pins.c), for index.c, cull.c and control.c. */
#ifndef KC_PINS_H
#define KC_PINS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#define KC_PINS_FILE	"kmirror-pins"
#define KC_PIN_KEY_MAX	16	/* kc_cookie_key()'s longest */

struct kc_fs;
struct kc_index;
struct kc_pins;

int kc_pins_load(struct kc_fs *fs);
void kc_pins_free(struct kc_index *x);
/* The set alone, as the fuzz target takes it (tests/fuzz/fuzz_pins.c). */
struct kc_pins *kc_pins_new(void);
void kc_pins_destroy(struct kc_pins *s);
int kc_pins_parse(struct kc_pins *s, const uint8_t *buf, size_t len);
char *kc_pins_format(const struct kc_pins *s, size_t *len);
bool kc_pinned_locked(const struct kc_index *x, unsigned int vol,
		      const uint8_t *key, size_t len);
int kc_pin_change(struct kc_fs *fs, const uint8_t *key, size_t len,
		  const char *path, bool pin);
/* One of a batch of changes (kc_pins_change()). */
struct kc_pin_req {
	const char	*path;		/* from the root, kept with a pin */
	uint8_t		key[KC_PIN_KEY_MAX];
	uint8_t		key_len;
	int		err;		/* out: 0 or -errno */
};

int kc_pins_change(struct kc_fs *fs, struct kc_pin_req *r, size_t n,
		   bool pin);
/* A pin of this mount's volume, as kc_pins_get() copies it out. */
struct kc_pin_info {
	char		*path;		/* it was pinned by, from the root */
	uint8_t		key[KC_PIN_KEY_MAX];
	uint8_t		key_len;
	bool		cached;		/* its object is in the index */
	uint64_t	bytes;		/* and holds this much */
};

ssize_t kc_pins_get(struct kc_fs *fs, struct kc_pin_info **out);
void kc_pins_put(struct kc_pin_info *v, size_t n);
size_t kc_pins_count(struct kc_fs *fs);

#endif /* KC_PINS_H */
