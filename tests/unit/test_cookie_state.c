// SPDX-License-Identifier: GPL-2.0-only
/* Specification of kmc_cookie_state: the fscache cookie state machine. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "kmc_cookie_state.h"
#include "kmv_cookie_state.h"

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
static void test_state_vectors(void **state)
{
	bool seen[NSTATES][KMC_CEV__NR] = { { false } };
	unsigned int i;
	int s, e, want, got;

	for (i = 0; i < ARRAY_SIZE(kmv_cookie_state); i++) {
		const struct kmv_cookie_state *v = &kmv_cookie_state[i];

		s = kmc_cookie_state_parse(v->state, strlen(v->state));
		e = kmc_cookie_event_parse(v->event, strlen(v->event));
		assert_true(s >= 0 && e >= 0);
		want = strcmp(v->next, "illegal") ?
			kmc_cookie_state_parse(v->next, strlen(v->next)) :
			-EINVAL;
		assert_true(want >= 0 || want == -EINVAL);
		got = kmc_cookie_transition(s, e);
		if (got != want)
			fail_msg("cookie_state.vec line %d: %s %s -> %d, want %s",
				 v->line, v->state, v->event, got, v->next);
		assert_false(seen[s][e]);
		seen[s][e] = true;
	}
	assert_int_equal(ARRAY_SIZE(kmv_cookie_state), NSTATES * KMC_CEV__NR);
}

/* The one-letter names are the kernel's fscache_cookie_states[]. */
static void test_state_chars(void **state)
{
	const char *k = "-LCAIFUWRD";
	int s;

	for (s = 0; s < NSTATES; s++)
		assert_int_equal(kmc_cookie_state_char(s), k[s]);
	assert_int_equal(kmc_cookie_state_char(-1), '?');
	assert_int_equal(kmc_cookie_state_char(NSTATES), '?');
	assert_int_equal(NSTATES, 10);
}

/* Names round-trip; unknown names and out-of-range numbers are refused. */
static void test_state_names(void **state)
{
	const char *n;
	int i;

	for (i = 0; i < NSTATES; i++) {
		n = kmc_cookie_state_name(i);
		assert_int_equal(kmc_cookie_state_parse(n, strlen(n)), i);
	}
	for (i = 0; i < KMC_CEV__NR; i++) {
		n = kmc_cookie_event_name(i);
		assert_int_equal(kmc_cookie_event_parse(n, strlen(n)), i);
	}
	assert_string_equal(kmc_cookie_state_name(NSTATES), "?");
	assert_string_equal(kmc_cookie_event_name(-1), "?");
	assert_int_equal(kmc_cookie_state_parse("ACTIV", 5), -EINVAL);
	assert_int_equal(kmc_cookie_state_parse("ACTIVEX", 7), -EINVAL);
	assert_int_equal(kmc_cookie_state_parse("ACTIVEX", 6), AS);
	assert_int_equal(kmc_cookie_event_parse(NULL, 0), -EINVAL);
}

/* Out-of-range states and events are errors, never a table read. */
static void test_transition_range(void **state)
{
	assert_int_equal(kmc_cookie_transition(-1, 0), -EINVAL);
	assert_int_equal(kmc_cookie_transition(NSTATES, 0), -EINVAL);
	assert_int_equal(kmc_cookie_transition(0, -1), -EINVAL);
	assert_int_equal(kmc_cookie_transition(0, KMC_CEV__NR), -EINVAL);
	assert_int_equal(kmc_cookie_transition(QS, KMC_CEV_NONE), -EINVAL);
}

/* DROPPED is final; every other state has a way out. */
static void test_dropped_is_final(void **state)
{
	int s, e, outs;

	for (s = 0; s < NSTATES; s++) {
		outs = 0;
		for (e = 0; e < KMC_CEV__NR; e++)
			if (kmc_cookie_transition(s, e) >= 0 &&
			    kmc_cookie_transition(s, e) != s)
				outs++;
		if (s == DS)
			assert_int_equal(outs, 0);
		else
			assert_true(outs > 0);
	}
}

/* Every state is reachable from QUIESCENT, and DROPPED from every state. */
static void test_reachability(void **state)
{
	bool r[NSTATES] = { [QS] = true };
	bool changed = true;
	int s, e, n;

	while (changed) {
		changed = false;
		for (s = 0; s < NSTATES; s++)
			for (e = 0; r[s] && e < KMC_CEV__NR; e++) {
				n = kmc_cookie_transition(s, e);
				if (n >= 0 && !r[n])
					r[n] = changed = true;
			}
	}
	for (s = 0; s < NSTATES; s++)
		assert_true(r[s]);
}

/* fscache_init_access_gate()/end access: only an open gate queues at 0. */
static void test_access_counting(void **state)
{
	struct kmc_cookie_step s = { 0 };

	assert_true(kmc_cookie_end_access(0, 0));
	assert_false(kmc_cookie_end_access(1, 0));
	assert_false(kmc_cookie_end_access(0, KMC_CF(NO_ACCESS_WAKE)));
	assert_false(kmc_cookie_end_access(-1, 0));
	/* no access without IS_CACHING */
	assert_false(kmc_cookie_begin_access(0, true, &s));
	assert_int_equal(s.action, 0);
	assert_true(kmc_cookie_begin_access(KMC_CF(IS_CACHING), true, &s));
	assert_int_equal(s.action, KMC_CA_BEGIN_ACCESS);
	/* a dead cache: taken and given back */
	s.action = 0;
	assert_false(kmc_cookie_begin_access(KMC_CF(IS_CACHING), false, &s));
	assert_int_equal(s.action, KMC_CA_BEGIN_ACCESS | KMC_CA_END_ACCESS);
}

/* Using a relinquished cookie is refused before anything is counted. */
static void test_use_relinquished(void **state)
{
	struct kmc_cookie_step s;

	assert_int_equal(kmc_cookie_use_check(KMC_CF(RELINQUISHED)), -EINVAL);
	assert_int_equal(kmc_cookie_use_check(KMC_CF(DO_RELINQUISH)), 0);
	assert_int_equal(kmc_cookie_use(RS, 0, false, &s), -EINVAL);
	assert_int_equal(kmc_cookie_use(DS, 0, false, &s), -EINVAL);
	assert_int_equal(kmc_cookie_use(NSTATES, 0, false, &s), -EINVAL);
}

/* Use in QUIESCENT starts a lookup; a writer's bits are set even so. */
static void test_use_quiescent(void **state)
{
	struct kmc_cookie_step s;

	assert_int_equal(kmc_cookie_use(QS, 0, false, &s), 0);
	assert_int_equal(s.action, KMC_CA_BEGIN_LOOKUP);
	assert_int_equal(s.set, 0);
	assert_int_equal(s.event, KMC_CEV_NONE);
	assert_int_equal(kmc_cookie_use(QS, 0, true, &s), 0);
	assert_int_equal(s.set, KMC_CF(LOCAL_WRITE) | KMC_CF(DO_PREP_TO_WRITE));
	kmc_cookie_begin_lookup(&s);
	assert_int_equal(s.event, KMC_CEV_BEGIN_LOOKUP);
	assert_int_equal(s.action, KMC_CA_BEGIN_ACCESS | KMC_CA_QUEUE);
	assert_int_equal(s.set, KMC_CF(IS_CACHING) | KMC_CF(HAS_BEEN_CACHED));
}

/* Use elsewhere: lookup states note a writer; LRU_DISCARDING waits. */
static void test_use_other_states(void **state)
{
	struct kmc_cookie_step s;

	assert_int_equal(kmc_cookie_use(LS, 0, true, &s), 0);
	assert_int_equal(s.set, KMC_CF(LOCAL_WRITE));
	assert_int_equal(s.action, 0);
	assert_int_equal(kmc_cookie_use(CS, 0, false, &s), 0);
	assert_int_equal(s.set | s.action, 0);
	assert_int_equal(kmc_cookie_use(FS, 0, true, &s), 0);
	assert_int_equal(s.set | s.action, 0);
	assert_int_equal(kmc_cookie_use(WS, 0, true, &s), 0);
	assert_int_equal(s.set | s.action, 0);
	assert_int_equal(kmc_cookie_use(US, 0, false, &s), 0);
	assert_int_equal(s.action, KMC_CA_WAIT);
}

/* Use of an ACTIVE cookie: first writer preps, and an LRU discard is off. */
static void test_use_active(void **state)
{
	struct kmc_cookie_step s;

	assert_int_equal(kmc_cookie_use(AS, 0, true, &s), 0);
	assert_int_equal(s.set, KMC_CF(LOCAL_WRITE) | KMC_CF(DO_PREP_TO_WRITE));
	assert_int_equal(s.action, KMC_CA_QUEUE);
	assert_int_equal(kmc_cookie_use(IS, KMC_CF(LOCAL_WRITE), true, &s), 0);
	assert_int_equal(s.set | s.action, 0);
	assert_int_equal(kmc_cookie_use(AS, KMC_CF(DO_LRU_DISCARD), false,
					&s), 0);
	assert_int_equal(s.clear, KMC_CF(DO_LRU_DISCARD));
	assert_int_equal(s.event, KMC_CEV_NONE);
}

/* Applying a step is all or nothing: an illegal event changes no flag. */
static void test_apply(void **state)
{
	struct kmc_cookie_step s = { .event = KMC_CEV_NONE,
				     .set = KMC_CF(LOCAL_WRITE),
				     .clear = KMC_CF(DISABLED) };
	unsigned long f = KMC_CF(DISABLED) | KMC_CF(IS_CACHING);

	assert_int_equal(kmc_cookie_apply(AS, &f, &s), AS);
	assert_int_equal(f, KMC_CF(LOCAL_WRITE) | KMC_CF(IS_CACHING));
	s.event = KMC_CEV_BEGIN_LOOKUP;
	f = KMC_CF(DISABLED);
	assert_int_equal(kmc_cookie_apply(AS, &f, &s), -EINVAL);
	assert_int_equal(f, KMC_CF(DISABLED));
	assert_int_equal(kmc_cookie_apply(QS, &f, &s), LS);
	assert_int_equal(f, KMC_CF(LOCAL_WRITE));
	s.event = KMC_CEV_NONE;
	assert_int_equal(kmc_cookie_apply(NSTATES, &f, &s), -EINVAL);
	s.event = KMC_CEV__NR;
	assert_int_equal(kmc_cookie_apply(QS, &f, &s), -EINVAL);
}

/* The backend's calls: only from the states the kernel makes them in. */
static void test_backend_calls(void **state)
{
	struct kmc_cookie_step s;
	int st;

	for (st = 0; st < NSTATES; st++) {
		assert_int_equal(kmc_cookie_lookup_negative(st, &s),
				 st == LS ? 0 : -EINVAL);
		assert_int_equal(kmc_cookie_caching_failed(st, &s),
				 st == LS || st == CS || st == IS ? 0 : -EINVAL);
		assert_int_equal(kmc_cookie_resume_after_invalidation(st, &s),
				 st == IS ? 0 : -EINVAL);
	}
	kmc_cookie_lookup_negative(LS, &s);
	assert_int_equal(s.event, KMC_CEV_LOOKUP_NEGATIVE);
	assert_int_equal(s.set, KMC_CF(NO_DATA_TO_READ));
	kmc_cookie_caching_failed(LS, &s);
	assert_int_equal(s.event, KMC_CEV_CACHING_FAILED);
	assert_int_equal(s.clear, KMC_CF(IS_CACHING));
	kmc_cookie_resume_after_invalidation(IS, &s);
	assert_int_equal(s.event, KMC_CEV_INVALIDATED);
	assert_int_equal(s.set | s.clear | s.action, 0);
}

/* Unuse counts down; at zero it re-enables and, if caching, joins the LRU. */
static void test_unuse(void **state)
{
	struct kmc_cookie_step s;

	assert_int_equal(kmc_cookie_unuse(0, 0, false, &s), -EINVAL);
	assert_int_equal(kmc_cookie_unuse(-3, 0, true, &s), -EINVAL);
	assert_int_equal(kmc_cookie_unuse(3, KMC_CF(IS_CACHING), false, &s),
			 2);
	assert_int_equal(s.action | s.set | s.clear, 0);
	assert_int_equal(kmc_cookie_unuse(1, 0, false, &s), 0);
	assert_int_equal(s.clear, KMC_CF(DISABLED));
	assert_int_equal(s.action, 0);
	assert_int_equal(kmc_cookie_unuse(1, KMC_CF(IS_CACHING), false, &s),
			 0);
	assert_int_equal(s.action, KMC_CA_LRU_ADD);
	/* aux/size given: updated first, even with users left */
	assert_int_equal(kmc_cookie_unuse(2, 0, true, &s), 1);
	assert_int_equal(s.action, KMC_CA_UPDATE_AUX);
	assert_int_equal(s.set, KMC_CF(NEEDS_UPDATE));
}

/* Update, resize and invalidate need an enabled cookie; size 0 = no data. */
static void test_enabled_and_init(void **state)
{
	struct kmc_cookie_step s;

	assert_true(kmc_cookie_enabled(0));
	assert_false(kmc_cookie_enabled(KMC_CF(DISABLED)));
	assert_int_equal(kmc_cookie_init_flags(0), KMC_CF(NO_DATA_TO_READ));
	assert_int_equal(kmc_cookie_init_flags(1), 0);
	assert_int_equal(kmc_cookie_init_flags(-1), 0);
	kmc_cookie_update(&s);
	assert_int_equal(s.action, KMC_CA_UPDATE_AUX);
	assert_int_equal(s.set, KMC_CF(NEEDS_UPDATE));
}

/* The flag numbers are the kernel's FSCACHE_COOKIE_* bits. */
static void test_flag_numbers(void **state)
{
	assert_int_equal(KMC_COOKIE_RELINQUISHED, 0);
	assert_int_equal(KMC_COOKIE_IS_CACHING, 2);
	assert_int_equal(KMC_COOKIE_HAS_BEEN_CACHED, 5);
	assert_int_equal(KMC_COOKIE_NO_ACCESS_WAKE, 8);
	assert_int_equal(KMC_COOKIE_DO_LRU_DISCARD, 11);
	assert_int_equal(KMC_COOKIE_IS_HASHED, 14);
	assert_int_equal(KMC_COOKIE_DO_INVALIDATE, 15);
}

/* State machine, QUIESCENT: only a relinquish with no access moves it. */
static void test_sm_quiescent(void **state)
{
	struct kmc_cookie_step s;

	kmc_cookie_sm_step(QS, 0, 0, false, &s);
	assert_int_equal(s.event, KMC_CEV_NONE);
	assert_int_equal(s.action, 0);
	kmc_cookie_sm_step(QS, KMC_CF(DO_RELINQUISH), 1, false, &s);
	assert_int_equal(s.event, KMC_CEV_NONE);
	kmc_cookie_sm_step(QS, KMC_CF(DO_RELINQUISH), 0, false, &s);
	assert_int_equal(s.event, KMC_CEV_RELINQUISH);
	assert_int_equal(s.action, KMC_CA_AGAIN);
	/* a stale DO_WITHDRAW is ignored in QUIESCENT */
	kmc_cookie_sm_step(QS, KMC_CF(DO_WITHDRAW), 0, false, &s);
	assert_int_equal(s.event, KMC_CEV_NONE);
}

/*
 * A failed lookup leaves QUIESCENT holding the access of an invalidation
 * that was pending: the state machine ends it (6.1 never does, and the
 * cookie could then never be relinquished), then relinquishes.
 */
static void test_sm_quiescent_ends_pending_invalidation_access(void **state)
{
	unsigned long f = KMC_CF(DO_INVALIDATE) | KMC_CF(DO_RELINQUISH);
	struct kmc_cookie_step s;

	kmc_cookie_sm_step(QS, f, 1, false, &s);
	assert_int_equal(s.clear, KMC_CF(DO_INVALIDATE));
	assert_int_equal(s.event, KMC_CEV_RELINQUISH);
	assert_int_equal(s.action, KMC_CA_END_ACCESS | KMC_CA_AGAIN);
	/* with another access still in flight, it only ends its own */
	kmc_cookie_sm_step(QS, f, 2, false, &s);
	assert_int_equal(s.event, KMC_CEV_NONE);
	assert_int_equal(s.action, KMC_CA_END_ACCESS);
}

/* LOOKING_UP raises the access gate and looks up; INVALIDATING invalidates. */
static void test_sm_lookup_inval(void **state)
{
	struct kmc_cookie_step s;

	kmc_cookie_sm_step(LS, 0, 1, false, &s);
	assert_int_equal(s.set, KMC_CF(NO_ACCESS_WAKE));
	assert_int_equal(s.action, KMC_CA_PERFORM_LOOKUP | KMC_CA_AGAIN);
	kmc_cookie_sm_step(IS, 0, 1, true, &s);
	assert_int_equal(s.action, KMC_CA_PERFORM_INVAL | KMC_CA_AGAIN);
	assert_int_equal(s.event, KMC_CEV_NONE);
	kmc_cookie_sm_step(CS, KMC_CF(DO_RELINQUISH), 0, true, &s);
	assert_int_equal(s.action | s.set | s.clear, 0);
	kmc_cookie_sm_step(DS, ~0UL, 0, true, &s);
	assert_int_equal(s.action | s.set | s.clear, 0);
	assert_int_equal(s.event, KMC_CEV_NONE);
}

/* ACTIVE: prep-to-write first, then an LRU discard waits for accesses. */
static void test_sm_active(void **state)
{
	unsigned long f = KMC_CF(DO_PREP_TO_WRITE) | KMC_CF(DO_LRU_DISCARD);
	struct kmc_cookie_step s;

	kmc_cookie_sm_step(AS, f, 0, true, &s);
	assert_int_equal(s.clear, KMC_CF(DO_PREP_TO_WRITE));
	assert_int_equal(s.action, KMC_CA_PREP_TO_WRITE | KMC_CA_AGAIN);
	f &= ~KMC_CF(DO_PREP_TO_WRITE);
	kmc_cookie_sm_step(AS, f, 1, true, &s);
	assert_int_equal(s.event, KMC_CEV_NONE);
	assert_int_equal(s.action, 0);
	kmc_cookie_sm_step(AS, f | KMC_CF(DO_RELINQUISH), 0, true, &s);
	assert_int_equal(s.event, KMC_CEV_LRU_DISCARD);
	/* with no LRU discard it settles like FAILED */
	kmc_cookie_sm_step(AS, KMC_CF(DO_WITHDRAW), 0, true, &s);
	assert_int_equal(s.event, KMC_CEV_WITHDRAW);
	kmc_cookie_sm_step(AS, 0, 0, true, &s);
	assert_int_equal(s.event, KMC_CEV_NONE);
	assert_int_equal(s.action, 0);
}

/* ACTIVE/FAILED: relinquish beats withdraw, accesses hold both off. */
static void test_sm_settle(void **state)
{
	unsigned long f = KMC_CF(DO_RELINQUISH) | KMC_CF(DO_WITHDRAW);
	struct kmc_cookie_step s;

	kmc_cookie_sm_step(FS, f, 0, false, &s);
	assert_int_equal(s.event, KMC_CEV_RELINQUISH);
	assert_int_equal(s.action, KMC_CA_AGAIN);
	kmc_cookie_sm_step(FS, KMC_CF(DO_WITHDRAW), 0, false, &s);
	assert_int_equal(s.event, KMC_CEV_WITHDRAW);
	kmc_cookie_sm_step(FS, f, 2, false, &s);
	assert_int_equal(s.event, KMC_CEV_NONE);
	/* a pending invalidation's access ends first, then the count decides */
	kmc_cookie_sm_step(AS, f | KMC_CF(DO_INVALIDATE), 1, true, &s);
	assert_int_equal(s.clear, KMC_CF(DO_INVALIDATE));
	assert_int_equal(s.action, KMC_CA_END_ACCESS | KMC_CA_AGAIN);
	assert_int_equal(s.event, KMC_CEV_RELINQUISH);
	kmc_cookie_sm_step(FS, KMC_CF(DO_INVALIDATE), 2, true, &s);
	assert_int_equal(s.action, KMC_CA_END_ACCESS);
	assert_int_equal(s.event, KMC_CEV_NONE);
}

/* Withdrawing states: object first, then RELINQUISHING drops and unhashes. */
static void test_sm_withdrawing(void **state)
{
	unsigned long work = KMC_CF(NEEDS_UPDATE) | KMC_CF(DO_WITHDRAW) |
		KMC_CF(DO_LRU_DISCARD) | KMC_CF(DO_PREP_TO_WRITE);
	struct kmc_cookie_step s;
	int st;

	for (st = US; st <= RS; st++) {
		kmc_cookie_sm_step(st, 0, 0, true, &s);
		assert_int_equal(s.action,
				 KMC_CA_WITHDRAW_OBJECT | KMC_CA_AGAIN);
		assert_int_equal(s.event, KMC_CEV_NONE);
		kmc_cookie_sm_step(st, KMC_CF(DO_INVALIDATE), 0, false, &s);
		assert_int_equal(s.event, KMC_CEV_WITHDRAWN);
		assert_true(s.action & KMC_CA_END_ACCESS);
		assert_true(s.clear & KMC_CF(DO_INVALIDATE));
		if (st == RS) {
			assert_int_equal(s.action,
					 KMC_CA_END_ACCESS | KMC_CA_UNHASH);
			continue;
		}
		assert_int_equal(s.clear, work | KMC_CF(DO_INVALIDATE));
		assert_int_equal(s.set, KMC_CF(NO_DATA_TO_READ));
		assert_true(s.action & KMC_CA_AGAIN);
	}
}

/* The end of a lookup: ACTIVE, INVALIDATING, QUIESCENT or a withdrawal. */
static void test_lookup_result(void **state)
{
	struct kmc_cookie_step s;

	assert_int_equal(kmc_cookie_lookup_result(LS, 0, KMC_LOOKUP_OK, &s), 0);
	assert_int_equal(s.event, KMC_CEV_LOOKUP_DONE);
	assert_int_equal(s.action, KMC_CA_END_ACCESS);
	assert_int_equal(kmc_cookie_lookup_result(CS, KMC_CF(DO_INVALIDATE),
						  KMC_LOOKUP_OK, &s), 0);
	assert_int_equal(s.event, KMC_CEV_LOOKUP_DONE_INVAL);
	assert_int_equal(s.clear, KMC_CF(DO_INVALIDATE));
	assert_int_equal(kmc_cookie_lookup_result(LS, 0, KMC_LOOKUP_NO_VOLUME,
						  &s), 0);
	assert_int_equal(s.event, KMC_CEV_VOLUME_UNAVAILABLE);
	assert_int_equal(s.action, KMC_CA_END_ACCESS);
	assert_int_equal(kmc_cookie_lookup_result(FS, 0, KMC_LOOKUP_FAILED,
						  &s), 0);
	assert_int_equal(s.event, KMC_CEV_LOOKUP_FAILED);
	assert_int_equal(s.set, KMC_CF(DO_WITHDRAW));
	assert_int_equal(s.clear, KMC_CF(NO_ACCESS_WAKE));
	assert_int_equal(s.action, KMC_CA_END_ACCESS | KMC_CA_LRU_DROP |
			 KMC_CA_WITHDRAW);
	/* results that cannot happen in a state are refused */
	assert_int_equal(kmc_cookie_lookup_result(FS, 0, KMC_LOOKUP_OK, &s),
			 -EINVAL);
	assert_int_equal(kmc_cookie_lookup_result(CS, 0, KMC_LOOKUP_NO_VOLUME,
						  &s), -EINVAL);
	assert_int_equal(kmc_cookie_lookup_result(AS, 0, KMC_LOOKUP_FAILED,
						  &s), -EINVAL);
	assert_int_equal(kmc_cookie_lookup_result(LS, 0, 7, &s), -EINVAL);
}

/* Invalidating a relinquished cookie is refused; a DIO write disables once. */
static void test_invalidate_refusals(void **state)
{
	struct kmc_cookie_step s;

	assert_int_equal(kmc_cookie_invalidate(AS, KMC_CF(RELINQUISHED), false,
					       true, &s), -EINVAL);
	assert_int_equal(kmc_cookie_invalidate(-1, 0, false, true, &s),
			 -EINVAL);
	assert_int_equal(kmc_cookie_invalidate(AS, KMC_CF(DISABLED), true,
					       true, &s), 0);
	assert_int_equal(s.action | s.set | s.clear, 0);
	assert_int_equal(s.event, KMC_CEV_NONE);
	assert_int_equal(kmc_cookie_invalidate(QS, 0, true, true, &s), 0);
	assert_int_equal(s.set, KMC_CF(DISABLED) | KMC_CF(NO_DATA_TO_READ));
}

/* Invalidate by state: pend during lookup, start when ACTIVE and caching. */
static void test_invalidate_states(void **state)
{
	const unsigned int common = KMC_CA_UPDATE_AUX | KMC_CA_INVAL_COUNT;
	struct kmc_cookie_step s;
	int st;

	assert_int_equal(kmc_cookie_invalidate(LS, 0, false, true, &s), 0);
	assert_int_equal(s.set, KMC_CF(NO_DATA_TO_READ) |
			 KMC_CF(DO_INVALIDATE));
	assert_int_equal(s.action, common | KMC_CA_BEGIN_ACCESS);
	assert_int_equal(kmc_cookie_invalidate(LS, KMC_CF(DO_INVALIDATE),
					       false, true, &s), 0);
	assert_int_equal(s.action, common);
	assert_int_equal(kmc_cookie_invalidate(AS, KMC_CF(IS_CACHING), false,
					       true, &s), 0);
	assert_int_equal(s.event, KMC_CEV_INVALIDATE);
	assert_int_equal(s.action, common | KMC_CA_BEGIN_ACCESS |
			 KMC_CA_QUEUE);
	assert_int_equal(kmc_cookie_invalidate(AS, 0, false, true, &s), 0);
	assert_int_equal(s.event, KMC_CEV_NONE);
	assert_int_equal(s.action, common);
	assert_int_equal(kmc_cookie_invalidate(AS, KMC_CF(IS_CACHING), false,
					       false, &s), 0);
	assert_int_equal(s.event, KMC_CEV_NONE);
	assert_int_equal(s.action, common | KMC_CA_BEGIN_ACCESS |
			 KMC_CA_END_ACCESS);
	for (st = 0; st < NSTATES; st++) {
		if (st == LS || st == AS)
			continue;
		assert_int_equal(kmc_cookie_invalidate(st, KMC_CF(IS_CACHING),
						       false, true, &s), 0);
		assert_int_equal(s.action, common);
		assert_int_equal(s.event, KMC_CEV_NONE);
	}
}

/* Relinquish: once, never in use; cached cookies withdraw, others drop. */
static void test_relinquish(void **state)
{
	struct kmc_cookie_step s;

	assert_int_equal(kmc_cookie_relinquish(KMC_CF(RELINQUISHED), 0, false,
					       &s), -EALREADY);
	assert_int_equal(kmc_cookie_relinquish(0, 1, false, &s), -EBUSY);
	assert_int_equal(kmc_cookie_relinquish(0, 0, false, &s), 0);
	assert_int_equal(s.set, KMC_CF(RELINQUISHED));
	assert_int_equal(s.event, KMC_CEV_DROP_UNCACHED);
	assert_int_equal(s.action, KMC_CA_VOLUME_DEC | KMC_CA_UNHASH);
	assert_int_equal(kmc_cookie_relinquish(KMC_CF(HAS_BEEN_CACHED), 0,
					       true, &s), 0);
	assert_int_equal(s.set, KMC_CF(RELINQUISHED) | KMC_CF(RETIRED) |
			 KMC_CF(DO_RELINQUISH));
	assert_int_equal(s.clear, KMC_CF(NO_ACCESS_WAKE));
	assert_int_equal(s.event, KMC_CEV_NONE);
	assert_int_equal(s.action, KMC_CA_VOLUME_DEC | KMC_CA_LRU_DROP |
			 KMC_CA_WITHDRAW);
	kmc_cookie_withdraw(&s);
	assert_int_equal(s.set, KMC_CF(DO_WITHDRAW));
	assert_int_equal(s.action, KMC_CA_LRU_DROP | KMC_CA_WITHDRAW);
}

/* A retired object is deleted (or its tmpfile dropped); others committed. */
static void test_object_fate(void **state)
{
	struct kmc_cookie_step s;
	bool wx = true;

	assert_int_equal(kmc_cookie_object_fate(KMC_CF(RETIRED) |
						KMC_CF(NEEDS_UPDATE), false,
						&wx, &s), KMC_OBJECT_DELETE);
	assert_false(wx);
	assert_int_equal(kmc_cookie_object_fate(KMC_CF(RETIRED), true, &wx,
						&s), KMC_OBJECT_DROP_TMPFILE);
	assert_int_equal(kmc_cookie_object_fate(0, false, &wx, &s),
			 KMC_OBJECT_COMMIT);
	assert_false(wx);
	assert_int_equal(kmc_cookie_object_fate(KMC_CF(LOCAL_WRITE), true, &wx,
						&s), KMC_OBJECT_COMMIT);
	assert_true(wx);
	assert_int_equal(s.clear, KMC_CF(LOCAL_WRITE));
	assert_int_equal(kmc_cookie_object_fate(KMC_CF(NEEDS_UPDATE) |
						KMC_CF(LOCAL_WRITE), false,
						&wx, &s), KMC_OBJECT_COMMIT);
	assert_int_equal(s.clear, KMC_CF(NEEDS_UPDATE) | KMC_CF(LOCAL_WRITE));
}

/* The LRU delay is 10 s: expired exactly at unused_at + 10000 ms. */
static void test_lru_expiry(void **state)
{
	assert_int_equal(KMC_COOKIE_LRU_TIMEOUT_MS, 10000);
	assert_int_equal(kmc_cookie_lru_deadline(5), 10005);
	assert_false(kmc_cookie_lru_expired(1000, 1000));
	assert_false(kmc_cookie_lru_expired(1000, 10999));
	assert_true(kmc_cookie_lru_expired(1000, 11000));
	assert_true(kmc_cookie_lru_expired(1000, 99999));
	/* wrap-safe like time_before() */
	assert_false(kmc_cookie_lru_expired(UINT64_MAX - 100, 5));
	assert_true(kmc_cookie_lru_expired(UINT64_MAX - 100, 9900));
}

/* Only an ACTIVE, unused, expired cookie is discarded by the LRU. */
static void test_lru_do_one(void **state)
{
	struct kmc_cookie_step s;
	int st;

	assert_true(kmc_cookie_lru_do_one(AS, 0, 0, 10000, &s));
	assert_int_equal(s.set, KMC_CF(DO_LRU_DISCARD));
	assert_int_equal(s.clear, KMC_CF(NO_ACCESS_WAKE));
	assert_int_equal(s.action, KMC_CA_WITHDRAW);
	assert_false(kmc_cookie_lru_do_one(AS, 0, 0, 9999, &s));
	assert_int_equal(s.action | s.set, 0);
	assert_false(kmc_cookie_lru_do_one(AS, 1, 0, 20000, &s));
	for (st = 0; st < NSTATES; st++)
		if (st != AS)
			assert_false(kmc_cookie_lru_do_one(st, 0, 0, 20000,
							   &s));
}

/* I/O: which states go, wait or are not live, for both kernel switches. */
static void test_op_verdicts(void **state)
{
	static const char begin[2][NSTATES + 1] = { "NWRRWNWNNN",
						    "NWWRWNWNNN" };
	static const char wait[2][NSTATES + 1] = { "NWRRRNWNNN",
						   "NWWRWNWNNN" };
	const char *code = "RWN";
	int st, w;

	for (w = 0; w < 2; w++)
		for (st = 0; st < NSTATES; st++) {
			enum kmc_want want = w ? KMC_WANT_WRITE :
					     KMC_WANT_PARAMS;

			assert_int_equal(code[kmc_cookie_op_verdict(st, want)],
					 begin[w][st]);
			assert_int_equal(code[kmc_cookie_wait_verdict(st,
								      want)],
					 wait[w][st]);
		}
	assert_int_equal(kmc_cookie_op_verdict(CS, KMC_WANT_READ), KMC_OP_WAIT);
}

/* A tiny cookie driven only through the helpers, as a library would. */
struct model {
	int state;
	unsigned long flags;
	int n_active, n_accesses;
	bool queued, has_object, on_lru, hashed, volume_ok;
	enum kmc_lookup_result lookup;
	bool inval_ok, negative;
	int inval, updates, preps, vol_cookies;
	u64 now, unused_at;
};

/* Apply a step in the header's order. */
static void apply(struct model *m, const struct kmc_cookie_step *s)
{
	struct kmc_cookie_step b;

	if (s->action & KMC_CA_END_ACCESS) {
		m->n_accesses--;
		assert_true(m->n_accesses >= 0);
		if (kmc_cookie_end_access(m->n_accesses, m->flags))
			m->queued = true;
	}
	m->state = kmc_cookie_apply(m->state, &m->flags, s);
	assert_true(m->state >= 0);
	if (s->action & KMC_CA_BEGIN_ACCESS)
		m->n_accesses++;
	if (s->action & KMC_CA_UPDATE_AUX)
		m->updates++;
	if (s->action & KMC_CA_INVAL_COUNT)
		m->inval++;
	if (s->action & KMC_CA_VOLUME_DEC)
		m->vol_cookies--;
	if (s->action & KMC_CA_UNHASH)
		m->hashed = false;
	if (s->action & KMC_CA_LRU_DROP)
		m->on_lru = false;
	if (s->action & KMC_CA_LRU_ADD) {
		m->on_lru = true;
		m->unused_at = m->now;
	}
	if ((s->action & KMC_CA_WITHDRAW) && m->n_accesses == 0)
		m->queued = true;
	if ((s->action & KMC_CA_BEGIN_LOOKUP) && m->volume_ok) {
		kmc_cookie_begin_lookup(&b);
		apply(m, &b);
	}
	if (s->action & KMC_CA_QUEUE)
		m->queued = true;
}

/* The unlocked callouts of a state-machine step. */
static void callouts(struct model *m, const struct kmc_cookie_step *s)
{
	struct kmc_cookie_step b;

	if (s->action & KMC_CA_PERFORM_LOOKUP) {
		m->has_object = m->lookup == KMC_LOOKUP_OK;
		if (m->negative) {
			assert_int_equal(kmc_cookie_lookup_negative(m->state,
								    &b), 0);
			apply(m, &b);
		}
		assert_int_equal(kmc_cookie_lookup_result(m->state, m->flags,
							  m->lookup, &b), 0);
		apply(m, &b);
	}
	if (s->action & KMC_CA_PERFORM_INVAL) {
		if (m->inval_ok)
			assert_int_equal(kmc_cookie_resume_after_invalidation(
						 m->state, &b), 0);
		else
			assert_int_equal(kmc_cookie_caching_failed(m->state,
								   &b), 0);
		apply(m, &b);
		b = (struct kmc_cookie_step){ .event = KMC_CEV_NONE,
					      .action = KMC_CA_END_ACCESS };
		apply(m, &b);
	}
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
			assert_true(++guard < 100);
		} while (s.action & KMC_CA_AGAIN);
	}
}

static void use(struct model *m, bool will_modify)
{
	struct kmc_cookie_step s;

	assert_int_equal(kmc_cookie_use_check(m->flags), 0);
	m->n_active++;
	assert_int_equal(kmc_cookie_use(m->state, m->flags, will_modify, &s),
			 0);
	apply(m, &s);
}

static void unuse(struct model *m)
{
	struct kmc_cookie_step s;
	int n = kmc_cookie_unuse(m->n_active, m->flags, false, &s);

	assert_true(n >= 0);
	m->n_active = n;
	apply(m, &s);
}

static void relinquish(struct model *m, bool retire)
{
	struct kmc_cookie_step s;

	assert_int_equal(kmc_cookie_relinquish(m->flags, m->n_active, retire,
					       &s), 0);
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

static struct model fresh(void)
{
	return (struct model){ .state = QS, .flags = KMC_CF(IS_HASHED),
			       .hashed = true, .volume_ok = true,
			       .inval_ok = true, .vol_cookies = 1,
			       .lookup = KMC_LOOKUP_OK };
}

/* use -> lookup -> ACTIVE; unuse -> LRU; 10 s later discarded to QUIESCENT. */
static void test_scenario_lru(void **state)
{
	struct model m = fresh();

	use(&m, true);
	assert_int_equal(m.state, LS);
	assert_int_equal(m.n_accesses, 1);
	run(&m);
	assert_int_equal(m.state, AS);
	assert_int_equal(m.n_accesses, 0);
	assert_int_equal(m.preps, 1);
	m.now = 500;
	unuse(&m);
	assert_true(m.on_lru);
	m.now = 10499;
	lru(&m);
	assert_int_equal(m.state, AS);
	m.now = 10500;
	lru(&m);
	run(&m);
	assert_int_equal(m.state, QS);
	assert_false(m.has_object);
	assert_true(m.flags & KMC_CF(NO_DATA_TO_READ));
	assert_false(m.flags & KMC_CF(DO_LRU_DISCARD));
	/* used again: a fresh lookup */
	use(&m, false);
	run(&m);
	assert_int_equal(m.state, AS);
}

/* A new object: lookup negative -> CREATING -> ACTIVE, nothing to read. */
static void test_scenario_create(void **state)
{
	struct model m = fresh();

	m.negative = true;
	use(&m, false);
	run(&m);
	assert_int_equal(m.state, AS);
	assert_true(m.flags & KMC_CF(NO_DATA_TO_READ));
	assert_int_equal(m.n_accesses, 0);
}

/* A use between the LRU's decision and the discard cancels it. */
static void test_scenario_lru_cancel(void **state)
{
	struct model m = fresh();

	use(&m, false);
	run(&m);
	unuse(&m);
	m.now = 20000;
	lru(&m);
	assert_true(m.flags & KMC_CF(DO_LRU_DISCARD));
	use(&m, false);
	assert_false(m.flags & KMC_CF(DO_LRU_DISCARD));
	run(&m);
	assert_int_equal(m.state, AS);
}

/* Relinquish waits for accesses in flight, then drops and unhashes. */
static void test_scenario_relinquish_pinned(void **state)
{
	struct model m = fresh();
	struct kmc_cookie_step s = { .event = KMC_CEV_NONE };

	use(&m, false);
	run(&m);
	assert_true(kmc_cookie_begin_access(m.flags, true, &s));
	apply(&m, &s);
	unuse(&m);
	relinquish(&m, false);
	run(&m);
	assert_int_equal(m.state, AS);
	assert_true(m.hashed);
	s = (struct kmc_cookie_step){ .event = KMC_CEV_NONE,
				      .action = KMC_CA_END_ACCESS };
	apply(&m, &s);
	assert_true(m.queued);
	run(&m);
	assert_int_equal(m.state, DS);
	assert_false(m.hashed);
	assert_false(m.on_lru);
	assert_int_equal(m.vol_cookies, 0);
}

/*
 * Relinquished while its lookup is still queued: the lookup finishes, and
 * the same state-machine run goes on to relinquish it.
 */
static void test_scenario_relinquish_during_lookup(void **state)
{
	struct model m = fresh();

	use(&m, false);
	unuse(&m);
	relinquish(&m, false);
	assert_int_equal(m.state, LS);
	assert_int_equal(m.n_accesses, 1);
	run(&m);
	assert_int_equal(m.state, DS);
	assert_false(m.has_object);
	assert_false(m.hashed);
}

/* A cookie never used is dropped at once by relinquish. */
static void test_scenario_relinquish_uncached(void **state)
{
	struct model m = fresh();
	struct kmc_cookie_step s;

	relinquish(&m, true);
	assert_int_equal(m.state, DS);
	assert_false(m.hashed);
	assert_true(m.flags & KMC_CF(RETIRED));
	assert_int_equal(kmc_cookie_use_check(m.flags), -EINVAL);
	assert_int_equal(kmc_cookie_relinquish(m.flags, 0, false, &s),
			 -EALREADY);
}

/* Invalidation during lookup is held, then runs once the lookup is done. */
static void test_scenario_inval_during_lookup(void **state)
{
	struct model m = fresh();
	struct kmc_cookie_step s;

	use(&m, false);
	assert_int_equal(kmc_cookie_invalidate(m.state, m.flags, false, true,
					       &s), 0);
	apply(&m, &s);
	assert_int_equal(m.n_accesses, 2);
	assert_int_equal(m.inval, 1);
	run(&m);
	assert_int_equal(m.state, AS);
	assert_int_equal(m.n_accesses, 0);
	assert_false(m.flags & KMC_CF(DO_INVALIDATE));
	/* and on an ACTIVE cookie it starts at once */
	assert_int_equal(kmc_cookie_invalidate(m.state, m.flags, false, true,
					       &s), 0);
	apply(&m, &s);
	assert_int_equal(m.state, IS);
	run(&m);
	assert_int_equal(m.state, AS);
	assert_int_equal(m.n_accesses, 0);
	assert_int_equal(m.inval, 2);
}

/* A failed invalidation leaves FAILED; the backend's withdraw clears it. */
static void test_scenario_inval_fails(void **state)
{
	struct model m = fresh();
	struct kmc_cookie_step s;

	use(&m, false);
	run(&m);
	m.inval_ok = false;
	assert_int_equal(kmc_cookie_invalidate(m.state, m.flags, false, true,
					       &s), 0);
	apply(&m, &s);
	run(&m);
	assert_int_equal(m.state, FS);
	kmc_cookie_withdraw(&s);
	apply(&m, &s);
	run(&m);
	assert_int_equal(m.state, QS);
	assert_false(m.has_object);
}

/* A failed lookup goes QUIESCENT; no volume leaves the cookie uncached. */
static void test_scenario_lookup_fails(void **state)
{
	struct model m = fresh();

	m.lookup = KMC_LOOKUP_FAILED;
	use(&m, false);
	run(&m);
	assert_int_equal(m.state, QS);
	assert_int_equal(m.n_accesses, 0);
	/* the kernel leaves DO_WITHDRAW set in QUIESCENT */
	assert_true(m.flags & KMC_CF(DO_WITHDRAW));
	unuse(&m);
	m = fresh();
	m.volume_ok = false;
	use(&m, false);
	assert_int_equal(m.state, QS);
	assert_false(m.queued);
	assert_false(m.flags & KMC_CF(HAS_BEEN_CACHED));
	m.volume_ok = true;
	m.lookup = KMC_LOOKUP_NO_VOLUME;
	use(&m, false);
	run(&m);
	assert_int_equal(m.state, QS);
	assert_true(m.flags & KMC_CF(HAS_BEEN_CACHED));
	unuse(&m);
	unuse(&m);
	relinquish(&m, false);
	run(&m);
	assert_int_equal(m.state, DS);
}

/*
 * An invalidation during a lookup that then fails: the access that pinned
 * the invalidation ends, and the cookie can still be relinquished
 * (tests/cookie/diff_cookie.c shows stock 6.1 hanging here).
 */
static void test_scenario_failed_lookup_pending_invalidation(void **state)
{
	struct model m = fresh();
	struct kmc_cookie_step s;

	m.lookup = KMC_LOOKUP_FAILED;
	use(&m, false);
	assert_int_equal(kmc_cookie_invalidate(m.state, m.flags, false, true,
					       &s), 0);
	apply(&m, &s);
	assert_int_equal(m.n_accesses, 2);
	run(&m);
	assert_int_equal(m.state, QS);
	assert_int_equal(m.n_accesses, 0);
	assert_false(m.flags & KMC_CF(DO_INVALIDATE));
	unuse(&m);
	relinquish(&m, false);
	run(&m);
	assert_int_equal(m.state, DS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_state_vectors),
		cmocka_unit_test(test_state_chars),
		cmocka_unit_test(test_state_names),
		cmocka_unit_test(test_transition_range),
		cmocka_unit_test(test_dropped_is_final),
		cmocka_unit_test(test_reachability),
		cmocka_unit_test(test_access_counting),
		cmocka_unit_test(test_use_relinquished),
		cmocka_unit_test(test_use_quiescent),
		cmocka_unit_test(test_use_other_states),
		cmocka_unit_test(test_use_active),
		cmocka_unit_test(test_apply),
		cmocka_unit_test(test_backend_calls),
		cmocka_unit_test(test_unuse),
		cmocka_unit_test(test_enabled_and_init),
		cmocka_unit_test(test_flag_numbers),
		cmocka_unit_test(test_sm_quiescent),
		cmocka_unit_test(test_sm_quiescent_ends_pending_invalidation_access),
		cmocka_unit_test(test_sm_lookup_inval),
		cmocka_unit_test(test_sm_active),
		cmocka_unit_test(test_sm_settle),
		cmocka_unit_test(test_sm_withdrawing),
		cmocka_unit_test(test_lookup_result),
		cmocka_unit_test(test_invalidate_refusals),
		cmocka_unit_test(test_invalidate_states),
		cmocka_unit_test(test_relinquish),
		cmocka_unit_test(test_object_fate),
		cmocka_unit_test(test_lru_expiry),
		cmocka_unit_test(test_lru_do_one),
		cmocka_unit_test(test_op_verdicts),
		cmocka_unit_test(test_scenario_lru),
		cmocka_unit_test(test_scenario_lru_cancel),
		cmocka_unit_test(test_scenario_create),
		cmocka_unit_test(test_scenario_relinquish_pinned),
		cmocka_unit_test(test_scenario_relinquish_during_lookup),
		cmocka_unit_test(test_scenario_relinquish_uncached),
		cmocka_unit_test(test_scenario_inval_during_lookup),
		cmocka_unit_test(test_scenario_inval_fails),
		cmocka_unit_test(test_scenario_lookup_fails),
		cmocka_unit_test(test_scenario_failed_lookup_pending_invalidation),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
