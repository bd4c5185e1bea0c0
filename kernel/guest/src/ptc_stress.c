// SPDX-License-Identifier: GPL-2.0-only
/*
 * ptc_stress: fork, copy-on-write, mmap and munmap stress for the
 * page-table check (mm/page_table_check.c), run in the QEMU guest.
 *
 *   ptc_stress SECONDS [WORKERS [DIR]]
 *
 * WORKERS processes (default 4) loop until SECONDS have passed, each
 * running these operations in turn on regions of random sizes, every one
 * with THP-sized (2 MiB, 2 MiB-aligned) anonymous memory where it makes
 * sense:
 *
 *   fork_cow   private anonymous and MAP_SHARED anonymous memory filled,
 *              fork; the child checks it, writes every other page (COW)
 *              and the shared pages, a grandchild writes some more; the
 *              parent checks that it kept its private bytes and sees the
 *              children's shared ones;
 *   file       a tmpfs file in DIR (default /tmp) mapped MAP_SHARED and
 *              MAP_PRIVATE: writes through the shared map reach the file,
 *              writes through the private map do not, a child writes both,
 *              mprotect read-only and back, the private map zapped
 *              (MADV_DONTNEED) shows the file again, a hole punched into
 *              the shared map by munmap;
 *   protect    anonymous memory split by mprotect (read-only, PROT_NONE,
 *              back), zapped in the middle (reads zero afterwards);
 *   remap      anonymous memory grown and moved by mremap, to a
 *              PMD-aligned address too (move_huge_pmd);
 *   split      a THP split by munmapping one page in its middle, then
 *              forked and written by the child.
 *
 * Every byte written is a function of (worker, operation, page), and
 * every region is checked in full after each step: a wrong byte is
 * reported with its address, expected and found value, and the program
 * exits 1.  With page_table_check=on a kernel accounting bug BUG()s; the
 * host's console check catches that.  Exits 0 when every check passed.
 *
 * Kernels without CONFIG_ADVISE_SYSCALLS (tinyconfig) have no madvise(2):
 * the zaps then map the range afresh with MAP_FIXED, which zaps it the
 * same way (unmap_region()), and the summary says so.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "meminfo.h"

#define PAGE_SZ		4096UL
#define THP_SZ		(2UL << 20)
#define MAX_WORKERS	64
#define GRACE_SECS	120
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

struct counters {
	uint64_t iterations;
	uint64_t forks;
	uint64_t file_maps;
	uint64_t zaps;
	uint64_t protects;
	uint64_t remaps;
	uint64_t splits;
	uint64_t pages_checked;
};

static struct counters *stats;	/* one per worker, MAP_SHARED */
static int worker_id;
static uint64_t rng_state;
static double deadline;
static const char *dir = "/tmp";
static int have_madvise;

static void fail(const char *fmt, ...)
{
	va_list ap;
	char msg[512];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	printf("ptc_stress: FAIL worker %d pid %d: %s\n", worker_id,
	       (int)getpid(), msg);
	fflush(stdout);
	_exit(1);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static uint64_t rnd(uint64_t n)
{
	rng_state = mix(rng_state);
	return rng_state % n;
}

/* A tag names one write: which worker, which operation, which step. */
static uint64_t tag(uint64_t op, uint64_t step)
{
	return mix(((uint64_t)worker_id << 48) ^ (op << 32) ^ step ^
		   (stats[worker_id].iterations << 8));
}

static uint64_t word(uint64_t t, size_t page, size_t w)
{
	return mix(t ^ ((uint64_t)page << 12) ^ w);
}

/* Fill page @page of @base (page index @page counted from @base). */
static void fill_page(char *base, size_t page, uint64_t t)
{
	uint64_t *p = (uint64_t *)(base + page * PAGE_SZ);
	size_t w;

	for (w = 0; w < PAGE_SZ / 8; w++)
		p[w] = word(t, page, w);
}

static void fill(char *base, size_t first, size_t n, uint64_t t)
{
	size_t i;

	for (i = first; i < first + n; i++)
		fill_page(base, i, t);
}

/*
 * @mem holds page @page of a region written with tag @t (t == 0: the page
 * must read as zeros).
 */
static void check_mem(const char *what, const char *mem, size_t page,
		      uint64_t t)
{
	const uint64_t *p = (const uint64_t *)mem;
	size_t w, b;

	for (w = 0; w < PAGE_SZ / 8; w++) {
		uint64_t want = t ? word(t, page, w) : 0;

		if (p[w] == want)
			continue;
		for (b = 0; b < 8; b++) {
			unsigned int wb = (want >> (8 * b)) & 0xff;
			unsigned int gb = (p[w] >> (8 * b)) & 0xff;

			if (wb != gb)
				fail("%s: wrong byte at %p (page %zu offset %zu): expected 0x%02x, found 0x%02x",
				     what, (const void *)(mem + w * 8 + b),
				     page, w * 8 + b, wb, gb);
		}
	}
	stats[worker_id].pages_checked++;
}

static void check_page(const char *what, char *base, size_t page, uint64_t t)
{
	check_mem(what, base + page * PAGE_SZ, page, t);
}

static void check(const char *what, char *base, size_t first, size_t n,
		  uint64_t t)
{
	size_t i;

	for (i = first; i < first + n; i++)
		check_page(what, base, i, t);
}

static void *map_anon(size_t len, int flags)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       flags | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		fail("mmap anonymous %zu bytes: %s", len, strerror(errno));
	return p;
}

static void unmap(void *p, size_t len)
{
	if (munmap(p, len))
		fail("munmap %p+%zu: %s", p, len, strerror(errno));
}

/*
 * Private anonymous memory of @len bytes (a multiple of 2 MiB) starting
 * on a 2 MiB boundary, so that with THP "always" it faults in huge pages.
 * The surplus of the bigger mapping is unmapped (that alone splits
 * nothing: it was never touched).
 */
static char *map_thp(size_t len)
{
	char *p = map_anon(len + THP_SZ, MAP_PRIVATE);
	uintptr_t a = ((uintptr_t)p + THP_SZ - 1) & ~(THP_SZ - 1);
	size_t head = a - (uintptr_t)p;

	if (head)
		unmap(p, head);
	if (THP_SZ - head)
		unmap((char *)a + len, THP_SZ - head);
	return (char *)a;
}

/*
 * Throw away the pages of a private range: MADV_DONTNEED, or without
 * madvise(2) (false here) a fresh MAP_FIXED mapping over it, done by the
 * callers below.
 */
static bool zap_madvise(char *p, size_t len)
{
	stats[worker_id].zaps++;
	if (!have_madvise)
		return false;
	if (madvise(p, len, MADV_DONTNEED))
		fail("madvise DONTNEED %p+%zu: %s", (void *)p, len,
		     strerror(errno));
	return true;
}

/* Anonymous: reads zeros afterwards. */
static void zap_anon(char *p, size_t len)
{
	if (zap_madvise(p, len))
		return;
	if (mmap(p, len, PROT_READ | PROT_WRITE,
		 MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) == MAP_FAILED)
		fail("mmap MAP_FIXED anonymous %p+%zu: %s", (void *)p, len,
		     strerror(errno));
}

/* A MAP_PRIVATE map of @fd at file offset @off: shows the file again. */
static void zap_file(char *p, size_t len, int fd, off_t off)
{
	if (zap_madvise(p, len))
		return;
	if (mmap(p, len, PROT_READ | PROT_WRITE, MAP_FIXED | MAP_PRIVATE,
		 fd, off) == MAP_FAILED)
		fail("mmap MAP_FIXED file %p+%zu: %s", (void *)p, len,
		     strerror(errno));
}

static void protect(char *p, size_t len, int prot)
{
	stats[worker_id].protects++;
	if (mprotect(p, len, prot))
		fail("mprotect %p+%zu %d: %s", (void *)p, len, prot,
		     strerror(errno));
}

static pid_t do_fork(void)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		fail("fork: %s", strerror(errno));
	stats[worker_id].forks++;
	return pid;
}

static void reap(pid_t pid, const char *what)
{
	int st;

	if (waitpid(pid, &st, 0) != pid)
		fail("waitpid %s: %s", what, strerror(errno));
	if (WIFSIGNALED(st))
		fail("%s: child %d killed by signal %d", what, (int)pid,
		     WTERMSIG(st));
	if (WEXITSTATUS(st))
		fail("%s: child %d failed", what, (int)pid);
}

/*
 * Page i of a region whose odd pages a child rewrote with @odd, the rest
 * being @even.
 */
static void check_alternate(const char *what, char *p, size_t n,
			    uint64_t even, uint64_t odd)
{
	size_t i;

	for (i = 0; i < n; i++)
		check_page(what, p, i, i & 1 ? odd : even);
}

static void op_fork_cow(void)
{
	size_t nthp = 1 + rnd(2), npriv = 1 + rnd(64), nshared = 1 + rnd(16);
	size_t thp_pages = nthp * THP_SZ / PAGE_SZ;
	char *thp = map_thp(nthp * THP_SZ);
	char *priv = map_anon(npriv * PAGE_SZ, MAP_PRIVATE);
	char *shared = map_anon(nshared * PAGE_SZ, MAP_SHARED);
	uint64_t a = tag(1, 0), c = tag(1, 1), s = tag(1, 2), s2 = tag(1, 3);
	uint64_t g = tag(1, 4), b = tag(1, 5);
	pid_t pid;

	fill(thp, 0, thp_pages, a);
	fill(priv, 0, npriv, a);
	fill(shared, 0, nshared, s);
	pid = do_fork();
	if (pid == 0) {
		pid_t gc;

		check("cow child: inherited THP", thp, 0, thp_pages, a);
		check("cow child: inherited private", priv, 0, npriv, a);
		check("cow child: inherited shared", shared, 0, nshared, s);
		for (size_t i = 1; i < thp_pages; i += 2)
			fill_page(thp, i, c);
		for (size_t i = 1; i < npriv; i += 2)
			fill_page(priv, i, c);
		fill(shared, 0, nshared, s2);
		check_alternate("cow child: own THP", thp, thp_pages, a, c);
		check_alternate("cow child: own private", priv, npriv, a, c);
		gc = do_fork();
		if (gc == 0) {
			/* The grandchild rewrites the first THP wholly. */
			check_alternate("cow grandchild: THP", thp, thp_pages,
					a, c);
			fill(thp, 0, THP_SZ / PAGE_SZ, g);
			check("cow grandchild: own THP", thp, 0,
			      THP_SZ / PAGE_SZ, g);
			_exit(0);
		}
		reap(gc, "cow grandchild");
		check_alternate("cow child: after grandchild", thp, thp_pages,
				a, c);
		_exit(0);
	}
	/* Race the child: write the even pages of our copy meanwhile. */
	for (size_t i = 0; i < npriv; i += 2)
		fill_page(priv, i, b);
	reap(pid, "cow child");
	check("cow parent: THP kept", thp, 0, thp_pages, a);
	check_alternate("cow parent: private kept", priv, npriv, b, a);
	check("cow parent: shared written by the child", shared, 0, nshared,
	      s2);
	unmap(thp, nthp * THP_SZ);
	unmap(priv, npriv * PAGE_SZ);
	unmap(shared, nshared * PAGE_SZ);
}

static void pwrite_pages(int fd, size_t first, size_t n, uint64_t t)
{
	static uint64_t buf[PAGE_SZ / 8];
	size_t i;

	for (i = first; i < first + n; i++) {
		size_t j;

		for (j = 0; j < PAGE_SZ / 8; j++)
			buf[j] = word(t, i, j);
		if (pwrite(fd, buf, PAGE_SZ, i * PAGE_SZ) != (ssize_t)PAGE_SZ)
			fail("pwrite page %zu: %s", i, strerror(errno));
	}
}

/* The file's pages [first, first + n) through read(2). */
static void check_file(const char *what, int fd, size_t first, size_t n,
		       uint64_t *tags)
{
	static uint64_t buf[PAGE_SZ / 8];
	size_t i;

	for (i = first; i < first + n; i++) {
		if (pread(fd, buf, PAGE_SZ, i * PAGE_SZ) != (ssize_t)PAGE_SZ)
			fail("%s: pread page %zu: %s", what, i,
			     strerror(errno));
		check_mem(what, (const char *)buf, i, tags[i]);
	}
}

/* Pages [first, first + n) of @p against their tags. */
static void check_tags(const char *what, char *p, size_t first, size_t n,
		       uint64_t *tags)
{
	size_t i;

	for (i = first; i < first + n; i++)
		check_page(what, p, i, tags[i]);
}

static void op_file(void)
{
	size_t n = 1 + rnd(rnd(4) ? 128 : 640), i, h0, hn;
	uint64_t *ftag = calloc(n, sizeof(*ftag));	/* file contents */
	uint64_t *ptag = calloc(n, sizeof(*ptag));	/* private view */
	uint64_t f = tag(2, 0), gsh = tag(2, 1), p = tag(2, 2);
	uint64_t h = tag(2, 3), q = tag(2, 4);
	char path[256];
	char *shm, *pm;
	pid_t pid;
	int fd;

	if (!ftag || !ptag)
		fail("out of memory");
	snprintf(path, sizeof(path), "%s/ptc_stress.%d.%d", dir, worker_id,
		 (int)getpid());
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		fail("open %s: %s", path, strerror(errno));
	if (unlink(path))
		fail("unlink %s: %s", path, strerror(errno));
	if (ftruncate(fd, n * PAGE_SZ))
		fail("ftruncate: %s", strerror(errno));
	pwrite_pages(fd, 0, n, f);
	for (i = 0; i < n; i++)
		ftag[i] = f;

	shm = mmap(NULL, n * PAGE_SZ, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   0);
	pm = mmap(NULL, n * PAGE_SZ, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd,
		  0);
	if (shm == MAP_FAILED || pm == MAP_FAILED)
		fail("mmap file %zu pages: %s", n, strerror(errno));
	stats[worker_id].file_maps += 2;

	/* Read faults first: the private map maps page-cache pages. */
	check_tags("file: shared map", shm, 0, n, ftag);
	check_tags("file: private map, read", pm, 0, n, ftag);

	/* Writes through the shared map reach the file. */
	for (i = 0; i < n; i += 3) {
		fill_page(shm, i, gsh);
		ftag[i] = gsh;
	}
	check_file("file: after shared writes", fd, 0, n, ftag);
	/* The private map had not written: it still shows the file. */
	check_tags("file: private map sees shared writes", pm, 0, n, ftag);

	/* Writes through the private map (COW from the page cache). */
	for (i = 0; i < n; i++)
		ptag[i] = ftag[i];
	for (i = 0; i < n; i += 2) {
		fill_page(pm, i, p);
		ptag[i] = p;
	}
	check_tags("file: private map, own writes", pm, 0, n, ptag);
	check_file("file: private writes stay private", fd, 0, n, ftag);

	pid = do_fork();
	if (pid == 0) {
		check_tags("file child: shared", shm, 0, n, ftag);
		check_tags("file child: private", pm, 0, n, ptag);
		for (i = 1; i < n; i += 2)
			fill_page(shm, i, h);
		for (i = 0; i < n; i += 4)
			fill_page(pm, i, q);
		_exit(0);
	}
	reap(pid, "file child");
	for (i = 1; i < n; i += 2)
		ftag[i] = h;
	for (i = 0; i < n; i++) {
		/* Pages the parent never wrote follow the file. */
		if (ptag[i] != p)
			ptag[i] = ftag[i];
	}
	check_file("file: child's shared writes", fd, 0, n, ftag);
	check_tags("file: shared map after child", shm, 0, n, ftag);
	check_tags("file: private map after child", pm, 0, n, ptag);

	/* Read-only and back. */
	protect(pm, n * PAGE_SZ, PROT_READ);
	check_tags("file: private map read-only", pm, 0, n, ptag);
	protect(pm, n * PAGE_SZ, PROT_READ | PROT_WRITE);
	fill_page(pm, n - 1, p);
	ptag[n - 1] = p;

	/* Zapped, the private map shows the file again. */
	h0 = rnd(n);
	hn = 1 + rnd(n - h0);
	zap_file(pm + h0 * PAGE_SZ, hn * PAGE_SZ, fd, h0 * PAGE_SZ);
	for (i = h0; i < h0 + hn; i++)
		ptag[i] = ftag[i];
	check_tags("file: private map after zap", pm, 0, n, ptag);

	/* A hole in the shared map; the rest stays. */
	h0 = rnd(n);
	hn = 1 + rnd(n - h0);
	unmap(shm + h0 * PAGE_SZ, hn * PAGE_SZ);
	check_tags("file: shared map before the hole", shm, 0, h0, ftag);
	check_tags("file: shared map after the hole", shm, h0 + hn,
		   n - h0 - hn, ftag);
	if (h0)
		unmap(shm, h0 * PAGE_SZ);
	if (n - h0 - hn)
		unmap(shm + (h0 + hn) * PAGE_SZ, (n - h0 - hn) * PAGE_SZ);
	unmap(pm, n * PAGE_SZ);
	close(fd);
	free(ftag);
	free(ptag);
}

static void op_protect(void)
{
	size_t npages = THP_SZ / PAGE_SZ * (1 + rnd(2)), a, an, z, zn;
	char *m = map_thp(npages * PAGE_SZ);
	uint64_t t = tag(3, 0), t2 = tag(3, 1);

	fill(m, 0, npages, t);
	/* Split the THP and the VMA: a read-only stretch inside it. */
	a = 1 + rnd(npages - 2);
	an = 1 + rnd(npages - a - 1);
	protect(m + a * PAGE_SZ, an * PAGE_SZ, PROT_READ);
	check("protect: read-only stretch", m, 0, npages, t);
	protect(m + a * PAGE_SZ, PAGE_SZ, PROT_NONE);
	protect(m + a * PAGE_SZ, an * PAGE_SZ, PROT_READ | PROT_WRITE);
	check("protect: writable again", m, 0, npages, t);
	fill(m, a, an, t2);
	check("protect: rewritten stretch", m, a, an, t2);

	/* Zap a range: it reads zeros, and what was around it stays. */
	z = rnd(npages);
	zn = 1 + rnd(npages - z);
	zap_anon(m + z * PAGE_SZ, zn * PAGE_SZ);
	for (size_t i = 0; i < npages; i++) {
		uint64_t want = (i >= a && i < a + an) ? t2 : t;

		if (i >= z && i < z + zn)
			want = 0;
		check_page("protect: after zap", m, i, want);
	}
	fill(m, z, zn, t);
	check("protect: refilled", m, z, zn, t);
	unmap(m, npages * PAGE_SZ);
}

static void op_remap(void)
{
	size_t npages = THP_SZ / PAGE_SZ, grown = 3 * npages;
	char *m = map_thp(npages * PAGE_SZ), *m2, *dst, *m3;
	uint64_t t = tag(4, 0), t2 = tag(4, 1);

	stats[worker_id].remaps += 2;
	fill(m, 0, npages, t);
	m2 = mremap(m, npages * PAGE_SZ, grown * PAGE_SZ, MREMAP_MAYMOVE);
	if (m2 == MAP_FAILED)
		fail("mremap grow: %s", strerror(errno));
	check("remap: grown, old part", m2, 0, npages, t);
	check("remap: grown, new part", m2, npages, grown - npages, 0);
	fill(m2, npages, grown - npages, t2);

	/* Move the first 2 MiB to a free PMD-aligned address. */
	dst = map_thp(THP_SZ);
	m3 = mremap(m2, THP_SZ, THP_SZ, MREMAP_MAYMOVE | MREMAP_FIXED, dst);
	if (m3 != dst)
		fail("mremap fixed: %s", strerror(errno));
	check("remap: moved", m3, 0, npages, t);
	check("remap: left behind", m2, npages, grown - npages, t2);
	unmap(m3, THP_SZ);
	unmap(m2 + THP_SZ, (grown - npages) * PAGE_SZ);
}

static void op_split(void)
{
	size_t npages = THP_SZ / PAGE_SZ, hole = 1 + rnd(npages - 2);
	char *m = map_thp(THP_SZ);
	uint64_t t = tag(5, 0), c = tag(5, 1);
	pid_t pid;

	stats[worker_id].splits++;
	fill(m, 0, npages, t);
	unmap(m + hole * PAGE_SZ, PAGE_SZ);
	check("split: before the hole", m, 0, hole, t);
	check("split: after the hole", m, hole + 1, npages - hole - 1, t);
	pid = do_fork();
	if (pid == 0) {
		fill(m, 0, hole, c);
		check("split child: own", m, 0, hole, c);
		check("split child: inherited", m, hole + 1,
		      npages - hole - 1, t);
		_exit(0);
	}
	reap(pid, "split child");
	check("split parent: kept", m, 0, hole, t);
	unmap(m, hole * PAGE_SZ);
	unmap(m + (hole + 1) * PAGE_SZ, (npages - hole - 1) * PAGE_SZ);
}

static void worker(int id, uint64_t seed)
{
	static void (*const ops[])(void) = {
		op_fork_cow, op_file, op_protect, op_remap, op_split,
	};
	size_t k = 0;

	worker_id = id;
	rng_state = mix(seed ^ (uint64_t)id);
	while (now() < deadline) {
		ops[k++ % ARRAY_SIZE(ops)]();
		stats[id].iterations++;
	}
	_exit(0);
}

int main(int argc, char **argv)
{
	pid_t pids[MAX_WORKERS];
	int nworkers = 4, alive, i, bad = 0;
	double secs, start;
	long thp_max = -1, kb;
	struct counters sum = { 0 };
	uint64_t seed;

	if (argc < 2 || argc > 4) {
		fprintf(stderr, "usage: ptc_stress SECONDS [WORKERS [DIR]]\n");
		return 2;
	}
	secs = atof(argv[1]);
	if (argc > 2)
		nworkers = atoi(argv[2]);
	if (argc > 3)
		dir = argv[3];
	if (secs <= 0 || nworkers < 1 || nworkers > MAX_WORKERS) {
		fprintf(stderr, "ptc_stress: bad SECONDS or WORKERS\n");
		return 2;
	}
	have_madvise = madvise(NULL, 0, MADV_NORMAL) == 0 || errno != ENOSYS;
	stats = mmap(NULL, sizeof(*stats) * MAX_WORKERS,
		     PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (stats == MAP_FAILED) {
		perror("ptc_stress: mmap");
		return 1;
	}
	seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	printf("ptc_stress: %g s, %d workers, files in %s, seed %" PRIu64
	       ", zap by %s\n", secs, nworkers, dir, seed,
	       have_madvise ? "madvise(MADV_DONTNEED)" :
	       "MAP_FIXED remap (no madvise(2) in this kernel)");
	fflush(stdout);

	start = now();
	deadline = start + secs;
	for (i = 0; i < nworkers; i++) {
		pids[i] = fork();
		if (pids[i] < 0) {
			perror("ptc_stress: fork");
			return 1;
		}
		if (pids[i] == 0)
			worker(i, seed);
	}

	worker_id = -1;
	for (alive = nworkers; alive > 0;) {
		int st;
		pid_t pid = waitpid(-1, &st, WNOHANG);

		if (pid == 0) {
			kb = meminfo_kb("AnonHugePages");
			if (kb > thp_max)
				thp_max = kb;
			if (now() > deadline + GRACE_SECS) {
				printf("ptc_stress: FAIL workers still running %d s after the deadline\n",
				       GRACE_SECS);
				bad = 1;
				break;
			}
			usleep(100 * 1000);
			continue;
		}
		if (pid < 0) {
			perror("ptc_stress: waitpid");
			bad = 1;
			break;
		}
		alive--;
		if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
			continue;
		for (i = 0; i < nworkers; i++)
			if (pids[i] == pid)
				break;
		if (WIFSIGNALED(st))
			printf("ptc_stress: FAIL worker %d killed by signal %d\n",
			       i, WTERMSIG(st));
		else
			printf("ptc_stress: FAIL worker %d exited %d\n", i,
			       WEXITSTATUS(st));
		bad = 1;
		break;
	}
	if (bad) {
		for (i = 0; i < nworkers; i++)
			kill(pids[i], SIGKILL);
		while (wait(NULL) > 0)
			;
		return 1;
	}

	for (i = 0; i < nworkers; i++) {
		sum.iterations += stats[i].iterations;
		sum.forks += stats[i].forks;
		sum.file_maps += stats[i].file_maps;
		sum.zaps += stats[i].zaps;
		sum.protects += stats[i].protects;
		sum.remaps += stats[i].remaps;
		sum.splits += stats[i].splits;
		sum.pages_checked += stats[i].pages_checked;
	}
	printf("ptc_stress: ok %.1f s: %" PRIu64 " operations, %" PRIu64
	       " forks, %" PRIu64 " file maps, %" PRIu64 " zaps, %" PRIu64
	       " mprotects, %" PRIu64 " mremaps, %" PRIu64 " THP splits, %"
	       PRIu64 " pages checked, AnonHugePages up to %ld kB\n",
	       now() - start, sum.iterations, sum.forks, sum.file_maps,
	       sum.zaps, sum.protects, sum.remaps, sum.splits,
	       sum.pages_checked, thp_max);
	return 0;
}
