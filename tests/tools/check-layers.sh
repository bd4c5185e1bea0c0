#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The include layers of the tree (check-layers.py, the ```layers block of
# docs/architecture.md), and a check of the checker: on a scratch tree
# that breaks the rules it must fail, on one that keeps them it must
# pass.  TAP.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=${KMIRROR_SOURCE_ROOT:-$(cd "$here/../.." && pwd)}
check="${PYTHON:-python3} $here/check-layers.py"
rules=$root/docs/architecture.md
n=0
fail=0

ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		fail=1
	fi
}

echo "1..5"

out=$($check --root "$root" --rules "$rules" 2>&1)
ok $? "the tree keeps the layers of docs/architecture.md"
[ -n "$out" ] && printf '%s\n' "$out" | sed 's/^/# /'

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# A scratch tree with one header of every kind the rules name.
mk() {
	rm -rf "$tmp/t"
	mkdir -p "$tmp/t/core" "$tmp/t/userspace/cli" \
		"$tmp/t/userspace/lib" "$tmp/t/userspace/include/kmirror" \
		"$tmp/t/fuse-demo/cachefs" "$tmp/t/fuse-demo/format" \
		"$tmp/t/userspace/kcompat" "$tmp/t/kernel" "$tmp/t/tests/kernel-shim"
	: > "$tmp/t/core/kmc_cull.h"
	: > "$tmp/t/userspace/kcompat.h"
	: > "$tmp/t/userspace/lib/internal.h"
	: > "$tmp/t/userspace/include/kmirror/fscache.h"
	: > "$tmp/t/fuse-demo/format/kmap.h"
	: > "$tmp/t/fuse-demo/format/crc32c.h"
	: > "$tmp/t/fuse-demo/cachefs/cachefs.h"
	printf '#include <errno.h>\n#include "kmirror/fscache.h"\n#include "kmap.h"\n' \
		> "$tmp/t/userspace/cli/cmd.c"
	printf '#include "cachefs.h"\n#include <kmirror/fscache.h>\n' \
		> "$tmp/t/fuse-demo/cachefs/cull.c"
}

mk
$check --root "$tmp/t" --rules "$rules" > /dev/null 2>&1
ok $? "a tree that keeps the rules passes"

mk
printf '#include "kmc_cull.h"\n' >> "$tmp/t/fuse-demo/cachefs/cull.c"
$check --root "$tmp/t" --rules "$rules" > /dev/null 2>&1
[ $? -eq 1 ]
ok $? "fuse-demo including a core header fails"

mk
printf '#include "internal.h"\n' >> "$tmp/t/userspace/cli/cmd.c"
$check --root "$tmp/t" --rules "$rules" > /dev/null 2>&1
[ $? -eq 1 ]
ok $? "the CLI including libkmirror's internal.h fails"

mk
printf '#include "kcompat.h"\n' >> "$tmp/t/userspace/include/kmirror/fscache.h"
$check --root "$tmp/t" --rules "$rules" > /dev/null 2>&1
[ $? -eq 1 ]
ok $? "a public header including kcompat.h fails"

exit $fail
