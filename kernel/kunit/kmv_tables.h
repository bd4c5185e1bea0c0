/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The rows of the .vec tables (tests/vectors/ of the kmirror repository,
 * lib/kmirror/kunit/vectors/ here), one struct a file, its fields in the
 * order of the file's "# fields:" line, which kmv_load() checks; the
 * file itself (kmv_*_vec, kmv_data.S) and its table (kmv_tables.c).
 */
#ifndef KMV_TABLES_H
#define KMV_TABLES_H

#include "kmc_kunit_vec.h"

struct kmv_ceph {
	const char *source;
	const char *options;
	const char *kernel;
	const char *strict;
	const char *syntax;
	const char *name;
	const char *fsid;
	const char *fs_name;
	const char *path;
	const char *mons;
	const char *volume_key;
	int line;
};

extern const char kmv_ceph_vec[];
extern const struct kmv_table kmv_ceph_table;

struct kmv_cook {
	const u8 *key;
	unsigned int key_len;
	const char *name;
	int line;
};

extern const char kmv_cook_vec[];
extern const struct kmv_table kmv_cook_table;

struct kmv_cookie {
	const char *vkey;
	const u8 *key;
	unsigned int key_len;
	u32 hash;
	int line;
};

extern const char kmv_cookie_vec[];
extern const struct kmv_table kmv_cookie_table;

struct kmv_cookie_state {
	const char *state;
	const char *event;
	const char *next;
	int line;
};

extern const char kmv_cookie_state_vec[];
extern const struct kmv_table kmv_cookie_state_table;

struct kmv_cull {
	const char *kind;
	const char *state;
	const char *input;
	const char *ret;
	const char *result;
	int line;
};

extern const char kmv_cull_vec[];
extern const struct kmv_table kmv_cull_table;

struct kmv_daemon {
	const char *start;
	const char *write;
	const char *ret;
	const char *op;
	const char *args;
	const char *num;
	const char *state;
	int line;
};

extern const char kmv_daemon_vec[];
extern const struct kmv_table kmv_daemon_table;

struct kmv_hash {
	u32 salt;
	const u8 *data;
	unsigned int data_len;
	u32 hash;
	int line;
};

extern const char kmv_hash_vec[];
extern const struct kmv_table kmv_hash_table;

struct kmv_layout {
	const char *vkey;
	const u8 *key;
	unsigned int key_len;
	const char *err;
	const char *path;
	int line;
};

extern const char kmv_layout_vec[];
extern const struct kmv_table kmv_layout_table;

struct kmv_ptc {
	const char *name;
	const char *op;
	const char *size;
	u32 pfn;
	const char *type;
	const char *perm;
	const char *verdict;
	u32 probe;
	int anon;
	int file;
	int line;
};

extern const char kmv_ptc_vec[];
extern const struct kmv_table kmv_ptc_table;

struct kmv_stats {
	u32 fill;
	int at;
	const char *text;
	int line;
};

extern const char kmv_stats_vec[];
extern const struct kmv_table kmv_stats_table;

struct kmv_volume {
	const char *key;
	const char *fscache;
	const char *cachefiles;
	u32 hlen;
	const u8 *buf;
	unsigned int buf_len;
	u32 hash;
	int line;
};

extern const char kmv_volume_vec[];
extern const struct kmv_table kmv_volume_table;

struct kmv_xattr {
	const char *kind;
	const u8 *stored;
	unsigned int stored_len;
	const char *decode;
	const u8 *aux;
	unsigned int aux_len;
	const u8 *size;
	unsigned int size_len;
	const char *check;
	const char *ret;
	int line;
};

extern const char kmv_xattr_vec[];
extern const struct kmv_table kmv_xattr_table;
#endif /* KMV_TABLES_H */
