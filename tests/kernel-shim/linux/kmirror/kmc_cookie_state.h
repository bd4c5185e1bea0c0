/* SPDX-License-Identifier: GPL-2.0-only */
/* The kernel's path to the core header, as install-core.sh makes it. */
#include <kmc_cookie_state.h>
