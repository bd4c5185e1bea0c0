// SPDX-License-Identifier: GPL-2.0-only
/*
 * Requests touch the source with the caller's credentials.
 *
 * A daemon run by root (often with allow_other) would otherwise create
 * every file as root and open anything for anyone.  Two layers, as
 * mergerfs does it:
 *  - with allow_other the mount has default_permissions (options.c): the
 *    kernel checks every access against the modes and owners the source
 *    reports, with the caller's own credentials, before we see the
 *    request (without allow_other, only the daemon's user gets in);
 *  - every system call that names, makes, changes or opens a source file
 *    runs with the caller's fsuid, fsgid and supplementary groups, set on
 *    this thread only (setfsuid/setfsgid and the raw setgroups system
 *    call; glibc's setgroups() would change every thread).  New files
 *    belong to the caller, and a source that checks on its side (NFS with
 *    root_squash, ACLs) sees the caller, not root.
 * Cache I/O always runs as the daemon: callers leave the scope first.
 *
 * A caller's groups come from /proc (fuse_req_getgroups()); each thread
 * keeps its last caller's for KC_GROUPS_TTL_NS, so that a burst of
 * requests from one process reads /proc once.  A daemon that is not root
 * cannot switch: it relies on default_permissions alone.
 */
#include <errno.h>
#include <grp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cachefs.h"

#define KC_GROUPS_TTL_NS	1000000000ull
#define KC_GROUPS_MAX		65536		/* NGROUPS_MAX */

/* The groups of the last caller this thread served. */
struct kc_caller {
	pid_t		pid;
	uid_t		uid;
	gid_t		gid;
	uint64_t	when;
	int		n;
	gid_t		*groups;
	int		cap;
};

static pthread_key_t kc_caller_key;
static bool kc_can_switch;		/* the daemon is root */
static gid_t kc_daemon_gid;

static void kc_caller_free(void *p)
{
	struct kc_caller *c = p;

	free(c->groups);
	free(c);
}

/* At start, before any thread: 0 or -ENOMEM. */
int kc_creds_init(void)
{
	kc_can_switch = geteuid() == 0;
	kc_daemon_gid = getegid();
	/* The daemon's baseline: no supplementary groups of its own. */
	if (kc_can_switch && setgroups(0, NULL))
		return -errno;
	return pthread_key_create(&kc_caller_key, kc_caller_free) ? -ENOMEM : 0;
}

void kc_creds_fini(void)
{
	struct kc_caller *c = pthread_getspecific(kc_caller_key);

	if (c) {
		pthread_setspecific(kc_caller_key, NULL);
		kc_caller_free(c);
	}
	pthread_key_delete(kc_caller_key);
}

/* This thread's record of its last caller, made on first use. */
static struct kc_caller *kc_caller(void)
{
	struct kc_caller *c = pthread_getspecific(kc_caller_key);

	if (!c) {
		c = calloc(1, sizeof(*c));
		if (c && pthread_setspecific(kc_caller_key, c)) {
			free(c);
			c = NULL;
		}
	}
	return c;
}

/* Fill @c with the groups of @req's caller; 0 or -errno. */
static int kc_caller_groups(fuse_req_t req, const struct fuse_ctx *ctx,
			    struct kc_caller *c)
{
	uint64_t now = kc_now_ns();
	gid_t *g;
	int n;

	if (c->pid == ctx->pid && c->uid == ctx->uid && c->gid == ctx->gid &&
	    now - c->when < KC_GROUPS_TTL_NS)
		return 0;
	c->pid = 0;
	for (;;) {
		n = fuse_req_getgroups(req, c->cap, c->groups);
		if (n < 0)
			return n;
		if (n <= c->cap)
			break;
		if (n > KC_GROUPS_MAX)
			return -E2BIG;
		g = realloc(c->groups, n * sizeof(*g));
		if (!g)
			return -ENOMEM;
		c->groups = g;
		c->cap = n;
	}
	c->pid = ctx->pid;
	c->uid = ctx->uid;
	c->gid = ctx->gid;
	c->when = now;
	c->n = n;
	return 0;
}

/*
 * Take the credentials of @req's caller on this thread (nothing to do for
 * a root caller or a daemon that is not root).  Without its supplementary
 * groups (they could not be read) the caller gets fewer rights, never
 * more.  Always pair with kc_creds_drop().
 */
void kc_creds_take(fuse_req_t req, struct kc_creds *saved)
{
	const struct fuse_ctx *ctx = fuse_req_ctx(req);
	struct kc_caller *c;

	saved->switched = kc_can_switch && (ctx->uid || ctx->gid);
	if (!saved->switched)
		return;
	c = kc_caller();
	if (c && !kc_caller_groups(req, ctx, c))
		syscall(SYS_setgroups, c->n, c->groups);
	else
		syscall(SYS_setgroups, 0, NULL);
	setfsgid(ctx->gid);
	setfsuid(ctx->uid);
}

/* Back to the daemon's own credentials (root, all groups dropped). */
void kc_creds_drop(const struct kc_creds *saved)
{
	if (!saved->switched)
		return;
	setfsuid(0);
	setfsgid(kc_daemon_gid);
	syscall(SYS_setgroups, 0, NULL);
}

/*
 * This thread's filesystem ids and groups (a caller's, after
 * kc_creds_take()), for a runner to make a source call as them
 * (srccall.c): 0 or -ENOMEM.
 */
int kc_who_mine(struct kc_who *w)
{
	long n;

	memset(w, 0, sizeof(*w));
	if (!kc_can_switch)
		return 0;
	w->uid = setfsuid(-1);
	w->gid = setfsgid(-1);
	n = syscall(SYS_getgroups, 0, NULL);
	if (n <= 0)
		return 0;
	w->groups = malloc(n * sizeof(gid_t));
	if (!w->groups)
		return -ENOMEM;
	n = syscall(SYS_getgroups, n, w->groups);
	w->n = n > 0 ? n : 0;
	return 0;
}

void kc_who_free(struct kc_who *w)
{
	free(w->groups);
	w->groups = NULL;
}

/* Become @w (this thread only), and back to the daemon's baseline. */
void kc_creds_become(const struct kc_who *w)
{
	if (!kc_can_switch)
		return;
	syscall(SYS_setgroups, w->n, w->groups);
	setfsgid(w->gid);
	setfsuid(w->uid);
}

void kc_creds_unbecome(void)
{
	const struct kc_creds c = { .switched = kc_can_switch };

	kc_creds_drop(&c);
}
