// SPDX-License-Identifier: GPL-2.0-only
/*
 * Page-table check: the names of the verdicts.  The rules themselves are
 * inline in kmc_ptc.h, on the hot path of every page-table update.
 */
#include "kmc_ptc.h"

/* Stable names, one per BUG_ON() of mm/page_table_check.c; no spaces. */
static const char *const kmc_ptc_rules[KMC_PTC_VERDICT_NR] = {
	[KMC_PTC_OK]				= "ok",
	[KMC_PTC_ANON_MAP_OF_FILE_MAPPED]	= "anon-map-of-file-mapped",
	[KMC_PTC_ANON_RW_DOUBLE_MAP]		= "anon-rw-double-map",
	[KMC_PTC_FILE_MAP_OF_ANON_MAPPED]	= "file-map-of-anon-mapped",
	[KMC_PTC_FILE_MAP_OVERFLOW]		= "file-map-overflow",
	[KMC_PTC_ANON_UNMAP_OF_FILE_MAPPED]	= "anon-unmap-of-file-mapped",
	[KMC_PTC_ANON_UNMAP_UNDERFLOW]		= "anon-unmap-underflow",
	[KMC_PTC_FILE_UNMAP_OF_ANON_MAPPED]	= "file-unmap-of-anon-mapped",
	[KMC_PTC_FILE_UNMAP_UNDERFLOW]		= "file-unmap-underflow",
	[KMC_PTC_STILL_ANON_MAPPED]		= "still-anon-mapped",
	[KMC_PTC_STILL_FILE_MAPPED]		= "still-file-mapped",
};

const char *kmc_ptc_rule_name(unsigned int verdict)
{
	if (verdict >= KMC_PTC_VERDICT_NR)
		return NULL;
	return kmc_ptc_rules[verdict];
}
EXPORT_SYMBOL_IF_KUNIT(kmc_ptc_rule_name);

int kmc_ptc_rule_parse(const char *name, size_t len)
{
	unsigned int v;

	for (v = 0; v < KMC_PTC_VERDICT_NR; v++) {
		if (strlen(kmc_ptc_rules[v]) == len &&
		    !memcmp(kmc_ptc_rules[v], name, len))
			return v;
	}
	return -EINVAL;
}
EXPORT_SYMBOL_IF_KUNIT(kmc_ptc_rule_parse);
