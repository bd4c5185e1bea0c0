// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel hears about every change of a source file that the daemon
 * learns of behind the mount's back: its page-cache copies of the file go
 * (fuse_lowlevel_notify_inval_inode()), so that a descriptor opened before
 * the change does not go on reading a torn mix of old cached pages and
 * new fetched ones.  The kernel's own check (auto_inval_data) looks at
 * mtime and size only; the daemon also sees ctime and inode changes.
 *
 * The notice goes out from a thread of its own: dropping pages waits for
 * the pages' locks, which the kernel holds over reads and writes in
 * flight, so a request handler must never send it itself.  A getattr or
 * lookup handler (the kernel holds no page lock over those) waits for its
 * notice, a bounded time, before it replies: the kernel then reads the
 * changed file after it has dropped the old pages, not before.
 *
 * The same thread asks the kernel to forget names
 * (fuse_lowlevel_notify_inval_entry()) when the inode table is past its
 * descriptor budget (inode.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cachefs.h"

#define KC_NOTIFY_WAIT_NS	500000000ll	/* at most, per waiter */

struct kc_notice {
	struct kc_notice	*next;
	struct kc_inode		*in;		/* pinned while queued */
	char			*name;		/* forget @in/@name; NULL:
						 * @in's pages */
	uint64_t		seq;
};

static void kc_notice_send(struct kc_fs *fs, const struct kc_notice *e)
{
	fuse_ino_t ino = e->in == &fs->root ? FUSE_ROOT_ID :
			 (fuse_ino_t)(uintptr_t)e->in;

	if (e->name)
		fuse_lowlevel_notify_inval_entry(fs->se, ino, e->name,
						 strlen(e->name));
	else
		fuse_lowlevel_notify_inval_inode(fs->se, ino, 0, 0);
}

/*
 * Forgetting a name takes its directory's lock in the kernel.  A request
 * that holds that lock and waits for descriptors (struct kc_fd_waiter)
 * would then wait for this very notice: the notice is dropped instead
 * (eviction is best effort: the clock hand comes round again).  A handler
 * that starts waiting just after this check still costs the notifier one
 * wait of KC_FD_TRIES tries, no more.
 */
static bool kc_notice_blocked(const struct kc_notice *e)
{
	return e->name && atomic_load(&e->in->fd_waiters);
}

struct kc_notifier {
	pthread_mutex_t		lock;
	pthread_cond_t		queued, sent;
	struct kc_notice	*head, **tail;
	uint64_t		next_seq, sent_seq;
	bool			stop, running;
	pthread_t		thread;
};

static void *kc_notifier_main(void *arg)
{
	struct kc_fs *fs = arg;
	struct kc_notifier *n = fs->notifier;
	struct kc_notice *e;

	pthread_mutex_lock(&n->lock);
	for (;;) {
		while (!n->head && !n->stop)
			pthread_cond_wait(&n->queued, &n->lock);
		e = n->head;
		if (!e)
			break;
		n->head = e->next;
		if (!n->head)
			n->tail = &n->head;
		pthread_mutex_unlock(&n->lock);
		if (!n->stop && !kc_notice_blocked(e))
			kc_notice_send(fs, e);
		kc_inode_unpin(e->in);
		pthread_mutex_lock(&n->lock);
		n->sent_seq = e->seq;
		free(e->name);
		free(e);
		pthread_cond_broadcast(&n->sent);
	}
	pthread_mutex_unlock(&n->lock);
	return NULL;
}

int kc_notifier_start(struct kc_fs *fs)
{
	struct kc_notifier *n = calloc(1, sizeof(*n));

	if (!n)
		return -ENOMEM;
	pthread_mutex_init(&n->lock, NULL);
	kc_cond_init_monotonic(&n->sent);
	pthread_cond_init(&n->queued, NULL);
	n->tail = &n->head;
	fs->notifier = n;
	n->running = !pthread_create(&n->thread, NULL, kc_notifier_main, fs);
	return n->running ? 0 : -EAGAIN;
}

/* Send what is queued, then end the thread (before the session goes). */
void kc_notifier_stop(struct kc_fs *fs)
{
	struct kc_notifier *n = fs->notifier;

	if (!n)
		return;
	if (n->running) {
		pthread_mutex_lock(&n->lock);
		n->stop = true;
		pthread_cond_signal(&n->queued);
		pthread_mutex_unlock(&n->lock);
		pthread_join(n->thread, NULL);
	}
	pthread_cond_destroy(&n->queued);
	pthread_cond_destroy(&n->sent);
	pthread_mutex_destroy(&n->lock);
	free(n);
	fs->notifier = NULL;
}

/* Wait until the notice @seq is out, or KC_NOTIFY_WAIT_NS passed. */
static void kc_notify_wait(struct kc_notifier *n, uint64_t seq)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_nsec += KC_NOTIFY_WAIT_NS;
	ts.tv_sec += ts.tv_nsec / 1000000000;
	ts.tv_nsec %= 1000000000;
	while (n->sent_seq < seq && n->running && !n->stop &&
	       pthread_cond_timedwait(&n->sent, &n->lock, &ts) != ETIMEDOUT)
		;
}

/* Queue @e (its inode pinned): its number, or 0 if the notifier is gone. */
static uint64_t kc_notice_queue(struct kc_notifier *n, struct kc_notice *e,
				bool wait)
{
	uint64_t seq = 0;

	pthread_mutex_lock(&n->lock);
	if (n->running && !n->stop) {
		seq = e->seq = ++n->next_seq;
		*n->tail = e;
		n->tail = &e->next;
		pthread_cond_signal(&n->queued);
		if (wait)
			kc_notify_wait(n, seq);
	}
	pthread_mutex_unlock(&n->lock);
	return seq;
}

/* A notice for @in (and @name, if not NULL) goes out: pinned, copied. */
static void kc_notice(struct kc_fs *fs, struct kc_inode *in,
		      const char *name, bool wait)
{
	struct kc_notifier *n = fs->notifier;
	struct kc_notice *e;

	if (!n || !(e = calloc(1, sizeof(*e))))
		return;
	if (name && !(e->name = strdup(name))) {
		free(e);
		return;
	}
	kc_inode_pin(in);
	e->in = in;
	if (!kc_notice_queue(n, e, wait)) {
		kc_inode_unpin(in);
		free(e->name);
		free(e);
	}
}

/*
 * @in changed behind the mount's back: have the kernel drop its cached
 * pages.  @wait: the caller is a getattr or lookup handler and replies
 * only once they are gone (or after a bounded wait).
 */
void kc_notify_changed(struct kc_fs *fs, struct kc_inode *in, bool wait)
{
	if (in != &fs->root)
		kc_notice(fs, in, NULL, wait);
}

/* Have the kernel forget the name @name in @dir (its dentry). */
void kc_notify_forget(struct kc_fs *fs, struct kc_inode *dir,
		      const char *name)
{
	kc_notice(fs, dir, name, false);
}
