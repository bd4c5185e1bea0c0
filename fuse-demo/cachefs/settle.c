// SPDX-License-Identifier: GPL-2.0-only
/*
 * Filling once settled.  A read of a file whose timestamps are younger
 * than their tick (kc_attr_settled()) is served from the source and not
 * cached: a change within the same tick could not be told apart.  So that
 * a file read just after it was written is still cached, such a read
 * notes the file here (kc_settle_note(), from the fill that declined): its
 * identity (inode, size, mtime, ctime), the range read (from the lowest
 * byte to the highest) and a duplicate of the reader's descriptor, due
 * when its timestamps settle.
 *
 * This file's thread takes each file when it is due and checks its
 * identity again.  Unchanged, the file takes a use of its cookie as an
 * open does (kc_cache_use_known()) and the range is read through the
 * cache (kc_cache_prefill()): the fills, of a settled file now, are
 * stored as any read's are (behind it, by fillbehind.c's worker, where a
 * buffer is free) and the next read is served from the cache.  Changed,
 * nothing is filled: the next open or read finds the change.  The fills
 * themselves check the identity before and after each fetch, as every
 * fill does, so a change racing this thread is not cached either.
 *
 * Bounded: at most KC_SETTLE_MAX files wait (more are served uncached, as
 * before); a file waiting already widens its range; a file that has not
 * settled KC_SETTLE_GIVE_UP_NS after it was noted (a source whose clock
 * runs ahead of ours) is dropped.  Unmounting drops whatever waits.
 */
#include <errno.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include "cachefs.h"

/* The monotonic clock, fine: the thread sleeps until exact deadlines. */
static uint64_t kc_settle_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

/* When @a will have settled (kc_settle_now()), a little after it has. */
static uint64_t kc_settle_due(const struct kc_attr *a)
{
	int64_t in = kc_attr_settle_in(a);

	if (in > KC_SETTLE_GIVE_UP_NS)
		in = KC_SETTLE_GIVE_UP_NS;
	return kc_settle_now() + (in > 0 ? in : 0) + KC_SETTLE_SLACK_NS;
}

/* The waiting entry of @in, or NULL (lock held). */
static struct kc_settle_ent *kc_settle_find(struct kc_settle *q,
					    const struct kc_inode *in)
{
	unsigned int i;

	for (i = 0; i < q->n; i++)
		if (q->ent[i].in == in && !q->ent[i].running)
			return &q->ent[i];
	return NULL;
}

/* @e waits already: widen its range, or start again if @in changed. */
static void kc_settle_widen(struct kc_settle_ent *e, const struct kc_attr *id,
			    off_t lo, off_t hi)
{
	if (!kc_attr_eq(&e->id, id)) {
		e->id = *id;
		e->lo = lo;
		e->hi = hi;
		e->due = kc_settle_due(id);
		return;
	}
	if (lo < e->lo)
		e->lo = lo;
	if (hi > e->hi)
		e->hi = hi;
}

/*
 * A read of @in through @fd found it unsettled as @id, the cache holding
 * that version: fill [@lo, @hi) once it settles, if it is still @id then.
 */
void kc_settle_note(struct kc_fs *fs, struct kc_inode *in, int fd,
		    const struct kc_attr *id, off_t lo, off_t hi)
{
	struct kc_settle *q = &fs->settle;
	struct kc_settle_ent *e;
	bool queued = false, full = false;
	int dup;

	pthread_mutex_lock(&q->lock);
	e = kc_settle_find(q, in);
	if (e) {
		kc_settle_widen(e, id, lo, hi);
	} else if (q->n == KC_SETTLE_MAX || !q->started || q->stop) {
		full = q->started && !q->stop;
	} else {
		dup = fcntl(fd, F_DUPFD_CLOEXEC, 0);
		if (dup >= 0) {
			kc_inode_pin(in);
			q->ent[q->n++] = (struct kc_settle_ent){
				.in = in, .fd = dup, .id = *id, .lo = lo,
				.hi = hi, .due = kc_settle_due(id),
				.noted = kc_settle_now() };
			pthread_cond_signal(&q->wake);
			queued = true;
		}
	}
	pthread_mutex_unlock(&q->lock);
	if (queued)
		kc_count(fs, settle_queued, 1);
	if (full)
		kc_count(fs, settle_full, 1);
}

/* Has the source moved on from @e->id?  Not settled yet: *@wait. */
static bool kc_settle_changed(struct kc_fs *fs, struct kc_settle_ent *e,
			      bool *wait)
{
	struct kc_attr now;
	struct stat st;

	*wait = false;
	if (kc_src_fstatat(fs, e->fd, "", &st, AT_EMPTY_PATH))
		return true;
	kc_attr_from_stat(&now, &st);
	if (!kc_attr_eq(&now, &e->id))
		return true;
	*wait = !kc_attr_settled(&now);
	return false;
}

/* @e is due: fill it, or drop it; false if it must wait longer. */
static bool kc_settle_run(struct kc_fs *fs, struct kc_settle_ent *e)
{
	bool wait, filled = false;

	if (kc_settle_changed(fs, e, &wait)) {
		kc_count(fs, settle_dropped, 1);
		return true;
	}
	if (wait && kc_settle_now() - e->noted < KC_SETTLE_GIVE_UP_NS) {
		e->due = kc_settle_due(&e->id);
		return false;
	}
	if (!wait && kc_cache_use_known(fs, e->in, &e->id)) {
		filled = !kc_cache_prefill(fs, e->in, e->fd, &e->id, e->lo,
					   e->hi, &fs->settle.stopping);
		kc_cache_release(fs, e->in);
	}
	kc_count(fs, settle_filled, filled);
	kc_count(fs, settle_dropped, !filled);
	return true;
}

static void kc_settle_end(struct kc_settle_ent *e)
{
	close(e->fd);
	kc_inode_unpin(e->in);
}

/* The waiting entry due first, or q->n if none (lock held). */
static unsigned int kc_settle_first(struct kc_settle *q)
{
	unsigned int i, first = q->n;

	for (i = 0; i < q->n; i++)
		if (!q->ent[i].running &&
		    (first == q->n || q->ent[i].due < q->ent[first].due))
			first = i;
	return first;
}

/* Sleep until @due (kc_settle_now()), a note or the stop (lock held). */
static void kc_settle_sleep(struct kc_settle *q, uint64_t due)
{
	struct timespec ts = { due / 1000000000u, due % 1000000000u };

	if (due == UINT64_MAX)
		pthread_cond_wait(&q->wake, &q->lock);
	else
		pthread_cond_timedwait(&q->wake, &q->lock, &ts);
}

/*
 * Run entry @i, which stays in its slot meanwhile (only this thread takes
 * entries out, so @i stays where it is; a note of the same file meanwhile
 * makes a new entry).  Lock held, dropped while it runs.
 */
static void kc_settle_one(struct kc_fs *fs, struct kc_settle *q,
			  unsigned int i)
{
	struct kc_settle_ent e = q->ent[i];
	bool done;

	q->ent[i].running = true;
	pthread_mutex_unlock(&q->lock);
	done = kc_settle_run(fs, &e);
	if (done)
		kc_settle_end(&e);
	pthread_mutex_lock(&q->lock);
	if (done) {
		q->ent[i] = q->ent[--q->n];
	} else {
		q->ent[i].due = e.due;
		q->ent[i].running = false;
	}
}

static void *kc_settle_main(void *arg)
{
	struct kc_fs *fs = arg;
	struct kc_settle *q = &fs->settle;
	unsigned int i;

	pthread_mutex_lock(&q->lock);
	while (!q->stop) {
		i = kc_settle_first(q);
		if (i == q->n || q->ent[i].due > kc_settle_now())
			kc_settle_sleep(q, i == q->n ? UINT64_MAX :
						       q->ent[i].due);
		else
			kc_settle_one(fs, q, i);
	}
	pthread_mutex_unlock(&q->lock);
	return NULL;
}

int kc_settle_start(struct kc_fs *fs)
{
	struct kc_settle *q = &fs->settle;

	pthread_mutex_init(&q->lock, NULL);
	kc_cond_init_monotonic(&q->wake);
	q->inited = true;
	if (pthread_create(&q->thread, NULL, kc_settle_main, fs))
		return -1;
	q->started = true;
	return 0;
}

/* End the thread (a fill in progress stops early), drop what waits. */
void kc_settle_stop(struct kc_fs *fs)
{
	struct kc_settle *q = &fs->settle;

	if (!q->inited)
		return;
	pthread_mutex_lock(&q->lock);
	q->stop = true;
	atomic_store(&q->stopping, true);
	pthread_cond_signal(&q->wake);
	pthread_mutex_unlock(&q->lock);
	if (q->started)
		pthread_join(q->thread, NULL);
	q->started = false;
	while (q->n)
		kc_settle_end(&q->ent[--q->n]);
	pthread_cond_destroy(&q->wake);
	pthread_mutex_destroy(&q->lock);
	q->inited = false;
}
