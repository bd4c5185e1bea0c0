/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The metadata store: what the source said of its directories (their
 * names, the attributes of what the names lead to, the names it said
 * were absent), each with the wall-clock time it was learnt, kept in
 * DIR/kmirror-meta across mounts.  meta.c is the store and its policy
 * (-o meta_timeout, -o negative_timeout), meta_file.c one directory's
 * file.
 */
#ifndef KC_META_H
#define KC_META_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#define KC_META_DIR		"kmirror-meta"
#define KC_META_NAME_MAX	255
#define KC_META_ENTRIES_MAX	(1u << 16)	/* names kept per directory */
#define KC_META_FILE_MAX	(32u << 20)	/* bytes: read whole */

/* Entry flags. */
#define KC_ME_ABSENT	0x01	/* the source said ENOENT */
#define KC_ME_ATTR	0x02	/* @st holds the source's attributes */
#define KC_ME_FLAGS	(KC_ME_ABSENT | KC_ME_ATTR)
#define KC_ME_UNSEEN	0x80	/* in memory only: kc_meta_listed() */

/* A name in a directory; a positive one carries at least its inode. */
struct kc_ment {
	char		*name;
	uint8_t		flags;
	uint8_t		type;		/* DT_* */
	int64_t		learnt;		/* CLOCK_REALTIME ns */
	struct stat	st;		/* st_ino always, all with ATTR */
	struct timespec	btime;		/* with ATTR: {0, 0} if not known */
};

/*
 * Which directory a (dev, ino) held when its names were learnt: a
 * number freed and given to a new directory must not bring the old
 * one's names back (meta.c, kc_mdir_check()).
 */
struct kc_mid {
	struct timespec	btime;		/* {0, 0}: the source keeps none */
	struct timespec	ctime, mtime;
	uint64_t	pdev, pino;	/* its parent's key; 0, 0: the root */
	char		*name;		/* its name there, "" for the root;
					 * NULL: no names, none yet */
};

/*
 * A directory of the source, by (dev, ino); dev 0 stands for the
 * source's own device, whose number may change at every mount of a
 * network filesystem (inode numbers do not).
 */
struct kc_mdir {
	struct kc_mdir	*hnext;
	uint64_t	dev, ino;
	struct kc_mid	id;		/* which directory the names are of */
	int64_t		listed;		/* the positive names are all of
					 * them, as of then (ns); 0: not */
	struct kc_ment	*e;		/* sorted by name (strcmp) */
	size_t		n, cap;
	bool		dirty;		/* differs from its file */
	bool		stored;		/* its file exists */
	bool		adopt;		/* changed through the mount: its
					 * next times from the source are
					 * its own (in memory only) */
	uint64_t	used;		/* the store's clock at last use */
};

/* meta_file.c: the file of one directory. */
int kc_mdir_parse(struct kc_mdir *d, const uint8_t *buf, size_t len,
		  const char *vol, dev_t source_dev);
char *kc_mdir_format(const struct kc_mdir *d, const char *vol,
		     dev_t source_dev, size_t *len);
void kc_mdir_clear(struct kc_mdir *d);
struct kc_ment *kc_mdir_find(const struct kc_mdir *d, const char *name);
struct kc_ment *kc_mdir_find_in(const struct kc_mdir *d, size_t n,
				const char *name);
struct kc_ment *kc_mdir_add(struct kc_mdir *d, const char *name);
struct kc_ment *kc_mdir_append(struct kc_mdir *d, const char *name);
void kc_mdir_sort(struct kc_mdir *d, uint8_t flag);
void kc_mdir_del(struct kc_mdir *d, struct kc_ment *e);

#endif /* KC_META_H */
