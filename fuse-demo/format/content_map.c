// SPDX-License-Identifier: GPL-2.0-only
/*
 * The content map of a cache object: one bit per granule, kept in the
 * object's own xattrs, never inferred from the backing filesystem's
 * extents (the weakness of 6.1's cachefiles, which trusts SEEK_DATA).
 *
 *   user.kmirror.map.<n>   512 bytes: granules n*4096 ... n*4096+4095
 *                          (bit g%8 of byte (g%4096)/8); an empty value
 *                          means all 4096 are present; no xattr: none
 *   user.kmirror.seal      "kmirror-map 2 <granule bytes> <mtime>\n", the
 *                          object file's mtime (s.ns) when it was sealed
 *
 * A set bit means: the object holds the source's bytes of that granule,
 * [g * G, min((g + 1) * G, object size)).  In memory, a bit is set only
 * after fscache_write() of the whole granule returned.
 *
 * Why no stale or torn byte is ever served after kill -9 or a crash:
 *  1. The maps on disk are trusted only under a seal with the same
 *     granule size and the object file's mtime as it is now, and only if
 *     no bit claims bytes past the end of the file.  A map without such a
 *     seal is discarded at load: every bit clear, the old map xattrs
 *     removed.  Only a data write or a size change moves the mtime, and
 *     the daemon makes none under a seal, so a moved mtime means the
 *     object was written or cut behind the daemon's back: a cache error.
 *  2. Before the object or its map changes in any way (a data write, a
 *     bit set or cleared, a resize), kc_map_unseal() removes the seal, and
 *     waits for that to succeed.  So from the first change until the next
 *     flush, the object on disk has no seal: a process killed anywhere in
 *     between leaves a map that will be discarded.
 *  3. kc_map_flush() seals in this order: fdatasync() of the data, the
 *     map xattrs, fsync() (so the maps are durable before the seal), the
 *     granules' checksums (sums.c: written, fsync()ed, renamed), then
 *     the seal.  A seal on disk therefore always describes data that was
 *     on disk before it.
 *  4. The object itself is only ever reused if libkmirror's coherency
 *     check passes (user.CacheFiles.cache: aux data = the source's mtime,
 *     ctime, size and inode, and object size); objects of files written
 *     through the mount are opened will_modify and so marked DIRTY on disk
 *     while in use, which libkmirror refuses after a crash, as the kernel
 *     does.  New and invalidated objects are O_TMPFILEs that vanish.
 * Crash = process death (the page cache survives, so 2 alone suffices) or
 * power loss (3 orders the disk; xattr changes are journalled in order on
 * ext4 and xfs).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "kmirror/cachedir.h"
#include "kmap.h"

#define KC_MAP_PREFIX	"user.kmirror.map."
#define KC_SEAL_NAME	"user.kmirror.seal"
#define KC_SEAL_FMT	"kmirror-map 2 %llu %lld.%09ld\n"
#define KC_XNAME_SIZE	(sizeof(KC_MAP_PREFIX) + 24)

void kc_map_init(struct kc_map *m, unsigned int shift)
{
	memset(m, 0, sizeof(*m));
	m->shift = shift;
}

/* Forget every bit and the object they described (nothing on disk). */
void kc_map_reset(struct kc_map *m)
{
	uint64_t drops = m->drops + 1;
	size_t i;

	for (i = 0; i < m->n; i++)
		free(m->chunk[i]);
	free(m->chunk);
	kc_map_sums_free(m);
	kc_map_init(m, m->shift);
	m->drops = drops;	/* a reset drops every granule */
}

void kc_map_destroy(struct kc_map *m)
{
	kc_map_reset(m);
}

/* Index in m->chunk of the first chunk with idx >= @idx (binary search). */
static size_t kc_chunk_pos(const struct kc_map *m, uint64_t idx)
{
	size_t lo = 0, hi = m->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (m->chunk[mid]->idx < idx)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static struct kc_chunk *kc_chunk_find(const struct kc_map *m, uint64_t idx)
{
	size_t pos = kc_chunk_pos(m, idx);

	return pos < m->n && m->chunk[pos]->idx == idx ? m->chunk[pos] : NULL;
}

/* The chunk of @idx, made (all clear) if missing; NULL: no memory. */
static struct kc_chunk *kc_chunk_make(struct kc_map *m, uint64_t idx)
{
	size_t pos = kc_chunk_pos(m, idx);
	struct kc_chunk *c, **nc;

	if (pos < m->n && m->chunk[pos]->idx == idx)
		return m->chunk[pos];
	if (m->n == m->cap) {
		nc = realloc(m->chunk, (m->cap ? m->cap * 2 : 4) * sizeof(*nc));
		if (!nc)
			return NULL;
		m->chunk = nc;
		m->cap = m->cap ? m->cap * 2 : 4;
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->idx = idx;
	memmove(m->chunk + pos + 1, m->chunk + pos,
		(m->n - pos) * sizeof(*m->chunk));
	m->chunk[pos] = c;
	m->n++;
	return c;
}

static bool kc_bit(const struct kc_chunk *c, unsigned int b)
{
	return c->bits[b / 8] & (1u << (b % 8));
}

bool kc_map_test(const struct kc_map *m, uint64_t g)
{
	const struct kc_chunk *c = kc_chunk_find(m, g / KC_CHUNK_BITS);

	return c && kc_bit(c, g % KC_CHUNK_BITS);
}

/*
 * How many granules from @g on (at most up to @last, inclusive) have the
 * bit @set.  At least 1 if granule @g itself has it, else 0.
 */
uint64_t kc_map_run(const struct kc_map *m, uint64_t g, uint64_t last,
		    bool set)
{
	const struct kc_chunk *c;
	uint64_t start = g, stop;

	while (g <= last) {
		c = kc_chunk_find(m, g / KC_CHUNK_BITS);
		stop = g | (KC_CHUNK_BITS - 1);
		if (stop > last)
			stop = last;
		if (!c) {		/* a whole absent chunk: all clear */
			if (set)
				break;
			g = stop + 1;
			continue;
		}
		for (; g <= stop; g++)
			if (kc_bit(c, g % KC_CHUNK_BITS) != set)
				return g - start;
	}
	return g - start;
}

/*
 * Set or clear the bit of granule @g; 0 or -ENOMEM.  Marks the map dirty.
 * A change makes the granule's sum unchecked: the caller sets a new one.
 */
int kc_map_set(struct kc_map *m, uint64_t g, bool on)
{
	unsigned int b = g % KC_CHUNK_BITS;
	struct kc_chunk *c;

	c = on ? kc_chunk_make(m, g / KC_CHUNK_BITS) :
		 kc_chunk_find(m, g / KC_CHUNK_BITS);
	if (!c)
		return on ? -ENOMEM : 0;
	if (kc_bit(c, b) == on)
		return 0;
	kc_map_sum_forget(m, g);
	c->bits[b / 8] ^= 1u << (b % 8);
	if (on) {
		c->nset++;
		m->nset++;
	} else {
		c->nset--;
		m->nset--;
		m->drops++;
	}
	c->dirty = true;
	m->dirty = true;
	return 0;
}

/* Clear every bit of granule @g and beyond (a truncation). */
void kc_map_clear_from(struct kc_map *m, uint64_t g)
{
	size_t i;

	for (i = 0; i < m->n; i++) {
		struct kc_chunk *c = m->chunk[i];
		uint64_t first = c->idx * KC_CHUNK_BITS, b;

		if (first + KC_CHUNK_BITS <= g || !c->nset)
			continue;
		for (b = g > first ? g - first : 0; b < KC_CHUNK_BITS; b++)
			if (kc_bit(c, b))
				kc_map_set(m, first + b, false);
	}
}

/* ---- on disk --------------------------------------------------------- */

static void kc_xname(char *buf, uint64_t idx)
{
	snprintf(buf, KC_XNAME_SIZE, KC_MAP_PREFIX "%" PRIu64, idx);
}

/* Parse "<prefix><decimal>" strictly; false if @name is not a map. */
static bool kc_parse_xname(const char *name, uint64_t *idx)
{
	const char *p = name + strlen(KC_MAP_PREFIX);
	char *end;

	if (strncmp(name, KC_MAP_PREFIX, strlen(KC_MAP_PREFIX)) ||
	    *p < '0' || *p > '9' || (*p == '0' && p[1]))
		return false;
	errno = 0;
	*idx = strtoull(p, &end, 10);
	return !errno && !*end;
}

/* The seal of the object @fd as it is now (@st: its fstat). */
static int kc_seal_text(const struct kc_map *m, const struct stat *st,
			char *buf, size_t size)
{
	return snprintf(buf, size, KC_SEAL_FMT, 1ull << m->shift,
			(long long)st->st_mtim.tv_sec, st->st_mtim.tv_nsec);
}

/*
 * What the seal on the object @fd says: KC_MAP_CLEAN if it is the seal
 * of this object as it is now, KC_MAP_NONE if there is none,
 * KC_MAP_UNCLEAN if it is of another granule size or format (not ours to
 * trust, nor damage), KC_MAP_DAMAGED if the object changed since.
 */
static enum kc_map_state kc_seal_check(const struct kc_map *m, int fd,
				       const struct stat *st)
{
	char want[96], got[96], *sp;
	ssize_t n;
	int len;

	n = fgetxattr(fd, KC_SEAL_NAME, got, sizeof(got) - 1);
	if (n < 0)
		return errno == ENODATA ? KC_MAP_NONE : KC_MAP_UNCLEAN;
	got[n] = 0;
	len = kc_seal_text(m, st, want, sizeof(want));
	if (n == len && !memcmp(want, got, n))
		return KC_MAP_CLEAN;
	/* Same format and granule, another mtime: written behind our back. */
	sp = strrchr(want, ' ');
	if (sp && !strncmp(got, want, sp + 1 - want))
		return KC_MAP_DAMAGED;
	return KC_MAP_UNCLEAN;
}

/* The names of all xattrs of @fd (NUL-separated), malloc'ed; NULL: none. */
static char *kc_list(int fd, ssize_t *len)
{
	char *buf = NULL;
	ssize_t n;

	for (;;) {
		n = flistxattr(fd, NULL, 0);
		if (n <= 0)
			break;
		free(buf);
		buf = malloc(n);
		if (!buf)
			break;
		*len = flistxattr(fd, buf, n);
		if (*len >= 0)
			return buf;
		if (errno != ERANGE)
			break;
	}
	free(buf);
	*len = 0;
	return NULL;
}

/*
 * Install one map xattr read from disk; bits past @ngranules dropped.
 * 1 if it was damaged (and with @fix removed), 0, or -ENOMEM.
 */
static int kc_load_chunk(struct kc_map *m, int fd, const char *name,
			 uint64_t idx, uint64_t ngranules, bool fix)
{
	uint8_t bits[KC_CHUNK_BYTES];
	uint64_t first = idx * KC_CHUNK_BITS;
	struct kc_chunk *c;
	unsigned int b;
	ssize_t n;

	/* Past the object's end or damaged: absent, and removed for good
	 * (removing bits is always safe, sealed or not). */
	if (idx > UINT64_MAX / KC_CHUNK_BITS || first >= ngranules) {
		if (fix)
			fremovexattr(fd, name);
		return 1;
	}
	n = fgetxattr(fd, name, bits, sizeof(bits));
	if (n == 0) {
		memset(bits, 0xff, sizeof(bits));
	} else if (n != KC_CHUNK_BYTES) {
		if (fix)
			fremovexattr(fd, name);
		return 1;
	}
	c = kc_chunk_make(m, idx);
	if (!c)
		return -ENOMEM;
	c->on_disk = true;
	for (b = 0; b < KC_CHUNK_BITS && first + b < ngranules; b++) {
		if (bits[b / 8] & (1u << (b % 8))) {
			c->bits[b / 8] |= 1u << (b % 8);
			c->nset++;
			m->nset++;
		}
	}
	/* Bits past the size were dropped: rewrite the xattr at a flush. */
	c->dirty = memcmp(bits, c->bits, sizeof(bits)) != 0;
	return 0;
}

/* Remove every map xattr and the seal of @fd; true if there were any. */
static bool kc_map_wipe(int fd, const char *names, ssize_t len)
{
	const char *p;
	bool any = false;
	uint64_t idx;

	for (p = names; p && p < names + len; p += strlen(p) + 1)
		if (kc_parse_xname(p, &idx) && !fremovexattr(fd, p))
			any = true;
	if (!fremovexattr(fd, KC_SEAL_NAME))
		any = true;
	return any;
}

/*
 * Does a set bit claim bytes the object file does not hold?  A granule
 * covers [g * G, min((g + 1) * G, @object_size)); the file is @file_size
 * bytes long.
 */
static bool kc_map_claims_past(const struct kc_map *m, uint64_t object_size,
			       uint64_t file_size)
{
	size_t i = m->n;
	uint64_t end;
	int b;

	while (i && !m->chunk[i - 1]->nset)
		i--;
	if (!i)
		return false;
	for (b = KC_CHUNK_BITS - 1; !kc_bit(m->chunk[i - 1], b); b--)
		;
	end = (m->chunk[i - 1]->idx * KC_CHUNK_BITS + b + 1) << m->shift;
	return (end < object_size ? end : object_size) > file_size;
}

/* ---- the sums, bound to the map ------------------------------------- */

/*
 * Which granules have sums is the map's business, the sidecar's bytes are
 * sums_file.c's: so these two are here, and sums_file.c, below, never
 * reads a bit of the map.
 */

/* One past the last present granule. */
static uint64_t kc_map_end(const struct kc_map *m)
{
	uint64_t g;
	size_t i = m->n;
	int b;

	while (i && !m->chunk[i - 1]->nset)
		i--;
	if (!i)
		return 0;
	g = m->chunk[i - 1]->idx * KC_CHUNK_BITS;
	for (b = KC_CHUNK_BITS - 1; !kc_map_test(m, g + b); b--)
		;
	return g + b + 1;
}

/*
 * Write the sums of the map @m of the object whose fstat is @st, durably,
 * before its seal (kc_map_flush()).  verify=off: remove them instead.
 */
int kc_sums_save(const struct kc_map *m, const struct kc_sidecar *sc,
		 const struct stat *st)
{
	uint64_t n = kc_map_end(m), g;
	struct kc_sums_hdr *h;
	uint32_t *sum;
	size_t len;
	int ret;

	if (!sc->name[0])
		return 0;
	if (!sc->verify) {
		ret = kmirror_cachedir_unlink(sc->dirfd, sc->name, 0);
		return ret == -ENOENT ? 0 : ret;
	}
	/* One buffer, one write: header, sums, their CRC32C. */
	len = sizeof(*h) + (n + 1) * sizeof(*sum);
	h = calloc(1, len);
	if (!h)
		return -ENOMEM;
	kc_sums_header(m, st, n, h);
	sum = (uint32_t *)(h + 1);
	for (g = 0; g < n; g++)
		sum[g] = g < m->nsum && kc_map_test(m, g) ? m->sum[g] : 0;
	ret = kc_sums_write(sc, h, len);
	free(h);
	return ret;
}

/*
 * Load the sums of the sealed map @m of the object whose fstat is @st:
 * 0 if every present granule got its sum from a whole sidecar bound to
 * this object as it is now, else a negative errno (no trusted sums).
 */
int kc_sums_load(struct kc_map *m, const struct kc_sidecar *sc,
		 const struct stat *st)
{
	struct kc_sums_hdr h = { 0 }, want;
	uint32_t *sums = NULL;
	uint64_t end = kc_map_end(m), g;
	int ret;

	if (!sc->name[0])
		return -ENOENT;
	ret = kc_sums_read(sc->dirfd, sc->name, &h, &sums);
	if (ret)
		return ret;
	kc_sums_header(m, st, h.n, &want);
	if (memcmp(&h, &want, sizeof(h)) || h.n < end) {
		free(sums);
		return -ESTALE;
	}
	kc_map_sums_free(m);
	ret = end ? kc_sums_grow(m, end - 1) : 0;
	for (g = 0; !ret && g < end; g++)
		m->sum[g] = sums[g];
	free(sums);
	return ret;
}

/*
 * Reset @m, read the map of the object @fd (@object_size bytes) into it
 * and say in @r what was found; with @fix, damaged map xattrs are removed
 * on the way (else only counted in r->torn).  *@names: the object's xattr
 * names (kc_list(), to free).  0 or -errno.
 */
static int kc_map_read(struct kc_map *m, int fd, uint64_t object_size,
		       const struct kc_sidecar *sc, struct kc_map_report *r,
		       bool fix, char **names, ssize_t *len)
{
	uint64_t ngranules = (object_size + (1ull << m->shift) - 1) >>
			     m->shift;
	struct stat st;
	const char *p;
	uint64_t idx;
	int ret = 0;

	kc_map_reset(m);
	memset(r, 0, sizeof(*r));
	r->state = KC_MAP_UNCLEAN;
	*names = NULL;
	*len = 0;
	if (fstat(fd, &st))
		return -errno;
	r->state = kc_seal_check(m, fd, &st);
	*names = kc_list(fd, len);
	for (p = *names; r->state == KC_MAP_CLEAN && p && p < *names + *len &&
	     ret >= 0; p += strlen(p) + 1)
		if (kc_parse_xname(p, &idx)) {
			ret = kc_load_chunk(m, fd, p, idx, ngranules, fix);
			r->torn += ret > 0;
		}
	if (ret > 0)
		ret = 0;
	if (!ret && r->state == KC_MAP_CLEAN &&
	    kc_map_claims_past(m, object_size, st.st_size))
		r->state = KC_MAP_DAMAGED;
	/* verify=on: present granules without a trusted sum are absent. */
	if (!ret && r->state == KC_MAP_CLEAN && sc->verify && m->nset) {
		r->sums_err = kc_sums_load(m, sc, &st);
		if (r->sums_err)
			r->state = KC_MAP_NOSUMS;
	}
	return ret;
}

/*
 * Load the map of the object @fd (@object_size bytes) and say in *@state
 * what was found.  Only a map under a valid seal (rule 1), and with
 * verify=on with the sums of its sidecar @sc (sums_file.c), is loaded;
 * any other map xattrs and seal are removed, and the map is empty.  0, or
 * -errno (the map is then empty).  The map is reset first.
 */
int kc_map_load(struct kc_map *m, int fd, uint64_t object_size,
		const struct kc_sidecar *sc, enum kc_map_state *state)
{
	struct kc_map_report r;
	char *names;
	ssize_t len;
	int ret;

	ret = kc_map_read(m, fd, object_size, sc, &r, true, &names, &len);
	*state = r.state;
	/* Removing maps and seal is always safe (rule 1), even on errors. */
	if (ret || *state != KC_MAP_CLEAN) {
		kc_map_reset(m);
		if (kc_map_wipe(fd, names, len) && *state == KC_MAP_NONE)
			*state = KC_MAP_UNCLEAN;	/* maps, no seal */
	}
	free(names);
	m->sealed = *state == KC_MAP_CLEAN;
	return ret;
}

/*
 * kc_map_load() without a change on disk, for `kmirror cache check`: the
 * map as the daemon would load it, what it would discard and why (@r).
 * Damaged map xattrs are left in place, counted in r->torn, their
 * granules absent.  A map that is not loaded is left reset.
 */
int kc_map_inspect(struct kc_map *m, int fd, uint64_t object_size,
		   const struct kc_sidecar *sc, struct kc_map_report *r)
{
	char *names;
	ssize_t len;
	int ret = kc_map_read(m, fd, object_size, sc, r, false, &names, &len);

	free(names);
	if (ret || r->state != KC_MAP_CLEAN)
		kc_map_reset(m);
	m->sealed = !ret && r->state == KC_MAP_CLEAN;
	return ret;
}

/*
 * The granule size a seal on @fd names, as log2 in *@shift: 0, -ENODATA
 * (no seal), -EBADMSG (not a seal of this format), or -errno.
 */
int kc_seal_shift(int fd, unsigned int *shift)
{
	static const char head[] = "kmirror-map 2 ";
	unsigned long long g;
	char got[96], *end;
	ssize_t n;

	n = fgetxattr(fd, KC_SEAL_NAME, got, sizeof(got) - 1);
	if (n < 0)
		return -errno;
	got[n] = 0;
	if (strncmp(got, head, sizeof(head) - 1) ||
	    got[sizeof(head) - 1] < '1' || got[sizeof(head) - 1] > '9')
		return -EBADMSG;
	errno = 0;
	g = strtoull(got + sizeof(head) - 1, &end, 10);
	if (errno || *end != ' ' || g & (g - 1))
		return -EBADMSG;
	for (*shift = 0; (1ull << *shift) < g; (*shift)++)
		;
	if (*shift < KC_GRANULE_MIN_SHIFT || *shift > KC_GRANULE_MAX_SHIFT)
		return -EBADMSG;
	return 0;
}

/* Before any change of the object or its map: remove the seal (rule 2). */
int kc_map_unseal(struct kc_map *m, int fd)
{
	if (m->sealed) {
		if (fremovexattr(fd, KC_SEAL_NAME) && errno != ENODATA)
			return -errno;
		m->sealed = false;
	}
	m->dirty = true;
	return 0;
}

/* Write or remove one chunk's xattr; a chunk that cannot be written is
 * removed on disk (its granules are then absent after a remount). */
static int kc_flush_chunk(int fd, struct kc_chunk *c, unsigned int *lost)
{
	char name[KC_XNAME_SIZE];
	bool full = c->nset == KC_CHUNK_BITS;

	kc_xname(name, c->idx);
	if (!c->nset) {
		if (c->on_disk && fremovexattr(fd, name) && errno != ENODATA)
			return -errno;
		c->on_disk = false;
	} else if (fsetxattr(fd, name, c->bits, full ? 0 : KC_CHUNK_BYTES,
			     0)) {
		int err = -errno;

		if (fremovexattr(fd, name) && errno != ENODATA)
			return -errno;
		c->on_disk = false;
		(*lost)++;
		c->dirty = false;
		return err == -ENOSPC || err == -E2BIG || err == -EDQUOT ?
		       0 : err;
	} else {
		c->on_disk = true;
	}
	c->dirty = false;
	return 0;
}

/* Drop chunks that are empty and gone from disk. */
static void kc_map_compact(struct kc_map *m)
{
	size_t i, j = 0;

	for (i = 0; i < m->n; i++) {
		if (!m->chunk[i]->nset && !m->chunk[i]->on_disk)
			free(m->chunk[i]);
		else
			m->chunk[j++] = m->chunk[i];
	}
	m->n = j;
}

/*
 * Persist the map of the object @fd and its sums (@sc) and seal it
 * (rule 3).  *@lost counts
 * chunks that did not fit (e.g. ext4's one-block xattr limit): they are
 * dropped on disk, kept in memory.  0, or a negative errno: then the
 * object stays unsealed (its map will be discarded at the next load).
 */
int kc_map_flush(struct kc_map *m, int fd, const struct kc_sidecar *sc,
		 unsigned int *lost)
{
	struct stat st;
	char seal[96];
	size_t i;
	int ret, n;

	*lost = 0;
	if (!m->dirty)
		return 0;
	if (fdatasync(fd))
		return -errno;
	for (i = 0; i < m->n; i++) {
		if (!m->chunk[i]->dirty)
			continue;
		ret = kc_flush_chunk(fd, m->chunk[i], lost);
		if (ret)
			return ret;
	}
	kc_map_compact(m);
	if (fsync(fd) || fstat(fd, &st))
		return -errno;
	/* The sums are durable before the seal that makes them count. */
	ret = kc_sums_save(m, sc, &st);
	if (ret)
		return ret;
	n = kc_seal_text(m, &st, seal, sizeof(seal));
	if (fsetxattr(fd, KC_SEAL_NAME, seal, n, 0))
		return -errno;
	m->sealed = true;
	m->dirty = false;
	return 0;
}
