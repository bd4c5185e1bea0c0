#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# t_ceph.sh: CephFS mount strings in the stock and in the patched kernels,
# which parse them with the kmirror core (kernel/patches): patched-gcc,
# and patched-debug (libceph and ceph as modules, under KASAN and
# lockdep).  There is no cluster: mount(2) parses the source and the
# options first, so a refused string fails at once with EINVAL and a
# parse message, an accepted one later, when no monitor answers within
# mount_timeout=1.  The guest job
# (kernel/guest/jobs/ceph.sh) prints, per string, mount's exit status,
# its error text and the kernel's first log line about it.
#  - every string was tried, in every kernel;
#  - the rows of tests/vectors/ceph.vec that the 6.1 tree refuses fail
#    with EINVAL, the ones it accepts fail otherwise (E_VOLUME_KEY counts
#    as accepted: that key is only made once the cluster answered);
#  - each patched kernel's results equal the stock kernel's, line for line.
# A kernel's run is kept and not booted again while its inputs stay the
# same (kept_key in lib.sh).
# With several monitors libceph picks the one it connects to at random, so
# for those strings a connection message is compared as such, not by its
# monitor.
. "$(dirname "$0")/lib.sh"
mkdir -p "$T/share"
python3 - "$KMIRROR_SOURCE_ROOT/tests/vectors/ceph.vec" "$T/share/strings" \
	"$T/kinds" <<'EOF'
import codecs
import sys

vec, out, kinds = sys.argv[1:4]
rows = []  # (flag, source, options, kind, monitors or '-')


def field(s):
    if s == '-':
        return b''
    return codecs.escape_decode(s.encode('latin-1'))[0]


fields = None
for line in open(vec, encoding='utf-8', errors='surrogateescape'):
    line = line.rstrip('\n')
    if line.startswith('# fields:'):
        fields = [f.split(':')[0] for f in line.split()[2:]]
        continue
    if not line.strip() or line.startswith('#'):
        continue
    r = dict(zip(fields, line.split()))
    accepted = r['kernel'] in ('OK', 'E_VOLUME_KEY')
    flag = 'n' if accepted and ',' in r['mons'] else '1'
    rows.append((flag, field(r['source']), field(r['options']),
                 'accept' if accepted else 'refuse', r['mons']))

# Hostile strings: long, empty parts, stray brackets, 31 and 32 monitors,
# big ports, bad fsids, mds_namespace, the new syntax without mon_addr=.
uuid = b'07fe3187-00d9-42a3-814b-72a4d5e7d5be'
pairs = [uuid.replace(b'-', b'')[i:i + 2] for i in range(0, 32, 2)]
new = b'admin@' + uuid + b'.fs=/'
m1 = b'mon_addr=1.2.3.4'
v4 = [b'10.0.0.%d' % i for i in range(1, 33)]
v6 = [b'[fd00::%x]' % i for i in range(1, 33)]
v4m = ','.join('%s:6789' % a.decode() for a in v4[:31])
v6m = ','.join('%s:6789' % a.decode() for a in v6[:31])
hostile = [
    # long, and longer than mount(2) takes (PATH_MAX)
    ('1', b'a' * 4000, b''),
    ('1', b'1.2.3.4:/' + b'd/' * 2000, b''),
    ('1', b'1.2.3.4:' + b'/' * 4000, b''),
    ('1', b'x' * 5000, b''),
    ('1', b'admin@' + uuid + b'.' + b'f' * 3000 + b'=/', m1),
    ('1', b'admin@' + b'-' * 1000 + uuid + b'.fs=/', m1),
    ('1', b'admin@' + b'\xa1'.join(pairs) + b'.fs=/', m1),
    ('1', b'admin@' + b'\xd7'.join(pairs) + b'.fs=/', m1),
    ('1', b'admin@' + b'\xc0'.join(pairs) + b'.fs=/', m1),
    ('1', new, m1 + b',snapdirname=' + b's' * 255),
    ('1', new, m1 + b',fsc=' + b'u' * 214),
    # empty parts
    ('1', b'=/', b''), ('1', b'=', b''), ('1', b'@', b''), ('1', b'.', b''),
    ('1', b':', b''), ('1', b'@.=/', b''), ('1', b'a@.=/', b''),
    ('1', b',1.2.3.4:/', b''), ('1', b'1.2.3.4,,:/', b''),
    ('1', b'admin@' + uuid + b'=/', m1),
    ('1', new, b'mon_addr='), ('1', new, b'mon_addr=/'),
    ('1', new, b'mon_addr=1.2.3.4//5.6.7.8'),
    ('1', b'1.2.3.4:/', b'mds_namespace='), ('1', b'1.2.3.4:/', b'name='),
    ('1', b'1.2.3.4:/', b'fsid='), ('1', b'1.2.3.4:/', b',,,'),
    # stray brackets
    ('1', b'1.2.3.4]:/', b''), ('1', b'[[::1]]:/', b''),
    ('1', b'[::1]]:/', b''), ('1', b']:/', b''), ('1', b'[:/', b''),
    ('1', b'[::1]:6789]:/', b''), ('1', b'[::1][::2]:/', b''),
    ('1', b'[::1]:/', b''), ('1', b'[::ffff:1.2.3.4]:3300:/', b''),
    ('1', new, b'mon_addr=[::1'), ('1', new, b'mon_addr=::1]'),
    ('1', new, b'mon_addr=[1.2.3.4]:80'),
    ('1', new, b'mon_addr=[::1]:3300/[::2'),
    # 31 and 32 monitors, each way, and 31 with a trailing separator
    ('n', b','.join(v6[:31]) + b':/', b'', v6m),
    ('1', b','.join(v6) + b':/', b''),
    ('n', b','.join(v6[:31]) + b',:/', b'', v6m),
    ('n', new, b'mon_addr=' + b'/'.join(v4[:31]), v4m),
    ('1', new, b'mon_addr=' + b'/'.join(v4)),
    ('n', new, b'mon_addr=' + b'/'.join(v4[:31]) + b'/', v4m),
    ('1', new, b'mon_addr=' + b'/'.join(v4) + b'/'),
    # ports
    ('1', b'1.2.3.4:65535:/', b''), ('1', b'[::1]:70000:/', b''),
    ('1', b'1.2.3.4:99999999999999999999:/', b''),
    ('1', b'1.2.3.4:-1:/', b''), ('1', b'1.2.3.4:0x50:/', b''),
    ('1', b'1.2.3.4:+80:/', b''), ('1', b'1.2.3.4:00000080:/', b''),
    ('1', new, b'mon_addr=1.2.3.4:4294967376'),
    ('1', new, b'mon_addr=1.2.3.4:2147483648'),
    ('1', new, b'mon_addr=1.2.3.4:65536'),
    # addresses: names (no DNS resolver in either kernel), bad IPv6
    ('1', b'localhost:/', b''), ('1', new, b'mon_addr=localhost'),
    ('1', b'[1:2:3:4:5:6:7:8:9]:/', b''), ('1', b'[::1::2]:/', b''),
    ('1', b'[fe80::1%eth0]:/', b''), ('1', b'1.2.3.4.5:/', b''),
    ('1', b'[1:2:3:4:5:6:7:1.2.3.4]:/', b''), ('1', b'1.2.3.04:/', b''),
    ('1', b'1.2.3.4:/', b'ip=[::1]'), ('1', b'1.2.3.4:/', b'ip=1.2.3.4:80'),
    ('1', b'1.2.3.4:/', b'ip=1.2.3.4/5.6.7.8'),
    ('1', b'1.2.3.4:/', b'ip=[::1]:99999'),
    # fsids
    ('1', b'admin@' + uuid[:-1] + b'.fs=/', m1),
    ('1', b'admin@' + uuid.upper() + b'.fs=/', m1),
    ('1', b'admin@' + b'g' + uuid[1:] + b'.fs=/', m1),
    ('1', b'admin@' + uuid + uuid + b'.fs=/', m1),
    ('1', b'1.2.3.4:/', b'fsid=' + uuid[:-2]),
    ('1', b'1.2.3.4:/', b'fsid=' + b'\xa1'.join(pairs)),
    ('1', b'1.2.3.4:/', b'fsid=' + uuid + b',fsid=bad'),
    # mds_namespace against the new syntax's file system name
    ('1', new, m1 + b',mds_namespace=fs'),
    ('1', new, m1 + b',mds_namespace=fs2'),
    ('1', new, m1 + b',mds_namespace=f'),
    ('1', b'admin@' + uuid + b'=/x.y', m1 + b',mds_namespace=y'),
    ('1', b'admin@' + uuid + b'=/x.y', m1 + b',mds_namespace=x.y'),
    ('1', b'1.2.3.4:/', b'mds_namespace=a,mds_namespace=a'),
    # the new syntax without, or with a refused, mon_addr=
    ('1', new, b''), ('1', new, b'name=bob'),
    ('1', new, b'mon_addr=1.2.3.4,mon_addr=bad'),
    ('1', b'1.2.3.4:/', b'mon_addr=bad'),
]
rows += [h[:3] + ('hostile', h[3] if len(h) > 3 else '-') for h in hostile]
with open(out, 'wb') as f, open(kinds, 'w') as k:
    for i, (flag, src, opts, kind, mons) in enumerate(rows, 1):
        assert b'\t' not in src + opts and b'\n' not in src + opts
        f.write(b'%s\t%s\t%s\n' % (flag.encode(), src or b'-', opts or b'-'))
        k.write('%d %s %s %s\n' % (i, flag, kind, mons or '-'))
EOF
want=$(wc -l <"$T/kinds")
[ "$want" -ge 180 ] || fail "only $want mount strings"

for k in stock-gcc patched-gcc patched-debug; do
	booted=
	kept_key $k ceph "$T/share/strings"
	if ! kept_restore "$K/ceph-$k.log" "$K/ceph-$k.result"; then
		rm -f "$T/share/result"
		boot "$k" ceph "$K/ceph-$k.log" -s "$T/share:ceph" -t 900
		cp "$T/share/result" "$K/ceph-$k.result"
		booted=$k
	fi
	got=$(wc -l <"$K/ceph-$k.result")
	[ "$got" -eq "$want" ] || fail "$k: $got results for $want strings"
	# Refused rows of ceph.vec fail with EINVAL, accepted ones otherwise;
	# the monitor libceph tried first is one that ceph.vec lists.
	bad=$(paste "$T/kinds" "$K/ceph-$k.result" | awk -F'\t' -v out="$T/n" '
		{ split($1, a, " "); kind = a[3]; mons = "," a[4] "," }
		kind == "refuse" && $4 != "Invalid argument" { print }
		kind == "accept" && ($3 == 0 || $4 == "Invalid argument") { print }
		kind != "hostile" { n++ }
		a[4] != "-" && match($5, /connect \([0-9]+\)[^ ]+ /) {
			addr = substr($5, RSTART + 8, RLENGTH - 9)
			sub(/^\([0-9]+\)/, "", addr)
			if (index(mons, "," addr ",") == 0)
				print "monitor " addr " not in " a[4] ": " $0
			checked++
		}
		END {
			if (n < 100) print "only " n " rows of ceph.vec"
			if (checked < 50) print "only " checked " monitors checked"
			print checked + 0 >out
		}')
	[ -z "$bad" ] || { echo "$bad"; fail "$k: ceph.vec verdicts"; }
	# Several monitors: the one tried first is random.
	paste "$T/kinds" "$K/ceph-$k.result" | awk -F'\t' '
		{ split($1, a, " ") }
		a[2] == "n" && $5 ~ /connect/ { $5 = "<connect to a monitor>" }
		{ print $2 "\t" $3 "\t" $4 "\t" $5 }' OFS='\t' >"$T/$k.cmp"
	einval=$(grep -c '	Invalid argument	' "$T/$k.cmp" || true)
	echo "ok $k: $got strings tried, $einval refused with EINVAL," \
		"$(cat "$T/n") first monitors as ceph.vec lists them"
	[ -z "$booted" ] || kept_keep "$K/ceph-$k.log" "$K/ceph-$k.result"
done
for k in patched-gcc patched-debug; do
	diff -u "$T/stock-gcc.cmp" "$T/$k.cmp" ||
		fail "$k parses CephFS mount strings differently"
	echo "ok $k == stock: $want CephFS mount strings, same status," \
		"error and first kernel message"
done
