// SPDX-License-Identifier: GPL-2.0-only
/*
 * diff_cookie [-n SEQUENCES] [-l LENGTH] [-s SEED] [-v]
 *
 * The fscache cookie state machine of the installed 6.1 tree
 * (fs/fscache/cookie.c as it is: "stock") against the same file with
 * kernel/patches applied, where every decision is the kmirror core's
 * ("kmirror").  Both run side by side in one thread (kshim.c is their
 * world) through the same random sequences of what a network filesystem,
 * a cache backend, the LRU timer and the work queue do to a cookie: use
 * and unuse, cache accesses begun and ended, invalidations (DIO writes
 * among them), withdrawal by the cache, relinquishment (retiring or not),
 * re-acquiring the same key while the old cookie is still going, the
 * cache dying (also just as an invalidation takes its access), time
 * passing and queued work running.  After every event
 * the two cookies must be the same: state, flags, counters, reference
 * count, LRU membership, aux data and size, queued work, the backend calls
 * made and the WARNs and BUGs hit.  Every sequence ends by relinquishing
 * everything and running the queue dry, and must then have freed every
 * cookie it made.
 *
 * Then the hard cases, each a fixed sequence with the outcome the kernel
 * must have (named after the CVE where there is one).  A build that gets
 * one wrong is reported by name; a wrong kmirror build fails the test, a
 * wrong stock build is reported as a stock bug the core fixes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ksm.h"

enum ev {
	EV_USE, EV_USE_MODIFY, EV_UNUSE, EV_UNUSE_UPDATE, EV_BEGIN_IO,
	EV_END_IO, EV_INVALIDATE, EV_INVALIDATE_DIO, EV_WITHDRAW, EV_RUN_WORK,
	EV_RUN_ALL, EV_TICK, EV_FIRE_TIMER, EV_RELINQUISH, EV_RETIRE,
	EV_REACQUIRE, EV_CACHE_DIES, EV_KICK, EV_INVALIDATE_CACHE_DIES,
	EV_REACQUIRE_NOMEM, EV__NR
};

static const char *const ev_names[EV__NR] = {
	"use", "use-modify", "unuse", "unuse-update", "begin-io", "end-io",
	"invalidate", "invalidate-dio", "withdraw", "run-work", "run-all",
	"tick", "fire-timer", "relinquish", "relinquish-retire", "reacquire",
	"cache-dies", "kick", "invalidate-as-the-cache-dies",
	"reacquire-long-key-no-memory",
};

/* How often each event is drawn. */
static const unsigned int ev_weight[EV__NR] = {
	8, 4, 10, 3, 10, 10, 4, 2, 2, 16, 4, 6, 6, 3, 1, 3, 1, 0, 1, 0,
};

#define MAX_COOKIES	4

/* One build, its world and the cookies the test holds. */
struct side {
	struct ksm_ctx ctx;
	struct fscache_cookie *c[MAX_COOKIES];	/* [n - 1] is current */
	int n;
	int n_active;		/* uses of the current cookie */
	bool relinquished;	/* the current cookie */
	jmp_buf bail;
	int bailed;		/* 1 BUG, 2 hang */
};

static uint64_t drv_rng;
static int verbose;
static unsigned int drv_choice(unsigned int n)
{
	uint64_t z = (drv_rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (unsigned int)((z ^ (z >> 31)) % n);
}

/*
 * Every sequence acquires its own key: a cookie a stock bug leaves behind
 * stays in that build's hash table (it can never be dropped) and must not
 * collide with the next sequence's.
 */
static unsigned long seq_key;

/* Hold @c as the current cookie. */
static void side_hold(struct side *s, struct fscache_cookie *c)
{
	/* The test's own reference, to watch the cookie to the end. */
	s->c[s->n++] = s->ctx.impl->get(c, fscache_cookie_get_attach_object);
	s->n_active = 0;
	s->relinquished = false;
}

static void side_acquire(struct side *s)
{
	u8 aux[4] = { 1, 2, 3, 4 };
	struct fscache_cookie *c;

	c = s->ctx.impl->acquire(&s->ctx.volume, 0, &seq_key, sizeof(seq_key),
				 aux, sizeof(aux), 4096);
	if (c)
		side_hold(s, c);
}

/*
 * Acquire a key too long to keep inline (20 bytes), whose copy cannot be
 * allocated: the acquire must fail cleanly and free what it made.
 */
static void side_acquire_nomem(struct side *s)
{
	u8 aux[4] = { 1, 2, 3, 4 }, key[20] = { 0 };
	struct fscache_cookie *c;

	memcpy(key, &seq_key, sizeof(seq_key));
	s->ctx.fail_key_copy = true;
	c = s->ctx.impl->acquire(&s->ctx.volume, 0, key, sizeof(key),
				 aux, sizeof(aux), 4096);
	s->ctx.fail_key_copy = false;
	if (c)
		side_hold(s, c);
}

static struct fscache_cookie *cur_cookie(struct side *s)
{
	return s->n ? s->c[s->n - 1] : NULL;
}

/* Apply @e with argument @arg to @s (already entered). */
static void side_event(struct side *s, enum ev e, unsigned int arg)
{
	const struct ksm_impl *im = s->ctx.impl;
	struct fscache_cookie *c = cur_cookie(s);
	loff_t size = 4096 + arg;
	u8 aux[4] = { (u8)arg, 9, 9, 9 };

	switch (e) {
	case EV_USE:
	case EV_USE_MODIFY:
		im->use(c, e == EV_USE_MODIFY);
		s->n_active++;
		break;
	case EV_UNUSE:
		im->unuse(c, NULL, NULL);
		s->n_active--;
		break;
	case EV_UNUSE_UPDATE:
		im->unuse(c, aux, &size);
		s->n_active--;
		break;
	case EV_BEGIN_IO:
		if (im->begin_access(c, fscache_access_io_read))
			s->ctx.io[s->ctx.n_io++] = c;
		break;
	case EV_END_IO:
		im->end_access(s->ctx.io[--s->ctx.n_io], fscache_access_io_end);
		break;
	case EV_INVALIDATE:
	case EV_INVALIDATE_DIO:
		im->invalidate(c, aux, size,
			       e == EV_INVALIDATE_DIO ? FSCACHE_INVAL_DIO_WRITE : 0);
		break;
	case EV_INVALIDATE_CACHE_DIES:
		s->ctx.die_at_inval_access = true;
		im->invalidate(c, aux, size, 0);
		if (s->ctx.die_at_inval_access) {	/* no access was taken */
			s->ctx.die_at_inval_access = false;
			s->ctx.cache.state = FSCACHE_CACHE_IS_WITHDRAWN;
		}
		break;
	case EV_WITHDRAW:
		im->withdraw(c);
		break;
	case EV_RUN_WORK:
		ksm_run_work();
		break;
	case EV_RUN_ALL:
		while (ksm_run_work())
			;
		break;
	case EV_TICK:
		ksm_jiffies += arg * HZ / 4;
		break;
	case EV_FIRE_TIMER:
		ksm_fire_timer();
		break;
	case EV_RELINQUISH:
	case EV_RETIRE:
		s->relinquished = true;
		im->relinquish(c, e == EV_RETIRE);
		break;
	case EV_REACQUIRE:
		side_acquire(s);
		break;
	case EV_REACQUIRE_NOMEM:
		side_acquire_nomem(s);
		break;
	case EV_CACHE_DIES:
		s->ctx.cache.state = FSCACHE_CACHE_IS_WITHDRAWN;
		break;
	case EV_KICK:	/* someone else queues the state machine */
		im->get(c, fscache_cookie_get_end_access);
		if (!queue_work(fscache_wq, &c->work))
			im->put(c, fscache_cookie_put_over_queued);
		break;
	default:
		break;
	}
}

/* Whether @e makes sense now: the driver makes only calls a correct
 * network filesystem and cache would make. */
static bool legal(const struct side *s, enum ev e)
{
	switch (e) {
	case EV_USE:
	case EV_USE_MODIFY:
		return s->n && !s->relinquished && s->n_active < 3;
	case EV_UNUSE:
	case EV_UNUSE_UPDATE:
		/*
		 * Cache accesses happen inside a use (a read, a write-back
		 * pinned by the inode): the last unuse waits for them.
		 */
		return s->n && !s->relinquished && s->n_active > 0 &&
		       (s->n_active > 1 || s->ctx.n_io == 0);
	case EV_BEGIN_IO:
		return s->n && !s->relinquished && s->n_active > 0 &&
		       s->ctx.n_io < KSM_MAX_IO;
	case EV_END_IO:
		return s->ctx.n_io > 0;
	case EV_INVALIDATE:
	case EV_INVALIDATE_DIO:
	case EV_INVALIDATE_CACHE_DIES:
	case EV_WITHDRAW:
		return s->n && !s->relinquished;
	case EV_RELINQUISH:
	case EV_RETIRE:
		return s->n && !s->relinquished && s->n_active == 0;
	case EV_REACQUIRE:
	case EV_REACQUIRE_NOMEM:
		return s->relinquished && s->n < MAX_COOKIES;
	default:
		return true;
	}
}

/* What is compared after every event. */
struct seen {
	int state[MAX_COOKIES];
	unsigned long flags[MAX_COOKIES];
	int n_active[MAX_COOKIES], n_accesses[MAX_COOKIES];
	int ref[MAX_COOKIES];
	unsigned int inval[MAX_COOKIES];
	int on_lru[MAX_COOKIES], queued[MAX_COOKIES], has_object[MAX_COOKIES];
	loff_t size[MAX_COOKIES];
	u8 aux[MAX_COOKIES][4];
	int n, n_work, n_io, timer_armed;
	unsigned long timer_expires;
	int n_cookies;
	int warns, bugs, hangs, bailed;
	int lookups, withdrawals, invalidations, preparations;
};

static void observe(struct side *s, struct seen *o)
{
	struct timer_list *t = s->ctx.impl->lru_timer;
	int i;

	memset(o, 0, sizeof(*o));
	ksm_enter(&s->ctx);
	for (i = 0; i < s->n; i++) {
		struct fscache_cookie *c = s->c[i];

		o->state[i] = c->state;
		o->flags[i] = c->flags;
		o->n_active[i] = atomic_read(&c->n_active);
		o->n_accesses[i] = atomic_read(&c->n_accesses);
		o->ref[i] = refcount_read(&c->ref);
		o->inval[i] = c->inval_counter;
		o->on_lru[i] = !list_empty(&c->commit_link);
		o->queued[i] = c->work.pending;
		o->has_object[i] = c->cache_priv != NULL;
		o->size[i] = c->object_size;
		memcpy(o->aux[i], c->inline_aux, 4);
	}
	o->n = s->n;
	o->n_work = s->ctx.n_work;
	o->n_io = s->ctx.n_io;
	o->timer_armed = t->armed;
	o->timer_expires = t->armed ? t->expires - ksm_jiffies : 0;
	o->n_cookies = atomic_read(&s->ctx.volume.n_cookies);
	o->warns = s->ctx.warns;
	o->bugs = s->ctx.bugs;
	o->hangs = s->ctx.hangs;
	o->bailed = s->bailed;
	o->lookups = s->ctx.lookups;
	o->withdrawals = s->ctx.withdrawals;
	o->invalidations = s->ctx.invalidations;
	o->preparations = s->ctx.preparations;
}

static void print_seen(const char *name, const struct seen *o)
{
	int i;

	printf("  %-8s", name);
	for (i = 0; i < o->n; i++)
		printf(" [%c fl=%04lx act=%d acc=%d ref=%d inv=%u"
		       " lru=%d q=%d obj=%d size=%lld]",
		       "-LCAIFUWRD"[o->state[i]], o->flags[i], o->n_active[i],
		       o->n_accesses[i], o->ref[i], o->inval[i], o->on_lru[i],
		       o->queued[i], o->has_object[i], (long long)o->size[i]);
	printf(" work=%d io=%d timer=%d/%lu vol=%d warn=%d bug=%d hang=%d"
	       " lookups=%d withdrawn=%d inval=%d prep=%d\n",
	       o->n_work, o->n_io, o->timer_armed, o->timer_expires,
	       o->n_cookies, o->warns, o->bugs, o->hangs, o->lookups,
	       o->withdrawals, o->invalidations, o->preparations);
}

/* Run one event on one side, catching its BUG or hang. */
static void run_side(struct side *s, enum ev e, unsigned int arg)
{
	ksm_enter(&s->ctx);
	s->ctx.bail = &s->bail;
	if (s->bailed)
		return;
	s->bailed = setjmp(s->bail);
	if (!s->bailed)
		side_event(s, e, arg);
}

/* Relinquish everything and run dry; then drop the test's references. */
static void finish(struct side *s)
{
	ksm_enter(&s->ctx);
	if (s->bailed)
		return;
	if (!(s->bailed = setjmp(s->bail))) {
		while (s->ctx.n_io)
			ksm_progress();
		while (s->n && !s->relinquished && s->n_active)
			side_event(s, EV_UNUSE, 0);
		if (s->n && !s->relinquished)
			side_event(s, EV_RELINQUISH, 0);
		while (ksm_progress())
			;
	}
}

/*
 * Let go of a side a stock bug left stuck: its cookies can never be freed
 * (they stay in that build's hash table), but they must not linger on its
 * LRU list or in its queue into the next sequence.
 */
static struct fscache_cookie **graveyard;
static size_t n_graves;

static void abandon(struct side *s)
{
	int i;

	ksm_enter(&s->ctx);
	for (i = 0; i < s->ctx.n_work; i++)
		s->ctx.work[i]->pending = false;
	s->ctx.n_work = 0;
	graveyard = realloc(graveyard,
			    (n_graves + s->ctx.n_live) * sizeof(*graveyard));
	if (!graveyard)
		abort();
	for (i = 0; i < s->ctx.n_live; i++) {
		struct fscache_cookie *c = s->ctx.live[i];

		/* (NULL links: a cookie a failed acquire left half made) */
		if (c->commit_link.next && !list_empty(&c->commit_link))
			list_del_init(&c->commit_link);
		graveyard[n_graves++] = c;
	}
	s->ctx.n_live = 0;
	s->n = 0;
}

/* At exit: the cookies stuck in a hash table for good (keys are inline). */
static void empty_graveyard(void)
{
	while (n_graves)
		kfree(graveyard[--n_graves]);
	free(graveyard);
}

static void release(struct side *s)
{
	int i;

	ksm_enter(&s->ctx);
	for (i = 0; i < s->n; i++)
		s->ctx.impl->put(s->c[i], fscache_cookie_put_object);
	s->n = 0;
}

struct hist {
	enum ev e[256];
	unsigned int arg[256];
	int n;
};

static void print_hist(const struct hist *h)
{
	int i;

	printf("  events:");
	for (i = 0; i < h->n; i++)
		printf(" %s%s", ev_names[h->e[i]],
		       h->e[i] == EV_TICK || h->e[i] == EV_UNUSE_UPDATE ? "+" : "");
	printf("\n");
}

/*
 * The stock bugs the core fixes, each recognised by the state stock is in
 * when the two builds first part.
 */
enum stock_bug {
	STOCK_OK,
	/*
	 * A lookup failed while an invalidation was pending: stock leaves
	 * the cookie QUIESCENT holding the invalidation's access for good, so
	 * it can never be relinquished and re-acquiring its key hangs.
	 */
	STOCK_INVAL_ACCESS_LEAK,
	STOCK__NR
};

static const char *const stock_bug_names[STOCK__NR] = {
	"",
	"failed lookup leaks the pending invalidation's access",
};

static unsigned long stock_bugs[STOCK__NR];

static enum stock_bug stock_bug(const struct seen *o)
{
	int i;

	for (i = 0; i < o->n; i++)
		if (o->state[i] == FSCACHE_COOKIE_STATE_QUIESCENT &&
		    (o->flags[i] & BIT(FSCACHE_COOKIE_DO_INVALIDATE)))
			return STOCK_INVAL_ACCESS_LEAK;
	return STOCK_OK;
}

/*
 * 0 if @a (stock) and @b (kmirror) are the same; -1 if they part because
 * of a known stock bug (counted); 1 (and a report) otherwise.
 */
static int differ(struct side *a, struct side *b, const struct hist *h,
		  unsigned long seq, const char *when)
{
	struct seen oa, ob;
	enum stock_bug bug;

	observe(a, &oa);
	observe(b, &ob);
	if (!memcmp(&oa, &ob, sizeof(oa)))
		return 0;
	bug = stock_bug(&oa);
	if (bug != STOCK_OK && stock_bug(&ob) == STOCK_OK) {
		stock_bugs[bug]++;
		return -1;
	}
	printf("diff_cookie: sequence %lu: stock and kmirror differ %s\n",
	       seq, when);
	print_hist(h);
	print_seen("stock", &oa);
	print_seen("kmirror", &ob);
	return 1;
}

static enum ev draw(void)
{
	unsigned int total = 0, r, i;

	for (i = 0; i < EV__NR; i++)
		total += ev_weight[i];
	r = drv_choice(total);
	for (i = 0; r >= ev_weight[i]; i++)
		r -= ev_weight[i];
	return (enum ev)i;
}

/* After finish(): every cookie dropped, held by the test alone. */
static bool clean(struct side *s)
{
	struct seen o;
	int i;

	observe(s, &o);
	if (o.bailed || o.n_work || o.n_io)
		return false;
	for (i = 0; i < o.n; i++)
		if (o.state[i] != FSCACHE_COOKIE_STATE_DROPPED || o.ref[i] != 1)
			return false;
	return true;
}

static int one_sequence(unsigned long seq, uint64_t seed, int len)
{
	static struct side a, b;
	long live = kmc_alloc_live();
	struct hist h = { .n = 0 };
	int i, bad = 0;

	seq_key = seq;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	ksm_ctx_init(&a.ctx, &stock_impl, seed);
	ksm_ctx_init(&b.ctx, &kmirror_impl, seed);
	run_side(&a, EV_REACQUIRE, 0);
	run_side(&b, EV_REACQUIRE, 0);
	drv_rng = seed ^ 0x5eed;
	for (i = 0; i < len && !bad; i++) {
		enum ev e = draw();
		unsigned int arg = drv_choice(60);

		if (!legal(&a, e) || !legal(&b, e))
			continue;
		h.e[h.n] = e;
		h.arg[h.n++] = arg;
		run_side(&a, e, arg);
		run_side(&b, e, arg);
		if (verbose) {
			struct seen oa, ob;

			observe(&a, &oa);
			observe(&b, &ob);
			printf("%s %u\n", ev_names[e], arg);
			print_seen("stock", &oa);
			print_seen("kmirror", &ob);
		}
		bad = differ(&a, &b, &h, seq, "after the last event");
	}
	if (bad < 0) {
		/* Stock is stuck for good; kmirror must end cleanly. */
		finish(&b);
		bad = !clean(&b);
		if (bad) {
			printf("diff_cookie: sequence %lu: kmirror does not end cleanly past a stock bug\n",
			       seq);
			print_hist(&h);
		}
		release(&b);
		abandon(&a);
		return bad;
	}
	finish(&a);
	finish(&b);
	if (!bad)
		bad = differ(&a, &b, &h, seq, "after the end");
	if (bad < 0) {
		/* Parted only at the end: kmirror must have ended cleanly. */
		bad = !clean(&b);
		release(&b);
		abandon(&a);
		return bad;
	}
	if (!bad && (a.bailed || a.ctx.bugs || a.ctx.hangs)) {
		struct seen oa;

		printf("diff_cookie: sequence %lu: both builds hit a BUG or hang\n",
		       seq);
		print_hist(&h);
		observe(&a, &oa);
		print_seen("stock", &oa);
		bad = 1;
	}
	if (bad) {
		abandon(&a);
		abandon(&b);
		return bad;
	}
	release(&a);
	release(&b);
	if (kmc_alloc_live() != live) {
		printf("diff_cookie: sequence %lu: %ld allocations never freed\n",
		       seq, kmc_alloc_live() - live);
		print_hist(&h);
		bad = 1;
	}
	return bad;
}

/* --- the hard cases ------------------------------------------------------ */

struct hard_case {
	const char *name;
	int scripted;		/* 1: the backend succeeds, 2: lookups fail */
	enum ev events[24];	/* ends at EV__NR */
	unsigned int tick;	/* the argument of every EV_TICK */
	/* NULL if @o (the current cookie last) is right, else why not */
	const char *(*verdict)(const struct seen *o);
};

#define END	EV__NR
#define CUR(o)	((o)->n - 1)

static const char *lru_use_verdict(const struct seen *o)
{
	if (o->withdrawals || o->state[CUR(o)] != FSCACHE_COOKIE_STATE_ACTIVE)
		return "the cookie was discarded while in use";
	return NULL;
}

static const char *object_kept_verdict(const struct seen *o)
{
	if (o->withdrawals || !o->has_object[CUR(o)])
		return "the object was withdrawn under an access in flight";
	return NULL;
}

static const char *discarded_verdict(const struct seen *o)
{
	if (o->withdrawals != 1 ||
	    o->state[CUR(o)] != FSCACHE_COOKIE_STATE_QUIESCENT)
		return "the cookie was not discarded once its access ended";
	return NULL;
}

static const char *reacquired_verdict(const struct seen *o)
{
	if (o->bailed || o->n != 2 ||
	    o->state[0] != FSCACHE_COOKIE_STATE_DROPPED ||
	    o->state[1] != FSCACHE_COOKIE_STATE_QUIESCENT)
		return "re-acquiring the key did not get a new cookie";
	return NULL;
}

static const char *withdrawn_verdict(const struct seen *o)
{
	if (o->withdrawals != 1 || o->has_object[CUR(o)] ||
	    o->state[CUR(o)] != FSCACHE_COOKIE_STATE_QUIESCENT)
		return "the cookie was not withdrawn once its access ended";
	return NULL;
}

static const char *inval_dead_cache_verdict(const struct seen *o)
{
	if (o->invalidations || o->n_accesses[CUR(o)] != 0)
		return "an invalidation went ahead on a cache that had died";
	return NULL;
}

static const char *nomem_verdict(const struct seen *o)
{
	if (o->bailed || o->warns || o->n != 1)
		return "a failed allocation in acquire was not a clean failure";
	return NULL;
}

static const struct hard_case hard_cases[] = {
	{ "CVE-2022-48989: a use cancels an LRU discard not yet begun", 1,
	  { EV_USE, EV_RUN_ALL, EV_UNUSE, EV_TICK, EV_FIRE_TIMER, EV_RUN_WORK,
	    EV_USE, EV_RUN_ALL, END }, 44, lru_use_verdict },
	{ "CVE-2024-45000: no LRU discard while an access is in flight", 1,
	  { EV_USE, EV_RUN_ALL, EV_BEGIN_IO, EV_UNUSE, EV_TICK, EV_FIRE_TIMER,
	    EV_RUN_WORK, EV_KICK, EV_RUN_ALL, END }, 44, object_kept_verdict },
	{ "... and the discard goes ahead once the access ends", 1,
	  { EV_USE, EV_RUN_ALL, EV_BEGIN_IO, EV_UNUSE, EV_TICK, EV_FIRE_TIMER,
	    EV_RUN_WORK, EV_KICK, EV_RUN_ALL, EV_END_IO, EV_RUN_ALL, END }, 44,
	  discarded_verdict },
	{ "re-acquiring a key waits for the old cookie, never hangs", 1,
	  { EV_USE, EV_INVALIDATE, EV_UNUSE, EV_RELINQUISH, EV_REACQUIRE, END },
	  0, reacquired_verdict },
	{ "... also when its lookup fails with an invalidation pending", 2,
	  { EV_USE, EV_INVALIDATE, EV_UNUSE, EV_RELINQUISH, EV_REACQUIRE, END },
	  0, reacquired_verdict },
	{ "a withdrawal waits for the accesses in flight", 1,
	  { EV_USE, EV_RUN_ALL, EV_BEGIN_IO, EV_WITHDRAW, EV_KICK, EV_RUN_ALL,
	    END }, 0, object_kept_verdict },
	{ "... and withdraws once they end", 1,
	  { EV_USE, EV_RUN_ALL, EV_BEGIN_IO, EV_WITHDRAW, EV_RUN_ALL,
	    EV_END_IO, EV_RUN_ALL, END }, 0, withdrawn_verdict },
	{ "an invalidation re-checks the cache after taking its access", 1,
	  { EV_USE, EV_RUN_ALL, EV_INVALIDATE_CACHE_DIES, EV_RUN_ALL, END },
	  0, inval_dead_cache_verdict },
	{ "acquire fails cleanly when a long key cannot be copied", 1,
	  { EV_RELINQUISH, EV_RUN_ALL, EV_REACQUIRE_NOMEM, END },
	  0, nomem_verdict },
};

/* 0 if the case holds for @impl; prints the outcome either way. */
static int hard_case(const struct hard_case *hc, const struct ksm_impl *impl)
{
	static struct side s;
	const char *why;
	struct seen o;
	int i;

	seq_key = 0x4a4a0000UL + (unsigned long)(hc - hard_cases);
	memset(&s, 0, sizeof(s));
	ksm_ctx_init(&s.ctx, impl, 1);
	s.ctx.scripted = hc->scripted;
	run_side(&s, EV_REACQUIRE, 0);
	for (i = 0; hc->events[i] != END; i++)
		run_side(&s, hc->events[i], hc->tick);
	observe(&s, &o);
	why = hc->verdict(&o);
	printf("%-8s %s: %s%s\n", impl->name, why ? "WRONG" : "right",
	       hc->name, why ? "" : "");
	if (why) {
		printf("         %s\n", why);
		print_seen(impl->name, &o);
		abandon(&s);
		return 1;
	}
	finish(&s);
	release(&s);
	return 0;
}

/*
 * Every hard case on both builds: kmirror must get all of them right; a
 * case stock gets wrong is a stock bug the core fixes, reported as such.
 */
static int hard_cases_run(void)
{
	unsigned int i, kbad = 0, sbad = 0;

	for (i = 0; i < ARRAY_SIZE(hard_cases); i++) {
		sbad += hard_case(&hard_cases[i], &stock_impl);
		kbad += hard_case(&hard_cases[i], &kmirror_impl);
	}
	printf("diff_cookie: %zu hard cases: kmirror wrong in %u, stock 6.1 wrong in %u\n",
	       ARRAY_SIZE(hard_cases), kbad, sbad);
	return kbad ? 1 : 0;
}

int main(int argc, char **argv)
{
	unsigned long n = 100000, seq, first = 0, bad = 0;
	uint64_t seed = 1;
	int len = 40, opt, i;

	while ((opt = getopt(argc, argv, "Hn:l:s:S:")) != -1) {
		switch (opt) {
		case 'H':
			bad = hard_cases_run();
			empty_graveyard();
			return bad ? 1 : 0;
		case 'S':	/* just this sequence, every step shown */
			first = strtoul(optarg, NULL, 0);
			n = first + 1;
			verbose = 1;
			break;
		case 'n':
			n = strtoul(optarg, NULL, 0);
			break;
		case 'l':
			len = atoi(optarg);
			break;
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		default:
			fprintf(stderr, "usage: diff_cookie [-H] [-n N] [-l LEN] [-s SEED] [-S SEQ]\n");
			return 2;
		}
	}
	if (len < 1 || len > 256)
		len = 40;
	if (getenv("KMIRROR_UNDER_VALGRIND") && n > 20000)
		n = 20000;
	for (seq = first; seq < n && bad < 5; seq++)
		bad += one_sequence(seq, seed * 1000003ULL + seq, len);
	printf("diff_cookie: %lu sequences of up to %d events, %lu disagreements\n",
	       seq, len, bad);
	for (i = 1; i < STOCK__NR; i++)
		printf("diff_cookie: stock 6.1 bug the core fixes, in %lu sequences: %s\n",
		       stock_bugs[i], stock_bug_names[i]);
	empty_graveyard();
	return bad ? 1 : 0;
}
