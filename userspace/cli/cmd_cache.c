// SPDX-License-Identifier: GPL-2.0-only
/* kmirror cache ls DIR [--json], kmirror cache stats DIR (put: cmd_cache_put.c) */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache_ctl.h"
#include "kmirror/cache.h"
#include "kmirror/cachedir.h"

static const char km_cache_ls_usage[] =
	"usage: kmirror cache ls DIR [--json]\n"
	"List every data object of the cachefiles-layout cache rooted at DIR (the\n"
	"directory that holds cache/ and graveyard/), in name order.\n"
	"Text: one line per object: volume key, cookie key (hex), object size,\n"
	"path relative to DIR (control characters and bytes that are not UTF-8\n"
	"shown as \\xNN, a backslash as \\\\).\n"
	"Keys come from the object names: S and T names give whole 32-bit words.\n"
	"--json: one JSON object per line with volume, key (hex), object_size,\n"
	"zero_point, type, content, aux (hex) and path; control characters as\n"
	"\\u00NN, bytes of names that are not UTF-8 as \\udcNN (Python's\n"
	"surrogateescape).  No symlink is followed and no FIFO or device opened.\n"
	"Damaged objects and entries with no place in the layout are reported on\n"
	"stderr as \"error: PATH: why\"; the others are still listed, and the exit\n"
	"status is then 1.  Exit status 2: DIR is missing or not a cache.\n";

/*
 * A JSON string literal of the NUL-terminated bytes @str: control
 * characters (C1 too, which terminals may obey) as \u00NN, bytes of no
 * valid UTF-8 sequence as \udcNN (Python's surrogateescape).
 */
static void km_put_json_str(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t left = strlen(str), n;
	uint32_t cp;

	putchar('"');
	while (left) {
		n = km_utf8_len(s, left, &cp);
		if (!n)
			printf("\\udc%02x", *s);
		else if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if (km_is_control(cp))
			printf("\\u%04x", (unsigned int)cp);
		else
			fwrite(s, 1, n, stdout);
		n = n ? n : 1;
		s += n;
		left -= n;
	}
	putchar('"');
}

static void km_put_hex_str(const uint8_t *buf, size_t len)
{
	putchar('"');
	km_print_hex(stdout, buf, len);
	putchar('"');
}

static void km_print_json(const struct kmirror_cache_object *o)
{
	fputs("{\"volume\":", stdout);
	km_put_json_str(o->volume);
	fputs(",\"key\":", stdout);
	km_put_hex_str(o->key, o->key_len);
	printf(",\"object_size\":%" PRIu64 ",\"zero_point\":%" PRIu64
	       ",\"type\":%u,\"content\":%u,\"aux\":", o->object_size,
	       o->zero_point, o->type, o->content);
	km_put_hex_str(o->aux, o->aux_len);
	fputs(",\"path\":", stdout);
	km_put_json_str(o->path);
	fputs("}\n", stdout);
}

static void km_print_text(const struct kmirror_cache_object *o)
{
	km_put_str(stdout, o->volume);
	putchar(' ');
	km_print_hex(stdout, o->key, o->key_len);
	printf(" %" PRIu64 " ", o->object_size);
	km_put_str(stdout, o->path);
	putchar('\n');
}

/* The one-line reason a cache root cannot be listed. */
static int km_open_error(const char *dir, int err)
{
	if (err == -EMEDIUMTYPE)
		return km_error("'%s' is not a cachefiles cache (no cache/ directory)",
				dir);
	if (err == -ELOOP)
		return km_error("'%s/cache' is a symbolic link: not followed, refused",
				dir);
	return km_error("cannot open cache '%s': %s", dir, strerror(-err));
}

static int km_cache_walk(struct kmirror_cache_scan *scan, int json)
{
	struct kmirror_cache_object o;
	int ret;

	while ((ret = kmirror_cache_next(scan, &o)) > 0) {
		if (o.error) {
			fflush(stdout);
			km_error("%s: %s", o.path, o.error_msg);
		} else if (json) {
			km_print_json(&o);
		} else {
			km_print_text(&o);
		}
	}
	if (ret < 0) {
		fflush(stdout);
		km_error("cache walk stopped: %s", strerror(-ret));
		return KM_EXIT_FAIL;
	}
	return kmirror_cache_errors(scan) ? KM_EXIT_FAIL : KM_EXIT_OK;
}

static int km_cache_ls(int argc, char **argv)
{
	struct kmirror_cache_scan *scan;
	const char *dir = NULL;
	int i, json = 0, ret;

	for (i = 1; i < argc; i++) {
		if (km_is_help(argv[i])) {
			fputs(km_cache_ls_usage, stdout);
			return KM_EXIT_OK;
		} else if (!strcmp(argv[i], "--json")) {
			json = 1;
		} else if (!dir && (argv[i][0] != '-' || !argv[i][1])) {
			dir = argv[i];
		} else {
			return km_error("unexpected argument '%s' (see --help)",
					argv[i]);
		}
	}
	if (!dir)
		return km_error("no cache directory given (see --help)");
	ret = kmirror_cache_open(dir, &scan);
	if (ret < 0)
		return km_open_error(dir, ret);
	ret = km_cache_walk(scan, json);
	kmirror_cache_close(scan);
	return ret;
}

static const char km_cache_stats_usage[] =
	"usage: kmirror cache stats DIR\n"
	"Print the statistics of the kmirror-cachefs mount that uses the cache\n"
	"DIR: the file DIR/kmirror-stats, which the daemon rewrites every second\n"
	"while anything changes and once more at unmount (then \"mounted: 0\").\n"
	"One \"name: value\" line each: hits, misses, bytes_from_cache,\n"
	"bytes_from_source, invalidations, culls, nospace, objects, cache_bytes\n"
	"and more (see kmirror-cachefs(1)).  The file is read only if it is a\n"
	"regular file (no symlink is followed, no FIFO waited on) of at most\n"
	"1 MiB; control characters and bytes that are not UTF-8 in it are shown\n"
	"as \\xNN.\n"
	"Exit status 2: DIR is missing or has no such statistics file.\n";

/* Why DIR/kmirror-stats is refused (@err: the negative errno that says it). */
static int km_stats_refused(const char *dir, int err)
{
	switch (err) {
	case -ENOENT:
		return km_error("no statistics in '%s' (no kmirror-stats: it is not a kmirror-cachefs cache, or was never mounted)",
				dir);
	case -EFBIG:
		return km_error("'%s/kmirror-stats' is larger than %d bytes: not kmirror-cachefs statistics",
				dir, KM_STATS_MAX);
	default:
		return km_error("cannot read '%s/kmirror-stats': %s", dir,
				kmirror_cachedir_strerror(err));
	}
}

/*
 * Print DIR/kmirror-stats, which whoever can write DIR controls: read
 * through kmirror/cachedir.h (no symlink followed, no FIFO waited on, a
 * regular file of DIR's owner with one name) if it has at most
 * KM_STATS_MAX bytes, shown escaped.
 */
static int km_stats_print(const char *dir, int dfd)
{
	char *buf = NULL;
	size_t len;
	int ret;

	ret = kmirror_cachedir_read(dfd, "kmirror-stats", KM_STATS_MAX, &buf,
				    &len);
	if (ret)
		return km_stats_refused(dir, ret);
	km_put_text_with(stdout, buf, len, '\n', "\n");
	free(buf);
	return KM_EXIT_OK;
}

static int km_cache_stats(int argc, char **argv)
{
	const char *dir = NULL;
	int i, dfd, ret;

	for (i = 1; i < argc; i++) {
		if (km_is_help(argv[i])) {
			fputs(km_cache_stats_usage, stdout);
			return KM_EXIT_OK;
		} else if (!dir && (argv[i][0] != '-' || !argv[i][1])) {
			dir = argv[i];
		} else {
			return km_error("unexpected argument '%s' (see --help)",
					argv[i]);
		}
	}
	if (!dir)
		return km_error("no cache directory given (see --help)");
	dfd = kmirror_cachedir_root(dir);
	if (dfd < 0)
		return km_error("cannot open cache '%s': %s", dir,
				strerror(-dfd));
	ret = km_stats_print(dir, dfd);
	close(dfd);
	return ret;
}

static const struct km_command km_cache_cmds[] = {
	{ "ls", "list the objects of a cache", km_cache_ls },
	{ "stats", "statistics of a kmirror-cachefs mount", km_cache_stats },
	{ "put", "pre-seed a cache with one object", km_cache_put },
	{ "pin", "keep files of a mount in its cache", km_cache_pin },
	{ "unpin", "stop keeping them", km_cache_unpin },
	{ "pins", "list the pinned files of a mount", km_cache_pins },
	{ "evict", "drop files of a mount from its cache now",
	  km_cache_evict },
	{ "warm", "read trees of a mount into its cache", km_cache_warm },
	{ "check", "scrub a cache: every granule against its checksum",
	  km_cache_check },
	{ "top", "a live view of a mount's reads", km_cache_top },
	{ NULL, NULL, NULL },
};

/* --timeout bounds every request to a mounted daemon (cache_ctl.c). */
int km_cmd_cache(int argc, char **argv)
{
	int ret = km_ctl_take_timeout(&argc, argv);

	if (ret >= 0)
		return ret;
	return km_dispatch("cache", km_cache_cmds, argc, argv);
}
