#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Cut the kernel's own cachefiles daemon/cull code and the lib helpers it
calls out of the unpacked 6.1 tree, unchanged, for the differential fuzz
targets.  Nothing extracted here is ever checked in: it is produced in the
build dir at build time.

usage: extract_kernel.py KSRC daemon|hdr|lib OUTPUT

  daemon  handler prototypes, the command table, cachefiles_daemon_write()
          and its handlers (fs/cachefiles/daemon.c), copen and restore
          (fs/cachefiles/ondemand.c, under CONFIG_CACHEFILES_ONDEMAND);
          meant to be #included by a file that provides the shim first
  hdr     the ctype macros, _tolower(), the kstrtoul()/kstrtol() inlines
  lib     _ctype[], skip_spaces(), the kstrtox family, simple_strtoul(),
          cachefiles_add_cache() and cachefiles_has_space()
"""
import re
import sys


def read(ksrc, path):
    with open(ksrc + '/' + path, encoding='utf-8') as f:
        return f.read()


def function(text, name, path):
    """The definition of @name: its head line (and a preceding 'noinline'
    line) through the first '}' alone on a line."""
    lines = text.split('\n')
    head = re.compile(r'^[^\s#].*\b' + re.escape(name) + r'\(')
    for i, line in enumerate(lines):
        if not head.match(line):
            continue
        j = i
        while '{' not in lines[j] and not lines[j].rstrip().endswith(';'):
            j += 1
        if '{' not in lines[j]:
            continue            # a prototype
        start = i - 1 if i and lines[i - 1].strip() == 'noinline' else i
        end = lines.index('}', j)
        return '\n'.join(lines[start:end + 1]) + '\n'
    sys.exit('extract_kernel: %s not found in %s' % (name, path))


def span(text, first, last, path):
    """From the line starting with @first through the next line equal to
    @last."""
    lines = text.split('\n')
    for i, line in enumerate(lines):
        if line.startswith(first):
            end = lines.index(last, i)
            return '\n'.join(lines[i:end + 1]) + '\n'
    sys.exit('extract_kernel: "%s" not found in %s' % (first, path))


def daemon(ksrc):
    path = 'fs/cachefiles/daemon.c'
    text = read(ksrc, path)
    out = [l for l in text.split('\n')
           if re.match(r'^static int cachefiles_daemon_\w+\('
                       r'struct cachefiles_cache \*, char \*\);$', l)]
    out = ['\n'.join(out) + '\n']
    out.append(span(text, 'struct cachefiles_daemon_cmd {', '};', path))
    out.append(span(text, 'static const struct cachefiles_daemon_cmd '
                    'cachefiles_daemon_cmds[]', '};', path))
    for name in ['cachefiles_daemon_write', 'cachefiles_daemon_range_error',
                 'cachefiles_daemon_frun', 'cachefiles_daemon_fcull',
                 'cachefiles_daemon_fstop', 'cachefiles_daemon_brun',
                 'cachefiles_daemon_bcull', 'cachefiles_daemon_bstop',
                 'cachefiles_daemon_dir', 'cachefiles_daemon_secctx',
                 'cachefiles_daemon_tag', 'cachefiles_daemon_cull',
                 'cachefiles_daemon_debug', 'cachefiles_daemon_inuse',
                 'cachefiles_daemon_bind']:
        out.append(function(text, name, path))
    path = 'fs/cachefiles/ondemand.c'
    text = read(ksrc, path)
    out.append('#ifdef CONFIG_CACHEFILES_ONDEMAND\n')
    for name in ['cachefiles_ondemand_copen', 'cachefiles_ondemand_restore']:
        out.append(function(text, name, path))
    out.append('#endif\n')
    return out


def hdr(ksrc):
    out = []
    path = 'include/linux/ctype.h'
    text = read(ksrc, path)
    out.append(span(text, '#define _U', '#define isascii(c) '
                    '(((unsigned char)(c))<=0x7f)', path))
    out.append(function(text, '_tolower', path))
    path = 'include/linux/kstrtox.h'
    text = read(ksrc, path)
    for name in ['kstrtoul', 'kstrtol']:
        out.append(function(text, name, path))
    return out


def lib(ksrc):
    out = []
    path = 'lib/ctype.c'
    out.append(span(read(ksrc, path), 'const unsigned char _ctype[]',
                    '_L,_L,_L,_L,_L,_L,_L,_P,_L,_L,_L,_L,_L,_L,_L,_L};'
                    '\t/* 240-255 */', path))
    path = 'lib/string_helpers.c'
    out.append(function(read(ksrc, path), 'skip_spaces', path))
    path = 'lib/kstrtox.c'
    text = read(ksrc, path)
    for name in ['_parse_integer_fixup_radix', '_parse_integer_limit',
                 '_parse_integer', '_kstrtoull', 'kstrtoull', 'kstrtoll',
                 '_kstrtoul', '_kstrtol']:
        out.append(function(text, name, path))
    path = 'lib/vsprintf.c'
    text = read(ksrc, path)
    for name in ['simple_strntoull', 'simple_strtoull', 'simple_strtoul']:
        out.append(function(text, name, path))
    path = 'fs/cachefiles/cache.c'
    text = read(ksrc, path)
    for name in ['cachefiles_add_cache', 'cachefiles_has_space']:
        out.append(function(text, name, path))
    return out


def main():
    ksrc, what, dst = sys.argv[1:4]
    parts = {'daemon': daemon, 'hdr': hdr, 'lib': lib}[what](ksrc)
    with open(dst, 'w', encoding='utf-8') as f:
        f.write('/* Extracted from the 6.1 tree by extract_kernel.py at '
                'build time: do not edit. */\n')
        f.write('\n'.join(parts))


main()
