// SPDX-License-Identifier: GPL-2.0-only
/* kmirror volume: not written yet (issue 2 in progress). */
#include "cli.h"

int km_cmd_volume(int argc, char **argv)
{
	return km_error("kmirror volume: not available in this build");
}
