// SPDX-License-Identifier: GPL-2.0-only
/*
 * Thread stress of the userspace fscache API, in the ztest spirit: N threads
 * acquire, use, write, read, invalidate, resize, unuse and relinquish
 * (sometimes retiring) cookies of a small set of shared keys, look up and
 * read each other's cookies, while the LRU reaper discards unused objects
 * every millisecond.  Runs for a bounded time, then checks what is left on
 * disk after closing and reopening the cache.
 *
 * Invariants checked:
 *  - a key has at most one live cookie (a second acquire fails EEXIST);
 *  - every successful read returns, per 512-byte chunk, zeros or the data
 *    of exactly the generation the cookie's aux data names: data of an
 *    older generation (before an invalidation, or before the "file"
 *    changed and was re-acquired with new aux data) is never served;
 *  - lookups only return live cookies of the key asked for;
 *  - at the end: no cookie, volume or LRU entry is left, every counter
 *    balances, and kmc_alloc_live() is back to its start value.
 *
 * usage: stress_fscache [-t THREADS] [-d MS] [-k KEYS] [-s SEED] [DIR]
 * The seed is printed; pass it back with -s to replay a schedule (thread
 * interleaving still varies).
 *
 * Under a race detector: valgrind --tool=helgrind is not usable here, it
 * takes neither C11 atomics nor liburcu's for synchronisation and reports
 * hundreds of false races.  Use ThreadSanitizer (clang or gcc):
 *   CC=clang meson setup build-tsan -Db_sanitize=thread -Db_lundef=false
 *   meson test -C build-tsan --suite stress
 * The test sets TSAN_OPTIONS to tests/stress/tsan.supp, which says why
 * each suppression is there; the library itself annotates the RCU grace
 * period for TSan (internal.h, kmf_read_unlock()).
 */
#include <errno.h>
#include <ftw.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kmirror/fscache.h"
#include "kcompat/slab.h"

#define MAX_KEYS	64
#define MAX_THREADS	64
#define OBJ_SIZE	16384
#define CHUNK		512
#define NCHUNK		(OBJ_SIZE / CHUNK)

static struct fscache_volume *volume;
static struct fscache_cache *cache;
static unsigned int nkeys = 6, nthreads = 4, duration_ms = 2000;
static atomic_bool stop;
static atomic_uint failures;
/*
 * Generations: the "server" version of a key, carried in the aux data.
 * New ones come from one counter, so no two versions share a number;
 * gens[] is the last one an owner used (any value is a valid guess).
 */
static atomic_uint next_gen, gens[MAX_KEYS];
static atomic_ulong n_ops, n_reads_checked, n_stale, n_dups, n_lookups;
/*
 * The netfs inode lock of each key: like netfs, writes and resizes of a
 * file exclude its reads (cachefiles does not serialise byte ranges; a
 * read racing a write or a truncate of the same bytes may see both).
 */
static pthread_rwlock_t inode_lock[MAX_KEYS];

#define FAIL(fmt, ...) do {						\
	fprintf(stderr, "stress: INVARIANT: " fmt "\n", ##__VA_ARGS__);	\
	atomic_fetch_add(&failures, 1);					\
	atomic_store(&stop, true);					\
} while (0)

/* xorshift64*: a thread's random numbers. */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1DULL;
}

static void key_of(unsigned int k, uint8_t key[8])
{
	memset(key, 0, 8);
	key[0] = k;
	key[1] = 0x5a;
}

/* Chunk @i of key @k in generation @g: a header, then a fill byte. */
static void fill_chunk(uint8_t *p, unsigned int k, uint32_t g, unsigned int i)
{
	memset(p, (uint8_t)(k * 31 + g * 7 + i + 1) | 1, CHUNK);
	memcpy(p, &k, 4);
	memcpy(p + 4, &g, 4);
	memcpy(p + 8, &i, 4);
}

/* A read chunk is all zeros or exactly chunk @i of (@k, @g). */
static bool chunk_ok(const uint8_t *p, unsigned int k, uint32_t g,
		     unsigned int i)
{
	uint8_t want[CHUNK];
	unsigned int j;

	for (j = 0; j < CHUNK && !p[j]; j++)
		;
	if (j == CHUNK)
		return true;
	fill_chunk(want, k, g, i);
	return !memcmp(p, want, CHUNK);
}

static uint32_t aux_gen(struct fscache_cookie *c)
{
	uint32_t g = 0;

	fscache_cookie_get_aux(c, &g, sizeof(g));
	return g;
}

/*
 * Read chunks [@first, @first + @n) of @c and check them against the
 * generation in its aux data as seen right after the operation began.
 */
static void read_check(struct fscache_cookie *c, unsigned int k,
		       unsigned int first, unsigned int n)
{
	static _Thread_local uint8_t buf[OBJ_SIZE];
	struct fscache_cache_resources cres;
	unsigned int i;
	ssize_t got;
	uint32_t g;

	if (fscache_begin_read_operation(&cres, c))
		return;
	g = aux_gen(c);
	pthread_rwlock_rdlock(&inode_lock[k]);
	got = fscache_read(&cres, first * CHUNK, buf, n * CHUNK,
			   FSCACHE_READ_HOLE_CLEAR);
	pthread_rwlock_unlock(&inode_lock[k]);
	fscache_end_operation(&cres);
	if (got == -ESTALE || got == -ENOBUFS) {
		atomic_fetch_add(&n_stale, 1);
		return;
	}
	if (got < 0) {
		FAIL("key %u: read error %zd", k, got);
		return;
	}
	for (i = 0; i < (size_t)got / CHUNK; i++)
		if (!chunk_ok(buf + i * CHUNK, k, g, first + i))
			FAIL("key %u gen %u chunk %u: wrong data (gen %u)", k,
			     g, first + i, *(uint32_t *)(buf + i * CHUNK + 4));
	atomic_fetch_add(&n_reads_checked, 1);
}

/* What one thread holds. */
struct owned {
	struct fscache_cookie	*c;
	unsigned int		k;
	uint32_t		gen;
	int			uses;
};

struct worker {
	pthread_t	thread;
	uint64_t	seed;
	struct owned	own[MAX_KEYS];
	unsigned int	n_own;
};

static void do_acquire(struct worker *w, unsigned int k, bool changed)
{
	struct owned *o = &w->own[w->n_own];
	uint8_t key[8];
	uint32_t g = changed ? atomic_fetch_add(&next_gen, 1) + 1 :
			       atomic_load(&gens[k]);

	key_of(k, key);
	o->c = fscache_acquire_cookie(volume, 0, key, 8, &g, sizeof(g),
				      OBJ_SIZE);
	if (!o->c) {
		if (errno != EEXIST)
			FAIL("key %u: acquire failed: %d", k, errno);
		atomic_fetch_add(&n_dups, 1);
		return;
	}
	atomic_store(&gens[k], g);
	o->k = k;
	o->gen = g;
	o->uses = 0;
	w->n_own++;
}

static void do_write(struct worker *w, struct owned *o)
{
	uint8_t chunk[CHUNK];
	struct fscache_cache_resources cres;
	unsigned int i = rnd(&w->seed) % NCHUNK;

	if (fscache_begin_write_operation(&cres, o->c))
		return;
	fill_chunk(chunk, o->k, o->gen, i);
	pthread_rwlock_wrlock(&inode_lock[o->k]);
	if (fscache_write(&cres, i * CHUNK, chunk, CHUNK) != CHUNK)
		FAIL("key %u: short write", o->k);
	pthread_rwlock_unlock(&inode_lock[o->k]);
	fscache_end_operation(&cres);
}

/* The "server file" changed: invalidate with the next generation. */
static void do_invalidate(struct owned *o)
{
	uint32_t g = atomic_fetch_add(&next_gen, 1) + 1;

	o->gen = g;
	atomic_store(&gens[o->k], g);
	fscache_invalidate(o->c, &g, OBJ_SIZE, 0);
}

static void do_relinquish(struct worker *w, unsigned int slot, bool retire)
{
	struct owned *o = &w->own[slot];
	int64_t size = OBJ_SIZE;

	while (o->uses > 0) {
		fscache_unuse_cookie(o->c, &o->gen, &size);
		o->uses--;
	}
	if (fscache_cookie_n_active(o->c))
		FAIL("key %u: n_active %u at relinquish", o->k,
		     fscache_cookie_n_active(o->c));
	fscache_relinquish_cookie(o->c, retire);
	w->own[slot] = w->own[--w->n_own];
}

/* Another thread's cookie, found by lookup: read and check it. */
static void do_peek(struct worker *w)
{
	unsigned int k = rnd(&w->seed) % nkeys;
	struct fscache_cookie *c;
	uint8_t key[8];

	key_of(k, key);
	atomic_fetch_add(&n_lookups, 1);
	if (rnd(&w->seed) & 1) {
		fscache_read_lock();
		c = fscache_lookup_cookie_rcu(volume, key, 8);
		if (c && fscache_cookie_state(c) ==
		    FSCACHE_COOKIE_STATE__NR)
			FAIL("key %u: bad state", k);
		fscache_read_unlock();
		return;
	}
	c = fscache_lookup_cookie(volume, key, 8);
	if (!c)
		return;
	read_check(c, k, 0, NCHUNK);
	fscache_put_cookie(c);
}

/* One random operation on something this thread owns. */
static void owner_op(struct worker *w, unsigned int slot)
{
	struct owned *o = &w->own[slot];
	unsigned int r = rnd(&w->seed) % 100;
	int64_t size = OBJ_SIZE;

	if (r < 20 && o->uses < 2) {
		if (fscache_use_cookie(o->c, rnd(&w->seed) & 1) == 0 &&
		    fscache_cookie_state(o->c) != FSCACHE_COOKIE_STATE_ACTIVE)
			FAIL("key %u: in use but not active", o->k);
		o->uses++;
	} else if (r < 35 && o->uses > 0) {
		fscache_unuse_cookie(o->c, &o->gen, &size);
		o->uses--;
	} else if (r < 60 && o->uses > 0) {
		do_write(w, o);
	} else if (r < 75) {
		read_check(o->c, o->k, 0, NCHUNK);
	} else if (r < 80) {
		do_invalidate(o);
	} else if (r < 83 && o->uses > 0) {
		/* whole chunks, so that a chunk is cut entirely or not */
		pthread_rwlock_wrlock(&inode_lock[o->k]);
		fscache_resize_cookie(o->c, rnd(&w->seed) % NCHUNK * CHUNK);
		fscache_resize_cookie(o->c, OBJ_SIZE);
		pthread_rwlock_unlock(&inode_lock[o->k]);
	} else if (r < 92) {
		do_relinquish(w, slot, r < 85);
	}
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	unsigned int r;

	while (!atomic_load(&stop)) {
		r = rnd(&w->seed) % 100;
		if (r < 15 && w->n_own < 3)
			do_acquire(w, rnd(&w->seed) % nkeys, r < 5);
		else if (r < 35)
			do_peek(w);
		else if (w->n_own)
			owner_op(w, rnd(&w->seed) % w->n_own);
		atomic_fetch_add(&n_ops, 1);
	}
	while (w->n_own)
		do_relinquish(w, 0, false);
	return NULL;
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	return remove(path);
}

/* After reopening: whatever survived is zeros or its own generation. */
static void check_disk(void)
{
	unsigned int k;

	for (k = 0; k < nkeys; k++) {
		uint32_t g = atomic_load(&gens[k]);
		struct fscache_cookie *c;
		uint8_t key[8];

		key_of(k, key);
		c = fscache_acquire_cookie(volume, 0, key, 8, &g, sizeof(g),
					   OBJ_SIZE);
		if (!c) {
			FAIL("key %u: acquire after reopen", k);
			continue;
		}
		fscache_use_cookie(c, false);
		read_check(c, k, 0, NCHUNK);
		fscache_unuse_cookie(c, NULL, NULL);
		fscache_relinquish_cookie(c, true);
	}
}

static void check_stats(void)
{
	struct fscache_stats st;

	fscache_get_stats(cache, &st);
	if (st.cookies || st.cookies_lru || st.volumes != 1)
		FAIL("left over: cookies %u lru %u volumes %u", st.cookies,
		     st.cookies_lru, st.volumes);
	if (st.acquires != st.acquires_ok + n_dups)
		FAIL("acquires %u != ok %u + duplicates %lu", st.acquires,
		     st.acquires_ok, (unsigned long)n_dups);
	if (st.relinquishes != st.acquires_ok)
		FAIL("relinquishes %u != acquired %u", st.relinquishes,
		     st.acquires_ok);
}

static int open_all(const char *dir)
{
	struct fscache_cache_params p = { .lru_timeout_ms = 1 };
	int ret = fscache_cache_open(dir, &p, &cache);

	if (ret) {
		fprintf(stderr, "stress: cannot open %s: %s\n", dir,
			strerror(-ret));
		return ret;
	}
	volume = fscache_acquire_volume(cache, "stress,vol", "c", 1);
	return volume ? 0 : -errno;
}

static void close_all(void)
{
	fscache_relinquish_volume(volume, NULL, false);
	fscache_cache_close(cache);
}

static void run(uint64_t seed)
{
	static struct worker w[MAX_THREADS];
	unsigned int i;

	for (i = 0; i < nkeys; i++)
		pthread_rwlock_init(&inode_lock[i], NULL);
	for (i = 0; i < nthreads; i++) {
		w[i].seed = seed * (i + 1) + 0x9e3779b97f4a7c15ULL;
		w[i].n_own = 0;
		pthread_create(&w[i].thread, NULL, worker_main, &w[i]);
	}
	usleep(duration_ms * 1000);
	atomic_store(&stop, true);
	for (i = 0; i < nthreads; i++)
		pthread_join(w[i].thread, NULL);
}

static int parse_args(int argc, char **argv, uint64_t *seed, char **dir)
{
	int opt;

	while ((opt = getopt(argc, argv, "t:d:k:s:")) != -1) {
		if (opt == 't')
			nthreads = strtoul(optarg, NULL, 0);
		else if (opt == 'd')
			duration_ms = strtoul(optarg, NULL, 0);
		else if (opt == 'k')
			nkeys = strtoul(optarg, NULL, 0);
		else if (opt == 's')
			*seed = strtoull(optarg, NULL, 0);
		else
			return -1;
	}
	if (!nthreads || nthreads > MAX_THREADS || !nkeys ||
	    nkeys > MAX_KEYS)
		return -1;
	*dir = optind < argc ? argv[optind] : NULL;
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	char tmp[] = "/tmp/kmf-stress-XXXXXX", *dir;
	long live = kmc_alloc_live();

	if (parse_args(argc, argv, &seed, &dir)) {
		fprintf(stderr, "usage: stress_fscache [-t THREADS] [-d MS] "
			"[-k KEYS] [-s SEED] [DIR]\n");
		return 2;
	}
	if (!dir && !(dir = mkdtemp(tmp)))
		return 2;
	printf("stress: seed %llu, %u threads, %u keys, %u ms, %s\n",
	       (unsigned long long)seed, nthreads, nkeys, duration_ms, dir);
	if (open_all(dir))
		return 1;
	run(seed);
	check_stats();
	close_all();
	if (open_all(dir))
		return 1;
	check_disk();
	close_all();
	if (kmc_alloc_live() != live)
		FAIL("kmc_alloc_live %ld, was %ld", kmc_alloc_live(), live);
	printf("stress: %lu ops, %lu reads checked, %lu stale/nobufs, "
	       "%lu duplicate acquires, %lu lookups: %s\n",
	       (unsigned long)n_ops, (unsigned long)n_reads_checked,
	       (unsigned long)n_stale, (unsigned long)n_dups,
	       (unsigned long)n_lookups,
	       atomic_load(&failures) ? "FAILED" : "ok");
	if (dir == tmp)
		nftw(tmp, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return atomic_load(&failures) ? 1 : 0;
}
