// SPDX-License-Identifier: GPL-2.0-only
/*
 * Checksums of cached granules, in memory and on disk: the one reader
 * and writer of the sidecar format, shared by the daemon (sums.c: where
 * sidecars live, checking granules as they are served) and `kmirror cache
 * check` (userspace/cli/cmd_cache_check.c), which scrubs a cache without
 * the daemon.  Needs nothing but libc and crc32c.c.
 *
 * -o verify=on (the default): a CRC32C per granule, computed from the
 * bytes when they are stored, checked when a read is first served from a
 * granule.
 *
 * In memory, next to the map's bits (struct kc_map): sum[g], a
 * "verified" bit and a "checking" bit.  A granule is verified once per
 * load of the map, by the first read served from it (sums.c); later reads
 * trust the page cache, which is what keeps warm reads cheap.  A granule
 * stored by this daemon is verified from the start (its sum was taken
 * from the bytes written).
 *
 * On disk, not in xattrs (ext4 gives an inode about 4 KiB of them, 4
 * bytes a granule would stop caching files past ~200 MB): one sidecar
 * file per object, DIR/kmirror-sums/<volume>-<key>, where <volume> is the
 * FNV-1a 64 hash of the volume key and <key> the cookie key in hex (or
 * its hash too, if longer than 64 bytes).  It lies outside DIR/cache, so
 * cachefiles and `kmirror cache ls` never see it.
 *
 *   struct kc_sums_hdr    magic, version, granule shift, the object
 *                         file's st_ino and mtime (ns), n
 *   u32 sum[n]            CRC32C of granule g; 0 for absent granules
 *   u32 crc               CRC32C of all that precedes
 *
 * kc_map_flush() writes it (write, fsync, rename) after the object's data
 * and maps are durable and before the seal, so a seal on disk always
 * comes after its sums.  kc_map_load() trusts a sealed map only with a
 * sidecar that is whole and bound to the object as it is now (inode and
 * mtime, which any data write moves); else the present granules have no
 * trusted sum and the map is discarded (counted as sums_missing): they
 * are fetched again, never served unverified.  So a leftover sidecar, of
 * an object culled behind our back or replaced, is harmless: it binds
 * another inode or mtime.  The daemon deletes sidecars where it deletes
 * objects (retire, cull, evict).  With -o verify=off no sums are kept,
 * and flushing a map deletes its object's sidecar, which would go stale.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kmirror/cache.h"
#include "kmirror/cachedir.h"

#include "bytes.h"
#include "crc32c.h"
#include "kmap.h"

#define KC_SUMS_MAGIC	"kmsums\n"	/* 8 bytes with the NUL */
#define KC_SUMS_VERSION	1

/* ---- in memory -------------------------------------------------------- */

/* Make room for granule @g's sum and bit; 0 or -ENOMEM. */
int kc_sums_grow(struct kc_map *m, uint64_t g)
{
	uint64_t n = m->nsum ? m->nsum : 64;
	uint32_t *s;
	uint8_t *v;

	if (g < m->nsum)
		return 0;
	while (n <= g)
		n *= 2;
	s = realloc(m->sum, n * sizeof(*s));
	if (!s)
		return -ENOMEM;
	m->sum = s;
	v = realloc(m->verified, n / 8);
	if (!v)
		return -ENOMEM;
	m->verified = v;
	v = realloc(m->checking, n / 8);
	if (!v)
		return -ENOMEM;
	m->checking = v;
	memset(s + m->nsum, 0, (n - m->nsum) * sizeof(*s));
	memset(m->verified + m->nsum / 8, 0, (n - m->nsum) / 8);
	memset(v + m->nsum / 8, 0, (n - m->nsum) / 8);
	m->nsum = n;
	return 0;
}

/* Granule @g holds bytes whose CRC32C is @crc, known good now. */
int kc_map_sum_set(struct kc_map *m, uint64_t g, uint32_t crc)
{
	int ret = kc_sums_grow(m, g);

	if (ret)
		return ret;
	m->sum[g] = crc;
	m->verified[g / 8] |= 1u << (g % 8);
	return 0;
}

/*
 * Granule @g changed or went: its sum is no longer checked
 * (content_map.c).
 */
void kc_map_sum_forget(struct kc_map *m, uint64_t g)
{
	if (g < m->nsum)
		m->verified[g / 8] &= ~(1u << (g % 8));
}

bool kc_map_verified(const struct kc_map *m, uint64_t g)
{
	return g < m->nsum && (m->verified[g / 8] & (1u << (g % 8)));
}

bool kc_map_checking(const struct kc_map *m, uint64_t g)
{
	return g < m->nsum && (m->checking[g / 8] & (1u << (g % 8)));
}

/* A reader checks granule @g (@on), or is done: others wait meanwhile
 * rather than read and sum the same bytes again.  0 or -ENOMEM. */
int kc_map_set_checking(struct kc_map *m, uint64_t g, bool on)
{
	int ret = on ? kc_sums_grow(m, g) : 0;

	if (ret || g >= m->nsum)
		return ret;
	if (on)
		m->checking[g / 8] |= 1u << (g % 8);
	else
		m->checking[g / 8] &= ~(1u << (g % 8));
	return 0;
}

uint32_t kc_map_sum(const struct kc_map *m, uint64_t g)
{
	return g < m->nsum ? m->sum[g] : 0;
}

void kc_map_sums_free(struct kc_map *m)
{
	free(m->sum);
	free(m->verified);
	free(m->checking);
	m->sum = NULL;
	m->verified = NULL;
	m->checking = NULL;
	m->nsum = 0;
}

/* ---- the sidecar -------------------------------------------------------- */

/*
 * The sidecar's name of the object of cookie key @key in the volume
 * @volume: "<FNV-1a 64 of the volume key>-<key in hex>", or "-h<FNV-1a 64
 * of the key>" for keys over 64 bytes.
 */
void kc_sums_name_for(const char *volume, const uint8_t *key,
		      size_t key_len, char name[KC_SUMS_NAME])
{
	size_t i;
	int n;

	n = snprintf(name, KC_SUMS_NAME, "%016" PRIx64 "-",
		     kc_fnv(KC_FNV_INIT, volume, strlen(volume)));
	if (key_len > 64) {
		snprintf(name + n, KC_SUMS_NAME - n, "h%016" PRIx64,
			 kc_fnv(KC_FNV_INIT, key, key_len));
		return;
	}
	for (i = 0; i < key_len; i++)
		snprintf(name + n + 2 * i, 3, "%02x", key[i]);
}

/*
 * The cookie key a sidecar @name stands for in @volume, into @key: its
 * length, -EINVAL if @name is no sidecar name with a key in hex (a key
 * over 64 bytes is named by its hash, which cannot be read back), or
 * -ENOENT if it is another volume's.  The name is made again from the
 * key and compared, so nothing but this format's own names gets through.
 */
int kc_sums_name_key(const char *volume, const char *name, uint8_t key[64])
{
	const char *hex = strchr(name, '-');
	size_t len = hex ? strlen(hex + 1) / 2 : 0;
	char again[KC_SUMS_NAME];

	if (!len || len > 64 || kmirror_hex2bin(key, hex + 1, len))
		return -EINVAL;
	kc_sums_name_for(volume, key, len, again);
	return strcmp(again, name) ? -ENOENT : (int)len;
}

void kc_sums_header(const struct kc_map *m, const struct stat *st,
		    uint64_t n, struct kc_sums_hdr *h)
{
	memset(h, 0, sizeof(*h));
	memcpy(h->magic, KC_SUMS_MAGIC, sizeof(h->magic));
	h->version = KC_SUMS_VERSION;
	h->shift = m->shift;
	h->ino = st->st_ino;
	h->mtime_sec = st->st_mtim.tv_sec;
	h->mtime_nsec = st->st_mtim.tv_nsec;
	h->n = n;
}

/*
 * Parse a sidecar's @len bytes at @buf into @h and *@sums (malloc'ed, h->n
 * of them): 0 if it is whole (its size and own CRC agree), else -EBADMSG
 * or -ENOMEM.  The header is not checked against any object here.
 */
int kc_sums_parse(const void *buf, size_t len, struct kc_sums_hdr *h,
		  uint32_t **sums)
{
	const char *p = buf;
	uint32_t crc;

	if (len < sizeof(*h) + 4 || (len - sizeof(*h)) % 4 ||
	    len > (1ull << 32))
		return -EBADMSG;
	memcpy(h, p, sizeof(*h));
	memcpy(&crc, p + len - 4, 4);
	if (crc != kc_crc32c(0, p, len - 4) ||
	    h->n != (len - sizeof(*h) - 4) / 4)
		return -EBADMSG;
	*sums = malloc(h->n ? h->n * 4 : 1);
	if (!*sums)
		return -ENOMEM;
	memcpy(*sums, p + sizeof(*h), h->n * 4);
	return 0;
}

/*
 * Write the sidecar image @buf (@len bytes: the header, the sums and room
 * for the CRC32C of all that precedes, set here) as @sc, durably: a
 * temporary file, fsync, rename (kmirror_cachedir_write(): nothing
 * planted by either name is followed).
 */
int kc_sums_write(const struct kc_sidecar *sc, void *buf, size_t len)
{
	uint32_t crc = kc_crc32c(0, buf, len - sizeof(crc));

	memcpy((char *)buf + len - sizeof(crc), &crc, sizeof(crc));
	return kmirror_cachedir_write(sc->dirfd, sc->name, NULL, buf, len,
				      KMIRROR_CACHEDIR_SYNC);
}

/*
 * Read the sidecar @name in @dirfd whole and parse it: a regular file of
 * ours with one name only, never through a symlink (the check reads
 * caches it does not trust), nor blocking on a FIFO planted there; any
 * such thing by its name is garbage (-EBADMSG).
 */
int kc_sums_read(int dirfd, const char *name, struct kc_sums_hdr *h,
		 uint32_t **sums)
{
	size_t len;
	char *buf;
	int ret;

	ret = kmirror_cachedir_read(dirfd, name, 1ull << 32, &buf, &len);
	if (kmirror_cachedir_refused(ret) || ret == -EFBIG)
		return -EBADMSG;
	if (ret)
		return ret;
	ret = kc_sums_parse(buf, len, h, sums);
	free(buf);
	return ret;
}
