/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Force-included into each build of fs/fscache/cookie.c for diff_cookie:
 * its external names get the prefix KSM_NS (stock_ or kmirror_), so that
 * the stock file and the patched one link into one program.
 */
#define KSM_CAT2(a, b)	a##b
#define KSM_CAT(a, b)	KSM_CAT2(a, b)
#define KSM_N(x)	KSM_CAT(KSM_NS, x)

#define fscache_cookie_jar		KSM_N(fscache_cookie_jar)
#define fscache_cookie_lru_timer	KSM_N(fscache_cookie_lru_timer)
#define fscache_print_cookie		KSM_N(fscache_print_cookie)
#define fscache_begin_cookie_access	KSM_N(fscache_begin_cookie_access)
#define fscache_end_cookie_access	KSM_N(fscache_end_cookie_access)
#define fscache_cookie_lookup_negative	KSM_N(fscache_cookie_lookup_negative)
#define fscache_resume_after_invalidation \
	KSM_N(fscache_resume_after_invalidation)
#define fscache_caching_failed		KSM_N(fscache_caching_failed)
#define __fscache_acquire_cookie	KSM_N(__fscache_acquire_cookie)
#define __fscache_use_cookie		KSM_N(__fscache_use_cookie)
#define __fscache_unuse_cookie		KSM_N(__fscache_unuse_cookie)
#define fscache_withdraw_cookie		KSM_N(fscache_withdraw_cookie)
#define __fscache_relinquish_cookie	KSM_N(__fscache_relinquish_cookie)
#define fscache_put_cookie		KSM_N(fscache_put_cookie)
#define fscache_get_cookie		KSM_N(fscache_get_cookie)
#define __fscache_invalidate		KSM_N(__fscache_invalidate)
#define ksm_impl			KSM_N(impl)
