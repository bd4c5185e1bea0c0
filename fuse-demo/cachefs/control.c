// SPDX-License-Identifier: GPL-2.0-only
/*
 * The control socket DIR/kmirror.sock, through which `kmirror cache pin,
 * unpin, evict, pins, warm and top` reach the mounted daemon.
 *
 * Who may: the socket is made mode 0600 in the cache directory (the
 * daemon's own, dirs.c), and every peer's credentials are checked
 * (SO_PEERCRED): root and the daemon's own user are served, anyone else
 * gets EACCES.  The commands change what the cache keeps, never what a
 * user of the mount may read: paths are resolved beneath the source's
 * root (no "..", no symlink: kc_ctl_stat_beneath()).
 *
 * One request a connection (the protocol: control_proto.h), most with one
 * argument, "VERB\0ARGUMENT\0" (it may be empty), then the peer shuts
 * down its side.  The reply is text, then the daemon closes: "ok WHAT\n"
 * and any data lines, or "error ERRNO WHY\n".  One thread serves them one
 * after the other; a
 * peer that does not send its request within KC_CTL_TIMEOUT_S, or will
 * not read the reply, is dropped, so no client can stall the daemon.  A
 * request longer than KC_CTL_REQ_MAX gets "error E2BIG request too long":
 * whatever a peer sends is read to its end (for KC_CTL_TIMEOUT_S at most)
 * before the reply, or closing the socket would reset it under the peer.
 *
 *   where           ok MOUNTPOINT
 *   pin PATH        pin the file's object (pins.c), cached or not yet
 *   unpin PATH      drop the pin
 *   evict PATH      drop the file's object from the cache now (cull.c)
 *   pin-many PATH..., unpin-many PATH..., evict-many PATH...
 *                   the same for each PATH (the arguments): "ok N", then
 *                   a line per PATH, "0" or "ERRNO WHY"; the pins file is
 *                   written once for them all
 *   evict-object NAME  the same, the object named as its checksum sidecar
 *                   is (sums_file.c: "<volume hash>-<key hex>"), for
 *                   `kmirror cache check --repair`, which finds damaged
 *                   objects in the cache, not files in the mount
 *   pins            "ok N", then a line per pin: "cached BYTES PATH",
 *                   "absent - PATH" or "gone - PATH" (kc_ctl_pins())
 *   unpin-gone      drop the pins whose path no longer names their file,
 *                   as the source answered (kc_ctl_pin_gone())
 *   files           one line per file read since its inode was looked
 *                   up: "HITS MISSES FROM_CACHE FROM_SOURCE PATH"
 *   stats           the statistics file's lines, as they are now
 *
 * PATH is relative to the mount's root ("a/b.dat", no leading '/').
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "cachefs.h"
#include "control_proto.h"
#include "pins.h"

#define KC_CTL_SOCKET		"kmirror.sock"
#define KC_CTL_TIMEOUT_S	2

struct kc_control {
	int		listen_fd;
	int		stop_pipe[2];
	pthread_t	thread;
};

/* "ok WHAT", or "error ERR WHY" (@why NULL: strerror(@err)). */
static void kc_ctl_reply(FILE *out, int err, const char *what,
			 const char *why)
{
	if (err)
		fprintf(out, "error %d %s\n", err, why ? why : strerror(err));
	else
		fprintf(out, "ok %s\n", what ? what : "");
}

/*
 * Why a request about a file failed with @err, in words, where strerror()
 * would mislead: EIO from a source that stopped answering (or is offline)
 * is no fault of the file's.
 */
static const char *kc_ctl_why(struct kc_fs *fs, int err)
{
	if (err == EIO && kc_offline(fs))
		return "the source does not answer (offline)";
	if (err == ELOOP)
		return "a symbolic link (not followed)";
	if (err == EXDEV)
		return "a path out of the source";
	return NULL;
}

/* Why an eviction failed with @err, in words (NULL: strerror()). */
static const char *kc_ctl_evict_why(int err)
{
	return err == ENOENT ? "not in the cache" :
	       err == EPERM ? "pinned (unpin it first)" :
	       err == EBUSY ? "in use (open, or being culled)" : NULL;
}

/* Why a pin or an unpin failed with @err, in words (NULL: strerror()). */
static const char *kc_ctl_pin_why(int err)
{
	return err == EEXIST ? "already pinned" :
	       err == ENOENT ? "not pinned" : NULL;
}

/* Evict the object of @key, and say why not in words. */
static void kc_ctl_evict(struct kc_fs *fs, const uint8_t *key, size_t len,
			 const char *what, FILE *out)
{
	int err = -kc_cull_evict(fs, key, len);

	kc_ctl_reply(out, err, what, kc_ctl_evict_why(err));
}

/* pin, unpin, evict: the verbs about one file. */
static void kc_ctl_file(struct kc_fs *fs, const char *verb, const char *path,
			FILE *out)
{
	struct kc_ctl_dir d = KC_CTL_DIR_INIT;
	uint8_t key[16];
	size_t len = 0;
	int err = kc_ctl_key(fs, path, &d, key, &len);

	kc_ctl_dir_close(&d);
	if (err) {
		kc_ctl_reply(out, err, path, kc_ctl_why(fs, err));
		return;
	}
	if (!strcmp(verb, "evict")) {
		kc_ctl_evict(fs, key, len, path, out);
		return;
	}
	err = -kc_pin_change(fs, key, len, path, !strcmp(verb, "pin"));
	kc_ctl_reply(out, err, path, kc_ctl_pin_why(err));
}

/*
 * The keys of the @n paths at @args (each ending in '\0') into @r, their
 * why[] when one cannot be had.
 */
static void kc_ctl_keys(struct kc_fs *fs, const char *args,
			struct kc_pin_req *r, const char **why, size_t n)
{
	struct kc_ctl_dir d = KC_CTL_DIR_INIT;
	size_t i, len;

	for (i = 0; i < n; i++, args += strlen(args) + 1) {
		r[i].path = args;
		len = 0;
		r[i].err = -kc_ctl_key(fs, args, &d, r[i].key, &len);
		r[i].key_len = len;
		why[i] = r[i].err ? kc_ctl_why(fs, -r[i].err) : NULL;
		if (r[i].err && !why[i])
			why[i] = strerror(-r[i].err);
	}
	kc_ctl_dir_close(&d);
}

/*
 * pin-many, unpin-many, evict-many: the verb of each of the @n paths at
 * @args; the pins file is written once.
 */
static void kc_ctl_many(struct kc_fs *fs, const char *verb, const char *args,
			size_t n, FILE *out)
{
	struct kc_pin_req *r = calloc(n, sizeof(*r));
	const char **why = calloc(n, sizeof(*why));
	bool evict = !strcmp(verb, "evict-many");
	char what[32], kept[64];
	size_t i;
	int err = 0;

	if (!r || !why) {
		kc_ctl_reply(out, ENOMEM, NULL, NULL);
		goto out;
	}
	kc_ctl_keys(fs, args, r, why, n);
	for (i = 0; evict && i < n; i++) {
		if (r[i].err)
			continue;
		r[i].err = kc_cull_evict(fs, r[i].key, r[i].key_len);
		why[i] = kc_ctl_evict_why(-r[i].err);
	}
	if (!evict)
		err = kc_pins_change(fs, r, n, !strcmp(verb, "pin-many"));
	snprintf(kept, sizeof(kept), "cannot write %s: %s", KC_PINS_FILE,
		 strerror(-err));
	snprintf(what, sizeof(what), "%zu", n);
	kc_ctl_reply(out, 0, what, NULL);
	for (i = 0; i < n; i++) {
		if (!evict && !why[i])
			why[i] = err && r[i].err == err ? kept :
				 kc_ctl_pin_why(-r[i].err);
		if (r[i].err)
			fprintf(out, "%d %s\n", -r[i].err,
				why[i] ? why[i] : strerror(-r[i].err));
		else
			fputs("0\n", out);
	}
out:
	free(r);
	free(why);
}

/*
 * evict-object NAME: the object of this mount's volume whose sidecar
 * name is NAME (kc_sums_name_key(): another volume's, or any other
 * string, names nothing).
 */
static void kc_ctl_evict_object(struct kc_fs *fs, const char *name,
				FILE *out)
{
	uint8_t key[64];
	int len = kc_sums_name_key(fs->volume_key, name, key);

	if (len == -ENOENT)
		kc_ctl_reply(out, ENOENT, name, "not in the cache");
	else if (len < 0)
		kc_ctl_reply(out, EINVAL, NULL, "not an object's name");
	else
		kc_ctl_evict(fs, key, len, name, out);
}

/*
 * Is @p gone: does its path no longer name the file it pinned?  Only if
 * the source said so: the path names another file or something else, or
 * nothing (ENOENT, or ENOTDIR: a directory on the way is one no more).
 * A source that failed otherwise (EIO, EACCES, no answer) said nothing.
 */
static bool kc_ctl_pin_gone(struct kc_fs *fs, const struct kc_pin_info *p,
			    struct kc_ctl_dir *d)
{
	uint8_t key[16];
	size_t len = 0;
	int err = kc_ctl_key(fs, p->path, d, key, &len);

	if (!err)
		return len != p->key_len || memcmp(key, p->key, len);
	return err == ENOENT || err == ENOTDIR || err == EISDIR ||
	       err == ELOOP || err == EINVAL;
}

/*
 * Which of the @n pins @v are gone, into @gone[]: 0, or EIO if the source
 * did not answer (it is offline now, and can tell nothing).
 */
static int kc_ctl_pins_gone(struct kc_fs *fs, const struct kc_pin_info *v,
			    size_t n, bool *gone)
{
	struct kc_ctl_dir d = KC_CTL_DIR_INIT;
	size_t i;

	for (i = 0; i < n && !kc_offline(fs); i++)
		gone[i] = kc_ctl_pin_gone(fs, &v[i], &d);
	kc_ctl_dir_close(&d);
	return kc_offline(fs) ? EIO : 0;
}

/* Unpin the pins of @v[@n] that are @gone, at once: how many, in *@done. */
static int kc_ctl_unpin_gone(struct kc_fs *fs, const struct kc_pin_info *v,
			     size_t n, const bool *gone, ssize_t *done)
{
	struct kc_pin_req *r = calloc(n + 1, sizeof(*r));
	size_t i, k = 0;
	int ret;

	if (!r)
		return ENOMEM;
	for (i = 0; i < n; i++) {
		if (!gone[i])
			continue;
		r[k].path = v[i].path;
		r[k].key_len = v[i].key_len;
		memcpy(r[k++].key, v[i].key, v[i].key_len);
	}
	ret = -kc_pins_change(fs, r, k, false);
	for (i = 0, *done = 0; i < k; i++)
		*done += !r[i].err;
	free(r);
	return ret;
}

static void kc_ctl_pins_list(FILE *out, const struct kc_pin_info *v,
			     size_t n, const bool *gone)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (gone[i])
			fprintf(out, "gone - %s\n", v[i].path);
		else if (v[i].cached)
			fprintf(out, "cached %llu %s\n",
				(unsigned long long)v[i].bytes, v[i].path);
		else
			fprintf(out, "absent - %s\n", v[i].path);
	}
}

/*
 * pins: one line each, "cached BYTES PATH", "absent - PATH" (no data in
 * the cache now) or "gone - PATH" (PATH no longer names the pinned file).
 * unpin-gone (@prune): drop the gone ones; "ok N" says how many.  A
 * source that does not answer can tell no gone pin from a live one: an
 * error then, and nothing dropped.
 */
static void kc_ctl_pins(struct kc_fs *fs, FILE *out, bool prune)
{
	struct kc_pin_info *v;
	ssize_t n = kc_pins_get(fs, &v), dropped = 0;
	bool *gone = n >= 0 ? calloc(n + 1, sizeof(*gone)) : NULL;
	char what[32];
	int err = n < 0 ? -n : !gone ? ENOMEM : 0;

	if (!err && kc_ctl_pins_gone(fs, v, n, gone)) {
		kc_ctl_reply(out, EIO, NULL, prune ?
			     "the source does not answer (offline): cannot "
			     "tell gone pins from live ones; none dropped" :
			     "the source does not answer (offline): cannot "
			     "tell gone pins from live ones");
		goto out;
	}
	if (err) {
		kc_ctl_reply(out, err, NULL, NULL);
		goto out;
	}
	if (prune && (err = kc_ctl_unpin_gone(fs, v, n, gone, &dropped))) {
		kc_ctl_reply(out, err, NULL, NULL);
		goto out;
	}
	snprintf(what, sizeof(what), "%zd", prune ? dropped : n);
	kc_ctl_reply(out, 0, what, NULL);
	if (!prune)
		kc_ctl_pins_list(out, v, n, gone);
out:
	free(gone);
	if (n >= 0)
		kc_pins_put(v, n);
}

/* Serve @verb, with its @n arguments at @arg (each ending in '\0'). */
static void kc_ctl_serve(struct kc_fs *fs, const char *verb, const char *arg,
			 size_t n, FILE *out)
{
	if (!strcmp(verb, "where")) {
		kc_ctl_reply(out, 0, fs->cfg.mountpoint, NULL);
	} else if (!strcmp(verb, "pin") || !strcmp(verb, "unpin") ||
		   !strcmp(verb, "evict")) {
		kc_ctl_file(fs, verb, arg, out);
	} else if (!strcmp(verb, "pin-many") || !strcmp(verb, "unpin-many") ||
		   !strcmp(verb, "evict-many")) {
		kc_ctl_many(fs, verb, arg, n, out);
	} else if (!strcmp(verb, "evict-object")) {
		kc_ctl_evict_object(fs, arg, out);
	} else if (!strcmp(verb, "pins")) {
		kc_ctl_pins(fs, out, false);
	} else if (!strcmp(verb, "unpin-gone")) {
		kc_ctl_pins(fs, out, true);
	} else if (!strcmp(verb, "stats")) {
		kc_ctl_reply(out, 0, "stats", NULL);
		kc_stats_show(fs, out);
	} else if (!strcmp(verb, "files")) {
		kc_ctl_reply(out, 0, "files", NULL);
		kc_itable_report(fs, out);
	} else {
		kc_ctl_reply(out, EINVAL, NULL, "unknown request");
	}
}

/* Root and the daemon's own user only. */
static bool kc_ctl_peer_ok(int fd)
{
	struct ucred cr;
	socklen_t len = sizeof(cr);

	return !getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &len) &&
	       (cr.uid == 0 || cr.uid == geteuid());
}

/*
 * Read and drop what the peer still sends, until its end of file or
 * KC_CTL_TIMEOUT_S: a socket closed with bytes unread resets the peer's
 * end, and the peer would lose the reply we owe it.  True if there were
 * any.
 */
static bool kc_ctl_drain(int fd)
{
	uint64_t end = kc_now_ns() + KC_CTL_TIMEOUT_S * 1000000000ull;
	bool more = false;
	char sink[4096];

	while (kc_now_ns() < end && read(fd, sink, sizeof(sink)) > 0)
		more = true;
	return more;
}

/*
 * Read "VERB\0ARG\0..." from @fd: the number of arguments (at least one),
 * -EINVAL if the request does not come whole (it ends in '\0'), or -E2BIG
 * if it is longer than @size bytes (the rest is drained).
 */
static long kc_ctl_read(int fd, char *buf, size_t size, const char **arg)
{
	size_t have = 0, n = 0, i;
	ssize_t got;

	while (have < size && (got = read(fd, buf + have, size - have)) > 0)
		have += got;
	if (have == size && kc_ctl_drain(fd))
		return -E2BIG;
	for (i = 0; i < have; i++)
		n += !buf[i];
	if (n < 2 || buf[have - 1])
		return -EINVAL;
	*arg = buf + strlen(buf) + 1;
	return n - 1;
}

/* Read the request and answer it into @out. */
static void kc_ctl_answer(struct kc_fs *fs, int fd, FILE *out)
{
	char *req = malloc(KC_CTL_REQ_MAX), why[64];
	const char *arg = NULL;
	long n;

	if (!kc_ctl_peer_ok(fd)) {
		kc_ctl_drain(fd);
		kc_ctl_reply(out, EACCES, NULL,
			     "only root and the daemon's user are served");
	} else if (!req) {
		kc_ctl_drain(fd);
		kc_ctl_reply(out, ENOMEM, NULL, NULL);
	} else if ((n = kc_ctl_read(fd, req, KC_CTL_REQ_MAX, &arg)) < 0) {
		snprintf(why, sizeof(why), "request too long (at most %u "
			 "bytes)", KC_CTL_REQ_MAX);
		kc_ctl_reply(out, -n, NULL, n == -E2BIG ? why :
			     "malformed request");
	} else {
		kc_ctl_serve(fs, req, arg, n, out);
	}
	free(req);
}

static void kc_ctl_conn(struct kc_fs *fs, int fd)
{
	struct timeval tv = { KC_CTL_TIMEOUT_S, 0 };
	char *reply = NULL;
	size_t len = 0;
	FILE *out;

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	out = open_memstream(&reply, &len);
	if (!out)
		return;
	kc_ctl_answer(fs, fd, out);
	if (!fclose(out))
		send(fd, reply, len, MSG_NOSIGNAL);
	free(reply);
}

static void *kc_ctl_main(void *arg)
{
	struct kc_fs *fs = arg;
	struct kc_control *c = fs->control;
	struct pollfd p[2] = {
		{ .fd = c->listen_fd, .events = POLLIN },
		{ .fd = c->stop_pipe[0], .events = POLLIN },
	};
	int fd;

	while (poll(p, 2, -1) >= 0 || errno == EINTR) {
		if (p[1].revents)
			break;
		if (!(p[0].revents & POLLIN))
			continue;
		fd = accept4(c->listen_fd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0)
			continue;
		kc_ctl_conn(fs, fd);
		close(fd);
	}
	return NULL;
}

/*
 * A fresh DIR/kmirror.sock, mode 0600 (we hold the cache lock): whatever
 * stands by its name is removed unfollowed, and the socket is bound in
 * the very directory of cache_fd, whatever its path names now
 * (kmirror/cachedir.h).
 */
static int kc_ctl_listen(struct kc_fs *fs)
{
	struct sockaddr_un sa;
	socklen_t len;
	int fd, n;

	n = kmirror_cachedir_sockaddr(fs->cache_fd, KC_CTL_SOCKET, &sa, &len);
	if (n)
		return n;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	kmirror_cachedir_unlink(fs->cache_fd, KC_CTL_SOCKET, 0);
	/*
	 * The daemon runs with umask 0: the mode the socket's file gets
	 * at bind() is that of the socket's inode, set here (Linux).
	 */
	if (fchmod(fd, 0600) || bind(fd, (struct sockaddr *)&sa, len) ||
	    listen(fd, 8)) {
		n = -errno;
		close(fd);
		return n;
	}
	return fd;
}

/*
 * Start serving the socket.  A socket that cannot be made only loses the
 * commands (a warning), not the mount.
 */
int kc_control_start(struct kc_fs *fs)
{
	struct kc_control *c = calloc(1, sizeof(*c));
	int fd;

	if (!c)
		return -ENOMEM;
	fd = kc_ctl_listen(fs);
	if (fd < 0) {
		kc_warn("warning: no control socket in %s: %s; kmirror cache "
			"pin/evict/top will not reach this mount",
			fs->cfg.cache_dir, strerror(-fd));
		free(c);
		return 0;
	}
	c->listen_fd = fd;
	c->stop_pipe[0] = c->stop_pipe[1] = -1;
	fs->control = c;	/* before the thread, which reads it */
	if (pipe2(c->stop_pipe, O_CLOEXEC) ||
	    pthread_create(&c->thread, NULL, kc_ctl_main, fs)) {
		close(fd);
		if (c->stop_pipe[0] >= 0) {
			close(c->stop_pipe[0]);
			close(c->stop_pipe[1]);
		}
		free(c);
		fs->control = NULL;
		return -EAGAIN;
	}
	return 0;
}

void kc_control_stop(struct kc_fs *fs)
{
	struct kc_control *c = fs->control;

	if (!c)
		return;
	(void)!write(c->stop_pipe[1], "x", 1);
	pthread_join(c->thread, NULL);
	close(c->listen_fd);
	close(c->stop_pipe[0]);
	close(c->stop_pipe[1]);
	kmirror_cachedir_unlink(fs->cache_fd, KC_CTL_SOCKET, 0);
	free(c);
	fs->control = NULL;
}
