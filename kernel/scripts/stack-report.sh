#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# stack-report.sh OUT
#
# The stack frame of every function in the files kernel/patches change or
# add (the core, lib/kmirror, among them; not the KUnit suites of
# lib/kmirror/kunit, test code run once at boot), as GCC reports it
# (-fstack-usage), stock against patched: each file is compiled again
# exactly as the stock-gcc and patched-gcc builds in OUT (build-kernels.sh)
# compiled it, plus -fstack-usage, into a scratch directory.  Prints one line per function
# the series adds or changes the frame of, and every function over 256
# bytes; exits 1 if the series made a frame larger than 256 bytes (stock
# functions already over it, unchanged, are shown, not counted).
set -eu
out=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/kstore.sh"
kstore_open "$out"
top=$(cd "$here/../.." && pwd)
limit=256
scratch=$(mktemp -d)
at=$out/k/src
trap 'rm -rf "$scratch"; [ -L "$at" ] && rm -f "$at"' EXIT
[ ! -e "$at" ] || { echo "stack-report: $at is in the way" >&2; exit 1; }

files=$(sed -n 's|^diff --git a/\(.*\.c\) b/.*|\1|p' "$top"/kernel/patches/*.patch |
	grep -v '^lib/kmirror/kunit/' | sort -u)

# compile FLAVOUR TREE FILE: FILE as the FLAVOUR build did, with -fstack-usage
compile() {
	obj=${3%.c}.o
	cmd=$out/kbuild/$1/$(dirname "$obj")/.$(basename "$obj").cmd
	[ -f "$cmd" ] || return 0	# not built in this configuration
	mkdir -p "$scratch/$1/$(dirname "$obj")"
	ln -sfn "$2" "$at"
	# shellcheck disable=SC2046
	(cd "$out/kbuild/$1" && eval "$(sed -n '1s/^cmd_[^ ]* := //p' "$cmd" |
		sed -e 's/^ccache //' -e 's/-Wp,-MMD,[^ ]* //' \
		    -e "s| -o $obj | -fstack-usage -o $scratch/$1/$obj |" \
		    -e "s/;.*//")")
	rm -f "$at"
}

stock=$("$here/ktree.sh" "$out" stock)
patched=$("$here/ktree.sh" "$out" patched)
for f in $files; do
	compile stock-gcc "$stock" "$f"
	compile patched-gcc "$patched" "$f"
done

# FUNCTION BYTES, one per line, for one flavour's .su files
frames() {
	find "$scratch/$1" -name '*.su' -exec cat {} + 2>/dev/null |
		awk -F'\t' '{ n = split($1, p, ":"); print p[n], $2 }' | sort
}
frames stock-gcc >"$scratch/stock"
frames patched-gcc >"$scratch/patched"
awk -v limit=$limit '
	FILENAME ~ /stock$/ { stock[$1] = $2; next }
	{
		s = ($1 in stock) ? stock[$1] : "-"
		big = $2 + 0 > limit + 0
		grew = s == "-" || $2 + 0 > s + 0
		if (s != $2 || big)
			printf "%-40s %6s -> %6s%s\n", $1, s, $2,
				(big && grew ? "  GREW OVER " limit : \
				 big ? "  (as in stock)" : "")
		over += big && grew
	}
	END { exit over ? 1 : 0 }' "$scratch/stock" "$scratch/patched"
