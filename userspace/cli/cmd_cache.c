// SPDX-License-Identifier: GPL-2.0-only
/* kmirror cache: not written yet (issue 2 in progress). */
#include "cli.h"

int km_cmd_cache(int argc, char **argv)
{
	return km_error("kmirror cache: not available in this build");
}
