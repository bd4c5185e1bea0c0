#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# check-config.sh FRAGMENT DOTCONFIG
#
# Every CONFIG_X=y|m of FRAGMENT must be in DOTCONFIG after olddefconfig,
# and every CONFIG_X=n must be unset: a dependency that silently dropped
# an option would otherwise build a kernel that tests nothing.
set -eu
bad=0
while IFS= read -r line; do
	case $line in
	CONFIG_*=n)
		opt=${line%=n}
		if grep -q "^$opt=" "$2"; then
			echo "check-config: $opt should be unset" >&2
			bad=1
		fi
		;;
	CONFIG_*=*)
		if ! grep -qx "$line" "$2"; then
			echo "check-config: $line did not survive olddefconfig" \
				"(now: $(grep "^${line%%=*}=" "$2" || echo unset))" >&2
			bad=1
		fi
		;;
	esac
done <"$1"
exit $bad
