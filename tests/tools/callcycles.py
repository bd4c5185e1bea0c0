#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Count the call cycles between the source files of a set of objects.

usage: callcycles.py [--max N] [-v] OBJ_OR_DIR...

Reads each object file (a directory: every *.o under it) with objdump -dr
and nm: the functions each object defines and, per function, the symbols
its code relocates against (calls, and addresses taken); relocations in
data sections (ops tables) count for the object as a whole.  A reference
to a symbol defined in another object is an edge between two functions
and between two files.  It then prints the strongly connected components
of the file graph that hold more than one file, each with the cross-file
edges inside it, and two counts:

  file cycles: the number of such components (0: the files form layers)
  function cycles: the number of function-level components that span
                   more than one file (mutual recursion across files)

--max N fails (exit 1) when there are more than N file cycles, so that a
test can hold a directory to "no cycles".  Examples:

  tests/tools/callcycles.py build/userspace/libkmirror.so.0.1.0.p
  tests/tools/callcycles.py build/fuse-demo/cachefs/kmirror-cachefs.p
"""
import argparse
import os
import re
import subprocess
import sys


def objects(paths):
	out = []
	for p in paths:
		if os.path.isdir(p):
			for root, _, files in os.walk(p):
				out += [os.path.join(root, f) for f in files
					if f.endswith('.o')]
		else:
			out.append(p)
	return sorted(out)


def short(obj):
	"""lib_backend.c.o -> lib_backend.c (meson flattens the path)."""
	name = os.path.basename(obj)
	if name.endswith('.o'):
		name = name[:-2]
	return name.replace('.._', '')


def run(cmd):
	return subprocess.run(cmd, check=True, capture_output=True,
			      text=True).stdout


FUNC = re.compile(r'^[0-9a-f]+ <([^>]+)>:$')
RELOC = re.compile(r'^\s+[0-9a-f]+: R_\S+\s+([^\s+-]+)')


def scan(obj):
	"""Defined symbols; per function, the symbols it refers to."""
	defined = {}
	for line in run(['nm', '--defined-only', obj]).splitlines():
		f = line.split()
		if len(f) == 3:
			defined[f[2]] = f[1].isupper()
	refs = {}
	cur = None
	for line in run(['objdump', '-dr', '--no-show-raw-insn',
			 obj]).splitlines():
		m = FUNC.match(line)
		if m:
			cur = m.group(1)
			refs.setdefault(cur, set())
			continue
		m = RELOC.match(line)
		if m and cur:
			refs[cur].add(m.group(1))
	# Function pointers in initialised data (an ops table, say).
	section = None
	for line in run(['objdump', '-r', obj]).splitlines():
		if line.startswith('RELOCATION RECORDS FOR ['):
			section = line.split('[')[1].split(']')[0]
			continue
		f = line.split()
		if (section and len(f) == 3 and
		    re.match(r'\.(data|rodata)', section)):
			sym = re.split(r'[+-]', f[2])[0]
			refs.setdefault('<data>', set()).add(sym)
	return defined, refs


def sccs(nodes, edges):
	"""Tarjan, iterative.  edges: node -> set of nodes."""
	index, low, on, stack, out = {}, {}, set(), [], []
	counter = [0]
	for root in nodes:
		if root in index:
			continue
		work = [(root, iter(sorted(edges.get(root, ()))))]
		index[root] = low[root] = counter[0]
		counter[0] += 1
		stack.append(root)
		on.add(root)
		while work:
			v, it = work[-1]
			for w in it:
				if w not in index:
					index[w] = low[w] = counter[0]
					counter[0] += 1
					stack.append(w)
					on.add(w)
					work.append((w, iter(sorted(
						edges.get(w, ())))))
					break
				if w in on:
					low[v] = min(low[v], index[w])
			else:
				work.pop()
				if work:
					u = work[-1][0]
					low[u] = min(low[u], low[v])
				if low[v] == index[v]:
					comp = []
					while True:
						w = stack.pop()
						on.discard(w)
						comp.append(w)
						if w == v:
							break
					out.append(sorted(comp))
	return out


def main():
	ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
	ap.add_argument('--max', type=int, default=None)
	ap.add_argument('-v', '--verbose', action='store_true')
	ap.add_argument('paths', nargs='+')
	args = ap.parse_args()

	objs = objects(args.paths)
	if not objs:
		sys.exit('callcycles: no object files')
	info = {o: scan(o) for o in objs}
	owner = {}
	for o, (defined, _) in info.items():
		for sym, glob in defined.items():
			if glob:
				owner[sym] = o

	fedges, nedges, calls = {}, {}, {}
	for o, (defined, refs) in info.items():
		for fn, syms in refs.items():
			src = (o, fn)
			for s in syms:
				if s in defined:
					dst = (o, s)
				elif s in owner:
					dst = (owner[s], s)
				else:
					continue
				nedges.setdefault(src, set()).add(dst)
				if dst[0] != o:
					fedges.setdefault(o, set()).add(dst[0])
					calls.setdefault((o, dst[0]), set()).add(
						(fn, s))

	file_cycles = [c for c in sccs(objs, fedges) if len(c) > 1]
	nodes = sorted(set(nedges) | {d for v in nedges.values() for d in v})
	func_cycles = [c for c in sccs(nodes, nedges)
		       if len({o for o, _ in c}) > 1]

	for c in file_cycles:
		print('cycle: ' + ' '.join(short(o) for o in c))
		for a in c:
			for b in c:
				for fn, s in sorted(calls.get((a, b), ())):
					print('  %s:%s -> %s:%s' % (
						short(a), fn, short(b), s))
	if args.verbose:
		for c in func_cycles:
			print('function cycle: ' + ' '.join(
				'%s:%s' % (short(o), f) for o, f in c))
	print('files: %d' % len(objs))
	print('file cycles: %d' % len(file_cycles))
	print('files in cycles: %d' % sum(len(c) for c in file_cycles))
	print('function cycles: %d' % len(func_cycles))
	if args.max is not None and len(file_cycles) > args.max:
		return 1
	return 0


if __name__ == '__main__':
	sys.exit(main())
