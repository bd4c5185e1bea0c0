/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kmirror cache check: the scrub (cmd_cache_check.c) calls down into its
 * repairs and report lines (cache_check_repair.c), never the other way.
 */
#ifndef KMIRROR_CACHE_CHECK_H
#define KMIRROR_CACHE_CHECK_H

#include <stdbool.h>
#include <stdint.h>

#include "cache_ctl.h"
#include "kmap.h"
#include "kmirror/cache.h"
#include "kmirror/cachedir.h"
#include "progress.h"

#define KM_CHECK_PIECE	(1u << 20)	/* bytes read at a time */

/* fsck's exit statuses. */
#define KM_CHECK_CLEAN		0
#define KM_CHECK_REPAIRED	1
#define KM_CHECK_LEFT		4
#define KM_CHECK_ERROR		8

struct km_chk_obj;

struct km_check {
	const char		*dir;
	int			cache_fd, sums_fd;
	int			lock_fd;	/* DIR/kmirror.lock */
	bool			repair, mounted;
	struct km_chk_obj	*obj;
	size_t			nobj, cap;
	struct km_progress	prog;
	unsigned long		clean, repaired, left, skipped, nosums;
	unsigned long long	granules;	/* present, checked */
	int			fatal;		/* -ENOMEM: stop */
	char			*buf;		/* KM_CHECK_PIECE */
};

/* What is wrong with one object. */
struct km_finding {
	const char	*map_why;	/* the map would be discarded: why */
	uint64_t	*bad;		/* granules not matching their sums */
	size_t		nbad, cap;
	uint64_t	granules;	/* present */
};

int km_finding_add(struct km_finding *f, uint64_t g);
/* One line on stdout about the object @path (the progress bar cleared). */
void km_chk_line(struct km_check *c, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Repair the damaged object @fd (@m: its map as inspected). */
void km_chk_repair(struct km_check *c, int fd, const char *path,
		   const char *sidecar, uint64_t size, struct kc_map *m,
		   const struct km_finding *f);
/* Unmounted --repair: the cache lock, so that no daemon starts. */
int km_chk_lock(struct km_check *c);
void km_chk_unlock(struct km_check *c);

#endif /* KMIRROR_CACHE_CHECK_H */
