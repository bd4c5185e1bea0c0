// SPDX-License-Identifier: GPL-2.0-only
/*
 * What every file of the library stands on: the calling thread's RCU
 * registration and shard, and the clock.  Calls nothing else here.
 */
#include <time.h>

#include "internal.h"

/* ---- threads, time, RCU ------------------------------------------- */

#ifdef KMF_TSAN
char kmf_tsan_gp;
#endif

static pthread_key_t kmf_thread_key;
static pthread_once_t kmf_thread_once = PTHREAD_ONCE_INIT;

static void kmf_thread_exit(void *arg)
{
	urcu_memb_unregister_thread();
	kmf_rcu_registered = false;
}

static void kmf_thread_key_init(void)
{
	pthread_key_create(&kmf_thread_key, kmf_thread_exit);
}

/*
 * Register the caller with urcu-memb on its first call into the library,
 * unless the application did; a thread-exit destructor unregisters it.
 */
__thread bool kmf_rcu_registered __attribute__((tls_model("initial-exec")));
__thread unsigned int kmf_shard_idx __attribute__((tls_model("initial-exec")));
static atomic_uint kmf_next_shard;

void kmf_rcu_thread_slow(void)
{
	kmf_rcu_registered = true;
	kmf_shard_idx = atomic_fetch_add(&kmf_next_shard, 1) % KMF_SHARDS;
	if (URCU_TLS(urcu_memb_reader).registered)
		return;
	pthread_once(&kmf_thread_once, kmf_thread_key_init);
	urcu_memb_register_thread();
	pthread_setspecific(kmf_thread_key, (void *)1);
}

u64 kmf_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000 + (u64)ts.tv_nsec / 1000000;
}
