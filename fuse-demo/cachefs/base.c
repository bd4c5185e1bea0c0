// SPDX-License-Identifier: GPL-2.0-only
/*
 * The daemon's leaves: clocks, an error line, /proc names, per-thread
 * scratch buffers and a source file's coherency attributes.  Every layer
 * uses them and they call nothing of ours, which is why they live here
 * and not in the first file that needed them: a lower layer calling up
 * into cache.c or readthrough.c for a clock would tie the layers into a
 * ring (tests/tools/callcycles.py).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cachefs.h"

uint64_t kc_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

int64_t kc_wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

/* A condition variable whose timed waits count on CLOCK_MONOTONIC. */
void kc_cond_init_monotonic(pthread_cond_t *cond)
{
	pthread_condattr_t attr;

	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(cond, &attr);
	pthread_condattr_destroy(&attr);
}

/* Sleep @us microseconds (0: not at all), signals or not. */
void kc_sleep_us(unsigned long us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };

	while (us && nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * One "kmirror-cachefs: error: ..." line on stderr; returns -1.  Paths and
 * option values in it come from the user: control characters are shown
 * as \xNN, never sent to the terminal.
 */
int kc_fail(const char *fmt, ...)
{
	char msg[2048];
	const char *p;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fputs(KC_NAME ": error: ", stderr);
	for (p = msg; *p; p++) {
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			fprintf(stderr, "\\x%02x", (unsigned char)*p);
		else
			fputc(*p, stderr);
	}
	fputc('\n', stderr);
	return -1;
}

void kc_procname(char *buf, size_t size, int fd)
{
	snprintf(buf, size, "/proc/self/fd/%d", fd);
}

/* Two per-thread buffers: the reply, and a fill's source data. */
struct kc_scratch {
	char	*buf[2];
	size_t	cap[2];
};

static pthread_key_t kc_scratch_key;

static void kc_scratch_free(void *p)
{
	struct kc_scratch *s = p;

	free(s->buf[0]);
	free(s->buf[1]);
	free(s);
}

int kc_scratch_init(void)
{
	return pthread_key_create(&kc_scratch_key, kc_scratch_free) ?
	       -ENOMEM : 0;
}

void kc_scratch_fini(void)
{
	struct kc_scratch *s = pthread_getspecific(kc_scratch_key);

	if (s) {
		pthread_setspecific(kc_scratch_key, NULL);
		kc_scratch_free(s);
	}
	pthread_key_delete(kc_scratch_key);
}

/* This thread's buffer @which (0 or 1) of at least @len bytes, or NULL. */
char *kc_scratch(unsigned int which, size_t len)
{
	struct kc_scratch *s = pthread_getspecific(kc_scratch_key);

	if (!s) {
		s = calloc(1, sizeof(*s));
		if (!s || pthread_setspecific(kc_scratch_key, s)) {
			free(s);
			return NULL;
		}
	}
	if (s->cap[which] < len || !s->buf[which]) {
		free(s->buf[which]);
		s->buf[which] = malloc(len ? len : 1);
		s->cap[which] = s->buf[which] ? len : 0;
	}
	return s->buf[which];
}

void kc_attr_from_stat(struct kc_attr *a, const struct stat *st)
{
	memset(a, 0, sizeof(*a));
	a->mtime_sec = st->st_mtim.tv_sec;
	a->mtime_nsec = st->st_mtim.tv_nsec;
	a->ctime_sec = st->st_ctim.tv_sec;
	a->ctime_nsec = st->st_ctim.tv_nsec;
	a->size = st->st_size;
	a->ino = st->st_ino;
}

bool kc_attr_eq(const struct kc_attr *a, const struct kc_attr *b)
{
	return a->mtime_sec == b->mtime_sec && a->mtime_nsec == b->mtime_nsec &&
	       a->ctime_sec == b->ctime_sec && a->ctime_nsec == b->ctime_nsec &&
	       a->size == b->size && a->ino == b->ino;
}

/* A timestamp in ns, kept within int64_t whatever a source reports. */
static int64_t kc_ts_ns(int64_t sec, uint32_t nsec)
{
	if (sec > INT64_MAX / 1000000000 - 1)
		return INT64_MAX / 2;
	if (sec < INT64_MIN / 1000000000 + 1)
		return INT64_MIN / 2;
	return sec * 1000000000 + nsec;
}

/*
 * How long until the source file @a has been left alone long enough that
 * a change from then on must show in its timestamps (ns; 0 or less: it
 * has)?  A write stamps mtime and ctime before its bytes land, in ticks
 * of the filesystem's granularity: a file stamped within the last tick
 * can still change, or be mid-write, under the same timestamps.
 * Timestamps without nanoseconds (sshfs, SMB, FAT, ext4 with 128-byte
 * inodes) are taken as 2 s ticks (FAT's), others as KC_SETTLE_FINE_NS,
 * which also outlasts a long write(2) in progress.  Timestamps ahead of
 * our clock (a skewed server) settle that much later.
 */
int64_t kc_attr_settle_in(const struct kc_attr *a)
{
	int64_t m = kc_ts_ns(a->mtime_sec, a->mtime_nsec);
	int64_t c = kc_ts_ns(a->ctime_sec, a->ctime_nsec);
	bool coarse = !a->mtime_nsec && !a->ctime_nsec;
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	return (m > c ? m : c) - kc_ts_ns(now.tv_sec, now.tv_nsec) +
	       (coarse ? KC_SETTLE_COARSE_NS : KC_SETTLE_FINE_NS);
}

bool kc_attr_settled(const struct kc_attr *a)
{
	return kc_attr_settle_in(a) <= 0;
}
