// SPDX-License-Identifier: GPL-2.0-only
/*
 * kmirror-mkcache: build a cachefiles-layout cache of N data objects, fast,
 * for the scale benchmarks and tests.
 *
 *   kmirror-mkcache [--bytes B] [--sparse] [--key-len L] [--seed S]
 *                   [--jobs J] DIR VOLUME_KEY N
 *
 * DIR is made a cache (or must already be one) and VOLUME_KEY a volume in
 * it by libkmirror itself (fscache_cache_open(), fscache_acquire_volume()),
 * so cache/, graveyard/, the volume directory with its xattr and its 256
 * fan-outs are what the library and the kernel's cachefiles make.  Each
 * object is then written directly, as a relinquished cookie leaves it, but
 * without a cookie's state machine: its fan-out is (u8) of the core's
 * cookie hash (kmc_cookie_hash() salted with kmc_volume_hash()), its name
 * the core's kmc_cook_key(), its user.CacheFiles.cache xattr the core's
 * kmc_xattr_encode() of a data object of B bytes, content "all", 8 bytes
 * of aux data (the object number, little-endian).
 *
 * Keys are L bytes (default 8): the object number plus S, little-endian,
 * then zeros, so every key is distinct (checked for L < 8).  An object gets
 * B bytes of data (default 4096, all 0x5a), or with --sparse only its size.
 * Atimes (and mtimes) are one second apart in object order, oldest first,
 * so least-recently-used order is defined.  J threads (default: the online
 * CPUs, at most 8) write the objects; the result does not depend on J.
 *
 * Prints the elapsed time and objects/s on stderr; on any error, one line
 * saying what failed and exit status 1.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "kcompat.h"
#include "kmc_cookie.h"
#include "kmc_key.h"
#include "kmc_layout.h"
#include "kmc_volume.h"
#include "kmc_xattr.h"
#include "kmirror/fscache.h"

#define MK_JOBS_MAX	8
#define MK_ATIME_BASE	1000000000L	/* 2001-09-09: object 0's atime */

struct mk {
	const char	*dir, *volume;
	unsigned long	n, bytes, seed;
	unsigned int	key_len, jobs;
	bool		sparse;
	u32		volume_hash;
	int		fanout_fd[KMC_FANOUT_NR];
	char		*data;
};

struct mk_job {
	struct mk	*mk;
	unsigned int	index;
	pthread_t	thread;
};

/* One message, from the first thread that fails; the others wait here. */
static pthread_mutex_t die_lock = PTHREAD_MUTEX_INITIALIZER;

static void die(const char *what, int err)
{
	pthread_mutex_lock(&die_lock);
	fprintf(stderr, "kmirror-mkcache: %s: %s\n", what, strerror(err));
	exit(1);
}

static void usage(void)
{
	fprintf(stderr, "usage: kmirror-mkcache [--bytes B] [--sparse] "
		"[--key-len L] [--seed S] [--jobs J] DIR VOLUME_KEY N\n");
	exit(1);
}

static unsigned long number(const char *what, const char *s)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (!*s || *end || *s == '-' || errno) {
		fprintf(stderr, "kmirror-mkcache: %s: '%s' is not a number\n",
			what, s);
		exit(1);
	}
	return v;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The cache and the volume, as libkmirror makes them; its fan-outs open. */
static void mk_volume(struct mk *m)
{
	struct fscache_cache_params p = { .lru_timeout_ms = -1,
					  .flags = FSCACHE_CACHE_NO_REAPER };
	char path[KMC_OBJECT_PATH_SIZE], vdir[KMC_VOLUME_DIR_SIZE];
	struct fscache_volume *v;
	struct fscache_cache *c;
	unsigned int i;
	int ret;

	ret = kmc_volume_dir_name(m->volume, strlen(m->volume), vdir,
				  sizeof(vdir));
	if (ret < 0) {
		fprintf(stderr, "kmirror-mkcache: volume key '%s': %s\n",
			m->volume, ret == -EACCES ? "no '/' allowed" :
			ret == -ENAMETOOLONG ? "too long" : strerror(-ret));
		exit(1);
	}
	ret = kmc_volume_hash(m->volume, strlen(m->volume), &m->volume_hash);
	if (ret < 0)
		die("volume key", -ret);
	if (mkdir(m->dir, 0700) && errno != EEXIST)
		die(m->dir, errno);
	ret = fscache_cache_open(m->dir, &p, &c);
	if (ret)
		die(m->dir, -ret);
	v = fscache_acquire_volume(c, m->volume, NULL, 0);
	if (!v)
		die(m->volume, errno ? errno : EIO);
	fscache_relinquish_volume(v, NULL, false);
	fscache_cache_close(c);

	for (i = 0; i < KMC_FANOUT_NR; i++) {
		char fan[KMC_FANOUT_NAME_LEN + 1];

		kmc_fanout_name(i, fan, sizeof(fan));
		snprintf(path, sizeof(path), "%s/%s/%s/%s", m->dir,
			 KMC_CACHE_DIR, vdir, fan);
		m->fanout_fd[i] = open(path, O_RDONLY | O_DIRECTORY |
				       O_CLOEXEC);
		if (m->fanout_fd[i] < 0)
			die(path, errno);
	}
}

static void mk_fail(struct mk *m, unsigned int fan, const char *name,
		    int err)
{
	char what[64 + KMC_COOKED_MAX];

	snprintf(what, sizeof(what), "cache/I%s/@%02x/%s", m->volume, fan,
		 name);
	die(what, err);
}

static void mk_object(struct mk *m, unsigned long i)
{
	u64 id = i + m->seed;
	u8 key[KMC_KEY_MAX] = { 0 }, aux[8], xv[KMC_XATTR_MAX];
	struct kmc_xattr x = {
		.object_size = m->bytes, .type = KMC_XATTR_TYPE_DATA,
		.content = KMC_CONTENT_ALL, .aux = aux, .aux_len = sizeof(aux),
	};
	struct timespec t[2] = { { MK_ATIME_BASE + (time_t)i, 0 },
				 { MK_ATIME_BASE + (time_t)i, 0 } };
	char name[KMC_COOKED_MAX + 1];
	unsigned int b, fan;
	int fd, len, xlen;
	u32 hash;

	for (b = 0; b < 8; b++) {
		if (b < m->key_len)
			key[b] = id >> (8 * b);
		aux[b] = (u64)i >> (8 * b);
	}
	len = kmc_cookie_hash(m->volume_hash, key, m->key_len, &hash);
	if (len < 0)
		die("key hash", -len);
	fan = kmc_fanout_index(hash);
	len = kmc_cook_key(key, m->key_len, name, sizeof(name));
	if (len < 0)
		die("key cooking", -len);
	if (len > NAME_MAX)
		mk_fail(m, fan, name, ENAMETOOLONG);
	xlen = kmc_xattr_encode(&x, xv, sizeof(xv));
	if (xlen < 0)
		die("xattr", -xlen);

	fd = openat(m->fanout_fd[fan], name,
		    O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		mk_fail(m, fan, name, errno);
	if (m->sparse) {
		if (ftruncate(fd, m->bytes))
			mk_fail(m, fan, name, errno);
	} else if (m->bytes) {
		ssize_t w = pwrite(fd, m->data, m->bytes, 0);

		if (w != (ssize_t)m->bytes)
			mk_fail(m, fan, name, w < 0 ? errno : ENOSPC);
	}
	if (fsetxattr(fd, KMC_XATTR_NAME, xv, xlen, 0) || futimens(fd, t))
		mk_fail(m, fan, name, errno);
	if (close(fd))
		mk_fail(m, fan, name, errno);
}

static void *mk_job(void *arg)
{
	struct mk_job *j = arg;
	struct mk *m = j->mk;
	unsigned long i;

	for (i = j->index; i < m->n; i += m->jobs)
		mk_object(m, i);
	return NULL;
}

static void mk_objects(struct mk *m)
{
	struct mk_job jobs[MK_JOBS_MAX];
	unsigned int i;
	int ret;

	for (i = 0; i < m->jobs; i++) {
		jobs[i] = (struct mk_job){ .mk = m, .index = i };
		ret = pthread_create(&jobs[i].thread, NULL, mk_job, &jobs[i]);
		if (ret)
			die("pthread_create", ret);
	}
	for (i = 0; i < m->jobs; i++)
		pthread_join(jobs[i].thread, NULL);
}

int main(int argc, char **argv)
{
	struct mk m = { .bytes = 4096, .key_len = 8 };
	unsigned long jobs = 0;
	double t0, t1, t2;
	unsigned int i;
	long cpus;
	int a;

	for (a = 1; a < argc && !strncmp(argv[a], "--", 2); a++) {
		const char *opt = argv[a];

		if (!strcmp(opt, "--")) {
			a++;
			break;
		}
		if (!strcmp(opt, "--sparse")) {
			m.sparse = true;
			continue;
		}
		if (a + 1 == argc)
			usage();
		if (!strcmp(opt, "--bytes"))
			m.bytes = number(opt, argv[++a]);
		else if (!strcmp(opt, "--key-len"))
			m.key_len = number(opt, argv[++a]);
		else if (!strcmp(opt, "--seed"))
			m.seed = number(opt, argv[++a]);
		else if (!strcmp(opt, "--jobs"))
			jobs = number(opt, argv[++a]);
		else
			usage();
	}
	if (argc - a != 3)
		usage();
	m.dir = argv[a];
	m.volume = argv[a + 1];
	m.n = number("N", argv[a + 2]);
	if (!m.key_len || m.key_len > KMC_KEY_MAX) {
		fprintf(stderr, "kmirror-mkcache: --key-len: 1 to %d bytes\n",
			KMC_KEY_MAX);
		exit(1);
	}
	if (m.bytes > SSIZE_MAX / 2) {
		fprintf(stderr, "kmirror-mkcache: --bytes: too large\n");
		exit(1);
	}
	/* Distinct keys: the last object number plus the seed must fit. */
	if (m.n && (m.seed > ULONG_MAX - (m.n - 1) ||
		    (m.key_len < 8 &&
		     (m.seed + m.n - 1) >> (8 * m.key_len)))) {
		fprintf(stderr, "kmirror-mkcache: %lu objects from seed %lu do "
			"not have distinct %u-byte keys\n", m.n, m.seed,
			m.key_len);
		exit(1);
	}
	if (!jobs) {
		cpus = sysconf(_SC_NPROCESSORS_ONLN);
		jobs = cpus > 0 ? (unsigned long)cpus : 1;
	}
	m.jobs = jobs < MK_JOBS_MAX ? jobs : MK_JOBS_MAX;
	m.data = malloc(m.bytes ? m.bytes : 1);
	if (!m.data)
		die("data", ENOMEM);
	memset(m.data, 0x5a, m.bytes);

	t0 = now_s();
	mk_volume(&m);
	t1 = now_s();
	mk_objects(&m);
	t2 = now_s();
	fprintf(stderr, "kmirror-mkcache: %lu objects of %lu bytes%s in "
		"volume %s: %.2f s (%.0f objects/s, %u threads), %.2f s "
		"with the volume\n", m.n, m.bytes, m.sparse ? " (sparse)" : "",
		m.volume, t2 - t1, t2 > t1 ? m.n / (t2 - t1) : 0.0, m.jobs,
		t2 - t0);
	for (i = 0; i < KMC_FANOUT_NR; i++)
		close(m.fanout_fd[i]);
	free(m.data);
	return 0;
}
