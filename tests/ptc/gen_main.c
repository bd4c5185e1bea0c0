// SPDX-License-Identifier: GPL-2.0-only
/*
 * ptc_gen: write a realistic page-table trace (see ptc_gen.h) to stdout.
 *
 *   ptc_gen [-s SEED] [-n EVENTS] [-i RULE|any] [-m GIB] [-b BASE] [-D]
 *
 * The seed is printed on stderr and in the trace's first line; -s replays
 * it.  -i injects one violation of RULE (a kmirror rule name, or any); the
 * last line of the trace then says where: "# expect: violation at line N:
 * RULE", else "# expect: clean".  -m: GiB of RAM, -b: its first PFN
 * (PUD-aligned; default from the seed), -D: no DAX region.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kmc_ptc.h"
#include "ptc_gen.h"

static int usage(void)
{
	fputs("usage: ptc_gen [-s SEED] [-n EVENTS] [-i RULE|any] [-m GIB] [-b BASE] [-D]\n",
	      stderr);
	return 2;
}

static int parse_inject(const char *arg)
{
	int v;

	if (!strcmp(arg, "any"))
		return -1;
	v = kmc_ptc_rule_parse(arg, strlen(arg));
	return ptc_gen_can_inject(v) ? v : 0;
}

int main(int argc, char **argv)
{
	struct ptc_gen_result res;
	struct ptc_gen_opts o;
	int c;

	ptc_gen_defaults(&o, (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32));
	while ((c = getopt(argc, argv, "s:n:i:m:b:D")) != -1) {
		switch (c) {
		case 's':
			o.seed = strtoull(optarg, NULL, 0);
			break;
		case 'n':
			o.events = (unsigned int)strtoul(optarg, NULL, 0);
			break;
		case 'i':
			o.inject = parse_inject(optarg);
			if (!o.inject) {
				fprintf(stderr, "ptc_gen: cannot inject '%s'\n",
					optarg);
				return 2;
			}
			break;
		case 'm':
			o.ram_gib = (unsigned int)strtoul(optarg, NULL, 0);
			break;
		case 'b':
			o.base = strtoull(optarg, NULL, 0);
			break;
		case 'D':
			o.dax = false;
			break;
		default:
			return usage();
		}
	}
	if (optind != argc)
		return usage();
	fprintf(stderr, "ptc_gen: seed %llu\n", (unsigned long long)o.seed);
	if (ptc_gen(&o, stdout, &res)) {
		fputs("ptc_gen: bad options (-m 1..64, -b PUD-aligned)\n",
		      stderr);
		return 2;
	}
	if (res.inject_line)
		printf("# expect: violation at line %lu: %s\n", res.inject_line,
		       kmc_ptc_rule_name((unsigned int)res.inject_verdict));
	else
		puts("# expect: clean");
	return fflush(stdout) ? 1 : 0;
}
