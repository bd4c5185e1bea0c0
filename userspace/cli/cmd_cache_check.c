// SPDX-License-Identifier: GPL-2.0-only
/*
 * kmirror cache check DIR [--repair]: scrub a kmirror-cachefs cache.
 *
 * Every object with a sealed content map and its checksum sidecar has
 * each present granule read again and its CRC32C compared with the sum
 * kept for it.  The map and the sidecar are read by kmirror-cachefs's own
 * code (fuse-demo/format: content_map.c, sums_file.c, linked in here), so
 * the check sees an object exactly as the daemon would load it: what the
 * daemon would discard (a sidecar stale or garbage, an object written
 * behind its back, torn map xattrs) is damage too.
 *
 * The cache is read directly, mounted or not; objects the daemon changes
 * meanwhile are unsealed (not checked) or change their mtime under the
 * check (dropped from it).  --repair never writes under a live daemon:
 * when DIR's control socket answers, damaged objects are evicted through
 * it (fetched from the source again on the next read); else, holding the
 * cache lock so that no daemon starts meanwhile, damaged granules are
 * cleared in the map by the daemon's own crash-safe sequence (unseal,
 * clear, flush: kc_map_flush()), and maps the daemon would discard are
 * discarded (kc_map_load()).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache_check.h"
#include "crc32c.h"

static const char km_cache_check_usage[] =
	"usage: kmirror cache check DIR [--repair]\n"
	"Scrub the kmirror-cachefs cache DIR: read every cached granule of\n"
	"every object with a sealed content map again and compare its\n"
	"CRC32C with the sum kept in DIR/kmirror-sums.  One line on stdout\n"
	"per finding: a granule that does not match (the object's path in\n"
	"DIR and the granule's index), a sidecar missing, stale or garbage,\n"
	"a map that does not parse.  Progress on stderr: a bar on a terminal\n"
	"(bytes, objects, rate, ETA), else a plain line each second.\n"
	"--repair: if DIR is mounted (its control socket answers), evict the\n"
	"damaged objects through the daemon; else mark the damaged granules\n"
	"absent in the map (or discard a map the daemon would not trust).\n"
	"Either way the source's bytes are fetched again on the next read.\n"
	"Exit status: 0 no damage; 1 damage found, all repaired; 4 damage\n"
	"left (no --repair, or an object pinned or in use); 8 the cache\n"
	"could not be checked; 2 bad usage.\n" KM_CTL_TIMEOUT_HELP;

/* An object to check, from the scan of the cache. */
struct km_chk_obj {
	char		*path;		/* relative to DIR */
	char		sidecar[KC_SUMS_NAME];
	uint64_t	size;		/* the source's, from its xattr */
	uint64_t	bytes;		/* the object file's length */
};

/* The scan, copied out: the walk's records last one step only. */
static int km_chk_add(struct km_check *c, const struct kmirror_cache_object *r,
		      uint64_t bytes)
{
	struct km_chk_obj *o, *no;

	if (c->nobj == c->cap) {
		no = realloc(c->obj, (c->cap ? c->cap * 2 : 64) * sizeof(*no));
		if (!no)
			return -ENOMEM;
		c->obj = no;
		c->cap = c->cap ? c->cap * 2 : 64;
	}
	o = &c->obj[c->nobj];
	o->path = strdup(r->path);
	if (!o->path)
		return -ENOMEM;
	kc_sums_name_for(r->volume, r->key, r->key_len, o->sidecar);
	o->size = r->object_size;
	o->bytes = bytes;
	c->nobj++;
	c->prog.total_n++;
	c->prog.total_bytes += bytes;
	return 0;
}

/* List the objects; entries the scanner finds damaged are damage too. */
static int km_chk_list(struct km_check *c)
{
	struct kmirror_cache_object r;
	struct kmirror_cache_scan *scan;
	struct stat st;
	int ret;

	ret = kmirror_cache_openat(c->cache_fd, ".", &scan);
	if (ret)
		return ret;
	while ((ret = kmirror_cache_next(scan, &r)) > 0) {
		if (r.error) {
			km_chk_line(c, r.path, "%s", r.error_msg);
			c->left++;
			continue;
		}
		if (r.kind != KMIRROR_CACHE_OBJECT ||
		    kmirror_cachedir_stat(c->cache_fd, r.path, &st))
			continue;
		ret = km_chk_add(c, &r, st.st_size);
		if (ret)
			break;
	}
	kmirror_cache_close(scan);
	return ret;
}

/* CRC32C of the object's bytes [lo, lo + len): 0 or -errno. */
static int km_chk_crc(struct km_check *c, int fd, uint64_t lo, uint64_t len,
		      uint32_t *crc)
{
	size_t want;
	ssize_t n;

	*crc = 0;
	while (len) {
		want = len < KM_CHECK_PIECE ? len : KM_CHECK_PIECE;
		n = pread(fd, c->buf, want, lo);
		if (n != (ssize_t)want)
			return n < 0 ? -errno : -ENODATA;
		*crc = kc_crc32c(*crc, c->buf, want);
		lo += want;
		len -= want;
		c->prog.bytes += want;
		km_progress_show(&c->prog, false);
	}
	return 0;
}

/* Compare every present granule of @m with its sum; bad ones in @f. */
static int km_chk_granules(struct km_check *c, int fd, const struct kc_map *m,
			   uint64_t size, struct km_finding *f)
{
	uint64_t G = 1ull << m->shift, last = (size + G - 1) / G, g, hi;
	uint32_t crc;
	int ret;

	for (g = 0; g < last; g++) {
		if (!kc_map_test(m, g))
			continue;
		hi = (g + 1) * G < size ? (g + 1) * G : size;
		ret = km_chk_crc(c, fd, g * G, hi - g * G, &crc);
		if (ret == -ENOMEM)
			return ret;
		if (!ret && crc == kc_map_sum(m, g))
			continue;
		ret = km_finding_add(f, g);
		if (ret)
			return ret;
	}
	return 0;
}

/* Why the daemon would discard the map it found in @r, or NULL. */
static const char *km_chk_map_why(const struct kc_map_report *r)
{
	switch (r->state) {
	case KC_MAP_DAMAGED:
		return "object changed after its map was sealed (or the map claims bytes past its end)";
	case KC_MAP_NOSUMS:
		return r->sums_err == -ESTALE ?
		       "checksum sidecar is stale (made for another file or mtime)" :
		       r->sums_err == -ENOENT ? NULL :
		       "checksum sidecar does not parse (garbage, truncated or not a file)";
	default:
		return r->torn ? "map xattrs that do not parse" : NULL;
	}
}

/*
 * Look at the object @fd (@o): fill @f with what is wrong.  Returns 1 if
 * it was checked, 0 if it could not be (unsealed, no sums: said why), or
 * -ENOMEM.
 */
static int km_chk_inspect(struct km_check *c, int fd,
			  const struct km_chk_obj *o, struct kc_map *m,
			  struct km_finding *f)
{
	struct kc_sidecar sc = { .dirfd = c->sums_fd, .verify = true };
	struct kc_map_report r;
	unsigned int shift;
	int ret = kc_seal_shift(fd, &shift);

	if (ret == -EBADMSG) {
		f->map_why = "seal does not parse";
		return 1;
	}
	if (ret)
		return 0;	/* unsealed: in use, or never flushed */
	if (c->sums_fd >= 0)
		snprintf(sc.name, sizeof(sc.name), "%s", o->sidecar);
	kc_map_init(m, shift);
	ret = kc_map_inspect(m, fd, o->size, &sc, &r);
	if (ret)
		return ret == -ENOMEM ? ret : 0;
	f->map_why = km_chk_map_why(&r);
	if (r.state == KC_MAP_NOSUMS && !f->map_why) {
		km_chk_line(c, o->path, "no checksum sidecar: not checked");
		c->nosums++;
		return 0;
	}
	if (r.state != KC_MAP_CLEAN)
		return f->map_why ? 1 : 0;
	f->granules = m->nset;
	ret = km_chk_granules(c, fd, m, o->size, f);
	return ret ? ret : 1;
}

/* The object changed or went while checked: the daemon's doing. */
static bool km_chk_moved(int fd, const struct stat *before)
{
	struct stat st;

	return fstat(fd, &st) || !st.st_nlink ||
	       st.st_mtim.tv_sec != before->st_mtim.tv_sec ||
	       st.st_mtim.tv_nsec != before->st_mtim.tv_nsec ||
	       st.st_size != before->st_size;
}

static void km_chk_report(struct km_check *c, const struct km_chk_obj *o,
			  const struct km_finding *f)
{
	size_t i;

	if (f->map_why)
		km_chk_line(c, o->path, "%s", f->map_why);
	for (i = 0; i < f->nbad; i++)
		km_chk_line(c, o->path, "granule %" PRIu64 ": checksum mismatch",
			    f->bad[i]);
}

/* Check one object, and repair it if asked to. */
static int km_chk_one(struct km_check *c, const struct km_chk_obj *o)
{
	struct km_finding f = { 0 };
	struct kc_map m;
	unsigned long long base = c->prog.bytes;
	struct stat st;
	int fd, ret;

	kc_map_init(&m, KC_GRANULE_MIN_SHIFT);
	/* A hostile cache could plant anything there after the scan. */
	fd = kmirror_cachedir_open(c->cache_fd, o->path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st)) {
		km_chk_line(c, o->path, "cannot open: %s", fd < 0 ?
			    kmirror_cachedir_strerror(fd) : strerror(errno));
		c->left++;
		goto out;
	}
	ret = km_chk_inspect(c, fd, o, &m, &f);
	if (ret < 0) {
		c->fatal = ret;
	} else if (!ret || km_chk_moved(fd, &st)) {
		c->skipped++;
	} else if (!f.map_why && !f.nbad) {
		c->clean++;
		c->granules += f.granules;
	} else {
		c->granules += f.granules;
		km_chk_report(c, o, &f);
		if (c->repair)
			km_chk_repair(c, fd, o->path, o->sidecar, o->size,
				      &m, &f);
		else
			c->left++;
	}
out:
	if (fd >= 0)
		close(fd);
	kc_map_destroy(&m);
	free(f.bad);
	c->prog.n++;
	c->prog.bytes = base + o->bytes;	/* read or not */
	return c->fatal;
}

int km_finding_add(struct km_finding *f, uint64_t g)
{
	uint64_t *nb;

	if (f->nbad == f->cap) {
		nb = realloc(f->bad, (f->cap ? f->cap * 2 : 16) * sizeof(*nb));
		if (!nb)
			return -ENOMEM;
		f->bad = nb;
		f->cap = f->cap ? f->cap * 2 : 16;
	}
	f->bad[f->nbad++] = g;
	return 0;
}

/* Is DIR mounted?  Its daemon answers on the control socket. */
static int km_chk_mounted(struct km_check *c)
{
	char *reply = NULL;
	int ret = km_ctl_request(c->dir, "where", "", &reply);

	free(reply);
	if (!ret)
		c->mounted = true;
	else if (ret != -ENOENT && ret != -ECONNREFUSED)
		return km_ctl_refused(c->dir, ret);
	if (c->repair && !c->mounted)
		return km_chk_lock(c);
	return 0;
}

static int km_chk_open_dir(struct km_check *c)
{
	c->cache_fd = kmirror_cachedir_root(c->dir);
	if (c->cache_fd < 0)
		return km_fail("cannot open cache '%s': %s", c->dir,
			       strerror(-c->cache_fd));
	/*
	 * None (verify=off, or never mounted): every map has no sums.  One
	 * planted (a symlink, another's directory) is refused, as the
	 * daemon refuses to mount with it.
	 */
	c->sums_fd = kmirror_cachedir_open(c->cache_fd, KC_SUMS_DIR,
					   O_RDONLY | O_DIRECTORY);
	if (c->sums_fd < 0 && c->sums_fd != -ENOENT)
		return km_fail("cannot check '%s': its %s: %s", c->dir,
			       KC_SUMS_DIR,
			       kmirror_cachedir_strerror(c->sums_fd));
	c->buf = malloc(KM_CHECK_PIECE);
	return c->buf ? 0 : km_fail("out of memory");
}

static int km_chk_summary(struct km_check *c, double t)
{
	unsigned long damaged = c->repaired + c->left;

	printf("checked %zu object%s, %llu granule%s in %.2f s: %lu clean, "
	       "%lu damaged (%lu repaired, %lu left), %lu not checked "
	       "(%lu without sums)\n", c->nobj, c->nobj == 1 ? "" : "s",
	       c->granules, c->granules == 1 ? "" : "s", t, c->clean,
	       damaged, c->repaired, c->left, c->skipped + c->nosums,
	       c->nosums);
	if (c->fatal)
		return km_error("check stopped: %s", strerror(-c->fatal)),
		       KM_CHECK_ERROR;
	return c->left ? KM_CHECK_LEFT : damaged ? KM_CHECK_REPAIRED :
	       KM_CHECK_CLEAN;
}

static int km_chk_run(struct km_check *c)
{
	size_t i;
	int ret;

	ret = km_chk_open_dir(c);
	if (!ret)
		ret = km_chk_mounted(c);
	if (ret)
		return KM_CHECK_ERROR;
	km_progress_start(&c->prog, "check", "objects");
	ret = km_chk_list(c);
	if (ret) {
		km_progress_clear(&c->prog);
		km_error("cannot scan cache '%s': %s", c->dir, strerror(-ret));
		return KM_CHECK_ERROR;
	}
	for (i = 0; i < c->nobj && !km_chk_one(c, &c->obj[i]); i++)
		;
	km_progress_show(&c->prog, true);
	return km_chk_summary(c, km_now() - c->prog.start);
}

int km_cache_check(int argc, char **argv)
{
	struct km_check c = { .cache_fd = -1, .sums_fd = -1, .lock_fd = -1 };
	int i, ret;

	for (i = 1; i < argc; i++) {
		if (km_is_help(argv[i])) {
			fputs(km_cache_check_usage, stdout);
			return KM_EXIT_OK;
		} else if (!strcmp(argv[i], "--repair")) {
			c.repair = true;
		} else if (!c.dir && argv[i][0] != '-') {
			c.dir = argv[i];
		} else {
			return km_error("usage: kmirror cache check DIR [--repair] (see --help)");
		}
	}
	if (!c.dir)
		return km_error("usage: kmirror cache check DIR [--repair] (see --help)");
	ret = km_chk_run(&c);
	for (i = 0; (size_t)i < c.nobj; i++)
		free(c.obj[i].path);
	free(c.obj);
	free(c.buf);
	if (c.sums_fd >= 0)
		close(c.sums_fd);
	if (c.cache_fd >= 0)
		close(c.cache_fd);
	km_chk_unlock(&c);
	return ret;
}
