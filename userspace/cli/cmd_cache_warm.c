// SPDX-License-Identifier: GPL-2.0-only
/*
 * kmirror cache warm DIR PATH...: read trees through a kmirror-cachefs
 * mount so that it caches them, with a progress line.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache_ctl.h"
#include "progress.h"

#define KM_WARM_CHUNK	(1 << 20)

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
	"Exit status 1: some file could not be read; 2: bad usage.\n"
	KM_CTL_TIMEOUT_HELP;

static const char *const km_warm_counters[] = {
	"bytes_from_source", "bytes_from_cache",
};

struct km_warm {
	struct km_progress	prog;
	char			*buf;
};

static int km_warm_count(struct km_ctl_walk *w, const char *path,
			 const char *rel, const struct stat *st)
{
	struct km_warm *k = w->priv;

	(void)path;
	(void)rel;
	k->prog.total_n++;
	k->prog.total_bytes += st->st_size;
	return 0;
}

/* The walk's counters are the progress line's. */
static void km_warm_progress(struct km_ctl_walk *w, bool last)
{
	struct km_warm *k = w->priv;

	k->prog.bytes = w->bytes;
	k->prog.n = w->done;
	km_progress_show(&k->prog, last);
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
	km_progress_start(&k->prog, "warm", "files");
	km_ctl_walk(w, paths, n);
	km_warm_progress(w, true);
	t = km_now() - k->prog.start;
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
	struct km_warm k = { 0 };
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
