// SPDX-License-Identifier: GPL-2.0-only
/*
 * CephFS source parses per second over a realistic mix: new-syntax
 * sources with mon_addr= (one to three monitors, IPv4 and bracketed IPv6,
 * some with ports), old-syntax monitor lists, fstab-like option strings
 * (name=, fsc, noatime-style flags, mds_namespace=), a few refusals.
 * Built with -DKCEPH_ANCHOR (tests/ceph/meson.build, when the 6.1 tree is
 * unpacked), the same mix also runs through the tree's own code, compiled
 * from the build dir, as the anchor of the ratio.
 *
 *   bench_ceph [SECONDS_PER_RUN]     (default 0.5)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kmc_ceph.h"
#ifdef KCEPH_ANCHOR
#include "../ceph/kernel_ceph.h"
#endif

#define CASES	1024

struct bench_case {
	char src[256];
	char opts[256];
	size_t src_len, opts_len;
};

static unsigned int rnd(unsigned long long *s, unsigned int n)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned int)((*s >> 33) % n);
}

static void put_mon(char *b, unsigned long long *s, int v6)
{
	char *p = b + strlen(b);

	if (v6)
		p += sprintf(p, "[2001:db8:%x::%x]", rnd(s, 65536), 1 + rnd(s, 255));
	else
		p += sprintf(p, "10.%u.%u.%u", rnd(s, 256), rnd(s, 256),
			     1 + rnd(s, 254));
	if (rnd(s, 3) == 0)
		sprintf(p, ":%u", rnd(s, 2) ? 3300 : 6789);
}

static void put_mons(char *b, unsigned long long *s, char sep)
{
	unsigned int i, n = 1 + rnd(s, 3), v6 = rnd(s, 4) == 0;

	for (i = 0; i < n; i++) {
		if (i)
			sprintf(b + strlen(b), "%c", sep);
		put_mon(b, s, v6);
	}
}

static void make_case(struct bench_case *c, unsigned long long *s)
{
	static const char *const paths[] = { "/", "/", "/volumes/_nogroup/app",
		"/home//user/", "" };
	static const char *const extra[] = { "", ",name=app", ",fsc",
		",fsc=backup", ",noatime_is_not_ceph", ",ro,nocrc",
		",mds_namespace=cephfs" };
	unsigned int kind = rnd(s, 10);

	c->src[0] = c->opts[0] = '\0';
	if (kind < 6) {
		sprintf(c->src, "client%u@%08x-%04x-4%03x-8%03x-%012x.cephfs=%s",
			rnd(s, 100), rnd(s, 1u << 31), rnd(s, 65536),
			rnd(s, 4096), rnd(s, 4096), rnd(s, 1u << 31),
			paths[rnd(s, 5)]);
		strcpy(c->opts, "mon_addr=");
		put_mons(c->opts, s, '/');
	} else {
		put_mons(c->src, s, ',');
		sprintf(c->src + strlen(c->src), ":%s", paths[rnd(s, 5)]);
		strcpy(c->opts, "name=admin");
	}
	strcat(c->opts, extra[rnd(s, 7)]);
	if (kind == 9)
		strcat(c->opts, ",secretfile_is_unknown");
	c->src_len = strlen(c->src);
	c->opts_len = strlen(c->opts);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

typedef int (*parse_fn)(const struct bench_case *c);

static int core_parse(const struct bench_case *c)
{
	struct kmc_ceph_mount m;

	return kmc_ceph_parse(c->src, c->src_len, c->opts, c->opts_len, 0, &m);
}

#ifdef KCEPH_ANCHOR
static int kernel_parse(const struct bench_case *c)
{
	struct kceph_result r;
	int ret = kceph_mount(c->src, c->opts, NULL, &r);

	kceph_result_free(&r);
	return ret;
}
#endif

/* Parses per second of @fn over @cases for about @secs seconds. */
static double run(parse_fn fn, const struct bench_case *cases, double secs,
		  unsigned long *accepted)
{
	unsigned long n = 0;
	double t0 = now(), t;
	unsigned int i;

	*accepted = 0;
	do {
		for (i = 0; i < CASES; i++)
			*accepted += !fn(&cases[i]);
		n += CASES;
		t = now() - t0;
	} while (t < secs);
	*accepted = *accepted * CASES / n;
	return n / t;
}

int main(int argc, char **argv)
{
	static struct bench_case cases[CASES];
	unsigned long long seed = 42;
	double secs = argc > 1 ? atof(argv[1]) : 0.5, core;
	unsigned long acc;
	unsigned int i;

	for (i = 0; i < CASES; i++)
		make_case(&cases[i], &seed);
	core = run(core_parse, cases, secs, &acc);
	printf("ceph source parses/s, core (kmc_ceph_parse): %.0f  (%lu of %d accepted)\n",
	       core, acc, CASES);
#ifdef KCEPH_ANCHOR
	{
		unsigned long kacc;
		double kern = run(kernel_parse, cases, secs, &kacc);

		printf("ceph source parses/s, 6.1 tree's code:        %.0f  (%lu of %d accepted)\n",
		       kern, kacc, CASES);
		printf("ratio core/kernel: %.2fx\n", core / kern);
		if (kacc != acc) {
			fprintf(stderr, "core and kernel disagree on the mix\n");
			return 1;
		}
	}
#endif
	return 0;
}
