// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench_cachefs: the small reader behind tests/bench/bench_cachefs.sh.
 * Every pass drops the kernel's page cache of the file first
 * (POSIX_FADV_DONTNEED on a FUSE file drops its clean pages), so every
 * byte is asked of the FUSE daemon under test, not served by the kernel.
 *
 *   bench_cachefs seq FILE PASSES       sequential 1 MiB reads of the whole
 *                                       file (default readahead); prints
 *                                       the best pass in MB/s
 *   bench_cachefs rand FILE N BS SEED   N reads of BS bytes at random
 *                                       BS-aligned offsets (readahead off:
 *                                       POSIX_FADV_RANDOM); prints MB/s
 *   bench_cachefs stat DIR PASSES       fstatat() of every entry of DIR;
 *                                       prints the best pass in stats/s
 *   bench_cachefs readdir DIR PASSES    opendir + readdir to the end +
 *                                       closedir; prints the best pass in
 *                                       entries/s
 * MB is 10^6 bytes.  Exit 1 on any I/O error, 2 on bad usage.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define CHUNK (1 << 20)

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void __attribute__((noreturn)) die(const char *what, const char *arg)
{
	fprintf(stderr, "bench_cachefs: %s %s: %s\n", what, arg,
		strerror(errno));
	exit(1);
}

/* Open @path with its page cache dropped and readahead set by @advice. */
static int open_cold(const char *path, int advice)
{
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		die("open", path);
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	posix_fadvise(fd, 0, 0, advice);
	return fd;
}

/* One sequential pass over @path; MB/s. */
static double seq_pass(const char *path, char *buf)
{
	/*
	 * Default readahead, as cat and cp get: POSIX_FADV_SEQUENTIAL (twice
	 * the window) makes libfuse's passthrough_ll ten times slower on
	 * Linux 6.18 (127 vs 1200 MB/s), which would flatter the daemon.
	 */
	int fd = open_cold(path, POSIX_FADV_NORMAL);
	double t0 = now(), t;
	uint64_t total = 0;
	ssize_t r;

	while ((r = read(fd, buf, CHUNK)) > 0)
		total += (uint64_t)r;
	if (r < 0)
		die("read", path);
	t = now() - t0;
	close(fd);
	return (double)total / 1e6 / t;
}

static double rand_pass(const char *path, long n, long bs, uint64_t seed)
{
	int fd = open_cold(path, POSIX_FADV_RANDOM);
	off_t size = lseek(fd, 0, SEEK_END);
	uint64_t blocks = (uint64_t)(size / bs), x = seed | 1;
	char *buf = malloc((size_t)bs);
	double t0, t;
	long i;

	if (!buf || !blocks) {
		fprintf(stderr, "bench_cachefs: %s: too small\n", path);
		exit(1);
	}
	t0 = now();
	for (i = 0; i < n; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;	/* xorshift64 */
		if (pread(fd, buf, (size_t)bs, (off_t)(x % blocks) * bs) != bs)
			die("pread", path);
	}
	t = now() - t0;
	free(buf);
	close(fd);
	return (double)n * (double)bs / 1e6 / t;
}

/* The names in @dir but "." and ".."; their count in *@n. */
static char **list_dir(const char *dir, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **v = NULL;
	size_t cap = 0;

	if (!d)
		die("opendir", dir);
	*n = 0;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (*n == cap) {
			cap = cap ? 2 * cap : 256;
			v = realloc(v, cap * sizeof(*v));
			if (!v)
				die("realloc", dir);
		}
		v[(*n)++] = strdup(e->d_name);
	}
	closedir(d);
	return v;
}

static double stat_pass(int dfd, char **names, size_t n)
{
	double t0 = now();
	struct stat st;
	size_t i;

	for (i = 0; i < n; i++)
		if (fstatat(dfd, names[i], &st, AT_SYMLINK_NOFOLLOW))
			die("stat", names[i]);
	return (double)n / (now() - t0);
}

static double readdir_pass(const char *dir)
{
	double t0 = now();
	DIR *d = opendir(dir);
	size_t n = 0;

	if (!d)
		die("opendir", dir);
	while (readdir(d))
		n++;
	closedir(d);
	return (double)n / (now() - t0);
}

static double best_of(double a, double b)
{
	return a > b ? a : b;
}

int main(int argc, char **argv)
{
	double best = 0;
	size_t n = 0, i;
	char **names;
	long passes;
	char *buf;
	int p, dfd;

	if (argc == 4 && !strcmp(argv[1], "seq")) {
		buf = malloc(CHUNK);
		if (!buf)
			die("malloc", "");
		for (p = 0, passes = atol(argv[3]); p < passes; p++)
			best = best_of(best, seq_pass(argv[2], buf));
		free(buf);
	} else if (argc == 6 && !strcmp(argv[1], "rand")) {
		best = rand_pass(argv[2], atol(argv[3]), atol(argv[4]),
				 strtoull(argv[5], NULL, 0));
	} else if (argc == 4 && !strcmp(argv[1], "stat")) {
		names = list_dir(argv[2], &n);
		dfd = open(argv[2], O_RDONLY | O_DIRECTORY);
		if (dfd < 0)
			die("open", argv[2]);
		for (p = 0, passes = atol(argv[3]); p < passes; p++)
			best = best_of(best, stat_pass(dfd, names, n));
		close(dfd);
		for (i = 0; i < n; i++)
			free(names[i]);
		free(names);
	} else if (argc == 4 && !strcmp(argv[1], "readdir")) {
		for (p = 0, passes = atol(argv[3]); p < passes; p++)
			best = best_of(best, readdir_pass(argv[2]));
	} else {
		fprintf(stderr, "usage: bench_cachefs seq FILE PASSES | rand "
			"FILE N BS SEED | stat DIR PASSES | readdir DIR PASSES\n");
		return 2;
	}
	printf("%.1f\n", best);
	return 0;
}
