// SPDX-License-Identifier: GPL-2.0-only
/*
 * Cookie index benchmark: fscache cookie lookup and acquire+relinquish
 * rates, with 1 and 2 threads, against a raw liburcu cds_lfht (urcu-memb,
 * the same flavour and inline fast paths) doing lookup and add/del on the
 * same keys with the same hash function, measured in the same run.
 *
 *   ours lookup       fscache_read_lock(); fscache_lookup_cookie_rcu();
 *                     fscache_read_unlock()
 *   ours lookup+ref   fscache_lookup_cookie() + fscache_put_cookie()
 *   raw lookup        rcu_read_lock(); cds_lfht_lookup(); rcu_read_unlock()
 *   ours acq+rel      fscache_acquire_cookie() + fscache_relinquish_cookie()
 *                     (never used: no file is touched)
 *   raw add/del       malloc; cds_lfht_add_unique(); cds_lfht_del();
 *                     call_rcu(free)
 *
 * Goals (issue 2): lookup >= 0.8x raw, acquire+relinquish >= 0.5x raw;
 * (issue 14, the "scale-cookie" benchmark: 1,000,000 live keys) a cookie
 * within 256 bytes plus its key, lookup+ref at 2 threads >= 0.5x raw.
 * Memory: VmRSS before and after the cookies are acquired, and after the
 * raw nodes are added, per key.
 * Timings are printed, never judged: the exit status only reports errors.
 * usage: bench_lookup [MS_PER_RUN [KEYS [RAW_NODE_BYTES]]]
 *        (5 rounds; defaults 200, 4096, and raw nodes of their own size)
 * RAW_NODE_BYTES gives each raw node that much memory (64-byte aligned):
 * 256, a cookie's size, tells the index's code from its footprint (at 1M
 * keys a 48-byte node table caches far better than 256-byte cookies).
 */
#define _LGPL_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <ftw.h>
#include <math.h>
#include <urcu/urcu-memb.h>
#include <urcu/rculfhash.h>

#include "kcompat.h"
#include "kmc_hash.h"
#include "kmirror/fscache.h"

#define NKEYS_DEFAULT	4096	/* looked-up keys */
#define NCHURN		1024	/* acquire/relinquish keys per thread */
#define MAX_THREADS	2
#define ROUNDS		5

static unsigned int run_ms = 200, nkeys = NKEYS_DEFAULT;
static struct fscache_volume *volume;
static struct cds_lfht *raw_ht;
static struct raw_node **raw_nodes;	/* the looked-up keys' nodes */
static atomic_bool go, stop;
static u32 salt = 0x12345678;	/* raw table hash salt */
static size_t raw_node_bytes;	/* 0: sizeof(struct raw_node) */

struct raw_node {
	struct cds_lfht_node	node;
	struct rcu_head		rcu;
	u8			key[8];
};

static void key_of(unsigned int i, u8 key[8])
{
	u64 v = 0x10000 + i;

	memcpy(key, &v, 8);
}

/*
 * Each thread walks all keys with its own stride (odd, so every key comes
 * up): threads meet on a key now and then, but never run in lockstep,
 * which would turn "lookup+ref" into a contest for one refcount.
 */
static const unsigned int strides[MAX_THREADS] = { 1103, 2011 };

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int raw_match(struct cds_lfht_node *node, const void *key)
{
	return !memcmp(caa_container_of(node, struct raw_node, node)->key,
		       key, 8);
}

static void raw_free(struct rcu_head *head)
{
	free(caa_container_of(head, struct raw_node, rcu));
}

/*
 * Wide nodes (RAW_NODE_BYTES) are carved from one array, as cookies are
 * from the jar's slabs: no allocator header between them.
 */
static char *raw_wide_slab;
static size_t raw_wide_next;

static bool raw_carved(bool wide)
{
	return wide && raw_node_bytes > sizeof(struct raw_node);
}

static struct raw_node *raw_alloc(bool wide)
{
	size_t size = round_up(raw_node_bytes, 64);

	if (!raw_carved(wide))
		return malloc(sizeof(struct raw_node));
	if (!raw_wide_slab && !(raw_wide_slab = aligned_alloc(64, nkeys * size)))
		return NULL;
	return (struct raw_node *)(raw_wide_slab + size * raw_wide_next++);
}

/* @wide: a node of raw_node_bytes (the looked-up keys' nodes only). */
static int raw_add(const u8 key[8], struct raw_node **out, bool wide)
{
	struct raw_node *n = raw_alloc(wide);
	struct cds_lfht_node *got;

	if (!n)
		return -ENOMEM;
	memcpy(n->key, key, 8);
	cds_lfht_node_init(&n->node);
	urcu_memb_read_lock();
	got = cds_lfht_add_unique(raw_ht, kmc_hash(salt, key, 8), raw_match,
				  key, &n->node);
	urcu_memb_read_unlock();
	if (got != &n->node) {
		if (!raw_carved(wide))
			free(n);
		return -EEXIST;
	}
	*out = n;
	return 0;
}

/* @wide: from the slab, freed with it. */
static void raw_del(struct raw_node *n, bool wide)
{
	urcu_memb_read_lock();
	cds_lfht_del(raw_ht, &n->node);
	urcu_memb_read_unlock();
	if (!raw_carved(wide))
		urcu_memb_call_rcu(&n->rcu, raw_free);
}

/* ---- the measured loops: each returns its operation count ---------- */

enum op { OURS_LOOKUP, OURS_LOOKUP_REF, RAW_LOOKUP, OURS_CHURN, RAW_CHURN };

static const char *const op_names[] = {
	"lookup (rcu)", "lookup+ref", "raw lookup", "acquire+relinquish",
	"raw add+del",
};

/* One per thread, a cache line each: the loops do not share lines. */
struct job {
	pthread_t	thread;
	enum op		op;
	unsigned int	id;
	unsigned long	ops;
	unsigned long	errors;
} __attribute__((aligned(64)));

static unsigned long loop_ours_lookup(struct job *j, bool ref)
{
	unsigned long n = 0, errors = 0;
	unsigned int i = 0, stride = strides[j->id];
	struct fscache_cookie *c;
	u8 key[8];

	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		key_of(i, key);
		i = (i + stride) % nkeys;
		if (ref) {
			c = fscache_lookup_cookie(volume, key, 8);
			fscache_put_cookie(c);
		} else {
			fscache_read_lock();
			c = fscache_lookup_cookie_rcu(volume, key, 8);
			fscache_read_unlock();
		}
		errors += !c;
		n++;
	}
	j->errors = errors;
	return n;
}

static unsigned long loop_raw_lookup(struct job *j)
{
	unsigned long n = 0, errors = 0;
	unsigned int i = 0, stride = strides[j->id];
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	u8 key[8];

	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		key_of(i, key);
		i = (i + stride) % nkeys;
		urcu_memb_read_lock();
		cds_lfht_lookup(raw_ht, kmc_hash(salt, key, 8), raw_match,
				key, &iter);
		node = cds_lfht_iter_get_node(&iter);
		urcu_memb_read_unlock();
		errors += !node;
		n++;
	}
	j->errors = errors;
	return n;
}

static unsigned long loop_churn(struct job *j, bool raw)
{
	unsigned int base = nkeys + j->id * NCHURN, i = 0;
	struct fscache_cookie *c;
	struct raw_node *rn;
	unsigned long n = 0, errors = 0;
	u8 key[8];

	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		key_of(base + i++ % NCHURN, key);
		if (raw) {
			if (raw_add(key, &rn, false))
				errors++;
			else
				raw_del(rn, false);
		} else {
			c = fscache_acquire_cookie(volume, 0, key, 8, NULL, 0,
						   0);
			errors += !c;
			fscache_relinquish_cookie(c, false);
		}
		n++;
	}
	j->errors = errors;
	return n;
}

static void *job_main(void *arg)
{
	struct job *j = arg;

	urcu_memb_register_thread();
	while (!atomic_load(&go))
		;
	switch (j->op) {
	case OURS_LOOKUP:
	case OURS_LOOKUP_REF:
		j->ops = loop_ours_lookup(j, j->op == OURS_LOOKUP_REF);
		break;
	case RAW_LOOKUP:
		j->ops = loop_raw_lookup(j);
		break;
	case OURS_CHURN:
	case RAW_CHURN:
		j->ops = loop_churn(j, j->op == RAW_CHURN);
		break;
	}
	urcu_memb_unregister_thread();
	return NULL;
}

/* Run @op on @nthreads threads for run_ms; operations per second. */
static double measure(enum op op, unsigned int nthreads, unsigned long *err)
{
	struct job jobs[MAX_THREADS];
	unsigned long total = 0;
	unsigned int i;
	double t0, t;

	atomic_store(&go, false);
	atomic_store(&stop, false);
	for (i = 0; i < nthreads; i++) {
		jobs[i] = (struct job){ .op = op, .id = i };
		pthread_create(&jobs[i].thread, NULL, job_main, &jobs[i]);
	}
	t0 = now_s();
	atomic_store(&go, true);
	usleep(run_ms * 1000);
	atomic_store(&stop, true);
	for (i = 0; i < nthreads; i++) {
		pthread_join(jobs[i].thread, NULL);
		total += jobs[i].ops;
		*err += jobs[i].errors;
	}
	t = now_s() - t0;
	return total / t;
}

/* A line of /proc/self/status ("VmRSS", "VmHWM"), in bytes. */
static long status_bytes(const char *name)
{
	FILE *f = fopen("/proc/self/status", "r");
	size_t len = strlen(name);
	char line[256];
	long kb = -1;

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, name, len) && line[len] == ':')
			kb = strtol(line + len + 1, NULL, 10);
	if (f)
		fclose(f);
	return kb * 1024;
}

static int setup(const char *dir, struct fscache_cache **cache,
		 struct fscache_cookie **cookies)
{
	unsigned long buckets;
	long rss0, rss1, rss2;
	unsigned int i;
	double t0, t1;
	u8 key[8];

	if (fscache_cache_open(dir, NULL, cache))
		return -1;
	volume = fscache_acquire_volume(*cache, "bench,lookup", NULL, 0);
	/*
	 * Sized once for the keys, as libkmirror's own table grows to one
	 * bucket a cookie: liburcu's auto-resize works through call_rcu()
	 * and makes the teardown of a large table take minutes.
	 */
	for (buckets = 4096; buckets < nkeys; buckets *= 2)
		;
	raw_ht = cds_lfht_new_flavor(buckets, 4096, 0, 0, &urcu_memb_flavor,
				     NULL);
	if (!volume || !raw_ht)
		return -1;
	rss0 = status_bytes("VmRSS");
	t0 = now_s();
	for (i = 0; i < nkeys; i++) {
		key_of(i, key);
		cookies[i] = fscache_acquire_cookie(volume, 0, key, 8, NULL, 0,
						    0);
		if (!cookies[i])
			return -1;
	}
	t1 = now_s();
	rss1 = status_bytes("VmRSS");
	for (i = 0; i < nkeys; i++) {
		key_of(i, key);
		if (raw_add(key, &raw_nodes[i], true))
			return -1;
	}
	rss2 = status_bytes("VmRSS");
	printf("setup: %u cookies acquired in %.2f s (%.2f M/s), %u raw "
	       "nodes added in %.2f s\n", nkeys, t1 - t0,
	       nkeys / (t1 - t0) / 1e6, nkeys, now_s() - t1);
	printf("memory: VmRSS %.1f MB before, +%.1f MB for the cookies "
	       "(%.0f B/cookie with an 8-byte key, goal <= 256 + key), "
	       "+%.1f MB for the raw nodes (%.0f B/node)\n", rss0 / 1e6,
	       (rss1 - rss0) / 1e6, (double)(rss1 - rss0) / nkeys,
	       (rss2 - rss1) / 1e6, (double)(rss2 - rss1) / nkeys);
	return 0;
}

static void teardown(struct fscache_cache *cache,
		     struct fscache_cookie **cookies)
{
	unsigned int i;
	double t[5];

	t[0] = now_s();
	for (i = 0; i < nkeys; i++)
		fscache_relinquish_cookie(cookies[i], false);
	t[1] = now_s();
	/*
	 * By the nodes kept, not by cds_lfht_for_each(): a walk steps over
	 * every node deleted before, which makes it quadratic.
	 */
	for (i = 0; i < nkeys; i++)
		raw_del(raw_nodes[i], true);
	urcu_memb_barrier();
	t[2] = now_s();
	cds_lfht_destroy(raw_ht, NULL);
	free(raw_wide_slab);
	t[3] = now_s();
	fscache_relinquish_volume(volume, NULL, false);
	fscache_cache_close(cache);
	t[4] = now_s();
	printf("teardown: relinquish %.2f s, raw del %.2f s, raw table "
	       "destroy %.2f s, cache close %.2f s\n", t[1] - t[0],
	       t[2] - t[1], t[3] - t[2], t[4] - t[3]);
	urcu_memb_unregister_thread();
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	return remove(path);
}

int main(int argc, char **argv)
{
	struct fscache_cookie **cookies;
	char dir[] = "/tmp/kmf-bench-XXXXXX";
	struct fscache_cache *cache;
	unsigned long err = 0;
	double r[5][MAX_THREADS + 1];
	unsigned int t, op, round;

	if (argc > 1)
		run_ms = strtoul(argv[1], NULL, 0);
	if (argc > 2)
		nkeys = strtoul(argv[2], NULL, 0);
	if (argc > 3)
		raw_node_bytes = strtoul(argv[3], NULL, 0);
	cookies = calloc(nkeys, sizeof(*cookies));
	raw_nodes = calloc(nkeys, sizeof(*raw_nodes));
	if (!cookies || !raw_nodes || !nkeys || nkeys > (1u << 30)) {
		fprintf(stderr, "bench_lookup: bad key count\n");
		return 1;
	}
	/* Registered before the library sees this thread: it then leaves
	 * the registration to us. */
	urcu_memb_register_thread();
	if (!mkdtemp(dir) || setup(dir, &cache, cookies)) {
		fprintf(stderr, "bench_lookup: setup failed\n");
		return 1;
	}
	/*
	 * Rounds alternate ours and raw, and each keeps its best rate: on a
	 * shared machine, the best of several short runs is the least
	 * disturbed one, for both sides alike.
	 */
	memset(r, 0, sizeof(r));
	for (round = 0; round < ROUNDS; round++)
		for (t = 1; t <= MAX_THREADS; t++)
			for (op = 0; op < 5; op++)
				r[op][t] = fmax(r[op][t],
						measure(op, t, &err));
	printf("cookie index, %u keys, raw nodes of %zu bytes, best of %u runs "
	       "of %u ms (Mops/s)\n", nkeys,
	       raw_node_bytes > sizeof(struct raw_node) ?
	       round_up(raw_node_bytes, 64) : sizeof(struct raw_node), ROUNDS,
	       run_ms);
	for (t = 1; t <= MAX_THREADS; t++) {
		for (op = 0; op < 5; op++)
			printf("  %u thread%s %-20s %8.2f\n", t, t > 1 ? "s" : "",
			       op_names[op], r[op][t] / 1e6);
		printf("  %u thread%s ratio lookup/raw %.2f (goal >= 0.8), "
		       "lookup+ref/raw %.2f, acquire+relinquish/raw add+del "
		       "%.2f (goal >= 0.5)\n", t, t > 1 ? "s" : "",
		       r[OURS_LOOKUP][t] / r[RAW_LOOKUP][t],
		       r[OURS_LOOKUP_REF][t] / r[RAW_LOOKUP][t],
		       r[OURS_CHURN][t] / r[RAW_CHURN][t]);
	}
	printf("memory: VmHWM %.1f MB\n", status_bytes("VmHWM") / 1e6);
	teardown(cache, cookies);
	free(cookies);
	free(raw_nodes);
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	if (err)
		fprintf(stderr, "bench_lookup: %lu failed operations\n", err);
	return err ? 1 : 0;
}
