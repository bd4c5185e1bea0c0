#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""One way into a cache directory: kmirror/cachedir.h.

Every call that names a file by path (open, openat, rename, unlink, link,
mkdir, mkfifo, stat, chmod, bind, connect, ...) in kmirror-cachefs
(fuse-demo), the kmirror CLI (userspace/cli) and libkmirror
(userspace/lib) must be the helper's own (userspace/lib/cachedir*.c) or
stand in ALLOW below: calls on the SOURCE tree, the mount, the user's own
input files or /proc, each with why.  Anything else is a second way into
a cache directory, which is how a symlink planted there got written
through.  Exit 1 and one line per call found; also for an ALLOW entry
that no longer matches anything (the list stays reviewed, not grown).
"""
import argparse
import pathlib
import re
import shutil
import sys
import tempfile

DIRS = ['fuse-demo/cachefs', 'fuse-demo/format', 'userspace/cli',
        'userspace/lib']
HELPER = {'userspace/lib/cachedir.c', 'userspace/lib/cachedir_file.c'}
CALLS = ('open', 'openat', 'openat2', 'fopen', 'freopen', 'creat', 'rename',
         'renameat', 'renameat2', 'unlink', 'unlinkat', 'link', 'linkat',
         'symlink', 'symlinkat', 'mkdir', 'mkdirat', 'mkfifo', 'mkfifoat',
         'mknod', 'mknodat', 'rmdir', 'remove', 'stat', 'lstat', 'fstatat',
         'statx', 'truncate', 'chmod', 'chown', 'lchown', 'fchmodat',
         'fchownat', 'utimensat', 'utimes', 'opendir', 'mkstemp',
         'mkostemp', 'mkdtemp', 'tmpfile', 'bind', 'connect', 'faccessat',
         'access', 'readlink', 'readlinkat', 'name_to_handle_at',
         'open_by_handle_at', 'setxattr', 'lsetxattr', 'getxattr',
         'lgetxattr', 'removexattr', 'listxattr', 'llistxattr')
CALL_RE = re.compile(r'(?<![\w.>])(' + '|'.join(CALLS) + r')\s*\(|'
                     r'\bsyscall\s*\(\s*(SYS|__NR)_(' + '|'.join(CALLS) +
                     r')\b')

# (file, regex on the call's line, why it is not in a cache directory)
ALLOW = [
    ('fuse-demo/cachefs/cache.c', r'fstatat\(in->fd, "", &st, AT_EMPTY_PATH\)',
     'fstat of a source inode\'s own descriptor'),
    ('fuse-demo/cachefs/control.c', r'bind\(fd, \(struct sockaddr \*\)&sa, len\)',
     'the address comes from kmirror_cachedir_sockaddr()'),
    ('fuse-demo/cachefs/dirs.c', r'openat\(cur, "\.\.", O_PATH',
     'walks UP from the three directories to tell nesting (O_PATH)'),
    ('fuse-demo/cachefs/dirs.c', r'open\(fs->cfg\.mountpoint, O_PATH',
     'the mount point, not a cache directory'),
    ('fuse-demo/cachefs/main.c', r'open\("/dev/null"', 'daemonising'),
    ('fuse-demo/cachefs/main.c', r'open\(src, ', 'the SOURCE root'),
    ('fuse-demo/cachefs/main.c', r'faccessat\(fd, "", R_OK \| X_OK, AT_EMPTY_PATH\)',
     'the SOURCE root, by descriptor'),
    ('fuse-demo/cachefs/main.c', r'fopen\("/proc/self/mountinfo"', '/proc'),
    ('fuse-demo/cachefs/ops_entry.c', r'(chmod|truncate)\(proc, attr->',
     'setattr on a SOURCE inode, by its /proc/self/fd name'),
    ('fuse-demo/cachefs/ops_entry.c', r'fchownat\(in->fd, "",',
     'setattr on a SOURCE inode, by descriptor'),
    ('fuse-demo/cachefs/ops_entry.c', r'utimensat\(AT_FDCWD, proc, tv, 0\)',
     'setattr on a SOURCE inode, by its /proc/self/fd name'),
    ('fuse-demo/cachefs/ops_entry.c', r'(mknodat|mkdirat)\(dir, name, mode',
     'mknod/mkdir in a SOURCE directory'),
    ('fuse-demo/cachefs/ops_entry.c', r'symlinkat\(link, dir, name\)',
     'symlink in a SOURCE directory'),
    ('fuse-demo/cachefs/ops_entry.c', r'linkat\((in->fd, ""|AT_FDCWD, proc), dir->fd, name',
     'link in a SOURCE directory'),
    ('fuse-demo/cachefs/ops_entry.c', r'(fstatat|unlinkat)\(dir->fd, name',
     'unlink/rmdir in a SOURCE directory'),
    ('fuse-demo/cachefs/ops_entry.c', r'renameat2\(dir->fd, name, ndir->fd, newname',
     'rename in the SOURCE tree'),
    ('fuse-demo/cachefs/ops_file.c', r'openat\(w\.locked->fd, name',
     'create in a SOURCE directory'),
    ('fuse-demo/cachefs/ops_xattr.c', r'(removexattr|setxattr)\(proc, name',
     'xattrs of a SOURCE inode, by its /proc/self/fd name'),
    ('fuse-demo/cachefs/srccall.c', r'c->ret = (fstatat|openat|readlinkat)\(c->fd, c->name',
     'SOURCE calls on the runner threads (kc_src_*())'),
    ('fuse-demo/cachefs/srccall.c', r'(statx|fstatat)\(dirfd, name, (flags|st)',
     'kc_fstatat_born(): the runners\' SOURCE stats with the birth time, '
     'and the SOURCE root at mount'),
    ('fuse-demo/cachefs/privs.c', r'chmod\(proc, mode & 07777\)',
     'the kernel\'s kill of set-ID bits on a SOURCE inode, by its '
     '/proc/self/fd name'),
    ('fuse-demo/cachefs/srccall.c', r'c->ret = faccessat\(c->fd, c->name',
     'SOURCE access checks on the runner threads'),
    ('fuse-demo/cachefs/srccall.c', r'c->ret = (getxattr|listxattr)\(c->name',
     'SOURCE xattr calls on the runner threads'),
    ('fuse-demo/cachefs/sums.c', r'readlink\(link, path',
     'the /proc/self/fd name of an open object, for a message'),
    ('userspace/cli/cache_put_input.c', r'open\(file, O_RDONLY \| O_NOFOLLOW',
     'cache put: the input file the user named'),
    ('userspace/cli/cmd_cache_warm.c', r'open\(path, O_RDONLY \| O_NOFOLLOW',
     'cache warm: files of the MOUNT, read to warm the cache'),
    ('userspace/cli/cmd_cache_warm.c', r'fopen\("/dev/null"', 'quiet output'),
    ('userspace/cli/cmd_ptc.c', r'open\(path, O_RDONLY \| O_NOCTTY',
     'ptc replay: the trace file the user named'),
    ('userspace/lib/backend.c', r'chmod\(proc, 0600\)',
     'a 0000 object, by the /proc name of an O_PATH descriptor that '
     'kmirror_cachedir_open() checked'),
]


def strip_c(text):
    """@text with comments and string/char literals blanked, lines kept."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:j]))
            i = j
        elif text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            out.append(' ' * (j - i))
            i = j
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == '\\' else 1
            out.append(c + ' ' * (min(j, n) - i - 1) + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return ''.join(out)


def raw_calls(root):
    """(file, line number, line) of every path call outside the helper."""
    for d in DIRS:
        for path in sorted((root / d).glob('*.c')):
            rel = path.relative_to(root).as_posix()
            if rel in HELPER:
                continue
            text = path.read_text(errors='replace')
            lines = text.split('\n')
            for no, code in enumerate(strip_c(text).split('\n'), 1):
                if CALL_RE.search(code):
                    yield rel, no, lines[no - 1]


def check(root, say=print):
    """Number of raw calls and stale ALLOW entries under @root, each said."""
    used, bad = set(), 0
    for rel, no, line in raw_calls(root):
        hit = [k for k, (f, rx, _) in enumerate(ALLOW)
               if f == rel and re.search(rx, line)]
        used.update(hit)
        if not hit:
            bad += 1
            say(f'{rel}:{no}: raw path call outside kmirror/cachedir.h: '
                f'{line.strip()}')
    for k, (f, rx, why) in enumerate(ALLOW):
        if k not in used:
            bad += 1
            say(f'{f}: allow-list entry matches nothing (remove it): '
                f'{rx} ({why})')
    return bad


# The check of the checker: raw calls planted in a scratch copy, on cache
# files as the daemon, the CLI and libkmirror would make them, are caught;
# the same call in the helper itself is not.
PLANTS = [
    ('fuse-demo/cachefs/pins.c', 'static int x(int d) { return openat(d, '
     '"kmirror-pins.tmp", O_WRONLY | O_CREAT, 0600); }', True),
    ('userspace/cli/cmd_cache_check.c', 'static int y(int d) { return '
     'renameat(d, "a", d, "b"); }', True),
    ('userspace/lib/backend.c', 'static int z(int d) { return '
     'syscall(SYS_openat2, d, "x", 0, 0); }', True),
    ('userspace/lib/cachedir.c', 'static int w(int d) { return '
     'openat(d, "x", 0); }', False),
]


def tap(root):
    """The tree, then the plants, as TAP; 0 if all pass."""
    n, failed = 0, 0

    def ok(good, what, notes=()):
        nonlocal n, failed
        n += 1
        failed += not good
        print(f'{"ok" if good else "not ok"} {n} - {what}')
        for note in notes:
            print(f'# {note}')

    print(f'1..{2 + len(PLANTS)}')
    notes = []
    ok(not check(root, notes.append),
       'every cache directory access goes through kmirror/cachedir.h', notes)
    with tempfile.TemporaryDirectory() as tmp:
        copy = pathlib.Path(tmp) / 't'
        for d in DIRS:
            shutil.copytree(root / d, copy / d,
                            ignore=shutil.ignore_patterns('*.h', '*.1',
                                                          '*.build'))
        ok(not check(copy, lambda _: None), 'an untouched copy passes')
        for rel, code, caught in PLANTS:
            f = copy / rel
            before = f.read_text()
            f.write_text(before + code + '\n')
            said = []
            check(copy, said.append)
            hit = any(s.startswith(rel + ':') and 'raw path call' in s
                      for s in said)
            f.write_text(before)
            ok(hit == caught, f'a raw call planted in {rel} is '
               f'{"caught" if caught else "allowed (the helper)"}')
    return 1 if failed else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--root', default=pathlib.Path(__file__).parents[2])
    ap.add_argument('--tap', action='store_true',
                    help='TAP, with the check of the checker')
    args = ap.parse_args()
    root = pathlib.Path(args.root)
    if args.tap:
        return tap(root)
    return 1 if check(root) else 0


if __name__ == '__main__':
    sys.exit(main())
