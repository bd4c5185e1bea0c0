#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Regenerate the checked-in seed corpus of the ceph fuzz target,
tests/fuzz/corpus/ceph/vec-L<line>, from tests/vectors/ceph.vec: each
vector's source, then '\\n' and its options when it has any (the input
format of tests/fuzz/fuzz_ceph.c).  Seeds not named vec-* are left alone.

    tests/ceph/mkseeds_ceph.py
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
VEC = os.path.join(HERE, '..', 'vectors', 'ceph.vec')
CORPUS = os.path.join(HERE, '..', 'fuzz', 'corpus', 'ceph')


def vec_str(s):
    return b'' if s == '-' else s.encode().decode('unicode_escape').encode(
        'latin-1')


def main():
    if len(sys.argv) != 1:
        sys.exit(__doc__)
    os.makedirs(CORPUS, exist_ok=True)
    for f in os.listdir(CORPUS):
        if f.startswith('vec-'):
            os.unlink(os.path.join(CORPUS, f))
    n = 0
    with open(VEC, encoding='utf-8') as f:
        for lineno, line in enumerate(f, 1):
            cols = line.split()
            if not cols or cols[0].startswith('#'):
                continue
            data = vec_str(cols[0])
            if cols[1] != '-':
                data += b'\n' + vec_str(cols[1])
            with open(os.path.join(CORPUS, 'vec-L%d' % lineno), 'wb') as out:
                out.write(data)
            n += 1
    print('ceph: %d seeds' % n)


main()
