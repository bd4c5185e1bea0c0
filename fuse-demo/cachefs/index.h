/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The object index shared by index.c (what is in the cache) and cull.c
 * (what to throw out).  Private to kmirror-cachefs.
 */
#ifndef KC_INDEX_H
#define KC_INDEX_H

#include "cachefs.h"

#define KC_KICK_BYTES	(8ll << 20)

/* A place on the LRU list (the list head is one too). */
struct kc_link {
	struct kc_link	*prev, *next;
};

struct kc_obj {
	struct kc_obj	*hnext;
	struct kc_link	lru;		/* oldest first */
	struct kc_inode	*holder;	/* inode with its cookie acquired */
	char		*path;		/* relative to DIR; NULL: made here */
	uint64_t	bytes;
	uint64_t	atime;		/* at the scan, for ordering */
	uint32_t	hash;
	unsigned int	vol;
	bool		culling;	/* the culler owns it now */
	bool		dead;		/* retired while being culled */
	bool		stuck;		/* could not be culled: skip */
	uint8_t		key_len;
	uint8_t		key[];
};

struct kc_vol {
	char			*key;
	uint8_t			*coh;
	size_t			coh_len;
	struct fscache_volume	*v;
	bool			failed;
};

struct kc_index {
	pthread_mutex_t		lock;
	pthread_cond_t		changed;	/* culling or a holder ended */
	struct kc_obj		**bucket;
	size_t			nbuckets, n;
	struct kc_link		lru;		/* oldest first */
	struct kc_vol		*vol;		/* [0]: this mount's volume */
	size_t			nvol;
	_Atomic int64_t		bytes;
	_Atomic int64_t		since_kick;	/* bytes added since */
	struct kc_culler	*culler;	/* cull.c */
};

struct kc_obj *kc_lru_obj(struct kc_link *l);
void kc_lru_del(struct kc_obj *o);
void kc_lru_add_tail(struct kc_index *x, struct kc_obj *o);
void kc_obj_del_locked(struct kc_index *x, struct kc_obj *o);

/* cull.c, for index.c */
int kc_culler_init(struct kc_fs *fs);
void kc_culler_destroy(struct kc_fs *fs);

#endif /* KC_INDEX_H */
