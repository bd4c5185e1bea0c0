#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Move a cachefiles cache in and out of an ext4 disk image, xattrs included,
without mounting it (no root, no loop device): e2fsprogs' own tools.

  cache-image.py make IMG SIZE_MB [DIR]     new ext4 image; DIR's contents
                                            (xattrs too) at its root
  cache-image.py extract IMG PATH OUT       copy PATH of the image into OUT
                                            with every user.* xattr

make is mkfs.ext4 -d (which copies xattrs); extract is debugfs rdump for
the tree, then debugfs ea_list/ea_get for the xattrs, set with setxattr(2)
on the copy.  OUT must be on a filesystem with user xattrs.
"""
import os
import subprocess
import sys
import tempfile


def debugfs(img, cmds):
    """Run debugfs commands in one batch; return stdout."""
    with tempfile.NamedTemporaryFile('w', suffix='.cmds', delete=False) as f:
        f.write(''.join(c + '\n' for c in cmds))
        name = f.name
    try:
        r = subprocess.run(['debugfs', '-f', name, img], capture_output=True,
                           text=True, errors='surrogateescape', check=True)
    finally:
        os.unlink(name)
    return r.stdout


def quote(path):
    if '"' in path or '\n' in path:
        sys.exit('cache-image: cannot pass %r to debugfs' % path)
    return '"%s"' % path


def make(img, size_mb, src=None):
    with open(img, 'wb') as f:
        f.truncate(int(size_mb) << 20)
    cmd = ['mkfs.ext4', '-q', '-F', '-E', 'root_owner=0:0']
    if src:
        cmd += ['-d', src]
    subprocess.run(cmd + [img], check=True)


def xattr_names(img, paths):
    """{path: [xattr names]} from one ea_list batch."""
    out = debugfs(img, ['ea_list ' + quote(p) for p in paths])
    names, cur = {}, None
    for line in out.splitlines():
        if line.startswith('debugfs: ea_list '):
            cur = line[len('debugfs: ea_list '):].strip('"')
            names[cur] = []
        elif cur is not None and line.startswith('  ') and ' (' in line:
            names[cur].append(line.strip().split(' (')[0])
    return names


def extract(img, path, out):
    os.makedirs(out, exist_ok=True)
    debugfs(img, ['rdump %s %s' % (quote(path), quote(out))])
    root = os.path.join(out, os.path.basename(path.rstrip('/')))
    local = {}
    for d, dirs, files in os.walk(root):
        for n in dirs + files:
            full = os.path.join(d, n)
            local[path.rstrip('/') + full[len(root):]] = full
    local[path] = root
    names = xattr_names(img, sorted(local))
    with tempfile.TemporaryDirectory() as tmp:
        gets, where = [], []
        for p, ns in names.items():
            for n in ns:
                if not n.startswith('user.'):
                    continue
                f = os.path.join(tmp, str(len(gets)))
                gets.append('ea_get -f %s %s %s' % (f, quote(p), n))
                where.append((local[p], n, f))
        debugfs(img, gets)
        for dst, n, f in where:
            with open(f, 'rb') as v:
                os.setxattr(dst, n, v.read())
    print(root)


def main():
    if len(sys.argv) >= 4 and sys.argv[1] == 'make':
        make(*sys.argv[2:5])
    elif len(sys.argv) == 5 and sys.argv[1] == 'extract':
        extract(*sys.argv[2:5])
    else:
        sys.exit(__doc__)


main()
