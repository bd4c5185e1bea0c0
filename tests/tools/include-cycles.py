#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""include-cycles.py [ROOT]: cycles in the include graph of the C files.

Prints the cycles (strongly connected components) among files and among
directories, with the files or directories in each.  An #include is
resolved as the compilers would: "x.h" beside the includer first, then
each directory of SEARCH; <...> only in SEARCH (system headers are left
out).  tests/ are left out: they may include anything.  Exits 1 if
there is any cycle.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from callcycles import sccs as strong_components  # noqa: E402

SEARCH = ['core', 'userspace', 'userspace/include', 'userspace/lib',
          'kernel', 'kernel/kunit', 'fuse-demo/cachefs', 'fuse-demo/format']
INC = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def sources(root):
    for top in ('core', 'userspace', 'kernel', 'fuse-demo'):
        for d, _, names in os.walk(os.path.join(root, top)):
            for n in names:
                if n.endswith(('.c', '.h')):
                    yield os.path.relpath(os.path.join(d, n), root)


def resolve(root, src, kind, name):
    dirs = ([os.path.dirname(src)] if kind == '"' else []) + SEARCH
    for d in dirs:
        p = os.path.normpath(os.path.join(d, name))
        if os.path.isfile(os.path.join(root, p)):
            return p
    return None


def graph(root):
    g = {}
    for src in sources(root):
        g.setdefault(src, set())
        with open(os.path.join(root, src), errors='replace') as f:
            for line in f:
                m = INC.match(line)
                if m:
                    dst = resolve(root, src, m.group(1), m.group(2))
                    if dst and dst != src:
                        g[src].add(dst)
                        g.setdefault(dst, set())
    return g


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, '..', '..')
    g = graph(root)
    files = [c for c in strong_components(g, g) if len(c) > 1]
    dg = {}
    for a, bs in g.items():
        dg.setdefault(os.path.dirname(a), set())
        for b in bs:
            if os.path.dirname(b) != os.path.dirname(a):
                dg[os.path.dirname(a)].add(os.path.dirname(b))
                dg.setdefault(os.path.dirname(b), set())
    dirs = [c for c in strong_components(dg, dg) if len(c) > 1]
    print('include cycles among files: %d' % len(files))
    for c in files:
        print('  ' + ' '.join(c))
    print('include cycles among directories: %d' % len(dirs))
    for c in dirs:
        print('  ' + ' '.join(c))
    return 1 if files or dirs else 0


if __name__ == '__main__':
    sys.exit(main())
