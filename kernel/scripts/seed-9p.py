#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""seed-9p.py KMIRROR SHARE TAG CACHEDIR [CANARY=CONTENTFILE...]

Pre-seed the cachefiles cache CACHEDIR (with `kmirror cache put`) with
every regular file of SHARE, as Linux's 9p would cache it when SHARE is
exported by QEMU (-virtfs local, security_model=none) with mount tag TAG
and mounted with cache=fscache and no aname:
  volume key  9p,TAG,                  (v9fs_cache_session_get_cookie)
  cookie key  qid.path: the host inode number, 8 bytes little-endian
  aux data    qid.version, 4 bytes little-endian: QEMU's stat_to_qid()
              makes it st_mtime ^ (st_size << 8)
  object size the file size
A CANARY (path relative to SHARE) is stored with the contents of
CONTENTFILE instead, same size and coherency: a read that returns the
canary's bytes was served from the cache, not from the share.
"""
import os
import subprocess
import sys


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    kmirror, share, tag, cache = sys.argv[1:5]
    canary = dict(a.split('=', 1) for a in sys.argv[5:])
    n = 0
    for root, dirs, files in os.walk(share):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(root, name)
            st = os.lstat(path)
            if not os.path.isfile(path) or os.path.islink(path):
                continue
            rel = os.path.relpath(path, share)
            data = canary.get(rel, path)
            if os.path.getsize(data) != st.st_size:
                sys.exit('seed-9p: canary %s must be %d bytes' % (data, st.st_size))
            key = st.st_ino.to_bytes(8, 'little').hex()
            ver = (st.st_mtime_ns // 10**9 ^ (st.st_size << 8)) & 0xffffffff
            aux = ver.to_bytes(4, 'little').hex()
            subprocess.run([kmirror, 'cache', 'put', cache, '9p,%s,' % tag,
                            key, data, '--aux', aux], check=True)
            n += 1
    print('seed-9p: %d objects for %s in %s' % (n, share, cache))


main()
