/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fscache cookie state machine of fs/fscache/cookie.c (6.1 tree): one
 * transition table for both builds, and pure decision helpers for the
 * counters and flags around it.
 *
 * Nothing here locks, allocates, sleeps or reads a clock.  A helper gets a
 * snapshot (state, flags word, counters, a time in ms) and fills a
 * struct kmc_cookie_step saying what the kernel would do next; the caller
 * applies it under its cookie lock, the way fscache does under
 * cookie->lock.  Flag bit numbers are the kernel's FSCACHE_COOKIE_* ones, so
 * the kernel can hand cookie->flags over as it is.
 *
 * Applying a step, always in this order:
 *   1. KMC_CA_END_ACCESS: n_accesses--, then if kmc_cookie_end_access()
 *      says so for the new count and the flags as they were, queue the
 *      state machine (fscache_end_cookie_access());
 *   2. flags &= ~clear, then flags |= set;
 *   3. KMC_CA_TRY_ACCESS: fscache_begin_cookie_access() (take an access,
 *      then check that IS_CACHING is still set and the cache still live,
 *      and give it back if not); if it refuses, kmc_cookie_access_refused()
 *      takes back what the step needed the access for;
 *   4. event (if not KMC_CEV_NONE): state = kmc_cookie_transition(state,
 *      event); a negative result is a bug in the caller; wake state waiters;
 *   5. the other KMC_CA_* actions, in the order their bits are listed.
 * kmc_cookie_apply() does 2 and 4.
 *
 * Counters (the kernel's atomics):
 *   n_active   users between use and unuse (fscache_use_cookie ...)
 *   n_accesses cache accesses in flight; a cookie with accesses cannot
 *              advance to LRU_DISCARDING/WITHDRAWING/RELINQUISHING
 *              (fscache_cookie_state_machine() waits for 0)
 *   inval_counter   bumped by every invalidation (KMC_CA_INVAL_COUNT)
 */
#ifndef KMC_COOKIE_STATE_H
#define KMC_COOKIE_STATE_H

#include "kcompat.h"

/* enum fscache_cookie_state, same order and values. */
enum kmc_cookie_state {
	KMC_COOKIE_STATE_QUIESCENT,	/* '-' uncached */
	KMC_COOKIE_STATE_LOOKING_UP,	/* 'L' object being looked up */
	KMC_COOKIE_STATE_CREATING,	/* 'C' object being created */
	KMC_COOKIE_STATE_ACTIVE,	/* 'A' readable and writable */
	KMC_COOKIE_STATE_INVALIDATING,	/* 'I' being invalidated */
	KMC_COOKIE_STATE_FAILED,	/* 'F' failed, withdraw to clear */
	KMC_COOKIE_STATE_LRU_DISCARDING, /* 'U' being discarded by the LRU */
	KMC_COOKIE_STATE_WITHDRAWING,	/* 'W' being withdrawn */
	KMC_COOKIE_STATE_RELINQUISHING,	/* 'R' being relinquished */
	KMC_COOKIE_STATE_DROPPED,	/* 'D' dropped, final */
	KMC_COOKIE_STATE__NR
};

/* fscache_cookie_states[]: one letter per state. */
#define KMC_COOKIE_STATE_CHARS	"-LCAIFUWRD"

/*
 * What happens to a cookie, named after the kernel function that moves it.
 * Legal moves (all others are illegal):
 *
 *   BEGIN_LOOKUP        Q -> L    fscache_begin_lookup() from use
 *   LOOKUP_NEGATIVE     L -> C    fscache_cookie_lookup_negative()
 *   LOOKUP_DONE         L,C -> A  fscache_perform_lookup(), success
 *   LOOKUP_DONE_INVAL   L,C -> I  ... with DO_INVALIDATE pending
 *   VOLUME_UNAVAILABLE  L -> Q    fscache_perform_lookup(), no volume
 *   LOOKUP_FAILED       L,C -> Q  fscache_perform_lookup(), lookup_cookie
 *                       F -> F    failed (state kept if already FAILED)
 *   CACHING_FAILED      L,C,I -> F fscache_caching_failed() (cachefiles
 *                                 lookup, fscache_perform_invalidation())
 *   INVALIDATE          A -> I    __fscache_invalidate() on a caching cookie
 *   INVALIDATED         I -> A    fscache_resume_after_invalidation()
 *   LRU_DISCARD         A -> U    state machine, DO_LRU_DISCARD, no access
 *   WITHDRAW            A,F -> W  state machine, DO_WITHDRAW, no access
 *   RELINQUISH          Q,A,F -> R state machine, DO_RELINQUISH, no access
 *   WITHDRAWN           U,W -> Q  state machine after withdraw_cookie()
 *                       R -> D    ... and unhash
 *   DROP_UNCACHED       Q -> D    __fscache_relinquish_cookie(), never cached
 */
enum kmc_cookie_event {
	KMC_CEV_BEGIN_LOOKUP,
	KMC_CEV_LOOKUP_NEGATIVE,
	KMC_CEV_LOOKUP_DONE,
	KMC_CEV_LOOKUP_DONE_INVAL,
	KMC_CEV_VOLUME_UNAVAILABLE,
	KMC_CEV_LOOKUP_FAILED,
	KMC_CEV_CACHING_FAILED,
	KMC_CEV_INVALIDATE,
	KMC_CEV_INVALIDATED,
	KMC_CEV_LRU_DISCARD,
	KMC_CEV_WITHDRAW,
	KMC_CEV_RELINQUISH,
	KMC_CEV_WITHDRAWN,
	KMC_CEV_DROP_UNCACHED,
	KMC_CEV__NR
};

#define KMC_CEV_NONE	(-1)

/*
 * The one transition table: next state, or -1 (illegal).  Indexed
 * [state][event]; use kmc_cookie_transition() rather than reading it.
 */
extern const s8 kmc_cookie_transitions[KMC_COOKIE_STATE__NR][KMC_CEV__NR];

/* Next state, or -EINVAL for an illegal event or out-of-range arguments. */
int kmc_cookie_transition(int state, int event);
/* One letter of KMC_COOKIE_STATE_CHARS, '?' out of range. */
char kmc_cookie_state_char(int state);
/* "QUIESCENT" ... "DROPPED", "BEGIN_LOOKUP" ...; "?" out of range. */
const char *kmc_cookie_state_name(int state);
const char *kmc_cookie_event_name(int event);
/* Inverse of the two above for @len bytes of @name; -EINVAL if unknown. */
int kmc_cookie_state_parse(const char *name, size_t len);
int kmc_cookie_event_parse(const char *name, size_t len);

/* Cookie flag bits: the FSCACHE_COOKIE_* numbers of include/linux/fscache.h */
#define KMC_COOKIE_RELINQUISHED		0
#define KMC_COOKIE_RETIRED		1
#define KMC_COOKIE_IS_CACHING		2
#define KMC_COOKIE_NO_DATA_TO_READ	3
#define KMC_COOKIE_NEEDS_UPDATE		4
#define KMC_COOKIE_HAS_BEEN_CACHED	5
#define KMC_COOKIE_DISABLED		6
#define KMC_COOKIE_LOCAL_WRITE		7
#define KMC_COOKIE_NO_ACCESS_WAKE	8
#define KMC_COOKIE_DO_RELINQUISH	9
#define KMC_COOKIE_DO_WITHDRAW		10
#define KMC_COOKIE_DO_LRU_DISCARD	11
#define KMC_COOKIE_DO_PREP_TO_WRITE	12
#define KMC_COOKIE_HAVE_DATA		13
#define KMC_COOKIE_IS_HASHED		14
#define KMC_COOKIE_DO_INVALIDATE	15
/* Mask of one flag bit. */
#define KMC_CF(bit)			(1UL << KMC_COOKIE_##bit)

/*
 * Actions of a step.  END_ACCESS is applied first and TRY_ACCESS before
 * the event (see above), the others after the flags and the event, in
 * this order:
 *
 *   BEGIN_ACCESS     n_accesses++
 *   UPDATE_AUX       kmc_cookie_update_aux() with the caller's aux / size
 *   INVAL_COUNT      inval_counter++
 *   VOLUME_DEC       the volume's n_cookies--
 *   UNHASH           remove the cookie from the index
 *   LRU_DROP         fscache_cookie_drop_from_lru(): off the LRU (and its
 *                    ref dropped) if it was on it
 *   LRU_ADD          unused_at = now; move to the LRU tail, taking a ref if
 *                    it was not on it; arm the LRU timer for
 *                    kmc_cookie_lru_deadline(now)
 *   WITHDRAW         __fscache_withdraw_cookie(): after .clear took
 *                    NO_ACCESS_WAKE down, read n_accesses; queue if 0
 *   BEGIN_LOOKUP     fscache_begin_volume_access(); if granted apply
 *                    kmc_cookie_begin_lookup(), else stay QUIESCENT
 *   PERFORM_LOOKUP   unlocked: look the object up (creating the volume
 *                    first if needed); finish with kmc_cookie_lookup_result()
 *   PERFORM_INVAL    unlocked: invalidate the object; on success
 *                    kmc_cookie_resume_after_invalidation(), on failure
 *                    kmc_cookie_caching_failed(); then END_ACCESS
 *   PREP_TO_WRITE    unlocked: ops->prepare_to_write()
 *   WITHDRAW_OBJECT  unlocked: ops->withdraw_cookie(); no object afterwards
 *   QUEUE            queue the state machine work item
 *   WAIT             unlock, wait until the state is not the one passed in,
 *                    then call the same helper again
 *   AGAIN            state machine: run kmc_cookie_sm_step() once more
 *   TRY_ACCESS       (step 3 above) an access that the kernel's own
 *                    protocol may refuse
 */
#define KMC_CA_END_ACCESS	0x0001
#define KMC_CA_BEGIN_ACCESS	0x0002
#define KMC_CA_UPDATE_AUX	0x0004
#define KMC_CA_INVAL_COUNT	0x0008
#define KMC_CA_VOLUME_DEC	0x0010
#define KMC_CA_UNHASH		0x0020
#define KMC_CA_LRU_DROP		0x0040
#define KMC_CA_LRU_ADD		0x0080
#define KMC_CA_WITHDRAW		0x0100
#define KMC_CA_BEGIN_LOOKUP	0x0200
#define KMC_CA_PERFORM_LOOKUP	0x0400
#define KMC_CA_PERFORM_INVAL	0x0800
#define KMC_CA_PREP_TO_WRITE	0x1000
#define KMC_CA_WITHDRAW_OBJECT	0x2000
#define KMC_CA_QUEUE		0x4000
#define KMC_CA_WAIT		0x8000
#define KMC_CA_AGAIN		0x10000
#define KMC_CA_TRY_ACCESS	0x20000

struct kmc_cookie_step {
	int		event;		/* enum kmc_cookie_event or NONE */
	unsigned int	action;		/* KMC_CA_* */
	unsigned long	set;		/* KMC_CF() masks to set */
	unsigned long	clear;		/* KMC_CF() masks to clear */
};

/*
 * Apply the flags and the event of @s to *@flags and @state (steps 2 and 3
 * above; the caller does the actions).  Returns the new state, or -EINVAL
 * with *@flags untouched if the event is illegal in @state.
 */
int kmc_cookie_apply(int state, unsigned long *flags,
		     const struct kmc_cookie_step *s);

/*
 * The calls a cache backend makes from inside a lookup or invalidation
 * (include/linux/fscache-cache.h), as steps; -EINVAL in a state where the
 * kernel never makes them:
 *   fscache_cookie_lookup_negative(): NO_DATA_TO_READ, LOOKUP_NEGATIVE
 *   fscache_caching_failed(): IS_CACHING cleared, CACHING_FAILED
 *   fscache_resume_after_invalidation(): INVALIDATED
 */
int kmc_cookie_lookup_negative(int state, struct kmc_cookie_step *s);
int kmc_cookie_caching_failed(int state, struct kmc_cookie_step *s);
int kmc_cookie_resume_after_invalidation(int state,
					 struct kmc_cookie_step *s);

/* fscache_cookie_enabled(): update/resize/invalidate wrappers need it. */
bool kmc_cookie_enabled(unsigned long flags);
/* fscache_alloc_cookie(): initial flags, NO_DATA_TO_READ if size is 0. */
unsigned long kmc_cookie_init_flags(s64 object_size);

/*
 * fscache_begin_cookie_access() refused the access @s asked for with
 * KMC_CA_TRY_ACCESS (caching stopped or the cache died as it was taken):
 * the event and the queueing that needed it are taken back.
 */
void kmc_cookie_access_refused(struct kmc_cookie_step *s);
/*
 * fscache_end_cookie_access(): with @n_after the count after the
 * decrement, true if the state machine must be queued (0 and no
 * NO_ACCESS_WAKE).  A negative @n_after (the caller's underflow) answers
 * false.
 */
bool kmc_cookie_end_access(int n_after, unsigned long flags);

/*
 * __fscache_use_cookie().  First kmc_cookie_use_check(): -EINVAL on a
 * relinquished cookie (kernel: WARN, n_active untouched); 0 means the
 * caller now does n_active++.  Then kmc_cookie_use() with the state: 0 and
 * a step, or -EINVAL in RELINQUISHING/DROPPED (kernel: WARN, n_active
 * stays counted).  KMC_CA_WAIT in LRU_DISCARDING: wait, then call
 * kmc_cookie_use() again (not the check, not the count).
 */
int kmc_cookie_use_check(unsigned long flags);
int kmc_cookie_use(int state, unsigned long flags, bool will_modify,
		   struct kmc_cookie_step *s);
/* fscache_begin_lookup() after the volume access was granted. */
void kmc_cookie_begin_lookup(struct kmc_cookie_step *s);

/*
 * __fscache_unuse_cookie() with @n_active the count before the decrement
 * and @update true if aux data or a size came with it.  Returns the new
 * n_active (caller stores it), or -EINVAL if @n_active <= 0.  At 0:
 * DISABLED is cleared and, if the cookie is caching, KMC_CA_LRU_ADD.
 */
int kmc_cookie_unuse(int n_active, unsigned long flags, bool update,
		     struct kmc_cookie_step *s);

/* __fscache_update_cookie(): UPDATE_AUX, set NEEDS_UPDATE. */
void kmc_cookie_update(struct kmc_cookie_step *s);

/*
 * One pass of fscache_cookie_state_machine() for @state.  @has_object:
 * cookie->cache_priv is set (a backing object is attached).  The caller
 * applies @s and calls again while KMC_CA_AGAIN is set.
 */
void kmc_cookie_sm_step(int state, unsigned long flags, int n_accesses,
			bool has_object, struct kmc_cookie_step *s);

/* How fscache_perform_lookup() ended. */
enum kmc_lookup_result {
	KMC_LOOKUP_OK,		/* ops->lookup_cookie() true */
	KMC_LOOKUP_NO_VOLUME,	/* the volume could not be created */
	KMC_LOOKUP_FAILED,	/* ops->lookup_cookie() false */
};

/*
 * The end of fscache_perform_lookup() in @state (LOOKING_UP, CREATING, or
 * FAILED if the backend called fscache_caching_failed()).  The volume
 * access taken by KMC_CA_BEGIN_LOOKUP is always ended by the caller.
 * -EINVAL for an unknown @r.
 */
int kmc_cookie_lookup_result(int state, unsigned long flags,
			     enum kmc_lookup_result r,
			     struct kmc_cookie_step *s);

/*
 * __fscache_invalidate() (behind the fscache_invalidate() wrapper, which
 * needs kmc_cookie_enabled()).  @dio_write: FSCACHE_INVAL_DIO_WRITE.
 * -EINVAL on a relinquished cookie (kernel: WARN).  0 and an empty step if
 * @dio_write and DISABLED was already set.  Else always NO_DATA_TO_READ,
 * UPDATE_AUX (aux and the new size) and INVAL_COUNT, then by state:
 * LOOKING_UP: DO_INVALIDATE + BEGIN_ACCESS unless already pending;
 * ACTIVE with IS_CACHING: TRY_ACCESS, event INVALIDATE and QUEUE, the
 * last two only if the access is granted (kmc_cookie_access_refused());
 * any other state: nothing more.
 */
int kmc_cookie_invalidate(int state, unsigned long flags, bool dio_write,
			  struct kmc_cookie_step *s);

/*
 * __fscache_relinquish_cookie().  -EALREADY if already relinquished
 * (kernel: WARN), -EBUSY if @n_active != 0 (kernel: ASSERTCMP, an oops).
 * Else RELINQUISHED (+RETIRED if @retire), VOLUME_DEC, then a cookie that
 * has been cached gets DO_RELINQUISH + LRU_DROP + WITHDRAW, one never
 * cached goes straight to DROPPED (event DROP_UNCACHED) + UNHASH.
 */
int kmc_cookie_relinquish(unsigned long flags, int n_active, bool retire,
			  struct kmc_cookie_step *s);
/* fscache_withdraw_cookie() (cache side): DO_WITHDRAW, LRU_DROP, WITHDRAW */
void kmc_cookie_withdraw(struct kmc_cookie_step *s);

/* What cachefiles does with the object when it is withdrawn. */
enum kmc_object_fate {
	KMC_OBJECT_COMMIT,	/* keep it; rewrite the xattr if needed */
	KMC_OBJECT_DELETE,	/* retired: delete it */
	KMC_OBJECT_DROP_TMPFILE, /* retired tmpfile: just let it go */
};

/*
 * cachefiles_clean_up_object(): fate by RETIRED and @tmpfile (the object
 * is an unlinked tmpfile).  For COMMIT, cachefiles_commit_object() writes
 * the xattr if LOCAL_WRITE or NEEDS_UPDATE was set and clears both:
 * *@write_xattr and @s tell so.
 */
enum kmc_object_fate kmc_cookie_object_fate(unsigned long flags, bool tmpfile,
					    bool *write_xattr,
					    struct kmc_cookie_step *s);

/* LRU: fscache_lru_cookie_timeout = 10 * HZ, here in ms. */
#define KMC_COOKIE_LRU_TIMEOUT_MS	10000
/* Time at which a cookie unused since @unused_at_ms may be discarded. */
u64 kmc_cookie_lru_deadline(u64 unused_at_ms);
/* !time_before(now, unused_at + timeout), wrap-safe like jiffies. */
bool kmc_cookie_lru_expired(u64 unused_at_ms, u64 now_ms);
/*
 * fscache_cookie_lru_do_one() for a cookie just taken off the LRU list (the
 * caller drops the LRU's ref afterwards).  true: discard it (set
 * DO_LRU_DISCARD, WITHDRAW); false: leave it (not ACTIVE, not yet
 * expired, or in use again).
 */
bool kmc_cookie_lru_do_one(int state, int n_active, u64 unused_at_ms,
			   u64 now_ms, struct kmc_cookie_step *s);

/* What an I/O operation may do in a state (include/linux/fscache.h). */
enum kmc_want {
	KMC_WANT_PARAMS,	/* FSCACHE_WANT_PARAMS */
	KMC_WANT_WRITE,		/* FSCACHE_WANT_WRITE */
	KMC_WANT_READ,		/* FSCACHE_WANT_READ */
};

enum kmc_op_verdict {
	KMC_OP_READY,		/* go on */
	KMC_OP_WAIT,		/* wait for a state change, then ask again */
	KMC_OP_NOT_LIVE,	/* -ENOBUFS (the kernel WARNs in R and D) */
};

/*
 * fscache_begin_operation() (begin read/write and resize, once
 * fscache_begin_cookie_access() granted an access) and
 * fscache_wait_for_operation(): they differ in INVALIDATING, where only the
 * latter lets PARAMS through.
 * Resize (__fscache_resize_cookie()) is: enabled, begin access,
 * kmc_cookie_op_verdict(state, KMC_WANT_WRITE) until not WAIT; READY: set
 * NEEDS_UPDATE, resize the object (object_size = new size), END_ACCESS;
 * NOT_LIVE: END_ACCESS, count a null resize.
 */
enum kmc_op_verdict kmc_cookie_op_verdict(int state, enum kmc_want want);
enum kmc_op_verdict kmc_cookie_wait_verdict(int state, enum kmc_want want);

#endif
