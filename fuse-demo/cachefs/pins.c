// SPDX-License-Identifier: GPL-2.0-only
/*
 * Pinned objects: never culled, whatever the limits (kmirror cache pin).
 *
 * A pin names an object by its volume key and cookie key, as the index
 * does, so it holds before the object exists (pin, then warm), across an
 * invalidation (the new object has the same key) and across remounts: the
 * set is kept in DIR/kmirror-pins, rewritten whole (a temporary file,
 * fsync, rename) at every change.  The key of a source file is its inode
 * number: the path it was pinned by is kept too, to show, and to tell a
 * pin that is gone (the path no longer names that inode: the file was
 * deleted or renamed, and a new file may get the number) from a live one
 * (control.c: `kmirror cache pins`, `unpin --gone`).
 *
 * The index entry of a pinned object carries KC_OBJ_PINNED, set when the
 * entry is made (kc_obj_add_locked() asks kc_pinned_locked() through
 * kc_index.pinned, as the index sits below this file) and when a
 * pin is added; the culler passes such entries by.  The set lives under
 * the index lock; pins_lock orders whole changes (set and file) and is
 * taken first.
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
#include "pins.h"

#define KC_PINS_MAGIC	"kmirror-pins 1\n"
#define KC_PINS_MAX	(1u << 20)	/* pins */
#define KC_PINS_FILE_MAX (64 << 20)	/* bytes: the file is read whole */

struct kc_pin {
	char		*vol;
	char		*path;
	uint8_t		key_len;
	uint8_t		key[KC_PIN_KEY_MAX];
};

struct kc_pins {
	pthread_mutex_t	lock;		/* whole changes: set and file */
	struct kc_pin	*v;		/* sorted by kc_pin_cmp() */
	size_t		n;
};

static int kc_pin_cmp(const void *a, const void *b)
{
	const struct kc_pin *p = a, *q = b;
	int c = strcmp(p->vol, q->vol);

	if (c)
		return c;
	if (p->key_len != q->key_len)
		return p->key_len < q->key_len ? -1 : 1;
	return memcmp(p->key, q->key, p->key_len);
}

static struct kc_pin *kc_pin_find(const struct kc_pins *s, const char *vol,
				  const uint8_t *key, size_t len)
{
	struct kc_pin k = { .vol = (char *)vol, .key_len = len };

	if (!s || !s->n || !len || len > KC_PIN_KEY_MAX)
		return NULL;
	memcpy(k.key, key, len);
	return bsearch(&k, s->v, s->n, sizeof(k), kc_pin_cmp);
}

bool kc_pinned_locked(const struct kc_index *x, unsigned int vol,
		      const uint8_t *key, size_t len)
{
	return kc_pin_find(x->pins, x->vol[vol]->key, key, len) != NULL;
}

/* Add a pin (index lock held); the strings are the set's from now on. */
static int kc_pin_insert(struct kc_pins *s, char *vol, const uint8_t *key,
			 size_t len, char *path)
{
	struct kc_pin *nv;

	if (s->n >= KC_PINS_MAX)
		return -ENOSPC;
	nv = realloc(s->v, (s->n + 1) * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	s->v = nv;
	nv[s->n] = (struct kc_pin){ .vol = vol, .path = path,
				    .key_len = len };
	memcpy(nv[s->n].key, key, len);
	s->n++;
	qsort(s->v, s->n, sizeof(*s->v), kc_pin_cmp);
	return 0;
}

static void kc_pin_remove(struct kc_pins *s, struct kc_pin *p)
{
	free(p->vol);
	free(p->path);
	memmove(p, p + 1, (s->v + s->n - (p + 1)) * sizeof(*p));
	s->n--;
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

/* One pin from @r into @s; -EBADMSG if it does not parse. */
static int kc_pins_parse_one(struct kc_pins *s, struct kc_pins_rd *r)
{
	char *vol = kc_take_str(r, 2), *path = NULL;
	const uint8_t *key = NULL;
	size_t klen = 0;
	int ret = -EBADMSG;

	if (vol && kc_take_len(r, 1, &klen) && klen && klen <= KC_PIN_KEY_MAX &&
	    (key = kc_take(r, klen)) && (path = kc_take_str(r, 2)) &&
	    *vol && !kc_pin_find(s, vol, key, klen))
		ret = kc_pin_insert(s, vol, key, klen, path);
	if (ret) {
		free(vol);
		free(path);
	}
	return ret;
}

/*
 * Parse a pins file of @len bytes at @buf into @s (empty before): 0, or
 * -EBADMSG (@s is then emptied again).
 */
int kc_pins_parse(struct kc_pins *s, const uint8_t *buf, size_t len)
{
	struct kc_pins_rd r = { buf, buf + len };
	size_t mlen = strlen(KC_PINS_MAGIC);
	const uint8_t *m = kc_take(&r, mlen);
	int ret = m && !memcmp(m, KC_PINS_MAGIC, mlen) ? 0 : -EBADMSG;

	while (!ret && r.p < r.end)
		ret = kc_pins_parse_one(s, &r);
	if (ret)
		while (s->n)
			kc_pin_remove(s, s->v);
	return ret;
}

static void kc_put_len(FILE *f, size_t len, size_t width)
{
	fputc(len & 0xff, f);
	if (width == 2)
		fputc(len >> 8, f);
}

/* The set as the file's bytes (index lock held): a malloc()ed buffer. */
char *kc_pins_format(const struct kc_pins *s, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	size_t i;

	if (!f)
		return NULL;
	fputs(KC_PINS_MAGIC, f);
	for (i = 0; i < s->n; i++) {
		kc_put_len(f, strlen(s->v[i].vol), 2);
		fputs(s->v[i].vol, f);
		kc_put_len(f, s->v[i].key_len, 1);
		fwrite(s->v[i].key, 1, s->v[i].key_len, f);
		kc_put_len(f, strlen(s->v[i].path), 2);
		fputs(s->v[i].path, f);
	}
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* Write @len bytes of @buf as DIR/kmirror-pins, atomically and durably. */
static int kc_pins_write(struct kc_fs *fs, const char *buf, size_t len)
{
	int fd, ret = 0;

	fd = openat(fs->cache_fd, KC_PINS_FILE ".tmp", O_WRONLY | O_CREAT |
		    O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	if (write(fd, buf, len) != (ssize_t)len || fsync(fd))
		ret = errno ? -errno : -EIO;
	close(fd);
	if (!ret && renameat(fs->cache_fd, KC_PINS_FILE ".tmp", fs->cache_fd,
			     KC_PINS_FILE))
		ret = -errno;
	if (ret)
		unlinkat(fs->cache_fd, KC_PINS_FILE ".tmp", 0);
	return ret;
}

static int kc_pins_save(struct kc_fs *fs)
{
	struct kc_index *x = fs->index;
	size_t len = 0;
	char *buf;
	int ret;

	pthread_mutex_lock(&x->lock);
	buf = kc_pins_format(x->pins, &len);
	pthread_mutex_unlock(&x->lock);
	if (!buf)
		return -ENOMEM;
	ret = kc_pins_write(fs, buf, len);
	free(buf);
	return ret;
}

/* DIR/kmirror-pins, whole, into a malloc()ed buffer; -ENOENT: none. */
static int kc_pins_read(struct kc_fs *fs, uint8_t **buf, size_t *len)
{
	struct stat st;
	int fd, ret = 0;

	fd = openat(fs->cache_fd, KC_PINS_FILE,
		    O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    st.st_size > KC_PINS_FILE_MAX)
		ret = -EBADMSG;
	else if (!(*buf = malloc(st.st_size + 1)))
		ret = -ENOMEM;
	else if (pread(fd, *buf, st.st_size, 0) != st.st_size)
		ret = -EBADMSG;
	*len = st.st_size;
	close(fd);
	return ret;
}

/* An empty set. */
struct kc_pins *kc_pins_new(void)
{
	struct kc_pins *s = calloc(1, sizeof(*s));

	if (s)
		pthread_mutex_init(&s->lock, NULL);
	return s;
}

void kc_pins_destroy(struct kc_pins *s)
{
	if (!s)
		return;
	while (s->n)
		kc_pin_remove(s, s->v);
	free(s->v);
	pthread_mutex_destroy(&s->lock);
	free(s);
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
		renameat(fs->cache_fd, KC_PINS_FILE, fs->cache_fd,
			 KC_PINS_FILE ".bad");
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

/* The change in memory (pins lock held): 0, -EEXIST or -ENOENT. */
static int kc_pin_apply(struct kc_index *x, const uint8_t *key, size_t len,
			const char *path, bool pin)
{
	struct kc_pins *s = x->pins;
	char *vol = NULL, *p = NULL;
	struct kc_pin *old;
	int ret;

	pthread_mutex_lock(&x->lock);
	old = kc_pin_find(s, x->vol[0]->key, key, len);
	if (pin && old) {
		ret = -EEXIST;
	} else if (pin) {
		vol = strdup(x->vol[0]->key);
		p = strdup(path);
		ret = vol && p ? kc_pin_insert(s, vol, key, len, p) : -ENOMEM;
		if (ret) {
			free(vol);
			free(p);
		}
	} else {
		ret = old ? 0 : -ENOENT;
		if (old)
			kc_pin_remove(s, old);
	}
	if (!ret)
		kc_pin_flag_locked(x, key, len, pin);
	pthread_mutex_unlock(&x->lock);
	return ret;
}

/*
 * Pin (@pin) or unpin the object of @key in this mount's volume, reached
 * by @path.  0, -EEXIST (already pinned), -ENOENT (not pinned), or the
 * error of keeping the set on disk: the change is then undone, as a pin
 * that would not outlive the mount is not what was asked for.
 */
int kc_pin_change(struct kc_fs *fs, const uint8_t *key, size_t len,
		  const char *path, bool pin)
{
	struct kc_pins *s = fs->index->pins;
	int ret;

	if (!len || len > KC_PIN_KEY_MAX)
		return -EINVAL;
	pthread_mutex_lock(&s->lock);
	ret = kc_pin_apply(fs->index, key, len, path, pin);
	if (!ret && (ret = kc_pins_save(fs)))
		kc_pin_apply(fs->index, key, len, path, !pin);
	pthread_mutex_unlock(&s->lock);
	return ret;
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

	pthread_mutex_lock(&x->lock);
	v = calloc(x->pins->n + 1, sizeof(*v));
	for (i = 0; v && i < x->pins->n; i++) {
		p = &x->pins->v[i];
		if (strcmp(p->vol, x->vol[0]->key))
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

	if (!x || !x->pins)
		return 0;
	pthread_mutex_lock(&x->lock);
	for (i = 0; i < x->pins->n; i++)
		n += !strcmp(x->pins->v[i].vol, x->vol[0]->key);
	pthread_mutex_unlock(&x->lock);
	return n;
}
