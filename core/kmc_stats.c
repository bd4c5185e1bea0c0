// SPDX-License-Identifier: GPL-2.0-only
/*
 * /proc/fs/fscache/stats (see kmc_stats.h).  The format strings are those
 * of fscache_stats_show(), fs/fscache/stats.c:55-102 of the 6.1 tree, one
 * seq_printf() a line.
 */
#include "kcompat.h"
#include "kmc_stats.h"

#define N(c) (st->n[KMC_STAT_##c])

int kmc_fscache_stats_format(const struct kmc_fscache_stats *st, char *buf,
			     size_t size)
{
	return snprintf(buf, size,
			"FS-Cache statistics\n"
			"Cookies: n=%d v=%d vcol=%u voom=%u\n"
			"Acquire: n=%u ok=%u oom=%u\n"
			"LRU    : n=%u exp=%u rmv=%u drp=%u at=%ld\n"
			"Invals : n=%u\n"
			"Updates: n=%u rsz=%u rsn=%u\n"
			"Relinqs: n=%u rtr=%u drop=%u\n"
			"NoSpace: nwr=%u ncr=%u cull=%u\n"
			"IO     : rd=%u wr=%u\n",
			(int)N(COOKIES), (int)N(VOLUMES), N(VOLUMES_COLLISION),
			N(VOLUMES_NOMEM), N(ACQUIRES), N(ACQUIRES_OK),
			N(ACQUIRES_OOM), N(COOKIES_LRU), N(COOKIES_LRU_EXPIRED),
			N(COOKIES_LRU_REMOVED), N(COOKIES_LRU_DROPPED),
			st->lru_timer, N(INVALIDATES), N(UPDATES), N(RESIZES),
			N(RESIZES_NULL), N(RELINQUISHES),
			N(RELINQUISHES_RETIRE), N(RELINQUISHES_DROPPED),
			N(NO_WRITE_SPACE), N(NO_CREATE_SPACE), N(CULLED),
			N(READ), N(WRITE));
}
EXPORT_SYMBOL(kmc_fscache_stats_format);
#undef N
