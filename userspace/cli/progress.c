// SPDX-License-Identifier: GPL-2.0-only
/*
 * The progress line of `kmirror cache warm` and `kmirror cache check`:
 * bytes and items done out of the total, rate and time left.
 */
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "progress.h"

#define KM_PROGRESS_BAR	20	/* characters of the bar */

double km_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void km_progress_start(struct km_progress *p, const char *what,
		       const char *units)
{
	p->what = what;
	p->units = units;
	p->tty = isatty(STDERR_FILENO);
	p->start = km_now();
	p->shown = p->start;	/* the first line after a period: a quick
				 * run shows only its last */
}

/* "[#####.....] " of @done out of @total, on a terminal only. */
static void km_progress_bar(unsigned long long done, unsigned long long total)
{
	int i, n = total ? (int)(KM_PROGRESS_BAR *
				 (done < total ? done : total) / total) :
			   KM_PROGRESS_BAR;

	fputc('[', stderr);
	for (i = 0; i < KM_PROGRESS_BAR; i++)
		fputc(i < n ? '#' : '.', stderr);
	fputs("] ", stderr);
}

void km_progress_show(struct km_progress *p, bool last)
{
	double t = km_now(), rate, left;

	if (!last && t - p->shown < (p->tty ? 0.2 : 1.0))
		return;
	p->shown = t;
	rate = p->bytes / (t - p->start > 1e-3 ? t - p->start : 1e-3);
	left = p->total_bytes > p->bytes ? p->total_bytes - p->bytes : 0;
	if (p->tty) {
		fputs("\r\033[K", stderr);
		km_progress_bar(p->bytes, p->total_bytes);
	}
	fprintf(stderr, "%s: %.1f/%.1f MiB, %lu/%lu %s, %.1f MiB/s, "
		"ETA %.0f s%s", p->what, p->bytes / 1048576.0,
		p->total_bytes / 1048576.0, p->n, p->total_n, p->units,
		rate / 1048576.0, rate > 0 ? left / rate : 0.0,
		p->tty && !last ? "" : "\n");
}

void km_progress_clear(struct km_progress *p)
{
	if (p->tty)
		fputs("\r\033[K", stderr);
}
