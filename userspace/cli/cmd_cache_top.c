// SPDX-License-Identifier: GPL-2.0-only
/*
 * kmirror cache top DIR: a live view of a kmirror-cachefs mount, its read
 * rates and its busiest files (per-file counters through DIR/kmirror.sock).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "cache_ctl.h"

#define KM_TOP_ROWS	20	/* files shown when not on a terminal */

static const char km_cache_top_usage[] =
	"usage: kmirror cache top DIR [-n COUNT] [-d SECONDS]\n"
	"A live view of the kmirror-cachefs mounted with the cache DIR, every\n"
	"SECONDS (default 1; 0.1 to 3600): the mount's reads per second that\n"
	"were hits and misses, MiB/s served from the cache and from the\n"
	"source, the cache's objects and bytes; then the files read most in\n"
	"that time, each with its hits, misses and bytes from the cache and\n"
	"the source since it was looked up, and its hit ratio by bytes.\n"
	"On a terminal the screen is redrawn; otherwise views follow each\n"
	"other, separated by a blank line.  -n: stop after COUNT views\n"
	"(default: run until interrupted).  Root or the daemon's user only.\n"
	KM_CTL_TIMEOUT_HELP;

enum { KM_HITS, KM_MISSES, KM_FROM_CACHE, KM_FROM_SOURCE, KM_OBJECTS,
       KM_CACHE_BYTES, KM_NCOUNTERS };

static const char *const km_top_counters[KM_NCOUNTERS] = {
	"hits", "misses", "bytes_from_cache", "bytes_from_source", "objects",
	"cache_bytes",
};

struct km_top_file {
	unsigned long long	v[4];	/* hits misses from_cache from_source */
	unsigned long long	delta;	/* bytes read in this interval */
	char			*path;
};

struct km_top_view {
	unsigned long long	c[KM_NCOUNTERS];
	struct km_top_file	*f;
	size_t			n;
};

static int km_file_by_path(const void *a, const void *b)
{
	return strcmp(((const struct km_top_file *)a)->path,
		      ((const struct km_top_file *)b)->path);
}

static int km_file_by_delta(const void *a, const void *b)
{
	const struct km_top_file *p = a, *q = b;
	unsigned long long tp = p->v[2] + p->v[3], tq = q->v[2] + q->v[3];

	if (p->delta != q->delta)
		return p->delta < q->delta ? 1 : -1;
	return tp < tq ? 1 : tp > tq ? -1 : 0;
}

static void km_view_free(struct km_top_view *v)
{
	size_t i;

	for (i = 0; i < v->n; i++)
		free(v->f[i].path);
	free(v->f);
	*v = (struct km_top_view){ 0 };
}

/* "H M C S PATH" lines into @v->f, sorted by path. */
static int km_parse_files(struct km_top_view *v, const char *p)
{
	struct km_top_file f, *nf;
	int used;

	while (*p) {
		used = 0;
		if (sscanf(p, "%llu %llu %llu %llu %n", &f.v[0], &f.v[1],
			   &f.v[2], &f.v[3], &used) < 4 || !used)
			return -EPROTO;
		p += used;
		f.path = strndup(p, strcspn(p, "\n"));
		nf = f.path ? realloc(v->f, (v->n + 1) * sizeof(*nf)) : NULL;
		if (!nf) {
			free(f.path);
			return -ENOMEM;
		}
		v->f = nf;
		f.delta = 0;
		v->f[v->n++] = f;
		p += strcspn(p, "\n");
		p += *p == '\n';
	}
	qsort(v->f, v->n, sizeof(*v->f), km_file_by_path);
	return 0;
}

static int km_top_sample(const char *dir, struct km_top_view *v)
{
	const char *rest;
	char *reply = NULL;
	int ret;

	ret = km_stats_values(dir, km_top_counters, v->c, KM_NCOUNTERS);
	if (ret)
		return ret;
	ret = km_ctl_request(dir, "files", "", &reply);
	if (ret)
		return ret;
	ret = km_ctl_status(reply, &rest);
	if (!ret)
		ret = km_parse_files(v, rest);
	free(reply);
	return ret;
}

/* Each file's bytes read since @old (all of them if it is new there). */
static void km_top_deltas(struct km_top_view *now,
			  const struct km_top_view *old)
{
	const struct km_top_file *o;
	struct km_top_file *f;
	size_t i;

	for (i = 0; i < now->n; i++) {
		f = &now->f[i];
		o = old->n ? bsearch(f, old->f, old->n, sizeof(*f),
				     km_file_by_path) : NULL;
		f->delta = f->v[2] + f->v[3];
		if (o && o->v[2] + o->v[3] <= f->delta)
			f->delta -= o->v[2] + o->v[3];
	}
	qsort(now->f, now->n, sizeof(*now->f), km_file_by_delta);
}

static double km_per_s(unsigned long long now, unsigned long long old,
		       double secs)
{
	return now >= old ? (now - old) / secs : 0;
}

static void km_top_show(const struct km_top_view *now,
			const struct km_top_view *old, double secs,
			size_t rows, bool tty)
{
	const struct km_top_file *f;
	unsigned long long bytes;
	size_t i;

	if (tty)
		fputs("\033[H\033[2J", stdout);
	printf("reads/s: %.0f hits, %.0f misses   MiB/s: %.2f from cache, "
	       "%.2f from source   cache: %llu objects, %.1f MiB\n",
	       km_per_s(now->c[KM_HITS], old->c[KM_HITS], secs),
	       km_per_s(now->c[KM_MISSES], old->c[KM_MISSES], secs),
	       km_per_s(now->c[KM_FROM_CACHE], old->c[KM_FROM_CACHE],
			secs) / 1048576.0,
	       km_per_s(now->c[KM_FROM_SOURCE], old->c[KM_FROM_SOURCE],
			secs) / 1048576.0,
	       now->c[KM_OBJECTS], now->c[KM_CACHE_BYTES] / 1048576.0);
	printf("%10s %8s %8s %12s %12s %6s  %s\n", "MiB/s", "hits", "misses",
	       "from_cache", "from_source", "hit%", "file");
	for (i = 0; i < now->n && i < rows; i++) {
		f = &now->f[i];
		bytes = f->v[2] + f->v[3];
		printf("%10.2f %8llu %8llu %12llu %12llu %5.1f%%  ",
		       f->delta / secs / 1048576.0, f->v[0], f->v[1], f->v[2],
		       f->v[3], bytes ? 100.0 * f->v[2] / bytes : 0.0);
		km_put_str(stdout, f->path);
		putchar('\n');
	}
	if (!tty)
		putchar('\n');
	fflush(stdout);
}

static void km_sleep(double secs)
{
	struct timespec ts = { (time_t)secs,
			       (long)((secs - (time_t)secs) * 1e9) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static size_t km_top_rows(bool tty)
{
	struct winsize ws;

	if (tty && !ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_row > 4)
		return ws.ws_row - 3;
	return KM_TOP_ROWS;
}

static int km_top_loop(const char *dir, long count, double secs)
{
	struct km_top_view old = { 0 }, now = { 0 };
	bool tty = isatty(STDOUT_FILENO);
	int ret = km_top_sample(dir, &old);
	long i;

	for (i = 0; !ret && (count < 0 || i < count); i++) {
		km_sleep(secs);
		ret = km_top_sample(dir, &now);
		if (ret)
			break;
		km_top_deltas(&now, &old);
		km_top_show(&now, &old, secs, km_top_rows(tty), tty);
		qsort(now.f, now.n, sizeof(*now.f), km_file_by_path);
		km_view_free(&old);
		old = now;
		now = (struct km_top_view){ 0 };
	}
	km_view_free(&old);
	km_view_free(&now);
	return ret ? km_ctl_refused(dir, ret) : KM_EXIT_OK;
}

int km_cache_top(int argc, char **argv)
{
	const char *dir = NULL;
	double secs = 1;
	long count = -1;
	char *end;
	int i;

	for (i = 1; i < argc; i++) {
		if (km_is_help(argv[i])) {
			fputs(km_cache_top_usage, stdout);
			return KM_EXIT_OK;
		} else if (!strcmp(argv[i], "-n") && i + 1 < argc) {
			count = strtol(argv[++i], &end, 10);
			if (*end || count < 1)
				return km_error("-n %s: not a count of views",
						argv[i]);
		} else if (!strcmp(argv[i], "-d") && i + 1 < argc) {
			secs = strtod(argv[++i], &end);
			if (*end || !(secs >= 0.1 && secs <= 3600))
				return km_error("-d %s: not 0.1 to 3600 seconds",
						argv[i]);
		} else if (!dir && argv[i][0] != '-') {
			dir = argv[i];
		} else {
			return km_error("unexpected argument '%s' (see --help)",
					argv[i]);
		}
	}
	if (!dir)
		return km_error("no cache directory given (see --help)");
	return km_top_loop(dir, count, secs);
}
