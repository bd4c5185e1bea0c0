// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fscache cookie state machine of fs/fscache/cookie.c (6.1 tree) as one
 * table, and the decisions around it as pure functions.  Each helper names
 * the kernel function whose rule it is; see kmc_cookie_state.h for how a
 * step is applied.
 */
#include "kcompat.h"
#include "kmc_cookie_state.h"

#define Q	KMC_COOKIE_STATE_QUIESCENT
#define L	KMC_COOKIE_STATE_LOOKING_UP
#define C	KMC_COOKIE_STATE_CREATING
#define A	KMC_COOKIE_STATE_ACTIVE
#define I	KMC_COOKIE_STATE_INVALIDATING
#define F	KMC_COOKIE_STATE_FAILED
#define U	KMC_COOKIE_STATE_LRU_DISCARDING
#define W	KMC_COOKIE_STATE_WITHDRAWING
#define R	KMC_COOKIE_STATE_RELINQUISHING
#define D	KMC_COOKIE_STATE_DROPPED
#define X	(-1)

/*
 * Rows: the state now; columns, in enum order: BEGIN_LOOKUP,
 * LOOKUP_NEGATIVE, LOOKUP_DONE, LOOKUP_DONE_INVAL, VOLUME_UNAVAILABLE,
 * LOOKUP_FAILED, CACHING_FAILED, INVALIDATE, INVALIDATED, LRU_DISCARD,
 * WITHDRAW, RELINQUISH, WITHDRAWN, DROP_UNCACHED.
 */
const s8 kmc_cookie_transitions[KMC_COOKIE_STATE__NR][KMC_CEV__NR] = {
	/*     BL NEG DONE DINV NOV LF CF INV IND LRU WD REL WDN DU */
	[Q] = { L, X,  X,   X,   X,  X, X, X,  X,  X,  X, R,  X,  D },
	[L] = { X, C,  A,   I,   Q,  Q, F, X,  X,  X,  X, X,  X,  X },
	[C] = { X, X,  A,   I,   X,  Q, F, X,  X,  X,  X, X,  X,  X },
	[A] = { X, X,  X,   X,   X,  X, X, I,  X,  U,  W, R,  X,  X },
	[I] = { X, X,  X,   X,   X,  X, F, X,  A,  X,  X, X,  X,  X },
	[F] = { X, X,  X,   X,   X,  F, X, X,  X,  X,  W, R,  X,  X },
	[U] = { X, X,  X,   X,   X,  X, X, X,  X,  X,  X, X,  Q,  X },
	[W] = { X, X,  X,   X,   X,  X, X, X,  X,  X,  X, X,  Q,  X },
	[R] = { X, X,  X,   X,   X,  X, X, X,  X,  X,  X, X,  D,  X },
	[D] = { X, X,  X,   X,   X,  X, X, X,  X,  X,  X, X,  X,  X },
};

static const char *const kmc_cookie_state_names[KMC_COOKIE_STATE__NR] = {
	[Q] = "QUIESCENT",	[L] = "LOOKING_UP",	[C] = "CREATING",
	[A] = "ACTIVE",		[I] = "INVALIDATING",	[F] = "FAILED",
	[U] = "LRU_DISCARDING",	[W] = "WITHDRAWING",	[R] = "RELINQUISHING",
	[D] = "DROPPED",
};

static const char *const kmc_cookie_event_names[KMC_CEV__NR] = {
	[KMC_CEV_BEGIN_LOOKUP]		= "BEGIN_LOOKUP",
	[KMC_CEV_LOOKUP_NEGATIVE]	= "LOOKUP_NEGATIVE",
	[KMC_CEV_LOOKUP_DONE]		= "LOOKUP_DONE",
	[KMC_CEV_LOOKUP_DONE_INVAL]	= "LOOKUP_DONE_INVAL",
	[KMC_CEV_VOLUME_UNAVAILABLE]	= "VOLUME_UNAVAILABLE",
	[KMC_CEV_LOOKUP_FAILED]		= "LOOKUP_FAILED",
	[KMC_CEV_CACHING_FAILED]	= "CACHING_FAILED",
	[KMC_CEV_INVALIDATE]		= "INVALIDATE",
	[KMC_CEV_INVALIDATED]		= "INVALIDATED",
	[KMC_CEV_LRU_DISCARD]		= "LRU_DISCARD",
	[KMC_CEV_WITHDRAW]		= "WITHDRAW",
	[KMC_CEV_RELINQUISH]		= "RELINQUISH",
	[KMC_CEV_WITHDRAWN]		= "WITHDRAWN",
	[KMC_CEV_DROP_UNCACHED]		= "DROP_UNCACHED",
};

static bool kmc_state_ok(int state)
{
	return state >= 0 && state < KMC_COOKIE_STATE__NR;
}

static bool kmc_event_ok(int event)
{
	return event >= 0 && event < KMC_CEV__NR;
}

/* The only way a state changes: a legal [state][event] cell. */
int kmc_cookie_transition(int state, int event)
{
	int next;

	if (!kmc_state_ok(state) || !kmc_event_ok(event))
		return -EINVAL;
	next = kmc_cookie_transitions[state][event];
	return next < 0 ? -EINVAL : next;
}
EXPORT_SYMBOL(kmc_cookie_transition);

/* fscache_cookie_states[] = "-LCAIFUWRD". */
char kmc_cookie_state_char(int state)
{
	return kmc_state_ok(state) ? KMC_COOKIE_STATE_CHARS[state] : '?';
}
EXPORT_SYMBOL(kmc_cookie_state_char);

const char *kmc_cookie_state_name(int state)
{
	return kmc_state_ok(state) ? kmc_cookie_state_names[state] : "?";
}
EXPORT_SYMBOL_IF_KUNIT(kmc_cookie_state_name);

const char *kmc_cookie_event_name(int event)
{
	return kmc_event_ok(event) ? kmc_cookie_event_names[event] : "?";
}
EXPORT_SYMBOL(kmc_cookie_event_name);

/* Index of the name equal to @len bytes of @name, or -EINVAL. */
static int kmc_name_lookup(const char *const *names, int nr,
			   const char *name, size_t len)
{
	int i;

	if (!name)
		return -EINVAL;
	for (i = 0; i < nr; i++)
		if (strlen(names[i]) == len && !memcmp(names[i], name, len))
			return i;
	return -EINVAL;
}

int kmc_cookie_state_parse(const char *name, size_t len)
{
	return kmc_name_lookup(kmc_cookie_state_names, KMC_COOKIE_STATE__NR,
			       name, len);
}
EXPORT_SYMBOL_IF_KUNIT(kmc_cookie_state_parse);

int kmc_cookie_event_parse(const char *name, size_t len)
{
	return kmc_name_lookup(kmc_cookie_event_names, KMC_CEV__NR, name, len);
}
EXPORT_SYMBOL_IF_KUNIT(kmc_cookie_event_parse);

/* Every helper starts from an empty step. */
static void kmc_step_init(struct kmc_cookie_step *s)
{
	s->event = KMC_CEV_NONE;
	s->action = 0;
	s->set = 0;
	s->clear = 0;
}

/* Give @s the event @event if it is legal in @state, else -EINVAL. */
static int kmc_step_event(struct kmc_cookie_step *s, int state, int event)
{
	if (kmc_cookie_transition(state, event) < 0)
		return -EINVAL;
	s->event = event;
	return 0;
}

/*
 * A step's flags and event, all or nothing: an illegal event leaves both
 * the flags and the state alone.
 */
int kmc_cookie_apply(int state, unsigned long *flags,
		     const struct kmc_cookie_step *s)
{
	int next = state;

	if (s->event != KMC_CEV_NONE) {
		next = kmc_cookie_transition(state, s->event);
		if (next < 0)
			return next;
	} else if (!kmc_state_ok(state)) {
		return -EINVAL;
	}
	*flags = (*flags & ~s->clear) | s->set;
	return next;
}
EXPORT_SYMBOL_IF_KUNIT(kmc_cookie_apply);

/* fscache_cookie_lookup_negative(): nothing on disk, nothing to read. */
int kmc_cookie_lookup_negative(int state, struct kmc_cookie_step *s)
{
	kmc_step_init(s);
	s->set = KMC_CF(NO_DATA_TO_READ);
	return kmc_step_event(s, state, KMC_CEV_LOOKUP_NEGATIVE);
}
EXPORT_SYMBOL(kmc_cookie_lookup_negative);

/* fscache_caching_failed(): no new accesses from now on. */
int kmc_cookie_caching_failed(int state, struct kmc_cookie_step *s)
{
	kmc_step_init(s);
	s->clear = KMC_CF(IS_CACHING);
	return kmc_step_event(s, state, KMC_CEV_CACHING_FAILED);
}
EXPORT_SYMBOL(kmc_cookie_caching_failed);

/* fscache_resume_after_invalidation(): I/O may go on. */
int kmc_cookie_resume_after_invalidation(int state,
					 struct kmc_cookie_step *s)
{
	kmc_step_init(s);
	return kmc_step_event(s, state, KMC_CEV_INVALIDATED);
}
EXPORT_SYMBOL(kmc_cookie_resume_after_invalidation);

/* fscache_cookie_enabled(): cookie && !DISABLED. */
bool kmc_cookie_enabled(unsigned long flags)
{
	return !(flags & KMC_CF(DISABLED));
}
EXPORT_SYMBOL_IF_KUNIT(kmc_cookie_enabled);

/* fscache_alloc_cookie(): "if (object_size == 0) NO_DATA_TO_READ". */
unsigned long kmc_cookie_init_flags(s64 object_size)
{
	return object_size == 0 ? KMC_CF(NO_DATA_TO_READ) : 0;
}
EXPORT_SYMBOL(kmc_cookie_init_flags);

/*
 * The access a step asked for with TRY_ACCESS was refused: the taking and
 * the re-checking are the kernel's (fscache_begin_cookie_access(), an
 * ordering protocol with the withdrawal of a cache), what the refusal
 * undoes is decided here.
 */
void kmc_cookie_access_refused(struct kmc_cookie_step *s)
{
	s->action &= ~(KMC_CA_TRY_ACCESS | KMC_CA_QUEUE);
	s->event = KMC_CEV_NONE;
}
EXPORT_SYMBOL(kmc_cookie_access_refused);

/*
 * fscache_end_cookie_access(): queue the state machine when the last
 * access ends, unless the access gate (NO_ACCESS_WAKE) is up.
 */
bool kmc_cookie_end_access(int n_after, unsigned long flags)
{
	return n_after == 0 && !(flags & KMC_CF(NO_ACCESS_WAKE));
}
EXPORT_SYMBOL(kmc_cookie_end_access);

/* __fscache_use_cookie(): "Trying to use relinquished cookie". */
int kmc_cookie_use_check(unsigned long flags)
{
	return (flags & KMC_CF(RELINQUISHED)) ? -EINVAL : 0;
}
EXPORT_SYMBOL(kmc_cookie_use_check);

/*
 * __fscache_use_cookie() in ACTIVE/INVALIDATING: the first local write
 * asks for write preparation; a use cancels a pending LRU discard.
 */
static void kmc_use_active(unsigned long flags, bool will_modify,
			   struct kmc_cookie_step *s)
{
	if (will_modify && !(flags & KMC_CF(LOCAL_WRITE))) {
		s->set |= KMC_CF(LOCAL_WRITE) | KMC_CF(DO_PREP_TO_WRITE);
		s->action |= KMC_CA_QUEUE;
	}
	if (flags & KMC_CF(DO_LRU_DISCARD))
		s->clear |= KMC_CF(DO_LRU_DISCARD);
}

/*
 * __fscache_use_cookie()'s switch, after n_active++.  QUIESCENT:
 * fscache_begin_lookup() sets the write bits before it asks for the
 * volume, so they stay even when the volume refuses.
 */
int kmc_cookie_use(int state, unsigned long flags, bool will_modify,
		   struct kmc_cookie_step *s)
{
	kmc_step_init(s);
	switch (state) {
	case Q:
		if (will_modify)
			s->set |= KMC_CF(LOCAL_WRITE) | KMC_CF(DO_PREP_TO_WRITE);
		s->action |= KMC_CA_BEGIN_LOOKUP;
		return 0;
	case L:
	case C:
		if (will_modify)
			s->set |= KMC_CF(LOCAL_WRITE);
		return 0;
	case A:
	case I:
		kmc_use_active(flags, will_modify, s);
		return 0;
	case F:
	case W:
		return 0;
	case U:
		s->action |= KMC_CA_WAIT;
		return 0;
	default:	/* R, D: "Can't use cookie in state %u" */
		return -EINVAL;
	}
}
EXPORT_SYMBOL(kmc_cookie_use);

/*
 * fscache_begin_lookup() once fscache_begin_volume_access() succeeded:
 * one cookie access for the lookup, LOOKING_UP, caching from now on.
 */
void kmc_cookie_begin_lookup(struct kmc_cookie_step *s)
{
	kmc_step_init(s);
	s->event = KMC_CEV_BEGIN_LOOKUP;
	s->action = KMC_CA_BEGIN_ACCESS | KMC_CA_QUEUE;
	s->set = KMC_CF(IS_CACHING) | KMC_CF(HAS_BEEN_CACHED);
}
EXPORT_SYMBOL(kmc_cookie_begin_lookup);

/* __fscache_update_cookie(): new aux/size, then NEEDS_UPDATE. */
void kmc_cookie_update(struct kmc_cookie_step *s)
{
	kmc_step_init(s);
	s->action = KMC_CA_UPDATE_AUX;
	s->set = KMC_CF(NEEDS_UPDATE);
}
EXPORT_SYMBOL_IF_KUNIT(kmc_cookie_update);

/*
 * __fscache_unuse_cookie(): update first (even on a disabled cookie), then
 * drop n_active; at zero fscache_unuse_cookie_locked() re-enables the
 * cookie and, if it is caching, stamps it and puts it on the LRU.
 */
int kmc_cookie_unuse(int n_active, unsigned long flags, bool update,
		     struct kmc_cookie_step *s)
{
	kmc_step_init(s);
	if (n_active <= 0)
		return -EINVAL;
	if (update)
		kmc_cookie_update(s);
	if (n_active > 1)
		return n_active - 1;
	s->clear |= KMC_CF(DISABLED);
	if (flags & KMC_CF(IS_CACHING))
		s->action |= KMC_CA_LRU_ADD;
	return 0;
}
EXPORT_SYMBOL(kmc_cookie_unuse);

/* A pending invalidation's access ends: the count left. */
static int kmc_sm_end_inval(unsigned long flags, int n_accesses,
			    struct kmc_cookie_step *s)
{
	if (!(flags & KMC_CF(DO_INVALIDATE)))
		return n_accesses;
	s->clear |= KMC_CF(DO_INVALIDATE);
	s->action |= KMC_CA_END_ACCESS;
	return n_accesses - 1;
}

/*
 * fscache_cookie_state_machine(), ACTIVE and FAILED (ACTIVE goes on into
 * after its own checks): a pending invalidation's access ends first; with
 * no access left, relinquish beats withdraw.
 */
static void kmc_sm_settle(unsigned long flags, int n_accesses,
			  struct kmc_cookie_step *s)
{
	n_accesses = kmc_sm_end_inval(flags, n_accesses, s);
	if (n_accesses != 0)
		return;
	if (flags & KMC_CF(DO_RELINQUISH))
		s->event = KMC_CEV_RELINQUISH;
	else if (flags & KMC_CF(DO_WITHDRAW))
		s->event = KMC_CEV_WITHDRAW;
	else
		return;
	s->action |= KMC_CA_AGAIN;
}

/*
 * ACTIVE: write preparation first (unlocked, then the pass goes on), then
 * a pending LRU discard, postponed while accesses are in flight.
 */
static void kmc_sm_active(unsigned long flags, int n_accesses,
			  struct kmc_cookie_step *s)
{
	if (flags & KMC_CF(DO_PREP_TO_WRITE)) {
		s->clear |= KMC_CF(DO_PREP_TO_WRITE);
		s->action |= KMC_CA_PREP_TO_WRITE | KMC_CA_AGAIN;
		return;
	}
	if (flags & KMC_CF(DO_LRU_DISCARD)) {
		if (n_accesses != 0)
			return;
		s->event = KMC_CEV_LRU_DISCARD;
		s->action |= KMC_CA_AGAIN;
		return;
	}
	kmc_sm_settle(flags, n_accesses, s);
}

/*
 * LRU_DISCARDING, WITHDRAWING, RELINQUISHING: withdraw the object (unlocked)
 * if there is one, end a pending invalidation's access, then RELINQUISHING
 * unhashes and drops; the others clear the work bits and go QUIESCENT.
 */
static void kmc_sm_withdrawing(int state, unsigned long flags,
			       bool has_object, struct kmc_cookie_step *s)
{
	if (has_object) {
		s->action |= KMC_CA_WITHDRAW_OBJECT | KMC_CA_AGAIN;
		return;
	}
	if (flags & KMC_CF(DO_INVALIDATE)) {
		s->clear |= KMC_CF(DO_INVALIDATE);
		s->action |= KMC_CA_END_ACCESS;
	}
	s->event = KMC_CEV_WITHDRAWN;
	if (state == R) {
		s->action |= KMC_CA_UNHASH;
		return;
	}
	s->clear |= KMC_CF(NEEDS_UPDATE) | KMC_CF(DO_WITHDRAW) |
		    KMC_CF(DO_LRU_DISCARD) | KMC_CF(DO_PREP_TO_WRITE);
	s->set |= KMC_CF(NO_DATA_TO_READ);
	s->action |= KMC_CA_AGAIN;
}

/*
 * QUIESCENT only moves to relinquish (use jumps it to LOOKING_UP).  A lookup
 * that failed (no volume, or lookup_cookie() false) while an invalidation
 * was pending lands here still holding the access that pinned the
 * invalidation.  6.1 never ends that access: the cookie can then never be
 * relinquished, and acquiring its key again waits forever for it to drop
 * (fscache_hash_cookie()).  End it here, as ACTIVE and FAILED do.
 */
static void kmc_sm_quiescent(unsigned long flags, int n_accesses,
			     struct kmc_cookie_step *s)
{
	n_accesses = kmc_sm_end_inval(flags, n_accesses, s);
	if (n_accesses == 0 && (flags & KMC_CF(DO_RELINQUISH))) {
		s->event = KMC_CEV_RELINQUISH;
		s->action |= KMC_CA_AGAIN;
	}
}

/*
 * fscache_cookie_state_machine(): one pass.  LOOKING_UP raises the access
 * gate (fscache_init_access_gate()) and looks up; DROPPED is final.
 */
void kmc_cookie_sm_step(int state, unsigned long flags, int n_accesses,
			bool has_object, struct kmc_cookie_step *s)
{
	kmc_step_init(s);
	switch (state) {
	case Q:
		kmc_sm_quiescent(flags, n_accesses, s);
		return;
	case L:
		s->set |= KMC_CF(NO_ACCESS_WAKE);
		s->action |= KMC_CA_PERFORM_LOOKUP | KMC_CA_AGAIN;
		return;
	case I:
		s->action |= KMC_CA_PERFORM_INVAL | KMC_CA_AGAIN;
		return;
	case A:
		kmc_sm_active(flags, n_accesses, s);
		return;
	case F:
		kmc_sm_settle(flags, n_accesses, s);
		return;
	case U:
	case W:
	case R:
		kmc_sm_withdrawing(state, flags, has_object, s);
		return;
	default:	/* D, and the kernel's "unexpected state" WARN */
		return;
	}
}
EXPORT_SYMBOL(kmc_cookie_sm_step);

/*
 * fscache_cookie_drop_from_lru() + __fscache_withdraw_cookie(): the gate
 * comes down so the last access end queues the state machine.
 */
static void kmc_step_withdraw(struct kmc_cookie_step *s)
{
	s->clear |= KMC_CF(NO_ACCESS_WAKE);
	s->action |= KMC_CA_LRU_DROP | KMC_CA_WITHDRAW;
}

/* fscache_withdraw_cookie(): the cache backend withdraws a cookie. */
void kmc_cookie_withdraw(struct kmc_cookie_step *s)
{
	kmc_step_init(s);
	s->set |= KMC_CF(DO_WITHDRAW);
	kmc_step_withdraw(s);
}
EXPORT_SYMBOL(kmc_cookie_withdraw);

/*
 * fscache_perform_lookup()'s ending.  The lookup's cookie access always
 * ends; success lands in ACTIVE, or INVALIDATING when an invalidation
 * came in meanwhile; a failed lookup_cookie() also withdraws the cookie.
 */
int kmc_cookie_lookup_result(int state, unsigned long flags,
			     enum kmc_lookup_result r,
			     struct kmc_cookie_step *s)
{
	int event;

	kmc_step_init(s);
	if (r == KMC_LOOKUP_OK && (flags & KMC_CF(DO_INVALIDATE))) {
		event = KMC_CEV_LOOKUP_DONE_INVAL;
		s->clear |= KMC_CF(DO_INVALIDATE);
	} else if (r == KMC_LOOKUP_OK) {
		event = KMC_CEV_LOOKUP_DONE;
	} else if (r == KMC_LOOKUP_NO_VOLUME) {
		event = KMC_CEV_VOLUME_UNAVAILABLE;
	} else if (r == KMC_LOOKUP_FAILED) {
		event = KMC_CEV_LOOKUP_FAILED;
		s->set |= KMC_CF(DO_WITHDRAW);
		kmc_step_withdraw(s);
	} else {
		return -EINVAL;
	}
	s->action |= KMC_CA_END_ACCESS;
	return kmc_step_event(s, state, event);
}
EXPORT_SYMBOL(kmc_cookie_lookup_result);

/*
 * __fscache_invalidate() by state, after the common part: an invalidation
 * during lookup is pinned by one access until the lookup ends; an ACTIVE
 * caching cookie starts invalidating now, if the access it takes for that
 * is granted (the cache may die as it is taken); other states ignore it.
 */
static void kmc_invalidate_state(int state, unsigned long flags,
				 struct kmc_cookie_step *s)
{
	if (state == L && !(flags & KMC_CF(DO_INVALIDATE))) {
		s->set |= KMC_CF(DO_INVALIDATE);
		s->action |= KMC_CA_BEGIN_ACCESS;
	} else if (state == A && (flags & KMC_CF(IS_CACHING))) {
		s->action |= KMC_CA_TRY_ACCESS | KMC_CA_QUEUE;
		s->event = KMC_CEV_INVALIDATE;
	}
}

/*
 * __fscache_invalidate(): refused on a relinquished cookie; a DIO write
 * disables the cookie and is a no-op if it already was; otherwise no data
 * to read, new aux/size, one more invalidation counted.
 */
int kmc_cookie_invalidate(int state, unsigned long flags, bool dio_write,
			  struct kmc_cookie_step *s)
{
	kmc_step_init(s);
	if (flags & KMC_CF(RELINQUISHED))
		return -EINVAL;
	if (!kmc_state_ok(state))
		return -EINVAL;
	if (dio_write) {
		if (flags & KMC_CF(DISABLED))
			return 0;
		s->set |= KMC_CF(DISABLED);
	}
	s->set |= KMC_CF(NO_DATA_TO_READ);
	s->action |= KMC_CA_UPDATE_AUX | KMC_CA_INVAL_COUNT;
	kmc_invalidate_state(state, flags, s);
	return 0;
}
EXPORT_SYMBOL(kmc_cookie_invalidate);

/*
 * __fscache_relinquish_cookie(): once only, never while in use.  A cookie
 * that was ever cached is withdrawn by the state machine; one that never
 * was is dropped and unhashed on the spot.
 */
int kmc_cookie_relinquish(unsigned long flags, int n_active, bool retire,
			  struct kmc_cookie_step *s)
{
	kmc_step_init(s);
	if (flags & KMC_CF(RELINQUISHED))
		return -EALREADY;
	if (n_active != 0)
		return -EBUSY;
	s->set |= KMC_CF(RELINQUISHED);
	if (retire)
		s->set |= KMC_CF(RETIRED);
	s->action |= KMC_CA_VOLUME_DEC;
	if (flags & KMC_CF(HAS_BEEN_CACHED)) {
		s->set |= KMC_CF(DO_RELINQUISH);
		kmc_step_withdraw(s);
	} else {
		s->event = KMC_CEV_DROP_UNCACHED;
		s->action |= KMC_CA_UNHASH;
	}
	return 0;
}
EXPORT_SYMBOL(kmc_cookie_relinquish);

/*
 * cachefiles_clean_up_object(): a retired cookie's object is deleted (or,
 * as a tmpfile, simply dropped); any other is committed, its xattr
 * rewritten if it was written locally or updated (cachefiles_commit_object).
 */
enum kmc_object_fate kmc_cookie_object_fate(unsigned long flags, bool tmpfile,
					    bool *write_xattr,
					    struct kmc_cookie_step *s)
{
	unsigned long dirty = KMC_CF(LOCAL_WRITE) | KMC_CF(NEEDS_UPDATE);

	kmc_step_init(s);
	*write_xattr = false;
	if (flags & KMC_CF(RETIRED))
		return tmpfile ? KMC_OBJECT_DROP_TMPFILE : KMC_OBJECT_DELETE;
	*write_xattr = (flags & dirty) != 0;
	s->clear |= flags & dirty;
	return KMC_OBJECT_COMMIT;
}
EXPORT_SYMBOL(kmc_cookie_object_fate);

/* jiffies + fscache_lru_cookie_timeout, in ms. */
u64 kmc_cookie_lru_deadline(u64 unused_at_ms)
{
	return unused_at_ms + KMC_COOKIE_LRU_TIMEOUT_MS;
}
EXPORT_SYMBOL_IF_KUNIT(kmc_cookie_lru_deadline);

/* !time_before(now, deadline): signed difference, like time_before64(). */
bool kmc_cookie_lru_expired(u64 unused_at_ms, u64 now_ms)
{
	return (s64)(now_ms - kmc_cookie_lru_deadline(unused_at_ms)) >= 0;
}
EXPORT_SYMBOL_IF_KUNIT(kmc_cookie_lru_expired);

/*
 * fscache_cookie_lru_do_one(): only an ACTIVE cookie, unused for the whole
 * timeout and not taken back into use, is discarded.
 */
bool kmc_cookie_lru_do_one(int state, int n_active, u64 unused_at_ms,
			   u64 now_ms, struct kmc_cookie_step *s)
{
	kmc_step_init(s);
	if (state != A || !kmc_cookie_lru_expired(unused_at_ms, now_ms) ||
	    n_active > 0)
		return false;
	s->set |= KMC_CF(DO_LRU_DISCARD);
	s->clear |= KMC_CF(NO_ACCESS_WAKE);
	s->action |= KMC_CA_WITHDRAW;
	return true;
}
EXPORT_SYMBOL(kmc_cookie_lru_do_one);

/*
 * fscache_begin_operation(): lookups, discards and invalidations are
 * waited out; a CREATING object has no content, so PARAMS may go on.
 */
enum kmc_op_verdict kmc_cookie_op_verdict(int state, enum kmc_want want)
{
	switch (state) {
	case L:
	case U:
	case I:
		return KMC_OP_WAIT;
	case C:
		return want == KMC_WANT_PARAMS ? KMC_OP_READY : KMC_OP_WAIT;
	case A:
		return KMC_OP_READY;
	default:
		return KMC_OP_NOT_LIVE;
	}
}
EXPORT_SYMBOL(kmc_cookie_op_verdict);

/*
 * fscache_wait_for_operation(): as above, but INVALIDATING has no content
 * either, so PARAMS may go on there too.
 */
enum kmc_op_verdict kmc_cookie_wait_verdict(int state, enum kmc_want want)
{
	switch (state) {
	case C:
	case I:
		return want == KMC_WANT_PARAMS ? KMC_OP_READY : KMC_OP_WAIT;
	case L:
	case U:
		return KMC_OP_WAIT;
	case A:
		return KMC_OP_READY;
	default:
		return KMC_OP_NOT_LIVE;
	}
}
EXPORT_SYMBOL(kmc_cookie_wait_verdict);
