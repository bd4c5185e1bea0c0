// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fscache cookie state machine (kmc_cookie_state.h), against
 * cookie_state.vec, and the same decision helpers driven through a small
 * cookie model: a KUnit suite in the kernel, and run by cmocka in
 * userspace (tests/kernel-shim).
 */
#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "kmc_cookie_state.h"
#include "kmv_tables.h"

static const struct kmv_cookie_state *kmv_cookie_state;
static unsigned int kmv_cookie_state_n;

/* Each case starts with the rows of cookie_state.vec. */
static int kmc_cookie_state_test_init(struct kunit *test)
{
	kmv_cookie_state = kmv_load(test, &kmv_cookie_state_table,
				    &kmv_cookie_state_n);
	return kmv_cookie_state ? 0 : -EINVAL;
}

#define QS	KMC_COOKIE_STATE_QUIESCENT
#define LS	KMC_COOKIE_STATE_LOOKING_UP
#define CS	KMC_COOKIE_STATE_CREATING
#define AS	KMC_COOKIE_STATE_ACTIVE
#define IS	KMC_COOKIE_STATE_INVALIDATING
#define FS	KMC_COOKIE_STATE_FAILED
#define US	KMC_COOKIE_STATE_LRU_DISCARDING
#define WS	KMC_COOKIE_STATE_WITHDRAWING
#define RS	KMC_COOKIE_STATE_RELINQUISHING
#define DS	KMC_COOKIE_STATE_DROPPED
#define NSTATES	KMC_COOKIE_STATE__NR

/* Every (state, event) pair of the vectors: the kernel's move or illegal. */
static void test_state_vectors(struct kunit *test)
{
	bool seen[NSTATES][KMC_CEV__NR] = { { false } };
	unsigned int i;
	int s, e, want;

	for (i = 0; i < kmv_cookie_state_n; i++) {
		const struct kmv_cookie_state *v = &kmv_cookie_state[i];

		s = kmc_cookie_state_parse(v->state, strlen(v->state));
		e = kmc_cookie_event_parse(v->event, strlen(v->event));
		KUNIT_ASSERT_TRUE_MSG(test, s >= 0 && e >= 0,
				      "cookie_state.vec line %d: %s %s",
				      v->line, v->state, v->event);
		want = strcmp(v->next, "illegal") ?
			kmc_cookie_state_parse(v->next, strlen(v->next)) :
			-EINVAL;
		KUNIT_ASSERT_TRUE_MSG(test, want >= 0 || want == -EINVAL,
				      "cookie_state.vec line %d: next %s",
				      v->line, v->next);
		KUNIT_EXPECT_EQ_MSG(test, kmc_cookie_transition(s, e), want,
				    "cookie_state.vec line %d: %s %s -> %s",
				    v->line, v->state, v->event, v->next);
		KUNIT_EXPECT_FALSE_MSG(test, seen[s][e],
				       "cookie_state.vec line %d: pair again",
				       v->line);
		seen[s][e] = true;
	}
	KUNIT_EXPECT_EQ(test, kmv_cookie_state_n,
			NSTATES * KMC_CEV__NR);
}

/* The one-letter names are the kernel's fscache_cookie_states[]. */
static void test_state_chars(struct kunit *test)
{
	const char *k = "-LCAIFUWRD";
	int s;

	for (s = 0; s < NSTATES; s++)
		KUNIT_EXPECT_EQ(test, kmc_cookie_state_char(s), k[s]);
	KUNIT_EXPECT_EQ(test, kmc_cookie_state_char(-1), '?');
	KUNIT_EXPECT_EQ(test, kmc_cookie_state_char(NSTATES), '?');
	KUNIT_EXPECT_EQ(test, NSTATES, 10);
}

/* Names round-trip; unknown names and out-of-range numbers are refused. */
static void test_state_names(struct kunit *test)
{
	const char *n;
	int i;

	for (i = 0; i < NSTATES; i++) {
		n = kmc_cookie_state_name(i);
		KUNIT_EXPECT_EQ(test, kmc_cookie_state_parse(n, strlen(n)), i);
	}
	for (i = 0; i < KMC_CEV__NR; i++) {
		n = kmc_cookie_event_name(i);
		KUNIT_EXPECT_EQ(test, kmc_cookie_event_parse(n, strlen(n)), i);
	}
	KUNIT_EXPECT_STREQ(test, kmc_cookie_state_name(NSTATES), "?");
	KUNIT_EXPECT_STREQ(test, kmc_cookie_event_name(-1), "?");
	KUNIT_EXPECT_EQ(test, kmc_cookie_state_parse("ACTIV", 5), -EINVAL);
	KUNIT_EXPECT_EQ(test, kmc_cookie_state_parse("ACTIVEX", 7), -EINVAL);
	KUNIT_EXPECT_EQ(test, kmc_cookie_state_parse("ACTIVEX", 6), AS);
	KUNIT_EXPECT_EQ(test, kmc_cookie_event_parse(NULL, 0), -EINVAL);
}

/* Out-of-range states and events are errors, never a table read. */
static void test_transition_range(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, kmc_cookie_transition(-1, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, kmc_cookie_transition(NSTATES, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, kmc_cookie_transition(0, -1), -EINVAL);
	KUNIT_EXPECT_EQ(test, kmc_cookie_transition(0, KMC_CEV__NR), -EINVAL);
	KUNIT_EXPECT_EQ(test, kmc_cookie_transition(QS, KMC_CEV_NONE),
			-EINVAL);
}

/* DROPPED is final; every other state has a way out. */
static void test_dropped_is_final(struct kunit *test)
{
	int s, e, n, outs;

	for (s = 0; s < NSTATES; s++) {
		outs = 0;
		for (e = 0; e < KMC_CEV__NR; e++) {
			n = kmc_cookie_transition(s, e);
			if (n >= 0 && n != s)
				outs++;
		}
		if (s == DS)
			KUNIT_EXPECT_EQ(test, outs, 0);
		else
			KUNIT_EXPECT_GT_MSG(test, outs, 0, "state %d", s);
	}
}

/* Every state is reachable from QUIESCENT, and DROPPED from every state. */
static void test_reachability(struct kunit *test)
{
	bool r[NSTATES] = { [QS] = true };
	bool changed = true;
	int s, e, n;

	while (changed) {
		changed = false;
		for (s = 0; s < NSTATES; s++)
			for (e = 0; r[s] && e < KMC_CEV__NR; e++) {
				n = kmc_cookie_transition(s, e);
				if (n >= 0 && !r[n]) {
					r[n] = true;
					changed = true;
				}
			}
	}
	for (s = 0; s < NSTATES; s++)
		KUNIT_EXPECT_TRUE_MSG(test, r[s], "state %d", s);
}

/* fscache_init_access_gate()/end access: only an open gate queues at 0. */
static void test_access_counting(struct kunit *test)
{
	struct kmc_cookie_step s = { 0 };

	KUNIT_EXPECT_TRUE(test, kmc_cookie_end_access(0, 0));
	KUNIT_EXPECT_FALSE(test, kmc_cookie_end_access(1, 0));
	KUNIT_EXPECT_FALSE(test, kmc_cookie_end_access(0,
						       KMC_CF(NO_ACCESS_WAKE)));
	KUNIT_EXPECT_FALSE(test, kmc_cookie_end_access(-1, 0));
	/* a refused TRY_ACCESS takes back what needed it, nothing else */
	s.event = KMC_CEV_INVALIDATE;
	s.action = KMC_CA_TRY_ACCESS | KMC_CA_QUEUE | KMC_CA_INVAL_COUNT;
	s.set = KMC_CF(NO_DATA_TO_READ);
	kmc_cookie_access_refused(&s);
	KUNIT_EXPECT_EQ(test, s.event, KMC_CEV_NONE);
	KUNIT_EXPECT_EQ(test, s.action, KMC_CA_INVAL_COUNT);
	KUNIT_EXPECT_EQ(test, s.set, KMC_CF(NO_DATA_TO_READ));
}

/* Using a relinquished cookie is refused before anything is counted. */
static void test_use_relinquished(struct kunit *test)
{
	struct kmc_cookie_step s;

	KUNIT_EXPECT_EQ(test, kmc_cookie_use_check(KMC_CF(RELINQUISHED)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, kmc_cookie_use_check(KMC_CF(DO_RELINQUISH)), 0);
	KUNIT_EXPECT_EQ(test, kmc_cookie_use(RS, 0, false, &s), -EINVAL);
	KUNIT_EXPECT_EQ(test, kmc_cookie_use(DS, 0, false, &s), -EINVAL);
	KUNIT_EXPECT_EQ(test, kmc_cookie_use(NSTATES, 0, false, &s), -EINVAL);
}

/* Use in QUIESCENT starts a lookup; a writer's bits are set even so. */
static void test_use_quiescent(struct kunit *test)
{
	struct kmc_cookie_step s;

	KUNIT_EXPECT_EQ(test, kmc_cookie_use(QS, 0, false, &s), 0);
	KUNIT_EXPECT_EQ(test, s.action, KMC_CA_BEGIN_LOOKUP);
	KUNIT_EXPECT_EQ(test, s.set, 0);
	KUNIT_EXPECT_EQ(test, s.event, KMC_CEV_NONE);
	KUNIT_EXPECT_EQ(test, kmc_cookie_use(QS, 0, true, &s), 0);
	KUNIT_EXPECT_EQ(test, s.set,
			KMC_CF(LOCAL_WRITE) | KMC_CF(DO_PREP_TO_WRITE));
	kmc_cookie_begin_lookup(&s);
	KUNIT_EXPECT_EQ(test, s.event, KMC_CEV_BEGIN_LOOKUP);
	KUNIT_EXPECT_EQ(test, s.action, KMC_CA_BEGIN_ACCESS | KMC_CA_QUEUE);
	KUNIT_EXPECT_EQ(test, s.set,
			KMC_CF(IS_CACHING) | KMC_CF(HAS_BEEN_CACHED));
}

/* Use elsewhere: lookup states note a writer; LRU_DISCARDING waits. */
static void test_use_other_states(struct kunit *test)
{
	struct kmc_cookie_step s;

	KUNIT_EXPECT_EQ(test, kmc_cookie_use(LS, 0, true, &s), 0);
	KUNIT_EXPECT_EQ(test, s.set, KMC_CF(LOCAL_WRITE));
	KUNIT_EXPECT_EQ(test, s.action, 0);
	KUNIT_EXPECT_EQ(test, kmc_cookie_use(CS, 0, false, &s), 0);
	KUNIT_EXPECT_EQ(test, s.set | s.action, 0);
	KUNIT_EXPECT_EQ(test, kmc_cookie_use(FS, 0, true, &s), 0);
	KUNIT_EXPECT_EQ(test, s.set | s.action, 0);
	KUNIT_EXPECT_EQ(test, kmc_cookie_use(WS, 0, true, &s), 0);
	KUNIT_EXPECT_EQ(test, s.set | s.action, 0);
	KUNIT_EXPECT_EQ(test, kmc_cookie_use(US, 0, false, &s), 0);
	KUNIT_EXPECT_EQ(test, s.action, KMC_CA_WAIT);
}

/* Use of an ACTIVE cookie: first writer preps, and an LRU discard is off. */
static void test_use_active(struct kunit *test)
{
	struct kmc_cookie_step s;

	KUNIT_EXPECT_EQ(test, kmc_cookie_use(AS, 0, true, &s), 0);
	KUNIT_EXPECT_EQ(test, s.set,
			KMC_CF(LOCAL_WRITE) | KMC_CF(DO_PREP_TO_WRITE));
	KUNIT_EXPECT_EQ(test, s.action, KMC_CA_QUEUE);
	KUNIT_EXPECT_EQ(test, kmc_cookie_use(IS, KMC_CF(LOCAL_WRITE), true,
					     &s), 0);
	KUNIT_EXPECT_EQ(test, s.set | s.action, 0);
	KUNIT_EXPECT_EQ(test, kmc_cookie_use(AS, KMC_CF(DO_LRU_DISCARD), false,
					     &s), 0);
	KUNIT_EXPECT_EQ(test, s.clear, KMC_CF(DO_LRU_DISCARD));
	KUNIT_EXPECT_EQ(test, s.event, KMC_CEV_NONE);
}

/* Applying a step is all or nothing: an illegal event changes no flag. */
static void test_apply(struct kunit *test)
{
	struct kmc_cookie_step s = { .event = KMC_CEV_NONE,
				     .set = KMC_CF(LOCAL_WRITE),
				     .clear = KMC_CF(DISABLED) };
	unsigned long f = KMC_CF(DISABLED) | KMC_CF(IS_CACHING);

	KUNIT_EXPECT_EQ(test, kmc_cookie_apply(AS, &f, &s), AS);
	KUNIT_EXPECT_EQ(test, f, KMC_CF(LOCAL_WRITE) | KMC_CF(IS_CACHING));
	s.event = KMC_CEV_BEGIN_LOOKUP;
	f = KMC_CF(DISABLED);
	KUNIT_EXPECT_EQ(test, kmc_cookie_apply(AS, &f, &s), -EINVAL);
	KUNIT_EXPECT_EQ(test, f, KMC_CF(DISABLED));
	KUNIT_EXPECT_EQ(test, kmc_cookie_apply(QS, &f, &s), LS);
	KUNIT_EXPECT_EQ(test, f, KMC_CF(LOCAL_WRITE));
	s.event = KMC_CEV_NONE;
	KUNIT_EXPECT_EQ(test, kmc_cookie_apply(NSTATES, &f, &s), -EINVAL);
	s.event = KMC_CEV__NR;
	KUNIT_EXPECT_EQ(test, kmc_cookie_apply(QS, &f, &s), -EINVAL);
}

/* The backend's calls: only from the states the kernel makes them in. */
static void test_backend_calls(struct kunit *test)
{
	struct kmc_cookie_step s;
	int st;

	for (st = 0; st < NSTATES; st++) {
		KUNIT_EXPECT_EQ_MSG(test, kmc_cookie_lookup_negative(st, &s),
				    st == LS ? 0 : -EINVAL, "state %d", st);
		KUNIT_EXPECT_EQ_MSG(test, kmc_cookie_caching_failed(st, &s),
				    st == LS || st == CS || st == IS ?
				    0 : -EINVAL, "state %d", st);
		KUNIT_EXPECT_EQ_MSG(test,
				    kmc_cookie_resume_after_invalidation(st,
									 &s),
				    st == IS ? 0 : -EINVAL, "state %d", st);
	}
	kmc_cookie_lookup_negative(LS, &s);
	KUNIT_EXPECT_EQ(test, s.event, KMC_CEV_LOOKUP_NEGATIVE);
	KUNIT_EXPECT_EQ(test, s.set, KMC_CF(NO_DATA_TO_READ));
	kmc_cookie_caching_failed(LS, &s);
	KUNIT_EXPECT_EQ(test, s.event, KMC_CEV_CACHING_FAILED);
	KUNIT_EXPECT_EQ(test, s.clear, KMC_CF(IS_CACHING));
	kmc_cookie_resume_after_invalidation(IS, &s);
	KUNIT_EXPECT_EQ(test, s.event, KMC_CEV_INVALIDATED);
	KUNIT_EXPECT_EQ(test, s.set | s.clear | s.action, 0);
}

/* Unuse counts down; at zero it re-enables and, if caching, joins the LRU */
static void test_unuse(struct kunit *test)
{
	struct kmc_cookie_step s;

	KUNIT_EXPECT_EQ(test, kmc_cookie_unuse(0, 0, false, &s), -EINVAL);
	KUNIT_EXPECT_EQ(test, kmc_cookie_unuse(-3, 0, true, &s), -EINVAL);
	KUNIT_EXPECT_EQ(test, kmc_cookie_unuse(3, KMC_CF(IS_CACHING), false,
					       &s), 2);
	KUNIT_EXPECT_EQ(test, s.action | s.set | s.clear, 0);
	KUNIT_EXPECT_EQ(test, kmc_cookie_unuse(1, 0, false, &s), 0);
	KUNIT_EXPECT_EQ(test, s.clear, KMC_CF(DISABLED));
	KUNIT_EXPECT_EQ(test, s.action, 0);
	KUNIT_EXPECT_EQ(test, kmc_cookie_unuse(1, KMC_CF(IS_CACHING), false,
					       &s), 0);
	KUNIT_EXPECT_EQ(test, s.action, KMC_CA_LRU_ADD);
	/* aux/size given: updated first, even with users left */
	KUNIT_EXPECT_EQ(test, kmc_cookie_unuse(2, 0, true, &s), 1);
	KUNIT_EXPECT_EQ(test, s.action, KMC_CA_UPDATE_AUX);
	KUNIT_EXPECT_EQ(test, s.set, KMC_CF(NEEDS_UPDATE));
}

/* Update, resize and invalidate need an enabled cookie; size 0 = no data. */
static void test_enabled_and_init(struct kunit *test)
{
	struct kmc_cookie_step s;

	KUNIT_EXPECT_TRUE(test, kmc_cookie_enabled(0));
	KUNIT_EXPECT_FALSE(test, kmc_cookie_enabled(KMC_CF(DISABLED)));
	KUNIT_EXPECT_EQ(test, kmc_cookie_init_flags(0),
			KMC_CF(NO_DATA_TO_READ));
	KUNIT_EXPECT_EQ(test, kmc_cookie_init_flags(1), 0);
	KUNIT_EXPECT_EQ(test, kmc_cookie_init_flags(-1), 0);
	kmc_cookie_update(&s);
	KUNIT_EXPECT_EQ(test, s.action, KMC_CA_UPDATE_AUX);
	KUNIT_EXPECT_EQ(test, s.set, KMC_CF(NEEDS_UPDATE));
}

/* The flag numbers are the kernel's FSCACHE_COOKIE_* bits. */
static void test_flag_numbers(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, KMC_COOKIE_RELINQUISHED, 0);
	KUNIT_EXPECT_EQ(test, KMC_COOKIE_IS_CACHING, 2);
	KUNIT_EXPECT_EQ(test, KMC_COOKIE_HAS_BEEN_CACHED, 5);
	KUNIT_EXPECT_EQ(test, KMC_COOKIE_NO_ACCESS_WAKE, 8);
	KUNIT_EXPECT_EQ(test, KMC_COOKIE_DO_LRU_DISCARD, 11);
	KUNIT_EXPECT_EQ(test, KMC_COOKIE_IS_HASHED, 14);
	KUNIT_EXPECT_EQ(test, KMC_COOKIE_DO_INVALIDATE, 15);
}

/* State machine, QUIESCENT: only a relinquish with no access moves it. */
static void test_sm_quiescent(struct kunit *test)
{
	struct kmc_cookie_step s;

	kmc_cookie_sm_step(QS, 0, 0, false, &s);
	KUNIT_EXPECT_EQ(test, s.event, KMC_CEV_NONE);
	KUNIT_EXPECT_EQ(test, s.action, 0);
	kmc_cookie_sm_step(QS, KMC_CF(DO_RELINQUISH), 1, false, &s);
	KUNIT_EXPECT_EQ(test, s.event, KMC_CEV_NONE);
	kmc_cookie_sm_step(QS, KMC_CF(DO_RELINQUISH), 0, false, &s);
	KUNIT_EXPECT_EQ(test, s.event, KMC_CEV_RELINQUISH);
	KUNIT_EXPECT_EQ(test, s.action, KMC_CA_AGAIN);
	/* a stale DO_WITHDRAW is ignored in QUIESCENT */
	kmc_cookie_sm_step(QS, KMC_CF(DO_WITHDRAW), 0, false, &s);
	KUNIT_EXPECT_EQ(test, s.event, KMC_CEV_NONE);
}

/*
 * A failed lookup leaves QUIESCENT holding the access of an invalidation
 * that was pending: the state machine ends it (6.1 never does, and the
 * cookie could then never be relinquished), then relinquishes.
 */
static void test_sm_quiescent_ends_inval_access(struct kunit *test)
{
	unsigned long f = KMC_CF(DO_INVALIDATE) | KMC_CF(DO_RELINQUISH);
	struct kmc_cookie_step s;

	kmc_cookie_sm_step(QS, f, 1, false, &s);
	KUNIT_EXPECT_EQ(test, s.clear, KMC_CF(DO_INVALIDATE));
	KUNIT_EXPECT_EQ(test, s.event, KMC_CEV_RELINQUISH);
	KUNIT_EXPECT_EQ(test, s.action, KMC_CA_END_ACCESS | KMC_CA_AGAIN);
	/* with another access still in flight, it only ends its own */
	kmc_cookie_sm_step(QS, f, 2, false, &s);
	KUNIT_EXPECT_EQ(test, s.event, KMC_CEV_NONE);
	KUNIT_EXPECT_EQ(test, s.action, KMC_CA_END_ACCESS);
}

/* LOOKING_UP raises the access gate and looks up; INVALIDATING invalidates */
static void test_sm_lookup_inval(struct kunit *test)
{
	struct kmc_cookie_step s;

	kmc_cookie_sm_step(LS, 0, 1, false, &s);
	KUNIT_EXPECT_EQ(test, s.set, KMC_CF(NO_ACCESS_WAKE));
	KUNIT_EXPECT_EQ(test, s.action, KMC_CA_PERFORM_LOOKUP | KMC_CA_AGAIN);
	kmc_cookie_sm_step(IS, 0, 1, true, &s);
	KUNIT_EXPECT_EQ(test, s.action, KMC_CA_PERFORM_INVAL | KMC_CA_AGAIN);
	KUNIT_EXPECT_EQ(test, s.event, KMC_CEV_NONE);
	kmc_cookie_sm_step(CS, KMC_CF(DO_RELINQUISH), 0, true, &s);
	KUNIT_EXPECT_EQ(test, s.action | s.set | s.clear, 0);
	kmc_cookie_sm_step(DS, ~0UL, 0, true, &s);
	KUNIT_EXPECT_EQ(test, s.action | s.set | s.clear, 0);
	KUNIT_EXPECT_EQ(test, s.event, KMC_CEV_NONE);
}

/* ACTIVE: prep-to-write first, then an LRU discard waits for accesses. */
static void test_sm_active(struct kunit *test)
{
	unsigned long f = KMC_CF(DO_PREP_TO_WRITE) | KMC_CF(DO_LRU_DISCARD);
	struct kmc_cookie_step s;

	kmc_cookie_sm_step(AS, f, 0, true, &s);
	KUNIT_EXPECT_EQ(test, s.clear, KMC_CF(DO_PREP_TO_WRITE));
	KUNIT_EXPECT_EQ(test, s.action, KMC_CA_PREP_TO_WRITE | KMC_CA_AGAIN);
	f &= ~KMC_CF(DO_PREP_TO_WRITE);
	kmc_cookie_sm_step(AS, f, 1, true, &s);
	KUNIT_EXPECT_EQ(test, s.event, KMC_CEV_NONE);
	KUNIT_EXPECT_EQ(test, s.action, 0);
	kmc_cookie_sm_step(AS, f | KMC_CF(DO_RELINQUISH), 0, true, &s);
	KUNIT_EXPECT_EQ(test, s.event, KMC_CEV_LRU_DISCARD);
	/* with no LRU discard it settles like FAILED */
	kmc_cookie_sm_step(AS, KMC_CF(DO_WITHDRAW), 0, true, &s);
	KUNIT_EXPECT_EQ(test, s.event, KMC_CEV_WITHDRAW);
	kmc_cookie_sm_step(AS, 0, 0, true, &s);
	KUNIT_EXPECT_EQ(test, s.event, KMC_CEV_NONE);
	KUNIT_EXPECT_EQ(test, s.action, 0);
}

/* ACTIVE/FAILED: relinquish beats withdraw, accesses hold both off. */
static void test_sm_settle(struct kunit *test)
{
	unsigned long f = KMC_CF(DO_RELINQUISH) | KMC_CF(DO_WITHDRAW);
	struct kmc_cookie_step s;

	kmc_cookie_sm_step(FS, f, 0, false, &s);
	KUNIT_EXPECT_EQ(test, s.event, KMC_CEV_RELINQUISH);
	KUNIT_EXPECT_EQ(test, s.action, KMC_CA_AGAIN);
	kmc_cookie_sm_step(FS, KMC_CF(DO_WITHDRAW), 0, false, &s);
	KUNIT_EXPECT_EQ(test, s.event, KMC_CEV_WITHDRAW);
	kmc_cookie_sm_step(FS, f, 2, false, &s);
	KUNIT_EXPECT_EQ(test, s.event, KMC_CEV_NONE);
	/* a pending invalidation's access ends first, then the count decides */
	kmc_cookie_sm_step(AS, f | KMC_CF(DO_INVALIDATE), 1, true, &s);
	KUNIT_EXPECT_EQ(test, s.clear, KMC_CF(DO_INVALIDATE));
	KUNIT_EXPECT_EQ(test, s.action, KMC_CA_END_ACCESS | KMC_CA_AGAIN);
	KUNIT_EXPECT_EQ(test, s.event, KMC_CEV_RELINQUISH);
	kmc_cookie_sm_step(FS, KMC_CF(DO_INVALIDATE), 2, true, &s);
	KUNIT_EXPECT_EQ(test, s.action, KMC_CA_END_ACCESS);
	KUNIT_EXPECT_EQ(test, s.event, KMC_CEV_NONE);
}

/* Withdrawing states: object first, then RELINQUISHING drops and unhashes */
static void test_sm_withdrawing(struct kunit *test)
{
	unsigned long work = KMC_CF(NEEDS_UPDATE) | KMC_CF(DO_WITHDRAW) |
		KMC_CF(DO_LRU_DISCARD) | KMC_CF(DO_PREP_TO_WRITE);
	struct kmc_cookie_step s;
	int st;

	for (st = US; st <= RS; st++) {
		kmc_cookie_sm_step(st, 0, 0, true, &s);
		KUNIT_EXPECT_EQ_MSG(test, s.action,
				    KMC_CA_WITHDRAW_OBJECT | KMC_CA_AGAIN,
				    "state %d", st);
		KUNIT_EXPECT_EQ_MSG(test, s.event, KMC_CEV_NONE, "state %d",
				    st);
		kmc_cookie_sm_step(st, KMC_CF(DO_INVALIDATE), 0, false, &s);
		KUNIT_EXPECT_EQ_MSG(test, s.event, KMC_CEV_WITHDRAWN,
				    "state %d", st);
		KUNIT_EXPECT_TRUE_MSG(test, s.action & KMC_CA_END_ACCESS,
				      "state %d", st);
		KUNIT_EXPECT_TRUE_MSG(test, s.clear & KMC_CF(DO_INVALIDATE),
				      "state %d", st);
		if (st == RS) {
			KUNIT_EXPECT_EQ(test, s.action,
					KMC_CA_END_ACCESS | KMC_CA_UNHASH);
			continue;
		}
		KUNIT_EXPECT_EQ_MSG(test, s.clear, work | KMC_CF(DO_INVALIDATE),
				    "state %d", st);
		KUNIT_EXPECT_EQ_MSG(test, s.set, KMC_CF(NO_DATA_TO_READ),
				    "state %d", st);
		KUNIT_EXPECT_TRUE_MSG(test, s.action & KMC_CA_AGAIN,
				      "state %d", st);
	}
}

/* The end of a lookup: ACTIVE, INVALIDATING, QUIESCENT or a withdrawal. */
static void test_lookup_result(struct kunit *test)
{
	struct kmc_cookie_step s;

	KUNIT_EXPECT_EQ(test, kmc_cookie_lookup_result(LS, 0, KMC_LOOKUP_OK,
						       &s), 0);
	KUNIT_EXPECT_EQ(test, s.event, KMC_CEV_LOOKUP_DONE);
	KUNIT_EXPECT_EQ(test, s.action, KMC_CA_END_ACCESS);
	KUNIT_EXPECT_EQ(test, kmc_cookie_lookup_result(CS,
						       KMC_CF(DO_INVALIDATE),
						       KMC_LOOKUP_OK, &s), 0);
	KUNIT_EXPECT_EQ(test, s.event, KMC_CEV_LOOKUP_DONE_INVAL);
	KUNIT_EXPECT_EQ(test, s.clear, KMC_CF(DO_INVALIDATE));
	KUNIT_EXPECT_EQ(test, kmc_cookie_lookup_result(LS, 0,
						       KMC_LOOKUP_NO_VOLUME,
						       &s), 0);
	KUNIT_EXPECT_EQ(test, s.event, KMC_CEV_VOLUME_UNAVAILABLE);
	KUNIT_EXPECT_EQ(test, s.action, KMC_CA_END_ACCESS);
	KUNIT_EXPECT_EQ(test, kmc_cookie_lookup_result(FS, 0,
						       KMC_LOOKUP_FAILED, &s),
			0);
	KUNIT_EXPECT_EQ(test, s.event, KMC_CEV_LOOKUP_FAILED);
	KUNIT_EXPECT_EQ(test, s.set, KMC_CF(DO_WITHDRAW));
	KUNIT_EXPECT_EQ(test, s.clear, KMC_CF(NO_ACCESS_WAKE));
	KUNIT_EXPECT_EQ(test, s.action, KMC_CA_END_ACCESS | KMC_CA_LRU_DROP |
			KMC_CA_WITHDRAW);
}

/* Lookup results that cannot happen in a state are refused. */
static void test_lookup_result_refusals(struct kunit *test)
{
	struct kmc_cookie_step s;

	KUNIT_EXPECT_EQ(test, kmc_cookie_lookup_result(FS, 0, KMC_LOOKUP_OK,
						       &s), -EINVAL);
	KUNIT_EXPECT_EQ(test, kmc_cookie_lookup_result(CS, 0,
						       KMC_LOOKUP_NO_VOLUME,
						       &s), -EINVAL);
	KUNIT_EXPECT_EQ(test, kmc_cookie_lookup_result(AS, 0,
						       KMC_LOOKUP_FAILED, &s),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, kmc_cookie_lookup_result(LS, 0, 7, &s),
			-EINVAL);
}

/* Invalidating a relinquished cookie is refused; a DIO write disables once */
static void test_invalidate_refusals(struct kunit *test)
{
	struct kmc_cookie_step s;

	KUNIT_EXPECT_EQ(test, kmc_cookie_invalidate(AS, KMC_CF(RELINQUISHED),
						    false, &s), -EINVAL);
	KUNIT_EXPECT_EQ(test, kmc_cookie_invalidate(-1, 0, false, &s),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, kmc_cookie_invalidate(AS, KMC_CF(DISABLED), true,
						    &s), 0);
	KUNIT_EXPECT_EQ(test, s.action | s.set | s.clear, 0);
	KUNIT_EXPECT_EQ(test, s.event, KMC_CEV_NONE);
	KUNIT_EXPECT_EQ(test, kmc_cookie_invalidate(QS, 0, true, &s), 0);
	KUNIT_EXPECT_EQ(test, s.set,
			KMC_CF(DISABLED) | KMC_CF(NO_DATA_TO_READ));
}

#define INVAL_COMMON	(KMC_CA_UPDATE_AUX | KMC_CA_INVAL_COUNT)

/*
 * Invalidate while looking up: pend once; ACTIVE and caching: start, if
 * the access taken for it is granted (fscache_begin_cookie_access()).
 */
static void test_invalidate_lookup_active(struct kunit *test)
{
	struct kmc_cookie_step s;

	KUNIT_EXPECT_EQ(test, kmc_cookie_invalidate(LS, 0, false, &s), 0);
	KUNIT_EXPECT_EQ(test, s.set,
			KMC_CF(NO_DATA_TO_READ) | KMC_CF(DO_INVALIDATE));
	KUNIT_EXPECT_EQ(test, s.action, INVAL_COMMON | KMC_CA_BEGIN_ACCESS);
	KUNIT_EXPECT_EQ(test, kmc_cookie_invalidate(LS, KMC_CF(DO_INVALIDATE),
						    false, &s), 0);
	KUNIT_EXPECT_EQ(test, s.action, INVAL_COMMON);
	KUNIT_EXPECT_EQ(test, kmc_cookie_invalidate(AS, KMC_CF(IS_CACHING),
						    false, &s), 0);
	KUNIT_EXPECT_EQ(test, s.event, KMC_CEV_INVALIDATE);
	KUNIT_EXPECT_EQ(test, s.action,
			INVAL_COMMON | KMC_CA_TRY_ACCESS | KMC_CA_QUEUE);
	kmc_cookie_access_refused(&s);
	KUNIT_EXPECT_EQ(test, s.event, KMC_CEV_NONE);
	KUNIT_EXPECT_EQ(test, s.action, INVAL_COMMON);
	KUNIT_EXPECT_EQ(test, kmc_cookie_invalidate(AS, 0, false, &s), 0);
	KUNIT_EXPECT_EQ(test, s.event, KMC_CEV_NONE);
	KUNIT_EXPECT_EQ(test, s.action, INVAL_COMMON);
}

/* Invalidate in any other state: only the common part, no state change. */
static void test_invalidate_other_states(struct kunit *test)
{
	struct kmc_cookie_step s;
	int st;

	for (st = 0; st < NSTATES; st++) {
		if (st == LS || st == AS)
			continue;
		KUNIT_EXPECT_EQ_MSG(test,
				    kmc_cookie_invalidate(st,
							  KMC_CF(IS_CACHING),
							  false, &s),
				    0, "state %d", st);
		KUNIT_EXPECT_EQ_MSG(test, s.action, INVAL_COMMON, "state %d",
				    st);
		KUNIT_EXPECT_EQ_MSG(test, s.event, KMC_CEV_NONE, "state %d",
				    st);
	}
}

/* Relinquish: once, never in use; cached cookies withdraw, others drop. */
static void test_relinquish(struct kunit *test)
{
	struct kmc_cookie_step s;

	KUNIT_EXPECT_EQ(test, kmc_cookie_relinquish(KMC_CF(RELINQUISHED), 0,
						    false, &s), -EALREADY);
	KUNIT_EXPECT_EQ(test, kmc_cookie_relinquish(0, 1, false, &s), -EBUSY);
	KUNIT_EXPECT_EQ(test, kmc_cookie_relinquish(0, 0, false, &s), 0);
	KUNIT_EXPECT_EQ(test, s.set, KMC_CF(RELINQUISHED));
	KUNIT_EXPECT_EQ(test, s.event, KMC_CEV_DROP_UNCACHED);
	KUNIT_EXPECT_EQ(test, s.action, KMC_CA_VOLUME_DEC | KMC_CA_UNHASH);
	KUNIT_EXPECT_EQ(test, kmc_cookie_relinquish(KMC_CF(HAS_BEEN_CACHED), 0,
						    true, &s), 0);
	KUNIT_EXPECT_EQ(test, s.set, KMC_CF(RELINQUISHED) | KMC_CF(RETIRED) |
			KMC_CF(DO_RELINQUISH));
	KUNIT_EXPECT_EQ(test, s.clear, KMC_CF(NO_ACCESS_WAKE));
	KUNIT_EXPECT_EQ(test, s.event, KMC_CEV_NONE);
	KUNIT_EXPECT_EQ(test, s.action, KMC_CA_VOLUME_DEC | KMC_CA_LRU_DROP |
			KMC_CA_WITHDRAW);
	kmc_cookie_withdraw(&s);
	KUNIT_EXPECT_EQ(test, s.set, KMC_CF(DO_WITHDRAW));
	KUNIT_EXPECT_EQ(test, s.action, KMC_CA_LRU_DROP | KMC_CA_WITHDRAW);
}

/* A retired object is deleted (or its tmpfile dropped); others committed. */
static void test_object_fate(struct kunit *test)
{
	struct kmc_cookie_step s;
	bool wx = true;

	KUNIT_EXPECT_EQ(test, kmc_cookie_object_fate(KMC_CF(RETIRED) |
						     KMC_CF(NEEDS_UPDATE),
						     false, &wx, &s),
			KMC_OBJECT_DELETE);
	KUNIT_EXPECT_FALSE(test, wx);
	KUNIT_EXPECT_EQ(test, kmc_cookie_object_fate(KMC_CF(RETIRED), true,
						     &wx, &s),
			KMC_OBJECT_DROP_TMPFILE);
	KUNIT_EXPECT_EQ(test, kmc_cookie_object_fate(0, false, &wx, &s),
			KMC_OBJECT_COMMIT);
	KUNIT_EXPECT_FALSE(test, wx);
	KUNIT_EXPECT_EQ(test, kmc_cookie_object_fate(KMC_CF(LOCAL_WRITE), true,
						     &wx, &s),
			KMC_OBJECT_COMMIT);
	KUNIT_EXPECT_TRUE(test, wx);
	KUNIT_EXPECT_EQ(test, s.clear, KMC_CF(LOCAL_WRITE));
	KUNIT_EXPECT_EQ(test, kmc_cookie_object_fate(KMC_CF(NEEDS_UPDATE) |
						     KMC_CF(LOCAL_WRITE),
						     false, &wx, &s),
			KMC_OBJECT_COMMIT);
	KUNIT_EXPECT_EQ(test, s.clear,
			KMC_CF(NEEDS_UPDATE) | KMC_CF(LOCAL_WRITE));
}

/* The LRU delay is 10 s: expired exactly at unused_at + 10000 ms. */
static void test_lru_expiry(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, KMC_COOKIE_LRU_TIMEOUT_MS, 10000);
	KUNIT_EXPECT_EQ(test, kmc_cookie_lru_deadline(5), 10005);
	KUNIT_EXPECT_FALSE(test, kmc_cookie_lru_expired(1000, 1000));
	KUNIT_EXPECT_FALSE(test, kmc_cookie_lru_expired(1000, 10999));
	KUNIT_EXPECT_TRUE(test, kmc_cookie_lru_expired(1000, 11000));
	KUNIT_EXPECT_TRUE(test, kmc_cookie_lru_expired(1000, 99999));
	/* wrap-safe like time_before() */
	KUNIT_EXPECT_FALSE(test, kmc_cookie_lru_expired(U64_MAX - 100, 5));
	KUNIT_EXPECT_TRUE(test, kmc_cookie_lru_expired(U64_MAX - 100, 9900));
}

/* Only an ACTIVE, unused, expired cookie is discarded by the LRU. */
static void test_lru_do_one(struct kunit *test)
{
	struct kmc_cookie_step s;
	int st;

	KUNIT_EXPECT_TRUE(test, kmc_cookie_lru_do_one(AS, 0, 0, 10000, &s));
	KUNIT_EXPECT_EQ(test, s.set, KMC_CF(DO_LRU_DISCARD));
	KUNIT_EXPECT_EQ(test, s.clear, KMC_CF(NO_ACCESS_WAKE));
	KUNIT_EXPECT_EQ(test, s.action, KMC_CA_WITHDRAW);
	KUNIT_EXPECT_FALSE(test, kmc_cookie_lru_do_one(AS, 0, 0, 9999, &s));
	KUNIT_EXPECT_EQ(test, s.action | s.set, 0);
	KUNIT_EXPECT_FALSE(test, kmc_cookie_lru_do_one(AS, 1, 0, 20000, &s));
	for (st = 0; st < NSTATES; st++)
		if (st != AS)
			KUNIT_EXPECT_FALSE_MSG(test,
					       kmc_cookie_lru_do_one(st, 0, 0,
								     20000,
								     &s),
					       "state %d", st);
}

/* I/O: which states go, wait or are not live, for both kernel switches. */
static void test_op_verdicts(struct kunit *test)
{
	static const char begin[2][NSTATES + 1] = { "NWRRWNWNNN",
						    "NWWRWNWNNN" };
	static const char wait[2][NSTATES + 1] = { "NWRRRNWNNN",
						   "NWWRWNWNNN" };
	const char *code = "RWN";
	enum kmc_want want;
	int st, w;

	for (w = 0; w < 2; w++) {
		want = w ? KMC_WANT_WRITE : KMC_WANT_PARAMS;
		for (st = 0; st < NSTATES; st++) {
			KUNIT_EXPECT_EQ_MSG(test,
					    code[kmc_cookie_op_verdict(st,
								       want)],
					    begin[w][st], "state %d want %d",
					    st, want);
			KUNIT_EXPECT_EQ_MSG(test,
					    code[kmc_cookie_wait_verdict(st,
									 want)],
					    wait[w][st], "state %d want %d",
					    st, want);
		}
	}
	KUNIT_EXPECT_EQ(test, kmc_cookie_op_verdict(CS, KMC_WANT_READ),
			KMC_OP_WAIT);
}

/* A tiny cookie driven only through the helpers, as a library would. */
struct model {
	struct kunit *test;
	int state;
	unsigned long flags;
	int n_active, n_accesses;
	bool queued, has_object, on_lru, hashed, volume_ok;
	enum kmc_lookup_result lookup;
	bool inval_ok, negative;
	int inval, updates, preps, vol_cookies;
	u64 now, unused_at;
};

/* The counter and index actions of a step, after its flags and event. */
static void apply_actions(struct model *m, unsigned int action)
{
	if (action & KMC_CA_BEGIN_ACCESS)
		m->n_accesses++;
	if (action & KMC_CA_UPDATE_AUX)
		m->updates++;
	if (action & KMC_CA_INVAL_COUNT)
		m->inval++;
	if (action & KMC_CA_VOLUME_DEC)
		m->vol_cookies--;
	if (action & KMC_CA_UNHASH)
		m->hashed = false;
	if (action & KMC_CA_LRU_DROP)
		m->on_lru = false;
	if (action & KMC_CA_LRU_ADD) {
		m->on_lru = true;
		m->unused_at = m->now;
	}
	if ((action & KMC_CA_WITHDRAW) && m->n_accesses == 0)
		m->queued = true;
}

/*
 * Apply a step in the header's order.  TRY_ACCESS is granted as
 * fscache_begin_cookie_access() grants it, the model's cache being live:
 * if IS_CACHING is still set once the flags are applied.
 */
static void apply(struct model *m, const struct kmc_cookie_step *step)
{
	struct kmc_cookie_step b, t = *step;
	const struct kmc_cookie_step *s = &t;

	if (s->action & KMC_CA_END_ACCESS) {
		m->n_accesses--;
		KUNIT_ASSERT_GE(m->test, m->n_accesses, 0);
		if (kmc_cookie_end_access(m->n_accesses, m->flags))
			m->queued = true;
	}
	if (t.action & KMC_CA_TRY_ACCESS) {
		if (((m->flags & ~t.clear) | t.set) & KMC_CF(IS_CACHING))
			m->n_accesses++;
		else
			kmc_cookie_access_refused(&t);
	}
	m->state = kmc_cookie_apply(m->state, &m->flags, s);
	KUNIT_ASSERT_GE(m->test, m->state, 0);
	apply_actions(m, s->action);
	if ((s->action & KMC_CA_BEGIN_LOOKUP) && m->volume_ok) {
		kmc_cookie_begin_lookup(&b);
		apply(m, &b);
	}
	if (s->action & KMC_CA_QUEUE)
		m->queued = true;
}

/* PERFORM_LOOKUP: the backend's lookup, then its end. */
static void perform_lookup(struct model *m)
{
	struct kmc_cookie_step b;

	m->has_object = m->lookup == KMC_LOOKUP_OK;
	if (m->negative) {
		KUNIT_ASSERT_EQ(m->test,
				kmc_cookie_lookup_negative(m->state, &b), 0);
		apply(m, &b);
	}
	KUNIT_ASSERT_EQ(m->test, kmc_cookie_lookup_result(m->state, m->flags,
							  m->lookup, &b), 0);
	apply(m, &b);
}

/* PERFORM_INVAL: the backend's invalidation, then the end of its access. */
static void perform_inval(struct model *m)
{
	struct kmc_cookie_step b;

	if (m->inval_ok)
		KUNIT_ASSERT_EQ(m->test,
				kmc_cookie_resume_after_invalidation(m->state,
								     &b), 0);
	else
		KUNIT_ASSERT_EQ(m->test,
				kmc_cookie_caching_failed(m->state, &b), 0);
	apply(m, &b);
	b = (struct kmc_cookie_step){ .event = KMC_CEV_NONE,
				      .action = KMC_CA_END_ACCESS };
	apply(m, &b);
}

/* The unlocked callouts of a state-machine step. */
static void callouts(struct model *m, const struct kmc_cookie_step *s)
{
	if (s->action & KMC_CA_PERFORM_LOOKUP)
		perform_lookup(m);
	if (s->action & KMC_CA_PERFORM_INVAL)
		perform_inval(m);
	if (s->action & KMC_CA_PREP_TO_WRITE)
		m->preps++;
	if (s->action & KMC_CA_WITHDRAW_OBJECT)
		m->has_object = false;
}

/* Run the queued work item until it settles. */
static void run(struct model *m)
{
	struct kmc_cookie_step s;
	int guard = 0;

	while (m->queued) {
		m->queued = false;
		do {
			kmc_cookie_sm_step(m->state, m->flags, m->n_accesses,
					   m->has_object, &s);
			apply(m, &s);
			callouts(m, &s);
			KUNIT_ASSERT_LT(m->test, ++guard, 100);
		} while (s.action & KMC_CA_AGAIN);
	}
}

static void use(struct model *m, bool will_modify)
{
	struct kmc_cookie_step s;

	KUNIT_ASSERT_EQ(m->test, kmc_cookie_use_check(m->flags), 0);
	m->n_active++;
	KUNIT_ASSERT_EQ(m->test, kmc_cookie_use(m->state, m->flags,
						will_modify, &s), 0);
	apply(m, &s);
}

static void unuse(struct model *m)
{
	struct kmc_cookie_step s;
	int n = kmc_cookie_unuse(m->n_active, m->flags, false, &s);

	KUNIT_ASSERT_GE(m->test, n, 0);
	m->n_active = n;
	apply(m, &s);
}

static void relinquish(struct model *m, bool retire)
{
	struct kmc_cookie_step s;

	KUNIT_ASSERT_EQ(m->test, kmc_cookie_relinquish(m->flags, m->n_active,
						       retire, &s), 0);
	apply(m, &s);
}

/* Drain the LRU once at time m->now. */
static void lru(struct model *m)
{
	struct kmc_cookie_step s;

	if (!m->on_lru || !kmc_cookie_lru_expired(m->unused_at, m->now))
		return;
	m->on_lru = false;
	if (kmc_cookie_lru_do_one(m->state, m->n_active, m->unused_at, m->now,
				  &s))
		apply(m, &s);
}

static struct model fresh(struct kunit *test)
{
	return (struct model){ .test = test, .state = QS,
			       .flags = KMC_CF(IS_HASHED), .hashed = true,
			       .volume_ok = true, .inval_ok = true,
			       .vol_cookies = 1, .lookup = KMC_LOOKUP_OK };
}

/* use -> lookup -> ACTIVE; unuse -> LRU; 10 s later discarded. */
static void test_scenario_lru(struct kunit *test)
{
	struct model m = fresh(test);

	use(&m, true);
	KUNIT_EXPECT_EQ(test, m.state, LS);
	KUNIT_EXPECT_EQ(test, m.n_accesses, 1);
	run(&m);
	KUNIT_EXPECT_EQ(test, m.state, AS);
	KUNIT_EXPECT_EQ(test, m.n_accesses, 0);
	KUNIT_EXPECT_EQ(test, m.preps, 1);
	m.now = 500;
	unuse(&m);
	KUNIT_EXPECT_TRUE(test, m.on_lru);
	m.now = 10499;
	lru(&m);
	KUNIT_EXPECT_EQ(test, m.state, AS);
	m.now = 10500;
	lru(&m);
	run(&m);
	KUNIT_EXPECT_EQ(test, m.state, QS);
	KUNIT_EXPECT_FALSE(test, m.has_object);
	KUNIT_EXPECT_TRUE(test, m.flags & KMC_CF(NO_DATA_TO_READ));
	KUNIT_EXPECT_FALSE(test, m.flags & KMC_CF(DO_LRU_DISCARD));
	/* used again: a fresh lookup */
	use(&m, false);
	run(&m);
	KUNIT_EXPECT_EQ(test, m.state, AS);
}

/* A new object: lookup negative -> CREATING -> ACTIVE, nothing to read. */
static void test_scenario_create(struct kunit *test)
{
	struct model m = fresh(test);

	m.negative = true;
	use(&m, false);
	run(&m);
	KUNIT_EXPECT_EQ(test, m.state, AS);
	KUNIT_EXPECT_TRUE(test, m.flags & KMC_CF(NO_DATA_TO_READ));
	KUNIT_EXPECT_EQ(test, m.n_accesses, 0);
}

/* A use between the LRU's decision and the discard cancels it. */
static void test_scenario_lru_cancel(struct kunit *test)
{
	struct model m = fresh(test);

	use(&m, false);
	run(&m);
	unuse(&m);
	m.now = 20000;
	lru(&m);
	KUNIT_EXPECT_TRUE(test, m.flags & KMC_CF(DO_LRU_DISCARD));
	use(&m, false);
	KUNIT_EXPECT_FALSE(test, m.flags & KMC_CF(DO_LRU_DISCARD));
	run(&m);
	KUNIT_EXPECT_EQ(test, m.state, AS);
}

/* Relinquish waits for accesses in flight, then drops and unhashes. */
static void test_scenario_relinquish_pinned(struct kunit *test)
{
	struct model m = fresh(test);
	struct kmc_cookie_step s = { .event = KMC_CEV_NONE };

	use(&m, false);
	run(&m);
	s.action = KMC_CA_TRY_ACCESS;	/* an I/O's access */
	apply(&m, &s);
	KUNIT_EXPECT_EQ(test, m.n_accesses, 1);
	unuse(&m);
	relinquish(&m, false);
	run(&m);
	KUNIT_EXPECT_EQ(test, m.state, AS);
	KUNIT_EXPECT_TRUE(test, m.hashed);
	s = (struct kmc_cookie_step){ .event = KMC_CEV_NONE,
				      .action = KMC_CA_END_ACCESS };
	apply(&m, &s);
	KUNIT_EXPECT_TRUE(test, m.queued);
	run(&m);
	KUNIT_EXPECT_EQ(test, m.state, DS);
	KUNIT_EXPECT_FALSE(test, m.hashed);
	KUNIT_EXPECT_FALSE(test, m.on_lru);
	KUNIT_EXPECT_EQ(test, m.vol_cookies, 0);
}

/*
 * Relinquished while its lookup is still queued: the lookup finishes, and
 * the same state-machine run goes on to relinquish it.
 */
static void test_scenario_relinquish_during_lookup(struct kunit *test)
{
	struct model m = fresh(test);

	use(&m, false);
	unuse(&m);
	relinquish(&m, false);
	KUNIT_EXPECT_EQ(test, m.state, LS);
	KUNIT_EXPECT_EQ(test, m.n_accesses, 1);
	run(&m);
	KUNIT_EXPECT_EQ(test, m.state, DS);
	KUNIT_EXPECT_FALSE(test, m.has_object);
	KUNIT_EXPECT_FALSE(test, m.hashed);
}

/* A cookie never used is dropped at once by relinquish. */
static void test_scenario_relinquish_uncached(struct kunit *test)
{
	struct model m = fresh(test);
	struct kmc_cookie_step s;

	relinquish(&m, true);
	KUNIT_EXPECT_EQ(test, m.state, DS);
	KUNIT_EXPECT_FALSE(test, m.hashed);
	KUNIT_EXPECT_TRUE(test, m.flags & KMC_CF(RETIRED));
	KUNIT_EXPECT_EQ(test, kmc_cookie_use_check(m.flags), -EINVAL);
	KUNIT_EXPECT_EQ(test, kmc_cookie_relinquish(m.flags, 0, false, &s),
			-EALREADY);
}

/* Invalidation during lookup is held, then runs once the lookup is done. */
static void test_scenario_inval_during_lookup(struct kunit *test)
{
	struct model m = fresh(test);
	struct kmc_cookie_step s;

	use(&m, false);
	KUNIT_ASSERT_EQ(test, kmc_cookie_invalidate(m.state, m.flags, false,
						    &s), 0);
	apply(&m, &s);
	KUNIT_EXPECT_EQ(test, m.n_accesses, 2);
	KUNIT_EXPECT_EQ(test, m.inval, 1);
	run(&m);
	KUNIT_EXPECT_EQ(test, m.state, AS);
	KUNIT_EXPECT_EQ(test, m.n_accesses, 0);
	KUNIT_EXPECT_FALSE(test, m.flags & KMC_CF(DO_INVALIDATE));
	/* and on an ACTIVE cookie it starts at once */
	KUNIT_ASSERT_EQ(test, kmc_cookie_invalidate(m.state, m.flags, false,
						    &s), 0);
	apply(&m, &s);
	KUNIT_EXPECT_EQ(test, m.state, IS);
	run(&m);
	KUNIT_EXPECT_EQ(test, m.state, AS);
	KUNIT_EXPECT_EQ(test, m.n_accesses, 0);
	KUNIT_EXPECT_EQ(test, m.inval, 2);
}

/* A failed invalidation leaves FAILED; the backend's withdraw clears it. */
static void test_scenario_inval_fails(struct kunit *test)
{
	struct model m = fresh(test);
	struct kmc_cookie_step s;

	use(&m, false);
	run(&m);
	m.inval_ok = false;
	KUNIT_ASSERT_EQ(test, kmc_cookie_invalidate(m.state, m.flags, false,
						    &s), 0);
	apply(&m, &s);
	run(&m);
	KUNIT_EXPECT_EQ(test, m.state, FS);
	kmc_cookie_withdraw(&s);
	apply(&m, &s);
	run(&m);
	KUNIT_EXPECT_EQ(test, m.state, QS);
	KUNIT_EXPECT_FALSE(test, m.has_object);
}

/* A failed lookup goes QUIESCENT and leaves DO_WITHDRAW set. */
static void test_scenario_lookup_fails(struct kunit *test)
{
	struct model m = fresh(test);

	m.lookup = KMC_LOOKUP_FAILED;
	use(&m, false);
	run(&m);
	KUNIT_EXPECT_EQ(test, m.state, QS);
	KUNIT_EXPECT_EQ(test, m.n_accesses, 0);
	/* the kernel leaves DO_WITHDRAW set in QUIESCENT */
	KUNIT_EXPECT_TRUE(test, m.flags & KMC_CF(DO_WITHDRAW));
	unuse(&m);
}

/* No volume access leaves the cookie uncached; no volume goes QUIESCENT. */
static void test_scenario_no_volume(struct kunit *test)
{
	struct model m = fresh(test);

	m.volume_ok = false;
	use(&m, false);
	KUNIT_EXPECT_EQ(test, m.state, QS);
	KUNIT_EXPECT_FALSE(test, m.queued);
	KUNIT_EXPECT_FALSE(test, m.flags & KMC_CF(HAS_BEEN_CACHED));
	m.volume_ok = true;
	m.lookup = KMC_LOOKUP_NO_VOLUME;
	use(&m, false);
	run(&m);
	KUNIT_EXPECT_EQ(test, m.state, QS);
	KUNIT_EXPECT_TRUE(test, m.flags & KMC_CF(HAS_BEEN_CACHED));
	unuse(&m);
	unuse(&m);
	relinquish(&m, false);
	run(&m);
	KUNIT_EXPECT_EQ(test, m.state, DS);
}

/*
 * An invalidation during a lookup that then fails: the access that pinned
 * the invalidation ends, and the cookie can still be relinquished
 * (tests/cookie/diff_cookie.c shows stock 6.1 hanging here).
 */
static void test_scenario_failed_lookup_pending_inval(struct kunit *test)
{
	struct model m = fresh(test);
	struct kmc_cookie_step s;

	m.lookup = KMC_LOOKUP_FAILED;
	use(&m, false);
	KUNIT_ASSERT_EQ(test, kmc_cookie_invalidate(m.state, m.flags, false,
						    &s), 0);
	apply(&m, &s);
	KUNIT_EXPECT_EQ(test, m.n_accesses, 2);
	run(&m);
	KUNIT_EXPECT_EQ(test, m.state, QS);
	KUNIT_EXPECT_EQ(test, m.n_accesses, 0);
	KUNIT_EXPECT_FALSE(test, m.flags & KMC_CF(DO_INVALIDATE));
	unuse(&m);
	relinquish(&m, false);
	run(&m);
	KUNIT_EXPECT_EQ(test, m.state, DS);
}

static struct kunit_case kmc_cookie_state_cases[] = {
	KUNIT_CASE(test_state_vectors),
	KUNIT_CASE(test_state_chars),
	KUNIT_CASE(test_state_names),
	KUNIT_CASE(test_transition_range),
	KUNIT_CASE(test_dropped_is_final),
	KUNIT_CASE(test_reachability),
	KUNIT_CASE(test_access_counting),
	KUNIT_CASE(test_use_relinquished),
	KUNIT_CASE(test_use_quiescent),
	KUNIT_CASE(test_use_other_states),
	KUNIT_CASE(test_use_active),
	KUNIT_CASE(test_apply),
	KUNIT_CASE(test_backend_calls),
	KUNIT_CASE(test_unuse),
	KUNIT_CASE(test_enabled_and_init),
	KUNIT_CASE(test_flag_numbers),
	KUNIT_CASE(test_sm_quiescent),
	KUNIT_CASE(test_sm_quiescent_ends_inval_access),
	KUNIT_CASE(test_sm_lookup_inval),
	KUNIT_CASE(test_sm_active),
	KUNIT_CASE(test_sm_settle),
	KUNIT_CASE(test_sm_withdrawing),
	KUNIT_CASE(test_lookup_result),
	KUNIT_CASE(test_lookup_result_refusals),
	KUNIT_CASE(test_invalidate_refusals),
	KUNIT_CASE(test_invalidate_lookup_active),
	KUNIT_CASE(test_invalidate_other_states),
	KUNIT_CASE(test_relinquish),
	KUNIT_CASE(test_object_fate),
	KUNIT_CASE(test_lru_expiry),
	KUNIT_CASE(test_lru_do_one),
	KUNIT_CASE(test_op_verdicts),
	KUNIT_CASE(test_scenario_lru),
	KUNIT_CASE(test_scenario_lru_cancel),
	KUNIT_CASE(test_scenario_create),
	KUNIT_CASE(test_scenario_relinquish_pinned),
	KUNIT_CASE(test_scenario_relinquish_during_lookup),
	KUNIT_CASE(test_scenario_relinquish_uncached),
	KUNIT_CASE(test_scenario_inval_during_lookup),
	KUNIT_CASE(test_scenario_inval_fails),
	KUNIT_CASE(test_scenario_lookup_fails),
	KUNIT_CASE(test_scenario_no_volume),
	KUNIT_CASE(test_scenario_failed_lookup_pending_inval),
	{}
};

static struct kunit_suite kmc_cookie_state_suite = {
	.name = "kmc_cookie_state",
	.init = kmc_cookie_state_test_init,
	.test_cases = kmc_cookie_state_cases,
};

kunit_test_suite(kmc_cookie_state_suite);
