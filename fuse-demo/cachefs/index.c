// SPDX-License-Identifier: GPL-2.0-only
/*
 * The object index: what the cache holds (volume, key, space on disk), in
 * least-recently-used order.
 *
 * At mount it comes from the index file a clean unmount wrote
 * (index_file.c); when that file is missing, stale or damaged, from a scan
 * of the cache that runs in the background while the mount serves
 * (index_scan.c).  From then on the index follows what this daemon does:
 * objects made, opened (moved to the recent end), filled, invalidated and
 * retired.  cull.c decides what to throw out.
 *
 * The index never decides what is served: every object is checked against
 * its source by libkmirror when its cookie is acquired.  A wrong index can
 * only cull the wrong object or miscount space.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "index.h"
#include "kmirror/cache.h"

_Static_assert(sizeof(struct kc_obj) == 48, "an index entry is 48 bytes");

#define KC_CHUNK_ENTRIES	(1u << KC_CHUNK_SHIFT)
#define KC_SLOTS_MIN		4096

static uint32_t kc_obj_hash(unsigned int vol, const uint8_t *key, size_t len)
{
	uint32_t h = 2166136261u ^ vol;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ key[i]) * 16777619u;
	return h ^ (h >> 15);
}

static size_t kc_home(const struct kc_index *x, const struct kc_obj *o)
{
	return kc_obj_hash(o->vol, kc_obj_key(o), o->key_len) &
	       (x->nslots - 1);
}

struct kc_obj *kc_obj_find_locked(struct kc_index *x, unsigned int vol,
				  const uint8_t *key, size_t len)
{
	size_t i = kc_obj_hash(vol, key, len) & (x->nslots - 1);
	struct kc_obj *o;

	for (; x->slot[i]; i = (i + 1) & (x->nslots - 1)) {
		o = kc_obj_at(x, x->slot[i]);
		if (o->vol == vol && o->key_len == len &&
		    !memcmp(kc_obj_key(o), key, len))
			return o;
	}
	return NULL;
}

static void kc_slot_put(struct kc_index *x, struct kc_obj *o)
{
	size_t i = kc_home(x, o);

	while (x->slot[i])
		i = (i + 1) & (x->nslots - 1);
	x->slot[i] = o->id;
}

/* Double the hash table past 3/4 full (entries themselves never move). */
static int kc_slots_grow(struct kc_index *x)
{
	uint32_t *old = x->slot;
	size_t n = x->nslots, i;

	if (x->nslots && (x->n + 1) * 4 <= x->nslots * 3)
		return 0;
	x->nslots = n ? n * 2 : KC_SLOTS_MIN;
	x->slot = calloc(x->nslots, sizeof(*x->slot));
	if (!x->slot) {
		x->slot = old;
		x->nslots = n;
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		if (old[i])
			kc_slot_put(x, kc_obj_at(x, old[i]));
	free(old);
	return 0;
}

/* Linear probing's deletion: pull later entries of the run back. */
static void kc_slot_del(struct kc_index *x, const struct kc_obj *o)
{
	size_t mask = x->nslots - 1, i = kc_home(x, o), j, h;

	while (x->slot[i] != o->id)
		i = (i + 1) & mask;
	for (j = (i + 1) & mask; x->slot[j]; j = (j + 1) & mask) {
		h = kc_home(x, kc_obj_at(x, x->slot[j]));
		/* May the entry at j move to the hole at i? */
		if (((j - h) & mask) >= ((j - i) & mask)) {
			x->slot[i] = x->slot[j];
			i = j;
		}
	}
	x->slot[i] = 0;
}

/* A fresh entry number; entry 0 (the LRU head) comes with chunk 0. */
static struct kc_obj *kc_obj_alloc(struct kc_index *x)
{
	struct kc_obj **nc, *o;
	uint32_t id = x->free;

	if (id) {
		o = kc_obj_at(x, id);
		x->free = o->next;
		return o;
	}
	if (x->nent > KC_OBJ_MAX)
		return NULL;
	if (x->nent == x->nchunks << KC_CHUNK_SHIFT) {
		nc = realloc(x->chunk, (x->nchunks + 1) * sizeof(*nc));
		if (!nc)
			return NULL;
		x->chunk = nc;
		nc[x->nchunks] = malloc(KC_CHUNK_ENTRIES * sizeof(**nc));
		if (!nc[x->nchunks])
			return NULL;
		x->nchunks++;
	}
	o = kc_obj_at(x, x->nent);
	o->id = x->nent++;
	return o;
}

/* A new entry, hashed, not yet on the LRU; NULL: no memory. */
struct kc_obj *kc_obj_add_locked(struct kc_index *x, unsigned int vol,
				 const uint8_t *key, size_t len)
{
	uint8_t *ext = NULL;
	struct kc_obj *o;
	uint32_t id;

	if (len > KC_KEY_INLINE && !(ext = malloc(len)))
		return NULL;
	if (kc_slots_grow(x) || !(o = kc_obj_alloc(x))) {
		free(ext);
		return NULL;
	}
	id = o->id;
	memset(o, 0, sizeof(*o));
	o->id = id;
	o->vol = vol;
	o->key_len = len;
	if (ext)
		o->ext = ext;
	memcpy(ext ? ext : o->key, key, len);
	if (x->pinned && x->pinned(x, vol, key, len))
		o->flags |= KC_OBJ_PINNED;
	kc_slot_put(x, o);
	x->n++;
	atomic_fetch_add(&x->generation, 1);
	return o;
}

void kc_obj_del_locked(struct kc_index *x, struct kc_obj *o)
{
	kc_slot_del(x, o);
	kc_lru_del(x, o);
	x->n--;
	atomic_fetch_sub(&x->bytes, (int64_t)o->bytes);
	atomic_fetch_add(&x->generation, 1);
	if (o->key_len > KC_KEY_INLINE)
		free(o->ext);
	o->flags = KC_OBJ_FREE;
	o->holder = NULL;
	o->next = x->free;
	x->free = o->id;
}

/* ---- the LRU list: entry numbers, 0 being the head ------------------ */

struct kc_obj *kc_lru_first(struct kc_index *x)
{
	uint32_t id = kc_obj_at(x, 0)->next;

	return id ? kc_obj_at(x, id) : NULL;
}

struct kc_obj *kc_lru_next(struct kc_index *x, struct kc_obj *o)
{
	return o->next ? kc_obj_at(x, o->next) : NULL;
}

void kc_lru_del(struct kc_index *x, struct kc_obj *o)
{
	if (!(o->flags & KC_OBJ_ON_LRU))
		return;
	kc_obj_at(x, o->prev)->next = o->next;
	kc_obj_at(x, o->next)->prev = o->prev;
	o->flags &= ~KC_OBJ_ON_LRU;
}

static void kc_lru_link(struct kc_index *x, struct kc_obj *o, uint32_t prev)
{
	struct kc_obj *p = kc_obj_at(x, prev);

	o->prev = prev;
	o->next = p->next;
	kc_obj_at(x, p->next)->prev = o->id;
	p->next = o->id;
	o->flags |= KC_OBJ_ON_LRU;
}

void kc_lru_add_tail(struct kc_index *x, struct kc_obj *o)
{
	kc_lru_del(x, o);
	kc_lru_link(x, o, kc_obj_at(x, 0)->prev);
}

void kc_lru_add_head(struct kc_index *x, struct kc_obj *o)
{
	kc_lru_del(x, o);
	kc_lru_link(x, o, 0);
}

/* ---- volumes ---------------------------------------------------------- */

/*
 * Index of the volume @key in x->vol, added if new; -1: no memory (index
 * lock held, or before other threads).  A volume's struct never moves:
 * the culler uses it without the index lock (kc_vol_at()).
 */
int kc_vol_index(struct kc_index *x, const char *key, const uint8_t *coh,
		 size_t coh_len)
{
	struct kc_vol **nv, *v;
	size_t i;

	for (i = 0; i < x->nvol; i++)
		if (!strcmp(x->vol[i]->key, key))
			return i;
	if (x->nvol > UINT16_MAX)
		return -1;
	nv = realloc(x->vol, (x->nvol + 1) * sizeof(*nv));
	if (!nv)
		return -1;
	x->vol = nv;
	v = calloc(1, sizeof(*v) + coh_len);
	if (!v || !(v->key = strdup(key))) {
		free(v);
		return -1;
	}
	v->coh = (uint8_t *)(v + 1);
	if (coh_len)		/* coh may be NULL then */
		memcpy(v->coh, coh, coh_len);
	v->coh_len = coh_len;
	nv[x->nvol] = v;
	return x->nvol++;
}

/* Volume @i, without holding the index lock. */
struct kc_vol *kc_vol_at(struct kc_index *x, unsigned int i)
{
	struct kc_vol *v;

	pthread_mutex_lock(&x->lock);
	v = x->vol[i];
	pthread_mutex_unlock(&x->lock);
	return v;
}

/* The path of @o, held by the caller (kmirror_cache_object_path()). */
int kc_obj_path(struct kc_index *x, const struct kc_obj *o, char *path,
		size_t size)
{
	return kmirror_cache_object_path(kc_vol_at(x, o->vol)->key,
					 kc_obj_key(o), o->key_len, path, size);
}

/* ---- the table's own life ----------------------------------------- */

/* An empty index for @fs, volume 0 this mount's; fs->index even on error. */
int kc_index_new(struct kc_fs *fs)
{
	struct kc_index *x = calloc(1, sizeof(*x));
	struct kc_obj *head;

	if (!x)
		return -ENOMEM;
	fs->index = x;
	pthread_mutex_init(&x->lock, NULL);
	pthread_cond_init(&x->changed, NULL);
	head = kc_obj_alloc(x);
	if (!head || kc_slots_grow(x) || kc_vol_index(x, fs->volume_key,
						     NULL, 0))
		return -ENOMEM;
	head->prev = head->next = 0;
	x->vol[0]->v = fs->volume;
	return 0;
}

/* Free the table of @x (its culler and pins are gone already). */
void kc_index_free(struct kc_index *x)
{
	struct kc_obj *o;
	size_t i;

	for (i = 1; i < x->nent; i++) {
		o = kc_obj_at(x, i);
		if (!(o->flags & KC_OBJ_FREE) && o->key_len > KC_KEY_INLINE)
			free(o->ext);
	}
	for (i = 0; i < x->nchunks; i++)
		free(x->chunk[i]);
	free(x->chunk);
	free(x->slot);
	for (i = 0; i < x->nvol; i++) {
		free(x->vol[i]->key);
		free(x->vol[i]);
	}
	free(x->vol);
	pthread_cond_destroy(&x->changed);
	pthread_mutex_destroy(&x->lock);
	free(x);
}

/* ---- what the daemon does to objects ------------------------------ */

/*
 * @in acquires the cookie of @key in this mount's volume: its entry, made
 * if new (*@old: it was known).  Waits while the object is being culled or
 * still held by an older inode of the same file.  While a scan runs, an
 * object on disk may not be known yet: *@old is then false, which only
 * means a stale object is not counted as an invalidation.
 */
struct kc_obj *kc_index_hold(struct kc_fs *fs, const void *key,
			     size_t key_len, struct kc_inode *in, bool *old)
{
	struct kc_index *x = fs->index;
	struct kc_obj *o;

	pthread_mutex_lock(&x->lock);
	for (;;) {
		o = kc_obj_find_locked(x, 0, key, key_len);
		if (!o || (!(o->flags & KC_OBJ_CULLING) &&
			   (!o->holder || o->holder == in)))
			break;
		pthread_cond_wait(&x->changed, &x->lock);
	}
	*old = o != NULL;
	if (!o) {
		o = kc_obj_add_locked(x, 0, key, key_len);
		if (o)
			kc_lru_add_tail(x, o);
	}
	if (o) {
		o->holder = in;
		o->flags = (o->flags & ~KC_OBJ_STUCK) | KC_OBJ_SEEN;
	}
	pthread_mutex_unlock(&x->lock);
	return o;
}

/* The holder gave the cookie back; @retired: the object is gone. */
void kc_index_unhold(struct kc_fs *fs, struct kc_obj *o, bool retired)
{
	struct kc_index *x = fs->index;

	if (!o)
		return;
	pthread_mutex_lock(&x->lock);
	o->holder = NULL;
	if (retired && (o->flags & KC_OBJ_CULLING))
		o->flags |= KC_OBJ_DEAD;
	else if (retired)
		kc_obj_del_locked(x, o);
	pthread_cond_broadcast(&x->changed);
	pthread_mutex_unlock(&x->lock);
}

/* Used now: to the recent end. */
void kc_index_touch(struct kc_fs *fs, struct kc_obj *o)
{
	struct kc_index *x = fs->index;

	pthread_mutex_lock(&x->lock);
	kc_lru_add_tail(x, o);
	atomic_fetch_add(&x->generation, 1);
	pthread_mutex_unlock(&x->lock);
}

void kc_index_add_bytes(struct kc_fs *fs, struct kc_obj *o, int64_t d)
{
	struct kc_index *x = fs->index;

	if (!o)
		return;
	pthread_mutex_lock(&x->lock);
	if (d < 0 && (uint64_t)-d > o->bytes)
		d = -(int64_t)o->bytes;
	o->bytes += d;
	atomic_fetch_add(&x->bytes, d);
	atomic_fetch_add(&x->generation, 1);
	pthread_mutex_unlock(&x->lock);
	atomic_fetch_add(&fs->stats.generation, 1);
	/* Look at the limits again every KC_KICK_BYTES of new data. */
	if (d > 0 && atomic_fetch_add(&x->since_kick, d) + d > KC_KICK_BYTES) {
		atomic_store(&x->since_kick, 0);
		x->kick(fs);	/* cull.c sets it: it calls the index */
	}
}

void kc_index_set_bytes(struct kc_fs *fs, struct kc_obj *o, uint64_t b)
{
	struct kc_index *x = fs->index;

	if (!o)
		return;
	pthread_mutex_lock(&x->lock);
	atomic_fetch_add(&x->bytes, (int64_t)b - (int64_t)o->bytes);
	o->bytes = b;
	atomic_fetch_add(&x->generation, 1);
	pthread_mutex_unlock(&x->lock);
	atomic_fetch_add(&fs->stats.generation, 1);
}

void kc_index_counts(struct kc_fs *fs, uint64_t *objects, uint64_t *bytes)
{
	struct kc_index *x = fs->index;

	pthread_mutex_lock(&x->lock);
	*objects = x->n;
	pthread_mutex_unlock(&x->lock);
	*bytes = atomic_load(&x->bytes) > 0 ? atomic_load(&x->bytes) : 0;
}

/* "scanning", "loaded" or "scanned", and where it came from. */
const char *kc_index_state(struct kc_fs *fs)
{
	struct kc_index *x = fs->index;
	static const char *const done[] = {
		[KC_ORIGIN_NONE] = "complete (scanned)",
		[KC_ORIGIN_CLEAN] = "complete (index file)",
		[KC_ORIGIN_RECHECKED] = "complete (index file, rechecked)",
	};

	if (!atomic_load(&x->complete))
		return x->origin == KC_ORIGIN_NONE ?
		       "scanning" : "scanning (index file loaded)";
	return done[x->origin];
}
