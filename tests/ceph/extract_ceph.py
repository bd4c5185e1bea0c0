#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Cut the 6.1 tree's own CephFS source parsing, unchanged, out of the
unpacked tree for the differential test (tests/ceph/kernel_ceph.c includes
the result after its shim).  Nothing extracted here is ever checked in: it
is produced in the build dir at build time.

usage: extract_ceph.py KSRC OUTPUT

The pieces, in dependency order:
  include/linux/ctype.h, lib/ctype.c        the kernel's ctype (ispunct...)
  lib/hexdump.c, include/linux/kernel.h     hex_to_bin(), hex_asc[], packing
  include/net/ipv6.h, net/addrconf.h        v4-mapped / ISATAP tests
  lib/uuid.c, lib/vsprintf.c                uuid_string() (%pU), ip4_string()
                                            and ip6_compressed_string() (%pI6c)
  net/core/utils.c                          in4_pton(), in6_pton()
  lib/kstrtox.c                             kstrtouint(), kstrtoint()
  include/linux/fs_parser.h, fs/fs_parser.c fs_lookup_key(), __fs_parse()...
  fs/fs_context.c                           generic_parse_monolithic() and the
                                            vfs_parse_fs_* helpers
  net/ceph/messenger.c                      ceph_parse_ips(), ceph_pton(),
                                            ceph_pr_addr()
  net/ceph/ceph_common.c                    ceph_parse_fsid(), ceph_parse_param()
  fs/ceph/super.c                           ceph_parse_source() and friends,
                                            ceph_parse_mount_param(), and the
                                            source/monitor checks of
                                            ceph_get_tree()
  fs/ceph/cache.c                           ceph_fscache_register_fs()
"""
import re
import sys


def read(ksrc, path):
    with open(ksrc + '/' + path, encoding='utf-8') as f:
        return f.read()


def where(path, lineno):
    return '#line %d "%s"\n' % (lineno, path)


def function(text, name, path):
    """The definition of @name, from its head line (and the line before
    when it holds the start of the declaration, e.g. 'static
    noinline_for_stack') through the first '}' alone on a line."""
    lines = text.split('\n')
    head = re.compile(r'^(?:[^\s#].*\W)?' + re.escape(name) + r'\(')
    for i, line in enumerate(lines):
        if not head.match(line):
            continue
        j = i
        while '{' not in lines[j] and not lines[j].rstrip().endswith(';'):
            j += 1
        if '{' not in lines[j]:
            continue            # a prototype
        start = i
        prev = lines[i - 1] if i else ''
        if prev and not re.match(r'^[\s#/*}]', prev) and \
                not re.search(r'(;|}|\*/)\s*$', prev):
            start = i - 1
        end = lines.index('}', j)
        return where(path, start + 1) + '\n'.join(lines[start:end + 1]) + '\n'
    sys.exit('extract_ceph: %s not found in %s' % (name, path))


def span(text, first, last, path):
    """From the first line starting with @first through the next line that
    matches the regular expression @last."""
    lines = text.split('\n')
    for i, line in enumerate(lines):
        if line.startswith(first):
            for j in range(i, len(lines)):
                if re.match(last, lines[j]):
                    return where(path, i + 1) + '\n'.join(lines[i:j + 1]) + '\n'
    sys.exit('extract_ceph: "%s" not found in %s' % (first, path))


def defines(text, prefix, path):
    """Every '#define PREFIX...' of @text, continuation lines included."""
    lines = text.split('\n')
    out = []
    i = 0
    while i < len(lines):
        if re.match(r'#define\s+' + re.escape(prefix), lines[i]):
            out.append(where(path, i + 1) + lines[i])
            while lines[i].rstrip().endswith('\\'):
                i += 1
                out.append(lines[i])
        i += 1
    if not out:
        sys.exit('extract_ceph: no #define %s in %s' % (prefix, path))
    return '\n'.join(out) + '\n'


def anon_enum(text, first, path):
    """The 'enum {' whose first entry is the line @first."""
    lines = text.split('\n')
    k = lines.index(first) - 1
    if lines[k] != 'enum {':
        sys.exit('extract_ceph: no enum before "%s" in %s' % (first, path))
    return where(path, k + 1) + '\n'.join(lines[k:lines.index('};', k) + 1]) + '\n'


def header_body(text, path):
    """A header without its #include lines."""
    return where(path, 1) + re.sub(r'(?m)^#include .*$', '', text)


def get_tree_checks(ksrc):
    """The source and monitor checks at the head of ceph_get_tree(), as a
    function of their own (the rest of it creates a client)."""
    path = 'fs/ceph/super.c'
    lines = read(ksrc, path).split('\n')
    start = lines.index('static int ceph_get_tree(struct fs_context *fc)')
    i = next(k for k in range(start, len(lines))
             if lines[k].strip() == 'if (!fc->source)')
    j = next(k for k in range(i, len(lines))
             if 'No monitor address' in lines[k])
    return ('static int kceph_get_tree_checks(struct fs_context *fc)\n{\n'
            '\tstruct ceph_parse_opts_ctx *pctx = fc->fs_private;\n'
            '\tstruct ceph_mount_options *fsopt = pctx->opts;\n\n' +
            where(path, i + 1) + '\n'.join(lines[i:j + 1]) +
            '\n\treturn 0;\n}\n')


def main():
    ksrc, dst = sys.argv[1:3]
    out = []

    def fn(path, *names):
        text = read(ksrc, path)
        for n in names:
            out.append(function(text, n, path))

    # Constants and structures the parsers use, then the shim's own
    # struct fs_context and friends (kceph_shim_fc.h).
    for path, prefixes in [
            ('include/linux/ceph/libceph.h', ['CEPH_OPT_', 'CEPH_MSG_MAX_DATA_LEN']),
            ('fs/ceph/super.h', ['CEPH_MOUNT_OPT_', 'CEPH_MAX_READ_SIZE',
                                 'CEPH_MAX_WRITE_SIZE']),
            ('include/linux/ceph/ceph_fs.h', ['CEPH_CON_MODE_', 'CEPH_MAX_MON']),
            ('include/linux/ceph/msgr.h', ['CEPH_MON_PORT']),
            ('include/linux/ceph/decode.h', ['CEPH_ENTITY_ADDR_TYPE_'])]:
        text = read(ksrc, path)
        for prefix in prefixes:
            out.append(defines(text, prefix, path))
    for path, first in [
            ('include/linux/ceph/rados.h', 'struct ceph_fsid {'),
            ('include/linux/ceph/msgr.h', 'struct ceph_entity_addr {'),
            ('include/linux/ceph/libceph.h', 'struct ceph_options {'),
            ('fs/ceph/super.h', 'struct ceph_mount_options {'),
            ('include/linux/fs_context.h', 'enum fs_value_type {'),
            ('include/linux/fs_context.h', 'struct fs_parameter {'),
            ('include/linux/fs_context.h', 'struct p_log {')]:
        out.append(span(read(ksrc, path), first, r'^}.*;', path))
    out.append(span(read(ksrc, 'include/linux/fs_context.h'),
                    'extern __attribute__((format(printf, 4, 5)))',
                    r'^#define invalfc', 'include/linux/fs_context.h'))
    out.append('#include "kceph_shim_fc.h"\n')

    path = 'include/linux/ctype.h'
    out.append(header_body(read(ksrc, path), path))
    out.append(span(read(ksrc, 'lib/ctype.c'), 'const unsigned char _ctype[]',
                    r'.*};', 'lib/ctype.c'))
    text = read(ksrc, 'lib/hexdump.c')
    out.append(span(text, 'const char hex_asc[]', r'.*;', 'lib/hexdump.c'))
    out.append(span(text, 'const char hex_asc_upper[]', r'.*;', 'lib/hexdump.c'))
    out.append(function(text, 'hex_to_bin', 'lib/hexdump.c'))
    text = read(ksrc, 'include/linux/kernel.h')
    out.append(defines(text, 'hex_asc_', 'include/linux/kernel.h'))
    out.append(function(text, 'hex_byte_pack', 'include/linux/kernel.h'))
    out.append(function(text, 'hex_byte_pack_upper', 'include/linux/kernel.h'))
    fn('include/net/ipv6.h', 'ipv6_addr_v4mapped')
    fn('include/net/addrconf.h', 'ipv6_addr_is_isatap')
    out.append(defines(read(ksrc, 'include/linux/uuid.h'), 'UUID_STRING_LEN',
                       'include/linux/uuid.h'))
    for first in ['const u8 guid_index[16]', 'const u8 uuid_index[16]']:
        out.append(span(read(ksrc, 'lib/uuid.c'), first, r'.*;', 'lib/uuid.c'))
    text = read(ksrc, 'lib/vsprintf.c')
    out.append(span(text, 'static const u16 decpair[100]', r'^};',
                    'lib/vsprintf.c'))
    for n in ['put_dec_trunc8', 'ip4_string', 'ip6_compressed_string',
              'uuid_string']:
        out.append(function(text, n, 'lib/vsprintf.c'))

    text = read(ksrc, 'net/core/utils.c')
    out.append(span(text, '#define IN6PTON_XDIGIT', r'^#define IN6PTON_UNKNOWN',
                    'net/core/utils.c'))
    for n in ['xdigit2bin', 'in4_pton', 'in6_pton']:
        out.append(function(text, n, 'net/core/utils.c'))

    path = 'lib/kstrtox.h'
    out.append(header_body(read(ksrc, path), path))
    fn('lib/kstrtox.c', '_parse_integer_fixup_radix', '_parse_integer_limit',
       '_parse_integer', '_kstrtoull', 'kstrtoull', 'kstrtoll', 'kstrtouint',
       'kstrtoint')

    path = 'include/linux/fs_parser.h'
    out.append(header_body(read(ksrc, path), path))
    fn('fs/fs_parser.c', '__lookup_constant', 'lookup_constant', 'is_flag',
       'fs_lookup_key', '__fs_parse', 'fs_param_bad_value',
       'fs_param_is_u32', 'fs_param_is_s32', 'fs_param_is_enum',
       'fs_param_is_string')
    text = read(ksrc, 'fs/fs_context.c')
    out.append(span(text, 'static const struct constant_table common_set_sb_flag',
                    r'^};', 'fs/fs_context.c'))
    out.append(span(text, 'static const struct constant_table common_clear_sb_flag',
                    r'^};', 'fs/fs_context.c'))
    for n in ['vfs_parse_sb_flag', 'vfs_parse_fs_param_source',
              'vfs_parse_fs_param', 'vfs_parse_fs_string',
              'generic_parse_monolithic']:
        out.append(function(text, n, 'fs/fs_context.c'))

    path = 'net/ceph/messenger.c'
    text = read(ksrc, path)
    out.append(span(text, '#define ADDR_STR_COUNT_LOG', r'^static atomic_t addr_str_seq',
                    path))
    for n in ['ceph_pr_addr', 'ceph_addr_port', 'ceph_addr_set_port',
              'ceph_pton']:
        out.append(function(text, n, path))
    out.append(span(text, '#ifdef CONFIG_CEPH_LIB_USE_DNS_RESOLVER', r'^#endif',
                    path))
    fn(path, 'ceph_parse_server_name', 'ceph_parse_ips')

    path = 'net/ceph/ceph_common.c'
    text = read(ksrc, path)
    out.append(function(text, 'ceph_parse_fsid', path))
    out.append(anon_enum(text, '\tOpt_osdkeepalivetimeout,', path))
    out.append(anon_enum(text, '\tOpt_read_from_replica_no,', path))
    for first in ['enum ceph_ms_mode',
                  'static const struct constant_table ceph_param_read_from_replica',
                  'static const struct constant_table ceph_param_ms_mode',
                  'static const struct fs_parameter_spec ceph_parameters']:
        out.append(span(text, first, r'^};', path))
    fn(path, 'ceph_parse_mon_ips', 'ceph_parse_param')

    path = 'fs/ceph/super.c'
    text = read(ksrc, path)
    out.append(anon_enum(text, '\tOpt_wsize,', path))
    for first in ['enum ceph_recover_session_mode',
                  'static const struct constant_table ceph_param_recover',
                  'static const struct fs_parameter_spec ceph_mount_parameters',
                  'struct ceph_parse_opts_ctx']:
        out.append(span(text, first, r'^};', path))
    # The new syntax checks the source's fsid and drops it (super.c:303);
    # the test hooks the call to see what it parsed.
    out.append('#define ceph_parse_fsid kceph_parse_fsid_hook\n')
    for n in ['canonicalize_path', 'namespace_equals', 'ceph_parse_old_source',
              'ceph_parse_new_source', 'ceph_parse_source',
              'ceph_parse_mon_addr', 'ceph_parse_mount_param']:
        out.append(function(text, n, path))
    out.append('#undef ceph_parse_fsid\n')
    out.append(get_tree_checks(ksrc))
    fn('fs/ceph/cache.c', 'ceph_fscache_register_fs')

    with open(dst, 'w') as f:
        f.write('/* Extracted from the 6.1 tree at build time by '
                'extract_ceph.py: do not edit. */\n')
        f.write('\n'.join(out))


main()
