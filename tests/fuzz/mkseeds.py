#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Regenerate the checked-in seed corpora under tests/fuzz/corpus/ from
the vector files, so that every fuzz run starts from (and so re-checks)
the cases the vectors name.  Run from anywhere; rewrites corpus/{kernel,
daemon,cull,uncook,xattr}/vec-* and leaves other seeds alone.

    tests/fuzz/mkseeds.py
"""
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
VEC = os.path.join(HERE, '..', 'vectors')
CORPUS = os.path.join(HERE, 'corpus')


def rows(name):
    """(line number, columns) of a .vec file."""
    with open(os.path.join(VEC, name + '.vec'), encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if line and not line.startswith('#'):
                yield n, line.split()


def vec_str(s):
    return b'' if s == '-' else s.encode().decode('unicode_escape').encode(
        'latin-1')


def u(n, v):
    return struct.pack('<Q', v & (2 ** 64 - 1))[:n]


def kernel_write(data):
    return b'\x00' + u(2, len(data)) + data


def kernel_statfs(bsize, blocks, bavail, files, ffree):
    return b'\x01' + b''.join(u(8, v) for v in (bsize, blocks, bavail,
                                                 files, ffree))


def kernel_space(writing, fnr, bnr, reason):
    return b'\x02' + u(8, writing) + u(4, fnr) + u(4, bnr) + bytes([reason])


def write_seeds(target, seeds):
    d = os.path.join(CORPUS, target)
    os.makedirs(d, exist_ok=True)
    for f in os.listdir(d):
        if f.startswith('vec-'):
            os.unlink(os.path.join(d, f))
    seen = set()
    for name, data in seeds:
        if data in seen:
            continue
        seen.add(data)
        with open(os.path.join(d, 'vec-' + name), 'wb') as f:
            f.write(data)
    print('%s: %d seeds' % (target, len(seen)))


def daemon_sessions():
    """[(first line, ondemand, [writes])] of daemon.vec."""
    sessions = []
    for n, c in rows('daemon'):
        if c[0] in ('new', 'newod'):
            sessions.append((n, c[0] == 'newod', []))
        sessions[-1][2].append(vec_str(c[1]))
    return sessions


def kernel_seeds():
    """All of daemon.vec as one seed (sessions joined by "reopen"), each
    multi-write session on its own, and cull.vec's bind cases."""
    seeds = []
    statfs = kernel_statfs(4096, 2621440, 1300000, 655360, 300000)
    everything = b''
    for n, od, writes in daemon_sessions():
        data = statfs + b''.join(kernel_write(w) for w in writes)
        data += kernel_space(0, 0, 0, 0) + kernel_space(0, 1, 0, 2)
        everything += b'\x05' + bytes([od]) + data
        if len(writes) > 1:
            seeds.append(('daemon-L%d' % n, bytes([od]) + data))
    seeds.append(('daemon-all', b'\x00' + everything))
    # cull.vec's space cases: a bound cache, the case's limits and culling
    # state, its statfs answer, then its has_space call
    everything = b''
    for n, c in rows('cull'):
        if c[0] != 'space':
            continue
        lim = [int(x) for x in c[1].split(',')]
        ffree, bavail, writing, fnr, bnr, reason = \
            (int(x) for x in c[2].split(','))
        everything += b'\x05\x00' + statfs + kernel_write(b'dir /c') + \
            kernel_write(b'bind') + b'\x03' + \
            b''.join(u(8, v) for v in lim[:6]) + bytes([lim[6]]) + \
            kernel_statfs(4096, 2621440, bavail, 655360, ffree) + \
            kernel_space(writing, fnr, bnr, reason)
    seeds.append(('cull-space-all', b'\x00' + everything))
    # cull.vec's bind cases, each followed by a has_space at the limits
    for n, c in rows('cull'):
        if c[0] != 'bind':
            continue
        pct = [int(x) for x in c[1].split(',')]
        bsize, blocks, files = (int(x) for x in c[2].split(','))
        data = b'\x00' + kernel_statfs(bsize, blocks, blocks // 2, files,
                                       files // 2)
        for name, v in zip(['frun', 'fcull', 'fstop', 'brun', 'bcull',
                            'bstop'], [99, pct[1], pct[2], 99, pct[4],
                                       pct[5]]):
            data += kernel_write(b'%s %d%%' % (name.encode(), v))
        data += kernel_write(b'frun %d%%' % pct[0])
        data += kernel_write(b'brun %d%%' % pct[3])
        data += kernel_write(b'dir /c') + kernel_write(b'bind')
        data += kernel_space(0, 0, 0, 0) + kernel_space(7, 1, 1, 1)
        seeds.append(('bind-L%d' % n, data))
    return seeds


def daemon_seeds():
    seeds = []
    for n, od, writes in daemon_sessions():
        preset = 0
        for i, w in enumerate(writes):
            seeds.append(('L%d-%d' % (n, i), bytes([od | preset << 1]) + w))
            if w.startswith(b'dir') and preset == 0:
                preset = 1
            if w.startswith(b'bind') and preset == 1:
                preset = 3 if od and b'ondemand' in w else 2
    return seeds


def cull_seeds():
    seeds = []
    names = ['frun', 'fcull', 'fstop', 'brun', 'bcull', 'bstop']
    for n, c in rows('cull'):
        if c[0] == 'set':
            which, value = c[2].split('=')
            data = b'\x00' + bytes([names.index(which), 1]) + \
                u(8, int(value))
        elif c[0] == 'bind':
            bsize, blocks, files = (int(x) for x in c[2].split(','))
            data = b'\x01' + bytes([1 if bsize <= 0 else 0]) + \
                u(2, bsize + (4096 if bsize <= 0 else 0)) + \
                u(8, blocks) + u(8, files)
        else:
            ffree, bavail, writing, fnr, bnr, reason = \
                (int(x) for x in c[2].split(','))
            data = b'\x01\x00' + u(2, 4096) + u(8, 1000000) + \
                u(8, 100000) + b'\x02' + u(8, ffree) + u(8, bavail) + \
                u(8, writing) + u(4, fnr) + u(4, bnr) + bytes([reason])
        seeds.append(('L%d' % n, data))
    return seeds


def uncook_seeds():
    return [('L%d' % n, c[1].encode('latin-1')) for n, c in rows('cook')]


def xattr_seeds():
    hdr = u(8, 0)[::-1]
    obj = struct.pack('>QQBB', 8192, 8192, 1, 2)
    return [
        ('obj-all', obj + b'\x01\x02\x03\x04'),
        ('obj-noaux', obj),
        ('obj-dirty', struct.pack('>QQBB', 1, 0, 1, 4) + b'aux'),
        ('obj-badtype', struct.pack('>QQBB', 1, 0, 2, 1)),
        ('obj-short', obj[:17]),
        ('vol-9p', u(4, 0) + b'\x00\x00\x00\x00\x01\x00\x00\x00'),
        ('vol-resv', b'\x00\x00\x00\x01'),
        ('empty', hdr[:0]),
    ]


def main():
    if len(sys.argv) != 1:
        sys.exit(__doc__)
    write_seeds('kernel', kernel_seeds())
    write_seeds('daemon', daemon_seeds())
    write_seeds('cull', cull_seeds())
    write_seeds('uncook', uncook_seeds())
    write_seeds('xattr', xattr_seeds())


main()
