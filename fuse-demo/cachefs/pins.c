// SPDX-License-Identifier: GPL-2.0-only
/*
 * Pinned objects: never culled, whatever the limits (kmirror cache pin).
 *
 * A pin names an object by its volume key and cookie key, as the index
 * does, so it holds before the object exists (pin, then warm), across an
 * invalidation (the new object has the same key) and across remounts: the
 * set is kept in DIR/kmirror-pins, rewritten whole (a temporary file,
 * fsync, rename) at every change, which may be a batch of thousands
 * (kc_pins_change(): `kmirror cache pin` sends its files in batches).
 * The key of a source file is its inode number: the path it was pinned
 * by is kept too, to show, and to tell a pin that is gone (the path no
 * longer names that inode: the file was deleted or renamed, and a new
 * file may get the number) from a live one (control.c: `kmirror cache
 * pins`, `unpin --gone`).
 *
 * The index entry of a pinned object carries KC_OBJ_PINNED, set when the
 * entry is made (kc_obj_add_locked() asks kc_pinned_locked() through
 * kc_index.pinned, as the index sits below this file) and when a
 * pin is added; the culler passes such entries by.  The set in memory
 * (pins_set.c) lives under the index lock; its own lock orders whole
 * changes (set and file) and is taken first.
 *
 * The file, little-endian:
 *   "kmirror-pins 1\n"                        (15 bytes)
 *   per pin: u16 volume key length, the key (no NUL),
 *            u8 cookie key length (1..KC_PIN_KEY_MAX), the key,
 *            u16 path length, the path (no NUL)
 * A file that does not parse is set aside as kmirror-pins.bad with a
 * warning, and the cache runs with no pins: never a crash, never a pin
 * made up.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "index.h"
#include "pins_set.h"

#define KC_PINS_MAGIC	"kmirror-pins 1\n"
#define KC_PINS_FILE_MAX (64 << 20)	/* bytes: the file is read whole */

bool kc_pinned_locked(const struct kc_index *x, unsigned int vol,
		      const uint8_t *key, size_t len)
{
	long v = kc_pins_vol_find(x->pins, x->vol[vol]->key);

	return v >= 0 && kc_pins_find(x->pins, v, key, len);
}

/* ---- the file ------------------------------------------------------ */

struct kc_pins_rd {
	const uint8_t	*p, *end;
};

static const uint8_t *kc_take(struct kc_pins_rd *r, size_t n)
{
	const uint8_t *p = r->p;

	if ((size_t)(r->end - r->p) < n)
		return NULL;
	r->p += n;
	return p;
}

static bool kc_take_len(struct kc_pins_rd *r, size_t width, size_t *len)
{
	const uint8_t *p = kc_take(r, width);

	if (!p)
		return false;
	*len = width == 1 ? p[0] : p[0] | (size_t)p[1] << 8;
	return true;
}

/* A length-prefixed string with no NUL in it, copied. */
static char *kc_take_str(struct kc_pins_rd *r, size_t width)
{
	const uint8_t *p;
	size_t len;

	if (!kc_take_len(r, width, &len) || !(p = kc_take(r, len)) ||
	    memchr(p, 0, len))
		return NULL;
	return strndup((const char *)p, len);
}

/* One pin from @r into @s, unsorted; -EBADMSG if it does not parse. */
static int kc_pins_parse_one(struct kc_pins *s, struct kc_pins_rd *r)
{
	char *vol = kc_take_str(r, 2);
	struct kc_pin p = { 0 };
	const uint8_t *key = NULL;
	size_t klen = 0;
	long v = -EBADMSG;
	int ret;

	if (vol && *vol && kc_take_len(r, 1, &klen) && klen &&
	    klen <= KC_PIN_KEY_MAX && (key = kc_take(r, klen)) &&
	    (p.path = kc_take_str(r, 2)))
		v = kc_pins_vol_add(s, vol);
	free(vol);
	ret = v < 0 ? (int)v : 0;
	if (!ret) {
		p.vol = v;
		p.key_len = klen;
		memcpy(p.key, key, klen);
		ret = kc_pins_append(s, &p);
	}
	if (ret)
		free(p.path);
	return ret;
}

/*
 * Parse a pins file of @len bytes at @buf into @s (empty before): 0, or
 * -EBADMSG (@s is then emptied again).  Sorted once, at the end: a key
 * there twice is damage.
 */
int kc_pins_parse(struct kc_pins *s, const uint8_t *buf, size_t len)
{
	struct kc_pins_rd r = { buf, buf + len };
	size_t mlen = strlen(KC_PINS_MAGIC);
	const uint8_t *m = kc_take(&r, mlen);
	int ret = m && !memcmp(m, KC_PINS_MAGIC, mlen) ? 0 : -EBADMSG;

	while (!ret && r.p < r.end)
		ret = kc_pins_parse_one(s, &r);
	if (!ret)
		ret = kc_pins_sort(s);
	if (ret)
		kc_pins_clear(s);
	return ret == -ENOMEM ? ret : ret ? -EBADMSG : 0;
}

static void kc_put_len(FILE *f, size_t len, size_t width)
{
	fputc(len & 0xff, f);
	if (width == 2)
		fputc(len >> 8, f);
}

/* The pins @v[@n] of @s as the file's bytes: a malloc()ed buffer. */
static char *kc_pins_format_v(const struct kc_pins *s,
			      const struct kc_pin *v, size_t n, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	const char *vol;
	size_t i;

	if (!f)
		return NULL;
	fputs(KC_PINS_MAGIC, f);
	for (i = 0; i < n; i++) {
		vol = s->vols[v[i].vol];
		kc_put_len(f, strlen(vol), 2);
		fputs(vol, f);
		kc_put_len(f, v[i].key_len, 1);
		fwrite(v[i].key, 1, v[i].key_len, f);
		kc_put_len(f, strlen(v[i].path), 2);
		fputs(v[i].path, f);
	}
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* The set as the file's bytes (index lock held): a malloc()ed buffer. */
char *kc_pins_format(const struct kc_pins *s, size_t *len)
{
	return kc_pins_format_v(s, s->v, s->n, len);
}

/* Write @len bytes of @buf as DIR/kmirror-pins, atomically and durably. */
static int kc_pins_write(struct kc_fs *fs, const char *buf, size_t len)
{
	return kmirror_cachedir_write(fs->cache_fd, KC_PINS_FILE, NULL, buf,
				      len, KMIRROR_CACHEDIR_SYNC);
}

/*
 * DIR/kmirror-pins, whole, into a malloc()ed buffer; -ENOENT: none;
 * -EBADMSG: something else than our file stands there (a symlink, a
 * FIFO, a hard link: kmirror/cachedir.h), or it is too big.
 */
static int kc_pins_read(struct kc_fs *fs, uint8_t **buf, size_t *len)
{
	char *b = NULL;
	int ret = kmirror_cachedir_read(fs->cache_fd, KC_PINS_FILE,
					KC_PINS_FILE_MAX, &b, len);

	*buf = (uint8_t *)b;
	return kmirror_cachedir_refused(ret) || ret == -EFBIG ||
	       ret == -EIO ? -EBADMSG : ret;
}

/* At mount, with the index made and nothing in it: the pins on disk. */
int kc_pins_load(struct kc_fs *fs)
{
	struct kc_pins *s = kc_pins_new();
	uint8_t *buf = NULL;
	size_t len = 0;
	int ret;

	if (!s)
		return -ENOMEM;
	fs->index->pins = s;
	fs->index->pinned = kc_pinned_locked;
	ret = kc_pins_read(fs, &buf, &len);
	if (!ret)
		ret = kc_pins_parse(s, buf, len);
	free(buf);
	if (ret == -EBADMSG) {
		kc_warn("warning: %s/" KC_PINS_FILE " is damaged: set aside "
			"as " KC_PINS_FILE ".bad, no object is pinned",
			fs->cfg.cache_dir);
		kmirror_cachedir_rename(fs->cache_fd, KC_PINS_FILE,
					fs->cache_fd, KC_PINS_FILE ".bad", 0);
		ret = 0;
	}
	return ret == -ENOENT ? 0 : ret;
}

void kc_pins_free(struct kc_index *x)
{
	x->pinned = NULL;
	kc_pins_destroy(x->pins);
	x->pins = NULL;
}

/* ---- changes ------------------------------------------------------- */

/* The entry of @key in this mount's volume gets or loses its flag. */
static void kc_pin_flag_locked(struct kc_index *x, const uint8_t *key,
			       size_t len, bool pin)
{
	struct kc_obj *o = kc_obj_find_locked(x, 0, key, len);

	if (o && pin)
		o->flags |= KC_OBJ_PINNED;
	else if (o)
		o->flags &= ~KC_OBJ_PINNED;
}

/*
 * Keep @next on disk, then swap it in (@next has the old array then) and
 * flag the index entries of the @n requests @r that change (err 0).
 * Pins lock held.
 */
static int kc_pins_commit(struct kc_fs *fs, struct kc_pins_next *next,
			  const struct kc_pin_req *r, size_t n, bool pin)
{
	struct kc_index *x = fs->index;
	size_t len = 0, i;
	char *buf = kc_pins_format_v(x->pins, next->v, next->n, &len);
	int ret = buf ? kc_pins_write(fs, buf, len) : -ENOMEM;

	free(buf);
	if (ret)
		return ret;
	pthread_mutex_lock(&x->lock);
	kc_pins_swap(x->pins, next);
	for (i = 0; i < n; i++)
		if (!r[i].err)
			kc_pin_flag_locked(x, r[i].key, r[i].key_len, pin);
	pthread_mutex_unlock(&x->lock);
	return 0;
}

/* A new pin of @r in @vol, in @p; @r->err says why not. */
static bool kc_pin_new(struct kc_pins *s, uint32_t vol, struct kc_pin_req *r,
		       struct kc_pin *p)
{
	if (r->err)
		return false;	/* failed before: passed by */
	if (!r->key_len || r->key_len > KC_PIN_KEY_MAX)
		r->err = -EINVAL;
	else if (kc_pins_find(s, vol, r->key, r->key_len))
		r->err = -EEXIST;
	else if (!(p->path = strdup(r->path)))
		r->err = -ENOMEM;
	else
		r->err = 0;
	p->vol = vol;
	p->key_len = r->key_len;
	memcpy(p->key, r->key, r->key_len);
	return !r->err;
}

/* A new pin and its request, sorted together. */
struct kc_pin_add {
	struct kc_pin		p;
	struct kc_pin_req	*r;
};

static int kc_pin_add_cmp(const void *a, const void *b)
{
	return kc_pin_cmp(&((const struct kc_pin_add *)a)->p,
			  &((const struct kc_pin_add *)b)->p);
}

/*
 * The new pins of @r[@n] in @vol, sorted, into @out: how many, or
 * -ENOMEM.  A key asked for twice is pinned once (EEXIST for the second).
 */
static ssize_t kc_pins_new_sorted(struct kc_pins *s, uint32_t vol,
				  struct kc_pin_req *r, size_t n,
				  struct kc_pin *out)
{
	struct kc_pin_add *a = malloc((n ? n : 1) * sizeof(*a));
	size_t i, k = 0;

	if (!a)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		if (kc_pin_new(s, vol, &r[i], &a[k].p)) {
			a[k].r = &r[i];
			k++;
		}
	}
	if (k)
		qsort(a, k, sizeof(*a), kc_pin_add_cmp);
	for (i = 0, n = 0; i < k; i++) {
		if (n && !kc_pin_cmp(&out[n - 1], &a[i].p)) {
			free(a[i].p.path);
			a[i].r->err = -EEXIST;
			continue;
		}
		out[n++] = a[i].p;
	}
	free(a);
	return n;
}

/* Pin the keys of @r[@n] (pins lock held). */
static int kc_pins_add(struct kc_fs *fs, struct kc_pin_req *r, size_t n)
{
	struct kc_index *x = fs->index;
	struct kc_pins *s = x->pins;
	struct kc_pin *add = malloc((n ? n : 1) * sizeof(*add));
	struct kc_pins_next next = { 0 };
	ssize_t k = 0, i;
	long vol;
	int ret;

	pthread_mutex_lock(&x->lock);
	vol = add ? kc_pins_vol_add(s, x->vol[0]->key) : -ENOMEM;
	pthread_mutex_unlock(&x->lock);
	ret = vol < 0 ? (int)vol : 0;
	if (!ret && (k = kc_pins_new_sorted(s, vol, r, n, add)) < 0)
		ret = k;
	if (!ret && k)
		ret = kc_pins_next_add(s, add, k, &next);
	if (!ret && k)
		ret = kc_pins_commit(fs, &next, r, n, true);
	for (i = 0; ret && i < k; i++)
		free(add[i].path);
	for (i = 0; ret && i < (ssize_t)n; i++)
		r[i].err = r[i].err ? r[i].err : ret;
	free(next.v);
	free(add);
	return ret;
}

/* Unpin the keys of @r[@n] (pins lock held). */
static int kc_pins_drop(struct kc_fs *fs, struct kc_pin_req *r, size_t n)
{
	struct kc_index *x = fs->index;
	struct kc_pins *s = x->pins;
	bool *drop = calloc(s->n + 1, sizeof(*drop));
	struct kc_pins_next next = { 0 };
	long vol = kc_pins_vol_find(s, x->vol[0]->key);
	size_t i, k = 0;
	struct kc_pin *p;
	int ret = drop ? 0 : -ENOMEM;

	for (i = 0; !ret && i < n; i++) {
		if (r[i].err)
			continue;	/* failed before: passed by */
		p = vol < 0 ? NULL : kc_pins_find(s, vol, r[i].key,
						  r[i].key_len);
		r[i].err = !p || drop[p - s->v] ? -ENOENT : 0;
		if (p && !drop[p - s->v]) {
			drop[p - s->v] = true;
			k++;
		}
	}
	if (!ret && k)
		ret = kc_pins_next_drop(s, drop, &next);
	if (!ret && k)
		ret = kc_pins_commit(fs, &next, r, n, false);
	for (i = 0; !ret && i < next.n; i++)	/* the old array now */
		if (drop[i])
			free(next.v[i].path);
	for (i = 0; ret && i < n; i++)
		r[i].err = r[i].err ? r[i].err : ret;
	free(next.v);
	free(drop);
	return ret;
}

/*
 * Pin (@pin) or unpin the objects of the keys of @r[@n] in this mount's
 * volume, and keep the set on disk, once.  A request whose err is set
 * already is passed by.  Each other request's err: 0, -EEXIST
 * (already pinned), -ENOENT (not pinned), -EINVAL (no key), or the error
 * of keeping the set on disk: the batch is then undone, as a pin that
 * would not outlive the mount is not what was asked for.  Returns that
 * error, or 0.
 */
int kc_pins_change(struct kc_fs *fs, struct kc_pin_req *r, size_t n,
		   bool pin)
{
	struct kc_pins *s = fs->index->pins;
	int ret;

	pthread_mutex_lock(&s->lock);
	ret = pin ? kc_pins_add(fs, r, n) : kc_pins_drop(fs, r, n);
	pthread_mutex_unlock(&s->lock);
	return ret;
}

/* One pin or unpin: 0, or the request's error. */
int kc_pin_change(struct kc_fs *fs, const uint8_t *key, size_t len,
		  const char *path, bool pin)
{
	struct kc_pin_req r = { .path = path, .key_len = len };

	if (!len || len > KC_PIN_KEY_MAX)
		return -EINVAL;
	memcpy(r.key, key, len);
	kc_pins_change(fs, &r, 1, pin);
	return r.err;
}

/*
 * Copies of the pins of this mount's volume, with what the index knows of
 * their objects now, for the control socket to show or prune: their
 * number (*@out: an array for kc_pins_put()), or -ENOMEM.
 */
ssize_t kc_pins_get(struct kc_fs *fs, struct kc_pin_info **out)
{
	struct kc_index *x = fs->index;
	struct kc_pin_info *v;
	const struct kc_pin *p;
	struct kc_obj *o;
	size_t i, n = 0;
	long vol;

	pthread_mutex_lock(&x->lock);
	vol = kc_pins_vol_find(x->pins, x->vol[0]->key);
	v = calloc(x->pins->n + 1, sizeof(*v));
	for (i = 0; v && i < x->pins->n; i++) {
		p = &x->pins->v[i];
		if (p->vol != vol)
			continue;
		v[n].path = strdup(p->path);
		if (!v[n].path) {
			kc_pins_put(v, n);
			v = NULL;
			break;
		}
		memcpy(v[n].key, p->key, p->key_len);
		v[n].key_len = p->key_len;
		o = kc_obj_find_locked(x, 0, p->key, p->key_len);
		v[n].cached = o != NULL;
		v[n].bytes = o ? o->bytes : 0;
		n++;
	}
	pthread_mutex_unlock(&x->lock);
	*out = v;
	return v ? (ssize_t)n : -ENOMEM;
}

void kc_pins_put(struct kc_pin_info *v, size_t n)
{
	size_t i;

	for (i = 0; v && i < n; i++)
		free(v[i].path);
	free(v);
}

/* Pins of this mount's volume (pinned ones may be absent). */
size_t kc_pins_count(struct kc_fs *fs)
{
	struct kc_index *x = fs->index;
	size_t i, n = 0;
	long vol;

	if (!x || !x->pins)
		return 0;
	pthread_mutex_lock(&x->lock);
	vol = kc_pins_vol_find(x->pins, x->vol[0]->key);
	for (i = 0; vol >= 0 && i < x->pins->n; i++)
		n += x->pins->v[i].vol == vol;
	pthread_mutex_unlock(&x->lock);
	return n;
}
