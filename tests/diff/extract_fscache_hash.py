#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Cut HASH_MIX, fold_hash() and fscache_hash() out of the tree's
fs/fscache/main.c, unchanged, so the test compiles the kernel's own text."""
import sys

src, dst = sys.argv[1:3]
text = open(src).read()
start = text.index('#define HASH_MIX')
body = text.index('unsigned int fscache_hash(')
end = text.index('\n}\n', body) + 3
with open(dst, 'w') as f:
    f.write('/* Extracted from %s at build time: do not edit. */\n' % src)
    f.write('#include "kernel_fscache.h"\n\n')
    f.write(text[start:end])
