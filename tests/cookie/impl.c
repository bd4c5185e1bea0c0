// SPDX-License-Identifier: GPL-2.0-only
/* One build of fs/fscache/cookie.c as a struct ksm_impl (KSM_NS names it). */
#include "ksm.h"

const struct ksm_impl ksm_impl = {
	.name = KSM_NAME,
	.jar = &fscache_cookie_jar,
	.lru_timer = &fscache_cookie_lru_timer,
	.acquire = __fscache_acquire_cookie,
	.use = __fscache_use_cookie,
	.unuse = __fscache_unuse_cookie,
	.begin_access = fscache_begin_cookie_access,
	.end_access = fscache_end_cookie_access,
	.invalidate = __fscache_invalidate,
	.withdraw = fscache_withdraw_cookie,
	.relinquish = __fscache_relinquish_cookie,
	.get = fscache_get_cookie,
	.put = fscache_put_cookie,
	.lookup_negative = fscache_cookie_lookup_negative,
	.caching_failed = fscache_caching_failed,
	.resume_after_invalidation = fscache_resume_after_invalidation,
};
