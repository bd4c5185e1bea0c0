/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to cachedir.c and cachedir_file.c: a path walked beneath a
 * checked directory (kmirror/cachedir.h).
 */
#ifndef KMIRROR_CACHEDIR_WALK_H
#define KMIRROR_CACHEDIR_WALK_H

#include <limits.h>
#include <stdbool.h>
#include <sys/stat.h>

/* The directory holding a path's last component, and that component. */
struct kcd_at {
	int		base;		/* the caller's directory */
	int		fd;		/* @base, or a checked O_PATH */
	const char	*name;		/* in @buf, or "." */
	struct stat	own;		/* fstat of @base: the owner */
	char		buf[PATH_MAX];
};

int kcd_walk(int dirfd, const char *path, struct kcd_at *at);
void kcd_done(struct kcd_at *at);
int kcd_give(int fd, const struct stat *own);
int kcd_check(int fd, mode_t want, const struct stat *own);
int kcd_open_at(const struct kcd_at *at, int flags, mode_t want);
int kcd_finish(const struct kcd_at *at, int fd, mode_t want, bool made,
	       int flags);

#endif /* KMIRROR_CACHEDIR_WALK_H */
