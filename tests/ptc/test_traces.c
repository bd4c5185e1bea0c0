// SPDX-License-Identifier: GPL-2.0-only
/*
 * Generated traces through the library: every valid trace replays clean
 * to its last line, and every trace with one injected violation stops at
 * exactly the injected line with the injected rule, for every rule a
 * trace can break.  Usage: test_traces [-s SEED] [-n TRACES] [-e EVENTS]
 * [-L] (the seed of the first trace; trace i uses SEED + i).
 *
 * -L injects every violation after the last event, the generator's last
 * resort when no earlier event gave the rule a target: its random pick of
 * a target missed the one map that qualified ("nothing to inject into",
 * ptc_gen_inject_at_end).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "kmc_ptc.h"
#include "kmirror/ptc.h"
#include "ptc_gen.h"

static unsigned long total_lines;
static bool inject_last;

/* Generate trace @seed with @inject and replay it; 0 if as expected. */
static int check_one(uint64_t seed, unsigned int events, int inject)
{
	struct kmirror_ptc_replay rep;
	struct ptc_gen_result res;
	struct ptc_gen_opts o;
	struct kmirror_ptc *ptc;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int ret, bad;

	ptc_gen_defaults(&o, seed);
	o.events = events;
	o.inject = inject;
	o.inject_last = inject_last;
	if (!f || ptc_gen(&o, f, &res) || fclose(f) || kmirror_ptc_create(&ptc))
		return fprintf(stderr, "seed %llu: cannot generate\n",
			       (unsigned long long)seed), 1;
	ret = kmirror_ptc_replay_buf(ptc, buf, len, &rep);
	kmirror_ptc_destroy(ptc);
	total_lines += res.lines;
	if (inject)
		bad = ret != 1 || rep.line != res.inject_line ||
		      rep.verdict != res.inject_verdict;
	else
		bad = ret != 0 || rep.line != res.lines;
	if (bad)
		fprintf(stderr,
			"seed %llu inject %s: replay %d at line %lu (%s%s), want line %lu: %s\n",
			(unsigned long long)seed,
			inject ? kmc_ptc_rule_name((unsigned int)inject) : "-",
			ret, rep.line, kmirror_ptc_rule_name(rep.verdict) ?: "?",
			rep.why, inject ? res.inject_line : res.lines,
			inject ? kmc_ptc_rule_name((unsigned int)res.inject_verdict) : "clean");
	free(buf);
	return bad;
}

int main(int argc, char **argv)
{
	uint64_t seed = (uint64_t)time(NULL);
	unsigned int n = 20, events = 600, i;
	int c, v, failed = 0, runs = 0;

	while ((c = getopt(argc, argv, "s:n:e:L")) != -1) {
		if (c == 'L')
			inject_last = true;
		else if (c == 's')
			seed = strtoull(optarg, NULL, 0);
		else if (c == 'n')
			n = (unsigned int)strtoul(optarg, NULL, 0);
		else if (c == 'e')
			events = (unsigned int)strtoul(optarg, NULL, 0);
		else
			return 2;
	}
	if (getenv("KMIRROR_UNDER_VALGRIND") && n > 4)
		n = 4;
	printf("test_traces: seed %llu, %u traces per kind, %u events (-s to replay)\n",
	       (unsigned long long)seed, n, events);
	for (i = 0; i < n; i++) {
		failed += check_one(seed + i, events, 0);
		runs++;
		for (v = 1; v < KMC_PTC_VERDICT_NR; v++) {
			if (!ptc_gen_can_inject(v))
				continue;
			failed += check_one(seed + i, events, v);
			runs++;
		}
	}
	printf("test_traces: %d of %d traces as expected, %lu lines\n",
	       runs - failed, runs, total_lines);
	return failed ? 1 : 0;
}
