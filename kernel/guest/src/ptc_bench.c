// SPDX-License-Identifier: GPL-2.0-only
/*
 * ptc_bench: what the page-table check costs the paths it hooks, run in
 * the QEMU guest (kernel/guest/jobs/ptcbench.sh).
 *
 *   ptc_bench [-t SECONDS] [-n PAGES] [TEST...]
 *
 * Each TEST runs its loop for SECONDS (default 2) after one warm-up
 * iteration and prints one line
 *
 *   ptcbench: TEST pages=N ops=K secs=S ops/s=R
 *
 * The tests (default: all, in this order):
 *   fork   a parent with N populated private anonymous pages forks; the
 *          child writes one byte per page (N copy-on-write faults) and
 *          exits; the parent waits;
 *   anon   mmap N private anonymous pages, write one byte per page,
 *          munmap;
 *   file   mmap N pages of a populated tmpfs file MAP_SHARED, write one
 *          byte per page, munmap;
 *   thp    mmap 2 MiB of private anonymous memory at a 2 MiB-aligned
 *          address (one huge page with THP "always"), write one byte per
 *          4 KiB, munmap (N is ignored).
 * Every one sets and clears page-table entries N times (PMD: once) per
 * operation, each of which page_table_check=on accounts.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PAGE_SZ		4096UL
#define THP_SZ		(2UL << 20)

static size_t npages = 256;
static double secs = 2;
static const char *dir = "/tmp";

static void die(const char *what)
{
	fprintf(stderr, "ptc_bench: %s: %s\n", what, strerror(errno));
	exit(1);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void touch(char *p, size_t len)
{
	size_t off;

	for (off = 0; off < len; off += PAGE_SZ)
		p[off] = (char)off;
}

static char *fork_region;

static void setup_fork(void)
{
	fork_region = mmap(NULL, npages * PAGE_SZ, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (fork_region == MAP_FAILED)
		die("mmap");
	touch(fork_region, npages * PAGE_SZ);
}

static void op_fork(void)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		die("fork");
	if (pid == 0) {
		touch(fork_region, npages * PAGE_SZ);
		_exit(0);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
	    WEXITSTATUS(st)) {
		fprintf(stderr, "ptc_bench: fork child failed\n");
		exit(1);
	}
}

static void op_anon(void)
{
	char *p = mmap(NULL, npages * PAGE_SZ, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("mmap");
	touch(p, npages * PAGE_SZ);
	if (munmap(p, npages * PAGE_SZ))
		die("munmap");
}

static int file_fd = -1;

static void setup_file(void)
{
	char path[256];
	char *p;

	snprintf(path, sizeof(path), "%s/ptc_bench.%d", dir, (int)getpid());
	file_fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (file_fd < 0)
		die(path);
	unlink(path);
	if (ftruncate(file_fd, npages * PAGE_SZ))
		die("ftruncate");
	/* Populate the page cache once: the loop measures mapping it. */
	p = mmap(NULL, npages * PAGE_SZ, PROT_READ | PROT_WRITE, MAP_SHARED,
		 file_fd, 0);
	if (p == MAP_FAILED)
		die("mmap file");
	touch(p, npages * PAGE_SZ);
	munmap(p, npages * PAGE_SZ);
}

static void op_file(void)
{
	char *p = mmap(NULL, npages * PAGE_SZ, PROT_READ | PROT_WRITE,
		       MAP_SHARED, file_fd, 0);

	if (p == MAP_FAILED)
		die("mmap file");
	touch(p, npages * PAGE_SZ);
	if (munmap(p, npages * PAGE_SZ))
		die("munmap");
}

static char *thp_addr;

static void setup_thp(void)
{
	char *p = mmap(NULL, 2 * THP_SZ, PROT_NONE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("mmap");
	/* A free 2 MiB-aligned hole to map into, again and again. */
	thp_addr = (char *)(((uintptr_t)p + THP_SZ - 1) & ~(THP_SZ - 1));
	munmap(p, 2 * THP_SZ);
}

static void op_thp(void)
{
	char *p = mmap(thp_addr, THP_SZ, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
		       -1, 0);

	if (p != thp_addr)
		die("mmap 2 MiB at a fixed address");
	touch(p, THP_SZ);
	if (munmap(p, THP_SZ))
		die("munmap");
}

struct test {
	const char *name;
	void (*setup)(void);
	void (*op)(void);
	int huge;
};

static const struct test tests[] = {
	{ "fork", setup_fork, op_fork, 0 },
	{ "anon", NULL, op_anon, 0 },
	{ "file", setup_file, op_file, 0 },
	{ "thp", setup_thp, op_thp, 1 },
};

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define NTESTS		ARRAY_SIZE(tests)

static void run(const struct test *t)
{
	unsigned long ops = 0;
	double start, el;

	if (t->setup)
		t->setup();
	t->op();
	start = now();
	do {
		t->op();
		ops++;
		el = now() - start;
	} while (el < secs);
	printf("ptcbench: %s pages=%zu ops=%lu secs=%.2f ops/s=%.1f\n",
	       t->name, t->huge ? THP_SZ / PAGE_SZ : npages, ops, el,
	       ops / el);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	size_t i;
	int o, ran = 0;

	while ((o = getopt(argc, argv, "t:n:d:")) != -1) {
		switch (o) {
		case 't':
			secs = atof(optarg);
			break;
		case 'n':
			npages = strtoul(optarg, NULL, 0);
			break;
		case 'd':
			dir = optarg;
			break;
		default:
			fprintf(stderr,
				"usage: ptc_bench [-t SECONDS] [-n PAGES] [-d DIR] [TEST...]\n");
			return 2;
		}
	}
	if (secs <= 0 || npages < 1) {
		fprintf(stderr, "ptc_bench: bad -t or -n\n");
		return 2;
	}
	if (optind == argc) {
		for (i = 0; i < NTESTS; i++)
			run(&tests[i]);
		return 0;
	}
	for (; optind < argc; optind++) {
		for (i = 0; i < NTESTS; i++) {
			if (strcmp(argv[optind], tests[i].name) == 0) {
				run(&tests[i]);
				ran++;
				break;
			}
		}
		if (i == NTESTS) {
			fprintf(stderr, "ptc_bench: no test '%s'\n",
				argv[optind]);
			return 2;
		}
	}
	return ran ? 0 : 2;
}
