// SPDX-License-Identifier: GPL-2.0-only
/*
 * The client side of a mounted kmirror-cachefs's control socket
 * DIR/kmirror.sock (the protocol: fuse-demo/cachefs/control.c), and the
 * walk that turns the user's paths (files or trees in the mount) into
 * paths relative to the mount's root.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cache_ctl.h"
#include "kmirror/cachedir.h"

#define KM_CTL_REPLY_MAX	(64 << 20)

/* Seconds a request may take, connection to last byte (--timeout). */
static double km_ctl_timeout_s = KM_CTL_TIMEOUT_DEFAULT;

int km_ctl_set_timeout(const char *arg)
{
	char *end;
	double s = strtod(arg, &end);

	if (end == arg || *end || !(s >= 0.1 && s <= KM_CTL_TIMEOUT_MAX))
		return km_error("--timeout %s: not 0.1 to %d seconds", arg,
				KM_CTL_TIMEOUT_MAX);
	km_ctl_timeout_s = s;
	return KM_EXIT_OK;
}

/*
 * Take "--timeout SECONDS" (or "--timeout=SECONDS") out of @argv,
 * wherever it is among a cache command's arguments.  -1 to go on, else
 * the exit status of a bad value.
 */
int km_ctl_take_timeout(int *argc, char **argv)
{
	const char *val;
	int i, n, ret;

	for (i = 1; i < *argc; i++) {
		if (!strncmp(argv[i], "--timeout=", 10)) {
			val = argv[i] + 10;
			n = 1;
		} else if (!strcmp(argv[i], "--timeout")) {
			if (i + 1 >= *argc)
				return km_error("--timeout: no SECONDS given");
			val = argv[i + 1];
			n = 2;
		} else {
			continue;
		}
		ret = km_ctl_set_timeout(val);
		if (ret)
			return ret;
		memmove(argv + i, argv + i + n, (*argc - i - n + 1) *
			sizeof(*argv));
		*argc -= n;
		i--;
	}
	return -1;
}

static double km_ctl_clock(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Milliseconds left before @deadline, at least 1 while any is left. */
static int km_ctl_left_ms(double deadline)
{
	double left = deadline - km_ctl_clock();

	return left <= 0 ? 0 : (int)(left * 1000) + 1;
}

/* send() waits at most what is left (SO_SNDTIMEO). */
static void km_ctl_send_bound(int fd, double deadline)
{
	int ms = km_ctl_left_ms(deadline);
	struct timeval tv = { ms / 1000, ms % 1000 * 1000 };

	if (!ms)
		tv.tv_usec = 1;
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

/*
 * Connect to DIR/kmirror.sock: a socket of DIR's owner, not a symlink to
 * another socket (kmirror/cachedir.h), whatever the length of DIR's path;
 * a daemon whose backlog is full is waited for until @deadline.
 */
static int km_ctl_connect(const char *dir, double deadline)
{
	int dfd = kmirror_cachedir_root(dir), fd;

	if (dfd < 0)
		return dfd;
	fd = kmirror_cachedir_connect_within(dfd, "kmirror.sock",
					     km_ctl_left_ms(deadline));
	close(dfd);
	return fd;
}

static int km_ctl_send(int fd, const char *req, size_t len, double deadline)
{
	ssize_t n;

	/* A daemon that refuses us replies and closes without reading. */
	km_ctl_send_bound(fd, deadline);
	n = send(fd, req, len, MSG_NOSIGNAL);
	if (n < 0 && errno == EAGAIN)
		return -ETIMEDOUT;
	if (n == (ssize_t)len)
		shutdown(fd, SHUT_WR);
	return 0;
}

/* Wait for the reply's next bytes until @deadline: 0 or -ETIMEDOUT. */
static int km_ctl_wait(int fd, double deadline)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int n;

	do {
		n = poll(&p, 1, km_ctl_left_ms(deadline));
	} while (n < 0 && errno == EINTR);
	return n > 0 ? 0 : n < 0 ? -errno : -ETIMEDOUT;
}

/* The whole reply, NUL-terminated. */
static int km_ctl_recv(int fd, char **reply, double deadline)
{
	size_t len = 0, size = 4096;
	char *buf = malloc(size), *nb;
	ssize_t n = 0;
	int ret;

	while (buf && !(ret = km_ctl_wait(fd, deadline)) &&
	       (n = read(fd, buf + len, size - len - 1)) > 0) {
		len += n;
		if (size - len > 1)
			continue;
		nb = size < KM_CTL_REPLY_MAX ? realloc(buf, size * 2) : NULL;
		if (!nb) {
			free(buf);
			return -E2BIG;
		}
		buf = nb;
		size *= 2;
	}
	if (!buf)
		return -ENOMEM;
	/*
	 * A daemon that refuses us replies and closes without reading our
	 * request: the reply is followed by ECONNRESET, not an end of file.
	 */
	if (ret || (n < 0 && !len)) {
		free(buf);
		return ret ? ret : -errno;
	}
	buf[len] = '\0';
	*reply = buf;
	return 0;
}

int km_ctl_request_buf(const char *dir, const char *req, size_t len,
		       char **reply)
{
	double deadline = km_ctl_clock() + km_ctl_timeout_s;
	int fd = km_ctl_connect(dir, deadline), ret;

	if (fd < 0)
		return fd;
	ret = km_ctl_send(fd, req, len, deadline);
	if (!ret)
		ret = km_ctl_recv(fd, reply, deadline);
	close(fd);
	return ret;
}

int km_ctl_request(const char *dir, const char *verb, const char *arg,
		   char **reply)
{
	size_t vl = strlen(verb) + 1, al = strlen(arg) + 1;
	char *req = malloc(vl + al);
	int ret;

	if (!req)
		return -ENOMEM;
	memcpy(req, verb, vl);
	memcpy(req + vl, arg, al);
	ret = km_ctl_request_buf(dir, req, vl + al, reply);
	free(req);
	return ret;
}

int km_ctl_refused(const char *dir, int err)
{
	if (err == -ENOENT || err == -ECONNREFUSED)
		return km_fail("no kmirror-cachefs is mounted with the cache '%s' (no control socket %s/kmirror.sock)",
			       dir, dir);
	if (err == -EACCES)
		return km_fail("'%s/kmirror.sock': only root and the daemon's user may use it",
			       dir);
	if (err == -ETIMEDOUT)
		return km_fail("the daemon of '%s' did not answer within %g s (--timeout)",
			       dir, km_ctl_timeout_s);
	return km_fail("cannot reach the daemon of '%s': %s/kmirror.sock: %s",
		       dir, dir, kmirror_cachedir_strerror(err));
}

int km_ctl_status(const char *reply, const char **rest)
{
	const char *nl = strchr(reply, '\n');

	*rest = nl ? nl + 1 : reply + strlen(reply);
	if (!strncmp(reply, "ok", 2) && (reply[2] == ' ' || reply[2] == '\n'))
		return 0;
	if (!strncmp(reply, "error ", 6)) {
		long err = strtol(reply + 6, NULL, 10);

		return err > 0 && err < 4096 ? -(int)err : -EIO;
	}
	return -EPROTO;
}

/* ---- paths ---------------------------------------------------------- */

int km_ctl_mount(const char *dir, char mnt[PATH_MAX])
{
	const char *rest;
	char *reply = NULL, *nl;
	int ret = km_ctl_request(dir, "where", "", &reply);

	if (ret)
		return ret;
	ret = km_ctl_status(reply, &rest);
	nl = strchr(reply, '\n');
	if (!ret && nl) {
		*nl = '\0';
		if (!realpath(reply + 3, mnt))
			ret = -errno;
	} else if (!ret) {
		ret = -EPROTO;
	}
	free(reply);
	return ret;
}

/* @path (in the mount @mnt) relative to the mount's root, or NULL. */
const char *km_ctl_relative(const char *mnt, const char *path)
{
	size_t n = strlen(mnt);

	if (strcmp(mnt, "/") && (strncmp(path, mnt, n) ||
				 (path[n] != '/' && path[n])))
		return NULL;
	path += strcmp(mnt, "/") ? n : 0;
	while (*path == '/')
		path++;
	return path;
}

/*
 * The start of every "kmirror cache VERB DIR PATH..." command: --help
 * prints @usage, too few arguments are refused, and DIR's mount goes into
 * @w.  -1 to go on, else the exit status to return.
 */
int km_ctl_begin(int argc, char **argv, const char *usage, const char *verb,
		 struct km_ctl_walk *w)
{
	int i, ret;

	for (i = 1; i < argc; i++)
		if (km_is_help(argv[i])) {
			fputs(usage, stdout);
			return KM_EXIT_OK;
		}
	if (argc < 3)
		return km_error("usage: kmirror cache %s DIR PATH... (see --help)",
				verb);
	w->dir = argv[1];
	ret = km_ctl_mount(w->dir, w->mnt);
	return ret ? km_ctl_refused(w->dir, ret) : -1;
}

/* nftw() has no argument for its callback: the walk in progress. */
static struct km_ctl_walk *km_walk;

static int km_ctl_visit(const char *path, const struct stat *st, int type,
			struct FTW *ftw)
{
	const char *rel;

	(void)ftw;
	if (type == FTW_NS || type == FTW_DNR) {
		km_walk->errors++;
		km_error("%s: cannot read: %s", path, strerror(errno));
		return 0;
	}
	if (type != FTW_F || !S_ISREG(st->st_mode))
		return 0;
	rel = km_ctl_relative(km_walk->mnt, path);
	if (!rel || !*rel)
		return 0;
	return km_walk->file(km_walk, path, rel, st);
}

/*
 * Call w->file for every regular file under each of @paths (files or
 * directories in the mount; symlinks are not followed below the paths
 * given).  Returns the first nonzero w->file result, else 0.
 */
int km_ctl_walk(struct km_ctl_walk *w, char **paths, int n)
{
	char real[PATH_MAX];
	int i, ret = 0;

	km_walk = w;
	for (i = 0; i < n && !ret; i++) {
		if (!realpath(paths[i], real)) {
			w->errors++;
			km_error("%s: %s", paths[i], strerror(errno));
			continue;
		}
		if (!km_ctl_relative(w->mnt, real)) {
			w->errors++;
			km_error("%s: not in the mount %s of this cache",
				 paths[i], w->mnt);
			continue;
		}
		ret = nftw(real, km_ctl_visit, 16, FTW_PHYS | FTW_MOUNT);
		if (ret < 0) {
			w->errors++;
			km_error("%s: %s", paths[i], strerror(errno));
			ret = 0;
		}
	}
	km_walk = NULL;
	return ret;
}

/* ---- the mount's counters ------------------------------------------- */

/*
 * The counters @names[] of DIR's mount into @val[] (0 if absent), as they
 * are now (the "stats" request: the statistics file lags up to 1 s).
 */
int km_stats_values(const char *dir, const char *const *names,
		    unsigned long long *val, int n)
{
	const char *rest, *p;
	char *reply = NULL, want[64];
	int i, ret;

	ret = km_ctl_request(dir, "stats", "", &reply);
	if (!ret)
		ret = km_ctl_status(reply, &rest);
	for (i = 0; !ret && i < n; i++) {
		snprintf(want, sizeof(want), "\n%s: ", names[i]);
		p = strstr(rest - 1, want);
		val[i] = p ? strtoull(p + strlen(want), NULL, 10) : 0;
	}
	free(reply);
	return ret;
}
