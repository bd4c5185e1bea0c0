// SPDX-License-Identifier: GPL-2.0-only
/* kmirror cookie: not written yet (issue 2 in progress). */
#include "cli.h"

int km_cmd_cookie(int argc, char **argv)
{
	return km_error("kmirror cookie: not available in this build");
}
