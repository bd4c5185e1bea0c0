/* SPDX-License-Identifier: GPL-2.0-only */
/* The client of DIR/kmirror.sock (cache_ctl.c), for the cache commands. */
#ifndef KMIRROR_CACHE_CTL_H
#define KMIRROR_CACHE_CTL_H

#include <limits.h>
#include <sys/stat.h>

#include "cli.h"

/* Seconds a request may take (--timeout): the default and the most. */
#define KM_CTL_TIMEOUT_DEFAULT	30
#define KM_CTL_TIMEOUT_MAX	86400

/* The usages' line about it. */
#define KM_CTL_TIMEOUT_HELP \
	"--timeout SECONDS: wait at most that for each reply of the daemon\n" \
	"(0.1 to 86400, default 30), then fail.\n"

/* --timeout SECONDS: KM_EXIT_OK, or the error said (KM_EXIT_USAGE). */
int km_ctl_set_timeout(const char *arg);
/* Take --timeout out of a cache command's @argv: -1 to go on. */
int km_ctl_take_timeout(int *argc, char **argv);
/*
 * One request: VERB, ARG ("" for none).  0 with the daemon's whole reply
 * in *@reply (malloc()ed, NUL-terminated), or a negative errno of the
 * connection (-ENOENT/-ECONNREFUSED: not mounted; -ETIMEDOUT: no whole
 * reply within --timeout).
 */
int km_ctl_request(const char *dir, const char *verb, const char *arg,
		   char **reply);
/* The same, the request made already: @len bytes at @req. */
int km_ctl_request_buf(const char *dir, const char *req, size_t len,
		       char **reply);
/* Print why DIR's daemon could not be asked; KM_EXIT_FAIL. */
int km_ctl_refused(const char *dir, int err);
/* A reply's status: 0 ("ok"), or its negative errno; *@rest: data lines. */
int km_ctl_status(const char *reply, const char **rest);
/* The mount point of DIR's daemon, resolved (realpath). */
int km_ctl_mount(const char *dir, char mnt[PATH_MAX]);
const char *km_ctl_relative(const char *mnt, const char *path);

/* A walk over the regular files of trees in the mount. */
struct km_ctl_walk {
	const char	*dir;		/* the cache */
	char		mnt[PATH_MAX];	/* its mount, resolved */
	/* @path: as found; @rel: from the mount's root.  Nonzero stops. */
	int		(*file)(struct km_ctl_walk *w, const char *path,
				const char *rel, const struct stat *st);
	unsigned long	files, done, errors;
	unsigned long long bytes;
	void		*priv;
};

int km_ctl_walk(struct km_ctl_walk *w, char **paths, int n);
/* Arguments and mount of a "VERB DIR PATH..." command: -1 to go on. */
int km_ctl_begin(int argc, char **argv, const char *usage, const char *verb,
		 struct km_ctl_walk *w);

/* The counters @names of DIR's mount, now, into @val (0 if absent). */
int km_stats_values(const char *dir, const char *const *names,
		    unsigned long long *val, int n);

#endif /* KMIRROR_CACHE_CTL_H */
