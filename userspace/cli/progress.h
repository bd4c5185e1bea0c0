/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The progress line of the long cache commands (warm, check), on stderr:
 * a bar redrawn in place on a terminal, a plain line each second
 * otherwise (a log or a pipe gets no carriage returns nor escapes).
 */
#ifndef KMIRROR_PROGRESS_H
#define KMIRROR_PROGRESS_H

#include <stdbool.h>

struct km_progress {
	const char		*what;	/* "warm", "check": the line's start */
	const char		*units;	/* "files", "objects" */
	unsigned long long	total_bytes, bytes;
	unsigned long		total_n, n;
	double			start, shown;
	bool			tty;
};

/* Seconds on the monotonic clock. */
double km_now(void);
/* Start the clock; totals may be set before or after. */
void km_progress_start(struct km_progress *p, const char *what,
		       const char *units);
/* Show p->bytes and p->n if it is time to, or always if @last. */
void km_progress_show(struct km_progress *p, bool last);

/* Before other output on the terminal: the bar is redrawn at the next. */
void km_progress_clear(struct km_progress *p);

#endif /* KMIRROR_PROGRESS_H */
