#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Hold the source tree to its include layers.

usage: check-layers.py [--root DIR] [--rules FILE]

The rules are the ```layers block of docs/architecture.md (or a file of
such lines): one line a directory, then the directories or headers its
code may include from; a directory's rule covers its subdirectories
unless they have their own, and several lines for one directory add up.
For every directory named in the rules, every .c and .h file under it,
and every #include in them: the header is looked up in the tree (a
"quoted" one first beside the file that includes it, then anywhere in
the tree by its path), and must lie in a directory, or be a header, that
the rule allows.  A header of the compiler's own search path (libc:
errno.h, ...) or found nowhere in the tree is a system one and always
allowed, unless it is beside the file.  Prints each violation as
FILE:LINE: includes HEADER (found: ...) and exits 1 if there is any; 2
for a bad rules file.
"""
import argparse
import os
import re
import subprocess
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
SKIP = re.compile(r'^(\.|build|meson-|subprojects$)')


def rule_lines(path):
	"""(number, line) of the rules: in a .md file, its ```layers block."""
	with open(path) as f:
		lines = list(enumerate(f, 1))
	if not path.endswith('.md'):
		return lines
	out, on = [], False
	for n, line in lines:
		if line.startswith('```'):
			on = line.strip() == '```layers'
		elif on:
			out.append((n, line))
	if not out:
		sys.exit('%s: no ```layers block' % path)
	return out


def read_rules(path):
	rules = {}
	for n, line in rule_lines(path):
		line = line.split('#', 1)[0].split()
		if not line:
			continue
		if len(line) < 2:
			sys.exit('%s:%d: a directory and what it may '
				 'include from' % (path, n))
		d = line[0].rstrip('/')
		rules.setdefault(d, []).extend(x.rstrip('/') for x in line[1:])
	return rules


def tree_headers(root):
	"""Every header of the tree, relative to it, build trees skipped."""
	out = []
	for top, dirs, files in os.walk(root):
		dirs[:] = [d for d in dirs if not SKIP.match(d) and
			   not os.path.exists(os.path.join(top, d,
							   'meson-private'))]
		rel = os.path.relpath(top, root)
		for f in files:
			if f.endswith('.h'):
				out.append(os.path.normpath(os.path.join(rel, f)))
	return out


def system_dirs():
	"""The compiler's <...> search path (cc -E -v), else the usual one."""
	cc = os.environ.get('CC', 'cc').split()
	try:
		err = subprocess.run(cc + ['-E', '-v', '-x', 'c', os.devnull],
				     capture_output=True, text=True).stderr
	except OSError:
		err = ''
	dirs, on = [], False
	for line in err.splitlines():
		if line.startswith('#include <...>'):
			on = True
		elif line.startswith('End of search list'):
			on = False
		elif on:
			dirs.append(line.strip().split(' ')[0])
	return dirs or ['/usr/local/include', '/usr/include']


def allowed(header, allow):
	for a in allow:
		if header == a or header.startswith(a + '/'):
			return True
	return False


def rule_for(path, rules):
	"""The rule of the deepest directory holding @path."""
	best = None
	for d in rules:
		if path.startswith(d + '/') and (best is None or
						 len(d) > len(best)):
			best = d
	return best


def main():
	here = os.path.dirname(os.path.abspath(__file__))
	ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
	ap.add_argument('--root', default=os.path.dirname(os.path.dirname(here)))
	ap.add_argument('--rules', default=os.path.join(
		os.path.dirname(os.path.dirname(here)), 'docs', 'architecture.md'))
	args = ap.parse_args()

	rules = read_rules(args.rules)
	root = args.root
	headers = tree_headers(root)
	sysdirs = system_dirs()
	bad = checked = 0
	for d in sorted(rules):
		if not os.path.isdir(os.path.join(root, d)):
			print('%s: no such directory (rules)' % d)
			bad += 1
			continue
		for top, dirs, files in os.walk(os.path.join(root, d)):
			dirs[:] = sorted(x for x in dirs if not SKIP.match(x))
			for f in sorted(files):
				if not f.endswith(('.c', '.h')):
					continue
				src = os.path.relpath(os.path.join(top, f), root)
				if rule_for(src, rules) != d:
					continue
				checked += 1
				bad += check_file(root, src, rules[d], headers,
						  sysdirs)
	print('%d files checked, %d violations' % (checked, bad))
	return 1 if bad else 0


def check_file(root, src, allow, headers, sysdirs):
	bad = 0
	with open(os.path.join(root, src), errors='replace') as f:
		for n, line in enumerate(f, 1):
			m = INCLUDE.match(line)
			if not m:
				continue
			name = os.path.normpath(m.group(2))
			beside = os.path.normpath(os.path.join(
				os.path.dirname(src), name))
			if m.group(1) == '"' and beside in headers:
				found = [beside]
			elif any(os.path.exists(os.path.join(d, name))
				 for d in sysdirs):
				continue
			else:
				found = [h for h in headers if h == name or
					 h.endswith('/' + name)]
			if not found or any(allowed(h, allow) for h in found):
				continue
			print('%s:%d: includes %s (found: %s)' % (
				src, n, m.group(2), ' '.join(sorted(found))))
			bad += 1
	return bad


if __name__ == '__main__':
	sys.exit(main())
