// SPDX-License-Identifier: GPL-2.0-only
/* Subcommand dispatch shared by the kmirror command groups. */
#include <string.h>

#include "cli.h"

int km_is_help(const char *arg)
{
	return !strcmp(arg, "-h") || !strcmp(arg, "--help");
}

static void km_usage(FILE *f, const char *group,
		     const struct km_command *cmds)
{
	fprintf(f, "usage: kmirror %s%sCOMMAND [ARGS...]\n\ncommands:\n",
		group, *group ? " " : "");
	for (; cmds->name; cmds++)
		fprintf(f, "  %-10s %s\n", cmds->name, cmds->summary);
}

int km_dispatch(const char *group, const struct km_command *cmds, int argc,
		char **argv)
{
	const struct km_command *c;

	if (argc < 2) {
		km_usage(stderr, group, cmds);
		return KM_EXIT_USAGE;
	}
	if (km_is_help(argv[1])) {
		km_usage(stdout, group, cmds);
		return KM_EXIT_OK;
	}
	for (c = cmds; c->name; c++)
		if (!strcmp(c->name, argv[1]))
			return c->run(argc - 1, argv + 1);
	return km_error("unknown command 'kmirror %s%s%s' (see --help)",
			group, *group ? " " : "", argv[1]);
}
