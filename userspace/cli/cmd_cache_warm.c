// SPDX-License-Identifier: GPL-2.0-only
/*
 * kmirror cache warm DIR PATH...: read trees through a kmirror-cachefs
 * mount so that it caches them, with a progress line.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cache_ctl.h"

#define KM_WARM_CHUNK	(1 << 20)
#define KM_WARM_BAR	20	/* characters of the progress bar */

static const char km_cache_warm_usage[] =
	"usage: kmirror cache warm DIR PATH...\n"
	"Read every file under each PATH (files or directories in the mount\n"
	"of the kmirror-cachefs that uses the cache DIR) through the mount,\n"
	"so that their data is in the cache before it is needed.  Reads as\n"
	"the caller: a file the caller may not read is refused, as by cat.\n"
	"Symbolic links are not followed below the PATHs given.\n"
	"Progress on stderr: a bar redrawn on a terminal (bytes, files, rate,\n"
	"ETA), else a plain line each second.  Last, on stdout: files and\n"
	"bytes read, time, and how much the mount served from the source and\n"
	"from the cache meanwhile (its counters: other readers count too).\n"
	"Exit status 1: some file could not be read; 2: bad usage.\n";

static const char *const km_warm_counters[] = {
	"bytes_from_source", "bytes_from_cache",
};

struct km_warm {
	unsigned long long	total_bytes;
	unsigned long		total_files;
	double			start, shown;
	bool			tty;
	char			*buf;
};

static double km_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int km_warm_count(struct km_ctl_walk *w, const char *path,
			 const char *rel, const struct stat *st)
{
	struct km_warm *k = w->priv;

	(void)path;
	(void)rel;
	k->total_files++;
	k->total_bytes += st->st_size;
	return 0;
}

/* "[#####.....] " of @done out of @total, on a terminal only. */
static void km_warm_bar(unsigned long long done, unsigned long long total)
{
	int i, n = total ? (int)(KM_WARM_BAR * (done < total ? done : total) /
				 total) : KM_WARM_BAR;

	fputc('[', stderr);
	for (i = 0; i < KM_WARM_BAR; i++)
		fputc(i < n ? '#' : '.', stderr);
	fputs("] ", stderr);
}

static void km_warm_progress(struct km_ctl_walk *w, bool last)
{
	struct km_warm *k = w->priv;
	double t = km_now(), rate, left;

	if (!last && t - k->shown < (k->tty ? 0.2 : 1.0))
		return;
	k->shown = t;
	rate = w->bytes / (t - k->start > 1e-3 ? t - k->start : 1e-3);
	left = k->total_bytes > w->bytes ? k->total_bytes - w->bytes : 0;
	if (k->tty) {
		fputs("\r\033[K", stderr);
		km_warm_bar(w->bytes, k->total_bytes);
	}
	fprintf(stderr, "warm: %.1f/%.1f MiB, %lu/%lu files, %.1f MiB/s, "
		"ETA %.0f s%s", w->bytes / 1048576.0,
		k->total_bytes / 1048576.0, w->done, k->total_files,
		rate / 1048576.0, rate > 0 ? left / rate : 0.0,
		k->tty && !last ? "" : "\n");
}

static int km_warm_file(struct km_ctl_walk *w, const char *path,
			const char *rel, const struct stat *st)
{
	struct km_warm *k = w->priv;
	ssize_t n;
	int fd;

	(void)rel;
	(void)st;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		w->errors++;
		km_error("%s: %s", path, strerror(errno));
		return 0;
	}
	while ((n = read(fd, k->buf, KM_WARM_CHUNK)) > 0) {
		w->bytes += n;
		km_warm_progress(w, false);
	}
	if (n < 0) {
		w->errors++;
		km_error("%s: %s", path, strerror(errno));
	} else {
		w->done++;
	}
	close(fd);
	return 0;
}

static int km_warm_run(struct km_ctl_walk *w, char **paths, int n)
{
	struct km_warm *k = w->priv;
	unsigned long long before[2] = { 0 }, after[2] = { 0 };
	double t;

	FILE *quiet = fopen("/dev/null", "w");

	/* The count says nothing: the reading walk reports what fails. */
	km_set_error_stream(quiet);
	w->file = km_warm_count;
	km_ctl_walk(w, paths, n);
	km_set_error_stream(NULL);
	if (quiet)
		fclose(quiet);
	w->errors = 0;
	w->file = km_warm_file;
	km_stats_values(w->dir, km_warm_counters, before, 2);
	k->start = km_now();
	km_ctl_walk(w, paths, n);
	km_warm_progress(w, true);
	t = km_now() - k->start;
	km_stats_values(w->dir, km_warm_counters, after, 2);
	printf("warmed %lu file%s, %llu bytes in %.2f s (%.1f MiB/s): "
	       "%llu bytes from the source, %llu from the cache\n", w->done,
	       w->done == 1 ? "" : "s", w->bytes, t,
	       w->bytes / 1048576.0 / (t > 1e-3 ? t : 1e-3),
	       after[0] - before[0], after[1] - before[1]);
	return w->errors ? KM_EXIT_FAIL : KM_EXIT_OK;
}

int km_cache_warm(int argc, char **argv)
{
	struct km_warm k = { .tty = isatty(STDERR_FILENO) };
	struct km_ctl_walk w = { .priv = &k };
	int ret = km_ctl_begin(argc, argv, km_cache_warm_usage, "warm", &w);

	if (ret >= 0)
		return ret;
	k.buf = malloc(KM_WARM_CHUNK);
	if (!k.buf)
		return km_fail("out of memory");
	ret = km_warm_run(&w, argv + 2, argc - 2);
	free(k.buf);
	return ret;
}
