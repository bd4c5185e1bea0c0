// SPDX-License-Identifier: GPL-2.0-only
/*
 * One source directory's file in DIR/kmirror-meta, and the sorted names
 * it holds in memory.
 *
 * The file is written whole to a temporary name and renamed over the old
 * one (meta.c), so a kill -9 leaves the old file or the new one; its last
 * four bytes are a CRC32C of all before them, so a file cut short or
 * scrambled by a crash of the machine (the rename can reach the disk
 * before the data) is told from a good one and never read wrong.
 *
 * Little-endian:
 *   "kmirror-meta 2\n"                          (15 bytes)
 *   u16 volume key length, the key              (a foreign file: refused)
 *   u64 dev (0: the source's), u64 ino          (the directory)
 *   which directory that was (struct kc_mid): a time each of its birth
 *   (0, 0: not known), ctime and mtime; u64 its parent's dev (0: the
 *   source's) and ino, u8 its name's length and the name there (the
 *   root: 0, 0 and no name)
 *   i64 listed                                  (ns, 0: not listed)
 *   u32 number of names, at most KC_META_ENTRIES_MAX, then per name in
 *   strcmp() order (no duplicates):
 *     u8 length (1..255), the name (no NUL or '/', not . or ..),
 *     u8 flags (KC_ME_*), u8 type (DT_*), i64 learnt,
 *     [u64 ino, if not ABSENT]
 *     [stat and a time of birth, if ATTR (never with ABSENT)]
 *   u32 CRC32C of everything above
 * A stat: u64 dev (0: the source's), ino, nlink, rdev; u32 mode, uid,
 * gid; i64 size, blksize, blocks; a time each: atime, mtime, ctime.
 * A time: i64 s, u32 ns (below 10^9).
 *
 * A file of another version of the format (KC_META_MAGIC's number) is
 * told from a damaged one: -EPROTO, and the store removes it.  Version 1
 * had no kc_mid: its names cannot be told to be the directory's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "crc32c.h"
#include "meta.h"

#define KC_META_MAGIC	"kmirror-meta 2\n"
#define KC_META_FAMILY	"kmirror-meta "		/* any version */

/* ---- names in memory --------------------------------------------- */

/* Where @name is, or would go, among the first @n (sorted) entries. */
static size_t kc_mdir_pos(const struct kc_mdir *d, size_t n, const char *name,
			  bool *found)
{
	size_t lo = 0, hi = n, mid;
	int c;

	*found = false;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = strcmp(name, d->e[mid].name);
		if (!c) {
			*found = true;
			return mid;
		}
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* @name among the first @n entries, sorted; NULL if not there. */
struct kc_ment *kc_mdir_find_in(const struct kc_mdir *d, size_t n,
				const char *name)
{
	bool found;
	size_t i = kc_mdir_pos(d, n, name, &found);

	return found ? &d->e[i] : NULL;
}

struct kc_ment *kc_mdir_find(const struct kc_mdir *d, const char *name)
{
	return kc_mdir_find_in(d, d->n, name);
}

/* Room for one more entry; false if out of room. */
static bool kc_mdir_room(struct kc_mdir *d)
{
	struct kc_ment *v;

	if (d->n >= KC_META_ENTRIES_MAX)
		return false;
	if (d->n < d->cap)
		return true;
	v = realloc(d->e, (d->cap ? d->cap * 2 : 16) * sizeof(*v));
	if (!v)
		return false;
	d->e = v;
	d->cap = d->cap ? d->cap * 2 : 16;
	return true;
}

/* An empty entry of @name at @i, the entries from @i on moved up. */
static struct kc_ment *kc_mdir_insert(struct kc_mdir *d, size_t i,
				      const char *name)
{
	char *copy;

	if (!kc_mdir_room(d) || !(copy = strdup(name)))
		return NULL;
	memmove(&d->e[i + 1], &d->e[i], (d->n - i) * sizeof(*d->e));
	d->n++;
	memset(&d->e[i], 0, sizeof(d->e[i]));
	d->e[i].name = copy;
	return &d->e[i];
}

/* The entry of @name, made empty if new; NULL if out of room. */
struct kc_ment *kc_mdir_add(struct kc_mdir *d, const char *name)
{
	bool found;
	size_t i = kc_mdir_pos(d, d->n, name, &found);

	return found ? &d->e[i] : kc_mdir_insert(d, i, name);
}

/*
 * A listing's new name, added unsorted at the end (a whole listing added
 * in order would move the array once a name: quadratic in a directory of
 * 30,000 names); kc_mdir_sort() puts the array back in order.  The
 * caller knows @name is not there.
 */
struct kc_ment *kc_mdir_append(struct kc_mdir *d, const char *name)
{
	return kc_mdir_insert(d, d->n, name);
}

static int kc_ment_cmp(const void *a, const void *b)
{
	return strcmp(((const struct kc_ment *)a)->name,
		      ((const struct kc_ment *)b)->name);
}

/* Drop the entries flagged @flag, then sort the rest by name: O(n log n). */
void kc_mdir_sort(struct kc_mdir *d, uint8_t flag)
{
	size_t i, n = 0;

	for (i = 0; i < d->n; i++) {
		if (d->e[i].flags & flag)
			free(d->e[i].name);
		else
			d->e[n++] = d->e[i];
	}
	d->n = n;
	if (n > 1)	/* qsort(NULL, 0) is undefined: an empty listing */
		qsort(d->e, n, sizeof(*d->e), kc_ment_cmp);
}

void kc_mdir_del(struct kc_mdir *d, struct kc_ment *e)
{
	free(e->name);
	memmove(e, e + 1, (d->e + d->n - (e + 1)) * sizeof(*e));
	d->n--;
}

/* Free the names and which directory they were of; (dev, ino) stay. */
void kc_mdir_clear(struct kc_mdir *d)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		free(d->e[i].name);
	free(d->e);
	free(d->id.name);
	memset(&d->id, 0, sizeof(d->id));
	d->e = NULL;
	d->n = d->cap = 0;
	d->listed = 0;
	d->adopt = false;
}

/* ---- writing ------------------------------------------------------ */

/* @v, little-endian, in @bytes bytes: one call, not one a byte. */
static void kc_put(FILE *f, uint64_t v, unsigned int bytes)
{
	unsigned char b[8];
	unsigned int i;

	for (i = 0; i < bytes; i++, v >>= 8)
		b[i] = v & 0xff;
	fwrite(b, 1, bytes, f);
}

static void kc_put_ts(FILE *f, const struct timespec *ts)
{
	kc_put(f, ts->tv_sec, 8);
	kc_put(f, ts->tv_nsec, 4);
}

static void kc_put_stat(FILE *f, const struct stat *st, dev_t source_dev)
{
	kc_put(f, st->st_dev == source_dev ? 0 : st->st_dev, 8);
	kc_put(f, st->st_ino, 8);
	kc_put(f, st->st_nlink, 8);
	kc_put(f, st->st_rdev, 8);
	kc_put(f, st->st_mode, 4);
	kc_put(f, st->st_uid, 4);
	kc_put(f, st->st_gid, 4);
	kc_put(f, st->st_size, 8);
	kc_put(f, st->st_blksize, 8);
	kc_put(f, st->st_blocks, 8);
	kc_put_ts(f, &st->st_atim);
	kc_put_ts(f, &st->st_mtim);
	kc_put_ts(f, &st->st_ctim);
}

static void kc_put_mid(FILE *f, const struct kc_mid *id)
{
	const char *name = id->name ? id->name : "";

	kc_put_ts(f, &id->btime);
	kc_put_ts(f, &id->ctime);
	kc_put_ts(f, &id->mtime);
	kc_put(f, id->pdev, 8);
	kc_put(f, id->pino, 8);
	kc_put(f, strlen(name), 1);
	fputs(name, f);
}

static void kc_put_ment(FILE *f, const struct kc_ment *e, dev_t source_dev)
{
	kc_put(f, strlen(e->name), 1);
	fputs(e->name, f);
	kc_put(f, e->flags, 1);
	kc_put(f, e->type, 1);
	kc_put(f, e->learnt, 8);
	if (!(e->flags & KC_ME_ABSENT))
		kc_put(f, e->st.st_ino, 8);
	if (e->flags & KC_ME_ATTR) {
		kc_put_stat(f, &e->st, source_dev);
		kc_put_ts(f, &e->btime);
	}
}

/* @d as its file's bytes: a malloc()ed buffer of *@len, or NULL. */
char *kc_mdir_format(const struct kc_mdir *d, const char *vol,
		     dev_t source_dev, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	uint32_t crc;
	size_t i;

	if (!f)
		return NULL;
	fputs(KC_META_MAGIC, f);
	kc_put(f, strlen(vol), 2);
	fputs(vol, f);
	kc_put(f, d->dev, 8);
	kc_put(f, d->ino, 8);
	kc_put_mid(f, &d->id);
	kc_put(f, d->listed, 8);
	kc_put(f, d->n, 4);
	for (i = 0; i < d->n; i++)
		kc_put_ment(f, &d->e[i], source_dev);
	if (fflush(f)) {
		fclose(f);
		free(buf);
		return NULL;
	}
	crc = kc_crc32c(0, buf, *len);
	kc_put(f, crc, 4);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* ---- reading ------------------------------------------------------ */

static uint64_t kc_get(struct kc_bytes *r, unsigned int bytes)
{
	const uint8_t *p = kc_take(r, bytes);
	uint64_t v = 0;

	while (p && bytes--)
		v = v << 8 | p[bytes];
	return v;
}

/* A time; a bad one (ns past a second) marks @r bad. */
static struct timespec kc_get_ts(struct kc_bytes *r)
{
	struct timespec ts;

	ts.tv_sec = (int64_t)kc_get(r, 8);
	ts.tv_nsec = kc_get(r, 4);
	if (ts.tv_nsec >= 1000000000)
		r->bad = true;
	return ts;
}

static void kc_get_stat(struct kc_bytes *r, struct stat *st, dev_t source_dev)
{
	memset(st, 0, sizeof(*st));
	st->st_dev = kc_get(r, 8);
	if (!st->st_dev)
		st->st_dev = source_dev;
	st->st_ino = kc_get(r, 8);
	st->st_nlink = kc_get(r, 8);
	st->st_rdev = kc_get(r, 8);
	st->st_mode = kc_get(r, 4);
	st->st_uid = kc_get(r, 4);
	st->st_gid = kc_get(r, 4);
	st->st_size = (int64_t)kc_get(r, 8);
	st->st_blksize = (int64_t)kc_get(r, 8);
	st->st_blocks = (int64_t)kc_get(r, 8);
	st->st_atim = kc_get_ts(r);
	st->st_mtim = kc_get_ts(r);
	st->st_ctim = kc_get_ts(r);
	if (st->st_size < 0)
		r->bad = true;
}

/* A name: 1..255 bytes, no NUL or '/', not "." or "..". */
static bool kc_name_ok(const uint8_t *p, size_t len)
{
	if (!p || !len || memchr(p, 0, len) || memchr(p, '/', len))
		return false;
	return !(p[0] == '.' && (len == 1 || (len == 2 && p[1] == '.')));
}

/* One name into @d, after the last one; false if it does not parse. */
static bool kc_get_ment(struct kc_bytes *r, struct kc_mdir *d,
			dev_t source_dev)
{
	size_t len = kc_get(r, 1);
	const uint8_t *p = kc_take(r, len);
	char name[KC_META_NAME_MAX + 1];
	struct kc_ment *e;

	if (!kc_name_ok(p, len))
		return false;
	memcpy(name, p, len);
	name[len] = 0;
	if (d->n && strcmp(d->e[d->n - 1].name, name) >= 0)
		return false;		/* out of order, or twice */
	e = kc_mdir_add(d, name);
	if (!e)
		return false;
	e->flags = kc_get(r, 1);
	e->type = kc_get(r, 1);
	e->learnt = (int64_t)kc_get(r, 8);
	if ((e->flags & ~KC_ME_FLAGS) || e->type > 15 || e->learnt <= 0 ||
	    (e->flags & KC_ME_ABSENT && e->flags & KC_ME_ATTR))
		return false;
	if (!(e->flags & KC_ME_ABSENT))
		e->st.st_ino = kc_get(r, 8);
	if (e->flags & KC_ME_ATTR) {
		kc_get_stat(r, &e->st, source_dev);
		e->btime = kc_get_ts(r);
	}
	return !r->bad;
}

/*
 * Which directory the names are of: false if it does not parse.  The
 * root, and only the root, has parent 0, 0 and no name.
 */
static bool kc_get_mid(struct kc_bytes *r, struct kc_mid *id)
{
	const uint8_t *p;
	size_t len;

	id->btime = kc_get_ts(r);
	id->ctime = kc_get_ts(r);
	id->mtime = kc_get_ts(r);
	id->pdev = kc_get(r, 8);
	id->pino = kc_get(r, 8);
	len = kc_get(r, 1);
	p = kc_take(r, len);
	if (r->bad || !p || (len ? !kc_name_ok(p, len) || !id->pino :
			     id->pdev || id->pino))
		return false;
	id->name = strndup((const char *)p, len);
	return id->name != NULL;
}

/*
 * The header, up to the names: 0, -EPROTO (another version of the
 * format) or -EBADMSG (it does not parse or is not this volume's).
 */
static int kc_get_head(struct kc_bytes *r, struct kc_mdir *d,
		       const char *vol)
{
	size_t mlen = strlen(KC_META_MAGIC), vlen;
	const uint8_t *m = kc_take(r, mlen), *v;

	if (!m || memcmp(m, KC_META_MAGIC, mlen))
		return m && !memcmp(m, KC_META_FAMILY,
				    strlen(KC_META_FAMILY)) ?
		       -EPROTO : -EBADMSG;
	vlen = kc_get(r, 2);
	v = kc_take(r, vlen);
	if (!v || vlen != strlen(vol) || memcmp(v, vol, vlen))
		return -EBADMSG;
	d->dev = kc_get(r, 8);
	d->ino = kc_get(r, 8);
	if (!kc_get_mid(r, &d->id))
		return -EBADMSG;
	d->listed = (int64_t)kc_get(r, 8);
	return !r->bad && d->listed >= 0 ? 0 : -EBADMSG;
}

/*
 * Parse a directory's file of @len bytes into @d (empty before): 0,
 * -EPROTO (another version of the format) or -EBADMSG (damaged, or
 * another volume's); @d is emptied again on error.
 */
int kc_mdir_parse(struct kc_mdir *d, const uint8_t *buf, size_t len,
		  const char *vol, dev_t source_dev)
{
	struct kc_bytes r = { buf, buf + (len >= 4 ? len - 4 : 0), len < 4 };
	uint32_t n, i, crc;
	int ret = -EBADMSG;
	bool ok;

	if (r.bad)
		return -EBADMSG;
	crc = buf[len - 4] | buf[len - 3] << 8 | buf[len - 2] << 16 |
	      (uint32_t)buf[len - 1] << 24;
	ok = kc_crc32c(0, buf, len - 4) == crc &&
	     !(ret = kc_get_head(&r, d, vol));
	n = ok ? kc_get(&r, 4) : 0;
	ok = ok && !r.bad && n <= KC_META_ENTRIES_MAX;
	for (i = 0; ok && i < n; i++)
		ok = kc_get_ment(&r, d, source_dev);
	if (ok && r.p == r.end)
		return 0;
	kc_mdir_clear(d);
	return ret == -EPROTO ? -EPROTO : -EBADMSG;
}
