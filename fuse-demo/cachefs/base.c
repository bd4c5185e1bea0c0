// SPDX-License-Identifier: GPL-2.0-only
/*
 * The daemon's leaves: clocks, an error line, warnings (rate-limited),
 * /proc names, per-thread scratch buffers and a source file's coherency
 * attributes.  Every layer
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
 * @msg into @buf (@size bytes, the end cut): paths and option values in
 * it come from the user, so control characters are shown as \xNN, never
 * sent to the terminal.
 */
static void kc_escape(char *buf, size_t size, const char *msg)
{
	size_t n = 0;

	for (; *msg && n + 5 < size; msg++) {
		if ((unsigned char)*msg < 0x20 || *msg == 0x7f)
			n += snprintf(buf + n, size - n, "\\x%02x",
				      (unsigned char)*msg);
		else
			buf[n++] = *msg;
	}
	buf[n] = '\0';
}

/* One "kmirror-cachefs: error: ..." line on stderr; returns -1. */
int kc_fail(const char *fmt, ...)
{
	char msg[2048], line[4 * sizeof(msg)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	kc_escape(line, sizeof(line), msg);
	fprintf(stderr, KC_NAME ": error: %s\n", line);
	return -1;
}

/*
 * Warnings, rate-limited as the kernel's printk_ratelimited(): each call
 * site (kc_warn()) prints at most KC_WARN_BURST lines an interval of
 * KC_WARN_INTERVAL_NS; the first line after that says how many it held
 * back, and so does kc_warn_flush() at the end.  The sites used are kept
 * on a list for kc_warn_flush(), under kc_warn_lock, which also keeps
 * the lines whole.
 */
static pthread_mutex_t kc_warn_lock = PTHREAD_MUTEX_INITIALIZER;
static struct kc_ratelimit *kc_warn_sites;

/* Say how many lines @rl held back, if any (kc_warn_lock held). */
static void kc_warn_missed_locked(struct kc_ratelimit *rl)
{
	if (rl->missed)
		fuse_log(FUSE_LOG_WARNING, KC_NAME ": %u similar message%s "
			 "suppressed (the last: %s)\n", rl->missed,
			 rl->missed == 1 ? "" : "s", rl->last);
	rl->missed = 0;
}

/* May a line of @rl go out at @now?  (kc_warn_lock held) */
static bool kc_ratelimit_locked(struct kc_ratelimit *rl, uint64_t now)
{
	if (!rl->listed) {
		rl->listed = true;
		rl->next = kc_warn_sites;
		kc_warn_sites = rl;
		rl->begin_ns = now;
	}
	if (now - rl->begin_ns >= KC_WARN_INTERVAL_NS) {
		kc_warn_missed_locked(rl);
		rl->begin_ns = now;
		rl->printed = 0;
	}
	if (rl->printed < KC_WARN_BURST) {
		rl->printed++;
		return true;
	}
	rl->missed++;
	return false;
}

void kc_warn_limited(struct kc_ratelimit *rl, const char *fmt, ...)
{
	char msg[2048], line[4 * sizeof(msg)];
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	kc_escape(line, sizeof(line), msg);
	pthread_mutex_lock(&kc_warn_lock);
	if (kc_ratelimit_locked(rl, kc_now_ns())) {
		fuse_log(FUSE_LOG_WARNING, KC_NAME ": %s\n", line);
	} else {
		n = strnlen(line, sizeof(rl->last) - 1);
		memcpy(rl->last, line, n);
		rl->last[n] = '\0';
	}
	pthread_mutex_unlock(&kc_warn_lock);
}

/* At the end: the lines held back since each site last printed. */
void kc_warn_flush(void)
{
	struct kc_ratelimit *rl;

	pthread_mutex_lock(&kc_warn_lock);
	for (rl = kc_warn_sites; rl; rl = rl->next)
		kc_warn_missed_locked(rl);
	pthread_mutex_unlock(&kc_warn_lock);
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
