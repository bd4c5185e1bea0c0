#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Print the call cycles between the source files of a program.

Usage: call-cycles.py [-v] [--data] OBJECT_OR_ARCHIVE...
  e.g. call-cycles.py build/fuse-demo/cachefs/kmirror-cachefs.p/*.o

A file calls another when it leaves undefined (nm 'U') a symbol the other
defines ('T', or 'W').  The strongly connected components of that graph
with more than one file are the cycles: files that cannot be put in
layers, each only calling those below it.  Each is printed with its
files; -v adds, for each edge inside it, the symbols that make the edge.
The last line is the count.  The exit status is 0 either way: a report,
not a check.

Only what the linker sees is seen.  A static function, an inline one in
a header or a macro makes no edge, so a cycle that runs only through
those is missed; a cycle found here is real (two files that name each
other's exported symbols).  Calls through function pointers are not
calls here either: that is how a lower layer notifies an upper one
without naming it.  --data counts global variables ('D', 'B', 'R', 'C')
as well as functions.

Python 3 and binutils' nm, nothing else.
"""
import os
import subprocess
import sys

FUNC_TYPES = 'TW'
DATA_TYPES = 'DBRC'


def unit_name(path):
    """foo.c.o or foo.o (alone or an archive member) -> foo.c"""
    base = os.path.basename(path)
    if base.endswith('.o'):
        base = base[:-2]
    return base


def read_symbols(paths, types):
    """{unit: (defined set, undefined set)} from nm -A over every path."""
    out = subprocess.run(['nm', '-A', '-P', '--'] + paths, check=True,
                         stdout=subprocess.PIPE,
                         universal_newlines=True).stdout
    units = {}
    for line in out.splitlines():
        # POSIX form: "file.o: sym T value size", or "lib.a[member.o]: ..."
        where, sep, rest = line.rpartition(': ')
        fields = rest.split()
        if not sep or len(fields) < 2:
            continue
        sym, kind = fields[0], fields[1]
        if where.endswith(']'):
            where = where[where.rindex('[') + 1:-1]
        defs, undefs = units.setdefault(unit_name(where), (set(), set()))
        if kind == 'U':
            undefs.add(sym)
        elif kind in types:
            defs.add(sym)
    return units


def call_graph(units):
    """{caller: {callee: [symbols]}}, calls to oneself left out."""
    owner = {}
    for unit, (defs, _) in units.items():
        for sym in defs:
            owner.setdefault(sym, unit)
    graph = {unit: {} for unit in units}
    for unit, (_, undefs) in units.items():
        for sym in sorted(undefs):
            callee = owner.get(sym)
            if callee and callee != unit:
                graph[unit].setdefault(callee, []).append(sym)
    return graph


def components(graph):
    """Tarjan's strongly connected components, without recursion."""
    index, low, on_stack, stack, sccs = {}, {}, set(), [], []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    scc = []
                    while True:
                        top = stack.pop()
                        on_stack.discard(top)
                        scc.append(top)
                        if top == node:
                            break
                    sccs.append(sorted(scc))
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph[child]))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return sccs


def main(argv):
    verbose = '-v' in argv
    types = FUNC_TYPES + (DATA_TYPES if '--data' in argv else '')
    paths = [a for a in argv if a not in ('-v', '--data')]
    if not paths or any(p.startswith('-') for p in paths):
        sys.stderr.write(__doc__)
        return 2
    graph = call_graph(read_symbols(paths, types))
    cycles = sorted((s for s in components(graph) if len(s) > 1),
                    key=lambda s: (-len(s), s))
    for n, scc in enumerate(cycles, 1):
        print('cycle %d (%d files): %s' % (n, len(scc), ' '.join(scc)))
        if not verbose:
            continue
        for caller in scc:
            for callee in sorted(graph[caller]):
                if callee in scc:
                    print('  %s -> %s: %s' % (caller, callee,
                          ' '.join(graph[caller][callee])))
    print('%d cycle(s), %d file(s) in them' %
          (len(cycles), sum(len(s) for s in cycles)))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
