/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The on-disk formats of a kmirror-cachefs cache object's content map
 * (content_map.c) and checksums (sums_file.c), without the daemon: the one
 * parser of each, which `kmirror cache check` (userspace/cli) links and the
 * fuzz targets compile too.  No FUSE, no libkmirror, no daemon header in here
 * (fuse-demo/format/meson.build: kc_format_dep).
 */
#ifndef KC_KMAP_H
#define KC_KMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#define KC_GRANULE_MIN_SHIFT	12		/* 4 KiB */
#define KC_GRANULE_MAX_SHIFT	26		/* 64 MiB */
#define KC_SUMS_DIR		"kmirror-sums"
#define KC_SUMS_NAME		160	/* a sidecar's name, with the NUL */

/* ---- content_map.c: the content map ------------------------------ */

#define KC_CHUNK_BITS		4096		/* granules per map xattr */
#define KC_CHUNK_BYTES		(KC_CHUNK_BITS / 8)

struct kc_chunk {
	uint64_t	idx;		/* covers granules idx*4096 ... */
	unsigned int	nset;
	bool		dirty;		/* differs from its xattr */
	bool		on_disk;	/* its xattr exists */
	uint8_t		bits[KC_CHUNK_BYTES];
};

struct kc_map {
	unsigned int	shift;		/* log2 of the granule */
	struct kc_chunk	**chunk;	/* sorted by idx */
	size_t		n, cap;
	uint64_t	nset;		/* set bits in all chunks */
	bool		dirty;		/* changed since the object was sealed */
	bool		sealed;		/* the seal xattr is on the object */
	bool		bound;		/* odev/oino name the object described */
	dev_t		odev;
	ino_t		oino;
	uint32_t	*sum;		/* CRC32C per granule (sums.c) */
	uint8_t		*verified;	/* bit per granule: checked or stored
					 * since the map was loaded */
	uint8_t		*checking;	/* bit per granule: a reader is
					 * checking it (sums.c) */
	uint64_t	nsum;		/* granules sum[] holds, 8 * k */
	uint64_t	drops;		/* granules made absent, ever: bytes
					 * read from the object before a
					 * drop are not served (sums.c) */
};

/* Where an object's sums live (sums.c); an empty name: nowhere. */
struct kc_sidecar {
	int		dirfd;		/* DIR/kmirror-sums */
	bool		verify;		/* else: remove them at a flush */
	char		name[KC_SUMS_NAME];
};

/* What kc_map_load() found on an object. */
enum kc_map_state {
	KC_MAP_CLEAN,		/* a map under a valid seal: loaded */
	KC_MAP_NONE,		/* no map: a new or emptied object */
	KC_MAP_UNCLEAN,		/* maps without a valid seal (a crash, another
				 * granule size): discarded */
	KC_MAP_DAMAGED,		/* sealed, but the object changed behind our
				 * back: discarded */
	KC_MAP_NOSUMS,		/* sealed, but with verify=on no sums bound
				 * to the object: discarded */
};

void kc_map_init(struct kc_map *m, unsigned int shift);
void kc_map_destroy(struct kc_map *m);
void kc_map_reset(struct kc_map *m);
bool kc_map_test(const struct kc_map *m, uint64_t g);
uint64_t kc_map_run(const struct kc_map *m, uint64_t g, uint64_t last,
		    bool set);
int kc_map_set(struct kc_map *m, uint64_t g, bool on);
void kc_map_clear_from(struct kc_map *m, uint64_t g);
int kc_map_load(struct kc_map *m, int fd, uint64_t object_size,
		const struct kc_sidecar *sc, enum kc_map_state *state);
int kc_map_unseal(struct kc_map *m, int fd);
int kc_map_flush(struct kc_map *m, int fd, const struct kc_sidecar *sc,
		 unsigned int *lost);
/* The sums of the present granules, saved and loaded through sums_file.c */
int kc_sums_save(const struct kc_map *m, const struct kc_sidecar *sc,
		 const struct stat *st);
int kc_sums_load(struct kc_map *m, const struct kc_sidecar *sc,
		 const struct stat *st);

/* ---- sums_file.c: a CRC32C per granule ----------------------------- */

int kc_map_sum_set(struct kc_map *m, uint64_t g, uint32_t crc);
void kc_map_sum_forget(struct kc_map *m, uint64_t g);
bool kc_map_verified(const struct kc_map *m, uint64_t g);
bool kc_map_checking(const struct kc_map *m, uint64_t g);
int kc_map_set_checking(struct kc_map *m, uint64_t g, bool on);
uint32_t kc_map_sum(const struct kc_map *m, uint64_t g);
void kc_map_sums_free(struct kc_map *m);
int kc_sums_grow(struct kc_map *m, uint64_t g);

/* The sidecar's header (sums_file.c), as on disk. */
struct kc_sums_hdr {
	char		magic[8];
	uint32_t	version;
	uint32_t	shift;
	uint64_t	ino;
	int64_t		mtime_sec;
	int64_t		mtime_nsec;
	uint64_t	n;
};

int kc_sums_parse(const void *buf, size_t len, struct kc_sums_hdr *h,
		  uint32_t **sums);
void kc_sums_header(const struct kc_map *m, const struct stat *st,
		    uint64_t n, struct kc_sums_hdr *h);
int kc_sums_read(int dirfd, const char *name, struct kc_sums_hdr *h,
		 uint32_t **sums);
int kc_sums_write(const struct kc_sidecar *sc, void *buf, size_t len);
void kc_sums_name_for(const char *volume, const uint8_t *key,
		      size_t key_len, char name[KC_SUMS_NAME]);
int kc_sums_name_key(const char *volume, const char *name, uint8_t key[64]);

/* What kc_map_inspect() found, for `kmirror cache check`. */
struct kc_map_report {
	enum kc_map_state	state;
	int			sums_err;	/* KC_MAP_NOSUMS: kc_sums_load() */
	unsigned int		torn;		/* map xattrs that do not parse */
};

int kc_seal_shift(int fd, unsigned int *shift);
int kc_map_inspect(struct kc_map *m, int fd, uint64_t object_size,
		   const struct kc_sidecar *sc, struct kc_map_report *r);

#endif /* KC_KMAP_H */
