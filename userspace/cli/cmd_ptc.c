// SPDX-License-Identifier: GPL-2.0-only
/* kmirror ptc replay [-v] [FILE|-] */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "kmirror/ptc.h"

static const char km_ptc_replay_usage[] =
	"usage: kmirror ptc replay [-v] [FILE|-]\n"
	"Replay a page-table trace (FILE, or stdin for '-' or none) through\n"
	"the page-table check of Linux 6.1 (mm/page_table_check.c).  One\n"
	"operation a line, '#' starts a comment:\n"
	"  alloc PFN ORDER                      2^ORDER pages handed out\n"
	"  free PFN ORDER                       2^ORDER pages given back\n"
	"  set pte|pmd|pud PFN anon|file rw|ro  map 1/512/262144 pages\n"
	"  clear pte|pmd|pud PFN anon|file      unmap them\n"
	"At the first violation print \"violation at line N: RULE\" and exit 1,\n"
	"as the kernel would BUG(); exit 0 when the trace is clean, 2 on a\n"
	"malformed line (\"error: line N: WHY\" on stderr), whichever comes\n"
	"first.  -v: also print the offending page and its counters on stderr.\n"
	"Bounds: lines of at most 4096 bytes, no NUL or control character but\n"
	"tab; the page counters a trace creates take at most 256 MiB (the pages\n"
	"it maps lie in at most 65536 2-MiB blocks), or the replay stops with\n"
	"an error.";

/* Report @res; the exit code for @ret. */
static int km_ptc_report(const struct kmirror_ptc *ptc, int ret,
			 const struct kmirror_ptc_replay *res, int verbose)
{
	int anon, file;

	if (ret < 0)
		return km_error("line %lu: %s", res->line, res->why);
	if (!ret)
		return KM_EXIT_OK;
	printf("violation at line %lu: %s\n", res->line,
	       kmirror_ptc_rule_name(res->verdict));
	if (verbose) {
		kmirror_ptc_counts(ptc, res->pfn, &anon, &file);
		fprintf(stderr, "page %#llx: anon_map_count %d, file_map_count %d\n",
			(unsigned long long)res->pfn, anon, file);
	}
	return KM_EXIT_FAIL;
}

/*
 * Open the trace @path ("-": stdin) into *@in.  Read as a stream, as cat
 * would: a pipe or FIFO is waited on, but a directory is refused.
 */
static int km_ptc_open(const char *path, FILE **in)
{
	struct stat st;
	int fd;

	*in = stdin;
	if (!strcmp(path, "-"))
		return KM_EXIT_OK;
	fd = open(path, O_RDONLY | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return km_error("%s: %s", path, strerror(errno));
	if (!fstat(fd, &st) && S_ISDIR(st.st_mode)) {
		close(fd);
		return km_error("%s: a directory, not a trace", path);
	}
	*in = fdopen(fd, "r");
	if (!*in) {
		close(fd);
		return km_error("%s: %s", path, strerror(errno));
	}
	return KM_EXIT_OK;
}

static int km_ptc_replay(int argc, char **argv)
{
	struct kmirror_ptc_replay res;
	struct kmirror_ptc *ptc;
	const char *path = "-";
	int i, ret, verbose = 0, nfiles = 0;
	FILE *in;

	for (i = 1; i < argc; i++) {
		if (km_is_help(argv[i])) {
			puts(km_ptc_replay_usage);
			return KM_EXIT_OK;
		}
		if (!strcmp(argv[i], "-v"))
			verbose = 1;
		else if (argv[i][0] == '-' && argv[i][1])
			return km_error("unknown option '%s' (see --help)",
					argv[i]);
		else if (nfiles++)
			return km_error("one trace at a time (see --help)");
		else
			path = argv[i];
	}
	ret = km_ptc_open(path, &in);
	if (ret)
		return ret;
	ret = kmirror_ptc_create(&ptc);
	if (ret) {
		if (in != stdin)
			fclose(in);
		return km_error("%s", strerror(-ret));
	}
	kmirror_ptc_set_mem_max(ptc, KM_PTC_MEM_MAX);
	ret = kmirror_ptc_replay(ptc, in, &res);
	ret = km_ptc_report(ptc, ret, &res, verbose);
	kmirror_ptc_destroy(ptc);
	if (in != stdin)
		fclose(in);
	return ret;
}

static const struct km_command km_ptc_cmds[] = {
	{ "replay", "replay a page-table trace", km_ptc_replay },
	{ NULL, NULL, NULL },
};

int km_cmd_ptc(int argc, char **argv)
{
	return km_dispatch("ptc", km_ptc_cmds, argc, argv);
}
