#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# t_preseed.sh: a cache written on the host by libkmirror (kmirror cache put,
# through seed-9p.py) for a 9p share is bound in the patched guest, which
# serves the share's files from it: fscache reads and no writes, every file
# right, and a canary whose cached bytes differ from the share's comes back
# with the cached bytes (so it cannot have come from the share).  The
# run is kept and not booted again while its inputs, the share and the
# seeded cache among them, stay the same (kept_key and kept_share in
# lib.sh).
. "$(dirname "$0")/lib.sh"
share=$(kept_share)
size=$(stat -c %s "$share/f4097")
head -c "$size" /dev/zero | tr '\0' 'K' >"$T/canary"
mkdir -p "$T/seed/fsc"
python3 "$S/seed-9p.py" "$KMIRROR_CLI" "$share" src "$T/seed/fsc" \
	"f4097=$T/canary"
# What the CLI seeded, by name, size, bytes and xattrs.
(cd "$T/seed" && find . -printf '%y %s %p\n' | LC_ALL=C sort -k3 &&
	find . -type f -exec md5sum {} + | LC_ALL=C sort -k2 &&
	find . | LC_ALL=C sort | xargs -d '\n' getfattr -h -d -m - -e hex) \
	>"$T/seeded"
kept_key patched-gcc preseed "$T/share.list" "$T/seeded"
if ! kept_restore "$K/preseed.log"; then
	python3 "$S/cache-image.py" make "$T/cache.img" 128 "$T/seed"
	boot patched-gcc preseed "$K/preseed.log" -d "$T/cache.img" \
		-s "$share:src"
	booted=1
fi

share_sums "$share" | grep -v ' f4097$' >"$T/want"
guest_sums "$K/preseed.log" 1 | grep -v ' f4097$' >"$T/got"
diff -u "$T/want" "$T/got" || fail "files read wrong"
canary=$(md5sum <"$T/canary" | cut -d' ' -f1)
got=$(guest_sums "$K/preseed.log" 1 | sed -n 's/ f4097$//p')
[ "$got" = "$canary" ] || fail "the canary was not served from the cache"
rd=$(stat_field "$K/preseed.log" IO rd)
wr=$(stat_field "$K/preseed.log" IO wr)
[ "${rd:-0}" -gt 0 ] || fail "no fscache reads"
[ "${wr:-1}" -eq 0 ] || fail "fscache wrote ($wr): the seeded objects were not used"
echo "ok pre-seeded cache served: IO rd=$rd wr=$wr, canary from the cache"
[ -z "${booted:-}" ] || kept_keep "$K/preseed.log"
