// SPDX-License-Identifier: GPL-2.0-only
/*
 * Where each .vec table is (kmv_data.S) and what its rows hold
 * (kmv_tables.h).
 */
#include <linux/kernel.h>

#include "kmv_tables.h"

#define KMV_TABLE(t)							\
	const struct kmv_table kmv_##t##_table = {			\
		.name = #t,						\
		.text = kmv_##t##_vec,					\
		.fields = kmv_##t##_fields,				\
		.nfields = ARRAY_SIZE(kmv_##t##_fields),		\
		.row_size = sizeof(struct kmv_##t),			\
		.line_off = offsetof(struct kmv_##t, line),		\
	}

static const struct kmv_field kmv_ceph_fields[] = {
	KMV_FIELD(kmv_ceph, source, STR),
	KMV_FIELD(kmv_ceph, options, STR),
	KMV_FIELD(kmv_ceph, kernel, WORD),
	KMV_FIELD(kmv_ceph, strict, WORD),
	KMV_FIELD(kmv_ceph, syntax, WORD),
	KMV_FIELD(kmv_ceph, name, STR),
	KMV_FIELD(kmv_ceph, fsid, STR),
	KMV_FIELD(kmv_ceph, fs_name, STR),
	KMV_FIELD(kmv_ceph, path, STR),
	KMV_FIELD(kmv_ceph, mons, STR),
	KMV_FIELD(kmv_ceph, volume_key, STR),
};

KMV_TABLE(ceph);

static const struct kmv_field kmv_cook_fields[] = {
	KMV_HEX_FIELD(kmv_cook, key),
	KMV_FIELD(kmv_cook, name, WORD),
};

KMV_TABLE(cook);

static const struct kmv_field kmv_cookie_fields[] = {
	KMV_FIELD(kmv_cookie, vkey, STR),
	KMV_HEX_FIELD(kmv_cookie, key),
	KMV_FIELD(kmv_cookie, hash, U32),
};

KMV_TABLE(cookie);

static const struct kmv_field kmv_cookie_state_fields[] = {
	KMV_FIELD(kmv_cookie_state, state, WORD),
	KMV_FIELD(kmv_cookie_state, event, WORD),
	KMV_FIELD(kmv_cookie_state, next, WORD),
};

KMV_TABLE(cookie_state);

static const struct kmv_field kmv_cull_fields[] = {
	KMV_FIELD(kmv_cull, kind, WORD),
	KMV_FIELD(kmv_cull, state, STR),
	KMV_FIELD(kmv_cull, input, STR),
	KMV_FIELD(kmv_cull, ret, WORD),
	KMV_FIELD(kmv_cull, result, STR),
};

KMV_TABLE(cull);

static const struct kmv_field kmv_daemon_fields[] = {
	KMV_FIELD(kmv_daemon, start, WORD),
	KMV_FIELD(kmv_daemon, write, STR),
	KMV_FIELD(kmv_daemon, ret, WORD),
	KMV_FIELD(kmv_daemon, op, WORD),
	KMV_FIELD(kmv_daemon, args, STR),
	KMV_FIELD(kmv_daemon, num, STR),
	KMV_FIELD(kmv_daemon, state, STR),
};

KMV_TABLE(daemon);

static const struct kmv_field kmv_hash_fields[] = {
	KMV_FIELD(kmv_hash, salt, U32),
	KMV_HEX_FIELD(kmv_hash, data),
	KMV_FIELD(kmv_hash, hash, U32),
};

KMV_TABLE(hash);

static const struct kmv_field kmv_layout_fields[] = {
	KMV_FIELD(kmv_layout, vkey, STR),
	KMV_HEX_FIELD(kmv_layout, key),
	KMV_FIELD(kmv_layout, err, WORD),
	KMV_FIELD(kmv_layout, path, STR),
};

KMV_TABLE(layout);

static const struct kmv_field kmv_ptc_fields[] = {
	KMV_FIELD(kmv_ptc, name, WORD),
	KMV_FIELD(kmv_ptc, op, WORD),
	KMV_FIELD(kmv_ptc, size, WORD),
	KMV_FIELD(kmv_ptc, pfn, U32),
	KMV_FIELD(kmv_ptc, type, WORD),
	KMV_FIELD(kmv_ptc, perm, WORD),
	KMV_FIELD(kmv_ptc, verdict, WORD),
	KMV_FIELD(kmv_ptc, probe, U32),
	KMV_FIELD(kmv_ptc, anon, INT),
	KMV_FIELD(kmv_ptc, file, INT),
};

KMV_TABLE(ptc);

static const struct kmv_field kmv_stats_fields[] = {
	KMV_FIELD(kmv_stats, fill, U32),
	KMV_FIELD(kmv_stats, at, INT),
	KMV_FIELD(kmv_stats, text, STR),
};

KMV_TABLE(stats);

static const struct kmv_field kmv_volume_fields[] = {
	KMV_FIELD(kmv_volume, key, STR),
	KMV_FIELD(kmv_volume, fscache, WORD),
	KMV_FIELD(kmv_volume, cachefiles, WORD),
	KMV_FIELD(kmv_volume, hlen, U32),
	KMV_HEX_FIELD(kmv_volume, buf),
	KMV_FIELD(kmv_volume, hash, U32),
};

KMV_TABLE(volume);

static const struct kmv_field kmv_xattr_fields[] = {
	KMV_FIELD(kmv_xattr, kind, WORD),
	KMV_HEX_FIELD(kmv_xattr, stored),
	KMV_FIELD(kmv_xattr, decode, WORD),
	KMV_HEX_FIELD(kmv_xattr, aux),
	KMV_HEX_FIELD(kmv_xattr, size),
	KMV_FIELD(kmv_xattr, check, WORD),
	KMV_FIELD(kmv_xattr, ret, WORD),
};

KMV_TABLE(xattr);
