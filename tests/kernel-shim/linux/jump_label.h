/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * <linux/jump_label.h> for the tree's page_table_check.h: custom.  A
 * static key is a plain flag here; static_branch_likely() reads it.
 */
#ifndef KMIRROR_KSHIM_JUMP_LABEL_H
#define KMIRROR_KSHIM_JUMP_LABEL_H

#include <stdbool.h>

struct static_key_true {
	bool enabled;
};

#define DEFINE_STATIC_KEY_TRUE(name) \
	struct static_key_true name = { .enabled = true }
#define static_branch_likely(key)	__builtin_expect((key)->enabled, 1)
#define static_branch_disable(key)	((key)->enabled = false)

#endif
