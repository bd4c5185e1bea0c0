/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kmirror/ceph.h - CephFS mount sources and options as Linux 6.1 parses
 * them (fs/ceph/super.c ceph_parse_source() and the mount options,
 * net/ceph/messenger.c ceph_parse_ips(), net/ceph/ceph_common.c
 * ceph_parse_fsid()), and the fscache volume key fs/ceph/cache.c makes
 * of the result.
 *
 *   new syntax   name@fsid.fs_name=[/path]     -o mon_addr=ip[:port][/...]
 *   old syntax   ip[:port][,ip[:port]...]:[/path]
 *
 * By default what the 6.1 kernel accepts is accepted, including the
 * corners it accepts by accident (kmirror_ceph_quirk() lists those met);
 * KMIRROR_CEPH_STRICT refuses them.  docs/ceph.md lists every corner.
 *
 * Thread-safe: a parse shares nothing with another.
 */
#ifndef KMIRROR_CEPH_H
#define KMIRROR_CEPH_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* kmirror_ceph_parse() @flags: refuse what the kernel accepts by accident. */
#define KMIRROR_CEPH_STRICT	0x1

enum kmirror_ceph_syntax {
	KMIRROR_CEPH_SYNTAX_NONE,
	KMIRROR_CEPH_SYNTAX_OLD,
	KMIRROR_CEPH_SYNTAX_NEW,
};

/* A piece of text, not NUL-terminated; ptr NULL: not given. */
struct kmirror_ceph_text {
	const char *ptr;
	size_t len;
};

/*
 * A parsed mount.  Every text points either into the caller's source and
 * options, which must outlive the parse, or into the parse itself.
 */
struct kmirror_ceph_mount {
	enum kmirror_ceph_syntax syntax;
	struct kmirror_ceph_text name;		/* entity: name= over the
						 * source's */
	struct kmirror_ceph_text fsid;		/* %pU: 36 characters */
	struct kmirror_ceph_text fs_name;	/* mds_namespace */
	struct kmirror_ceph_text path;		/* canonical server path */
	struct kmirror_ceph_text volume_key;	/* ceph,<fsid>[,<uniq>] */
	unsigned int num_mon;
	const struct kmirror_ceph_text *mon_addr; /* ip:port, [ip6]:port */
};

struct kmirror_ceph;

/*
 * Parse the source @src (@src_len bytes) and the comma-separated options
 * @opts (@opts_len bytes; NULL and 0 for none) in mount(2) order: the
 * source, then the options left to right.  0 and *@cp; -EINVAL (or
 * -ENAMETOOLONG: a volume key over 255 bytes) when the kernel refuses
 * them, *@cp then saying why (kmirror_ceph_error()); -ENOMEM, *@cp NULL.
 * *@cp is freed with kmirror_ceph_free().
 */
int kmirror_ceph_parse(const char *src, size_t src_len, const char *opts,
		       size_t opts_len, unsigned int flags,
		       struct kmirror_ceph **cp);
void kmirror_ceph_free(struct kmirror_ceph *c);

/* The result of a parse that succeeded, else NULL. */
const struct kmirror_ceph_mount *
kmirror_ceph_mount(const struct kmirror_ceph *c);

/*
 * Why a parse failed, in words (NULL if it did not); *@where the
 * offending text (ptr NULL: none), an option's key when *@where_is_key.
 */
const char *kmirror_ceph_error(const struct kmirror_ceph *c,
			       struct kmirror_ceph_text *where,
			       bool *where_is_key);

/*
 * The @i-th corner met that the kernel accepts by accident, in words, in a
 * fixed order; NULL past the last.  *@where is the offending text of the
 * first corner the parse met, ptr NULL for the others.
 */
const char *kmirror_ceph_quirk(const struct kmirror_ceph *c, unsigned int i,
			       struct kmirror_ceph_text *where);

#ifdef __cplusplus
}
#endif

#endif /* KMIRROR_CEPH_H */
