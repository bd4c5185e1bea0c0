/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The object index shared by index.c (what is in the cache), index_scan.c
 * (finding it on disk), index_file.c (keeping it across mounts) and cull.c
 * (what to throw out).  Private to kmirror-cachefs.
 *
 * Sized for millions of objects: an entry is 48 bytes and is named by its
 * number (uint32_t) in a table of fixed chunks, so the LRU links and the
 * hash table hold 4-byte numbers, not pointers, and entries never move
 * (a struct kc_obj * stays valid while the entry lives).  The key is kept,
 * not the path: kmirror_cache_object_path() gives that back.
 */
#ifndef KC_INDEX_H
#define KC_INDEX_H

#include "cachefs.h"
#include "pins.h"

#define KC_KICK_BYTES		(8ll << 20)
#define KC_KEY_INLINE		16	/* longer keys are allocated */
#define KC_CHUNK_SHIFT		12	/* entries per chunk: 4096 */
#define KC_OBJ_MAX		(UINT32_MAX - 1)
#define KC_INDEX_FILE		"kmirror-index"

/* kc_obj.flags */
enum {
	KC_OBJ_CULLING	= 1 << 0,	/* the culler owns it now */
	KC_OBJ_DEAD	= 1 << 1,	/* retired while being culled */
	KC_OBJ_STUCK	= 1 << 2,	/* could not be culled: skip */
	KC_OBJ_ON_LRU	= 1 << 3,	/* linked; not yet while a scan holds
					 * it back to sort it by atime */
	KC_OBJ_SEEN	= 1 << 4,	/* found (or made) during this scan */
	KC_OBJ_FREE	= 1 << 5,	/* on the free list */
	KC_OBJ_PINNED	= 1 << 6,	/* never culled (pins.c) */
};

struct kc_obj {
	struct kc_inode	*holder;	/* inode with its cookie acquired */
	uint64_t	bytes;		/* space on disk */
	uint32_t	id;		/* entry number; 0 is the LRU head */
	uint32_t	prev, next;	/* LRU, oldest first (free list: next) */
	uint16_t	vol;		/* in kc_index.vol */
	uint8_t		key_len;
	uint8_t		flags;
	union {
		uint8_t	key[KC_KEY_INLINE];
		uint8_t	*ext;		/* key_len > KC_KEY_INLINE */
	};
};

struct kc_vol {
	char			*key;
	uint8_t			*coh;		/* after the struct */
	size_t			coh_len;
	struct fscache_volume	*v;
	bool			failed;
};

/* Where the index came from at mount (the stats file says it). */
enum kc_index_origin {
	KC_ORIGIN_NONE,		/* no usable index file: scanned */
	KC_ORIGIN_CLEAN,	/* written at a clean unmount, cache unchanged */
	KC_ORIGIN_RECHECKED,	/* loaded, then checked by a scan */
};

struct kc_scanner;

struct kc_index {
	pthread_mutex_t		lock;
	pthread_cond_t		changed;	/* culling or a holder ended */
	struct kc_obj		**chunk;	/* entry i: chunk[i >> 12] */
	size_t			nchunks;
	uint32_t		nent;		/* entries handed out */
	uint32_t		free;		/* free list, 0: empty */
	uint32_t		*slot;		/* hash table of entry numbers,
						 * linear probing, 0: empty */
	size_t			nslots;
	size_t			n;		/* live entries */
	struct kc_vol		**vol;		/* [0]: this mount's volume */
	size_t			nvol;
	_Atomic int64_t		bytes;
	_Atomic int64_t		since_kick;	/* bytes added since */
	atomic_uint		generation;	/* bumped by every change */
	enum kc_index_origin	origin;
	atomic_bool		complete;	/* no scan pending */
	struct kc_scanner	*scanner;	/* index_scan.c */
	struct kc_culler	*culler;	/* cull.c */
	void			(*kick)(struct kc_fs *fs); /* cull.c's */
	struct kc_pins		*pins;		/* pins.c */
	/* pins.c's: is a new entry pinned?  (The index sits below pins.c.) */
	bool			(*pinned)(const struct kc_index *x,
					  unsigned int vol, const uint8_t *key,
					  size_t len);
};

static inline struct kc_obj *kc_obj_at(const struct kc_index *x, uint32_t id)
{
	return &x->chunk[id >> KC_CHUNK_SHIFT]
			[id & ((1u << KC_CHUNK_SHIFT) - 1)];
}

static inline const uint8_t *kc_obj_key(const struct kc_obj *o)
{
	return o->key_len > KC_KEY_INLINE ? o->ext : o->key;
}

/* index.c, all with the index lock held */
struct kc_obj *kc_obj_find_locked(struct kc_index *x, unsigned int vol,
				  const uint8_t *key, size_t len);
struct kc_obj *kc_obj_add_locked(struct kc_index *x, unsigned int vol,
				 const uint8_t *key, size_t len);
void kc_obj_del_locked(struct kc_index *x, struct kc_obj *o);
struct kc_obj *kc_lru_first(struct kc_index *x);
struct kc_obj *kc_lru_next(struct kc_index *x, struct kc_obj *o);
void kc_lru_del(struct kc_index *x, struct kc_obj *o);
void kc_lru_add_tail(struct kc_index *x, struct kc_obj *o);
void kc_lru_add_head(struct kc_index *x, struct kc_obj *o);
int kc_vol_index(struct kc_index *x, const char *key, const uint8_t *coh,
		 size_t coh_len);
struct kc_vol *kc_vol_at(struct kc_index *x, unsigned int i);
int kc_obj_path(struct kc_index *x, const struct kc_obj *o, char *path,
		size_t size);
/* index.c: the table alone, for index_life.c */
int kc_index_new(struct kc_fs *fs);
void kc_index_free(struct kc_index *x);

/* index_scan.c: find what is on disk, in the background */
int kc_scan_start(struct kc_fs *fs);
void kc_scan_stop(struct kc_fs *fs);

/* index_file.c: the index across mounts */
int kc_index_load(struct kc_fs *fs, bool *trusted);
int kc_index_save(struct kc_fs *fs, bool clean);
void kc_index_checkpoint(struct kc_fs *fs);

/* cull.c, for index_life.c */
int kc_culler_init(struct kc_fs *fs);
void kc_culler_destroy(struct kc_fs *fs);

#endif /* KC_INDEX_H */
