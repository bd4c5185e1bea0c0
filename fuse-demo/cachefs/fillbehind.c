// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fill behind the read.  A read that fetches absent granules from the
 * source answers from the fetched bytes at once and leaves storing them
 * in the cache object and marking them present to one worker thread: the
 * bytes wait in one of at most -o fill_behind=N buffers of KC_PIECE bytes
 * (bounded memory).  With no buffer free, the read fills inline as
 * before.
 *
 * A queued piece was fetched whole under the file's I/O lock (shared) and
 * the source checked unchanged afterwards (kc_fill_unchanged()), as an
 * inline fill checks it; the worker stores it under the I/O lock again
 * and only if no change, invalidation or cookie drop (which bump
 * ic->gen, under the lock taken exclusive) came in between: a write
 * racing a background fill never leaves stale bytes marked present.
 * Until it is stored, a queued piece answers reads of its granules from
 * memory (kc_read_step()).  Closing the last file of an inode, forgetting
 * it and culling its object wait for its queued pieces
 * (kc_behind_wait()); unmounting stores all of them first.
 */
#include <errno.h>
#include <stdlib.h>

#include "cachefs.h"

static void *kc_behind_main(void *arg)
{
	struct kc_fs *fs = arg;
	struct kc_behind *b = &fs->behind;
	struct kc_job *job;

	pthread_mutex_lock(&b->lock);
	for (;;) {
		while (!b->head && !b->stop)
			pthread_cond_wait(&b->more, &b->lock);
		job = b->head;
		if (!job)
			break;			/* stopped, queue empty */
		b->head = job->next;
		if (!b->head)
			b->tail = NULL;
		pthread_mutex_unlock(&b->lock);
		/* -o fill_delay_us: tests race a queued piece */
		kc_sleep_us(fs->cfg.fill_delay_us);
		kc_fill_job(fs, job);
		kc_inode_unpin(job->in);
		kc_behind_put(fs, job);
		pthread_mutex_lock(&b->lock);
	}
	pthread_mutex_unlock(&b->lock);
	return NULL;
}

int kc_behind_start(struct kc_fs *fs)
{
	struct kc_behind *b = &fs->behind;

	pthread_mutex_init(&b->lock, NULL);
	pthread_cond_init(&b->more, NULL);
	b->max = fs->cfg.fill_behind;
	if (!b->max)
		return 0;
	if (pthread_create(&b->thread, NULL, kc_behind_main, fs))
		return -1;
	b->started = true;
	return 0;
}

/* Store everything queued, then end the worker and free the buffers. */
void kc_behind_stop(struct kc_fs *fs)
{
	struct kc_behind *b = &fs->behind;
	struct kc_job *job;

	if (b->started) {
		pthread_mutex_lock(&b->lock);
		b->stop = true;
		pthread_cond_signal(&b->more);
		pthread_mutex_unlock(&b->lock);
		pthread_join(b->thread, NULL);
		b->started = false;
	}
	b->max = 0;
	while ((job = b->free)) {
		b->free = job->next;
		free(job);
	}
}

/* A free buffer, or NULL (none left, or no fill behind). */
struct kc_job *kc_behind_get(struct kc_fs *fs)
{
	struct kc_behind *b = &fs->behind;
	struct kc_job *job = NULL;

	if (!b->max)
		return NULL;
	pthread_mutex_lock(&b->lock);
	if (b->free) {
		job = b->free;
		b->free = job->next;
	} else if (b->n_alloc < b->max && !b->stop) {
		job = malloc(sizeof(*job) + KC_PIECE);
		b->n_alloc += job != NULL;
	}
	pthread_mutex_unlock(&b->lock);
	return job;
}

void kc_behind_put(struct kc_fs *fs, struct kc_job *job)
{
	struct kc_behind *b = &fs->behind;

	pthread_mutex_lock(&b->lock);
	job->next = b->free;
	b->free = job;
	pthread_mutex_unlock(&b->lock);
}

/* Hand @job (registered in its icache's fills, inode pinned) over. */
void kc_behind_queue(struct kc_fs *fs, struct kc_job *job)
{
	struct kc_behind *b = &fs->behind;

	job->next = NULL;
	pthread_mutex_lock(&b->lock);
	if (b->tail)
		b->tail->next = job;
	else
		b->head = job;
	b->tail = job;
	pthread_cond_signal(&b->more);
	pthread_mutex_unlock(&b->lock);
}

/* Wait until no piece of @ic is queued (no locks of @ic held). */
void kc_behind_wait(struct kc_icache *ic)
{
	pthread_mutex_lock(&ic->lock);
	while (ic->n_jobs)
		pthread_cond_wait(&ic->fill_done, &ic->lock);
	pthread_mutex_unlock(&ic->lock);
}
