// SPDX-License-Identifier: GPL-2.0-only
/*
 * Command line: kmirror-cachefs SOURCE MOUNTPOINT -o cache=DIR[,opt...]
 * plus libfuse's own options (-f -d -s, -o allow_other, ...), which go to
 * fuse_parse_cmdline() and fuse_session_new() untouched.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cachefs.h"

#define KC_MOUNT_DEFAULTS	"nosuid,nodev"
#define KC_KEY_ALLOW_OTHER	1

#ifndef KMIRROR_VERSION
#define KMIRROR_VERSION "unknown"
#endif

/* The -o values as given, checked by kc_check_opts(). */
struct kc_raw {
	char	*cache, *tag, *granule, *size_limit;
	char	*attr_timeout, *entry_timeout, *delay, *behind;
	char	*fill_delay, *max_age, *source_timeout, *verify;
	char	*meta_timeout, *negative_timeout;
	char	*limit[KC_NLIM];
	char	*source;
	int	nonopts;
	int	allow_other;
	int	no_xattr;
	int	bad;
};

#define KC_OPT(t, field) { t, offsetof(struct kc_raw, field), 0 }

static const struct fuse_opt kc_opts[] = {
	KC_OPT("cache=%s", cache),
	KC_OPT("tag=%s", tag),
	KC_OPT("granule=%s", granule),
	KC_OPT("size_limit=%s", size_limit),
	KC_OPT("attr_timeout=%s", attr_timeout),
	KC_OPT("entry_timeout=%s", entry_timeout),
	KC_OPT("source_delay_us=%s", delay),
	KC_OPT("fill_behind=%s", behind),
	KC_OPT("fill_delay_us=%s", fill_delay),
	KC_OPT("max_age=%s", max_age),
	KC_OPT("source_timeout=%s", source_timeout),
	KC_OPT("verify=%s", verify),
	KC_OPT("meta_timeout=%s", meta_timeout),
	KC_OPT("negative_timeout=%s", negative_timeout),
	KC_OPT("frun=%s", limit[KC_FRUN]),
	KC_OPT("fcull=%s", limit[KC_FCULL]),
	KC_OPT("fstop=%s", limit[KC_FSTOP]),
	KC_OPT("brun=%s", limit[KC_BRUN]),
	KC_OPT("bcull=%s", limit[KC_BCULL]),
	KC_OPT("bstop=%s", limit[KC_BSTOP]),
	{ "no_xattr", offsetof(struct kc_raw, no_xattr), 1 },
	FUSE_OPT_KEY("allow_other", KC_KEY_ALLOW_OTHER),
	FUSE_OPT_END
};

static const char *const kc_limit_names[KC_NLIM] = {
	"frun", "fcull", "fstop", "brun", "bcull", "bstop",
};

/* SOURCE is the first non-option, MOUNTPOINT (kept for libfuse) the
 * second; a third is an error. */
static int kc_opt_proc(void *data, const char *arg, int key,
		       struct fuse_args *outargs)
{
	struct kc_raw *raw = data;

	(void)outargs;
	if (key == KC_KEY_ALLOW_OTHER)
		raw->allow_other = 1;
	if (key != FUSE_OPT_KEY_NONOPT)
		return 1;		/* libfuse's */
	switch (raw->nonopts++) {
	case 0:
		raw->source = strdup(arg);
		return raw->source ? 0 : -1;
	case 1:
		return 1;
	default:
		kc_fail("unexpected argument '%s' (usage: " KC_NAME
			" SOURCE MOUNTPOINT -o cache=DIR)", arg);
		raw->bad = 1;
		return 0;
	}
}

/* "123", "256K", "1M", "2G", "1T" (binary; "KiB" and "KB" too). */
static int kc_parse_size(const char *s, uint64_t *out)
{
	unsigned int shift = 0;
	unsigned long long v;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -ERANGE;
	switch (*end) {
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	case 't': case 'T': shift = 40; end++; break;
	}
	if (shift && (!strcmp(end, "iB") || !strcmp(end, "B")))
		end += strlen(end);
	if (*end)
		return -EINVAL;
	if (shift && v > (UINT64_MAX >> shift))
		return -ERANGE;
	*out = (uint64_t)v << shift;
	return 0;
}

static int kc_parse_percent(const char *s, unsigned int *out)
{
	unsigned long v;
	char *end;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (*end == '%')
		end++;
	if (errno || *end || v >= 100)
		return -EINVAL;
	*out = v;
	return 0;
}

/*
 * Seconds as a plain decimal ("1", "0.5", "10.25"): strtod() alone would
 * also take hex ("0x10" = 16), exponents, "inf" and "nan".
 */
static int kc_parse_seconds(const char *s, double *out)
{
	char *end;
	double v;

	if (!*s || strspn(s, "0123456789.") != strlen(s) ||
	    strchr(s, '.') != strrchr(s, '.') || !strcmp(s, "."))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || v > 1e9)
		return -EINVAL;
	*out = v;
	return 0;
}

static int kc_check_granule(const char *s, struct kc_config *cfg)
{
	uint64_t g;
	unsigned int shift;

	if (kc_parse_size(s, &g) || !g || (g & (g - 1))) {
		kc_fail("granule=%s: not a power of two (4K to 64M, K/M "
			"suffixes)", s);
		return -EINVAL;
	}
	shift = __builtin_ctzll(g);
	if (shift < KC_GRANULE_MIN_SHIFT || shift > KC_GRANULE_MAX_SHIFT) {
		kc_fail("granule=%s: out of range (4K to 64M)", s);
		return -EINVAL;
	}
	cfg->granule_shift = shift;
	return 0;
}

static int kc_check_limits(const struct kc_raw *raw, struct kc_config *cfg)
{
	char why[256];
	int i;

	for (i = 0; i < KC_NLIM; i++) {
		if (raw->limit[i] &&
		    kc_parse_percent(raw->limit[i], &cfg->limit[i])) {
			kc_fail("%s=%s: not a percentage below 100",
				kc_limit_names[i], raw->limit[i]);
			return -EINVAL;
		}
	}
	if (kc_cull_check_limits(cfg->limit, why, sizeof(why))) {
		kc_fail("%s", why);
		return -ERANGE;
	}
	return 0;
}

/* "90", "90s", "15m", "12h", "30d": seconds, at least one, below 2^40. */
static int kc_parse_age(const char *s, uint64_t *out)
{
	unsigned long long v;
	uint64_t unit = 1;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	switch (*end) {
	case 's': end++; break;
	case 'm': unit = 60; end++; break;
	case 'h': unit = 3600; end++; break;
	case 'd': unit = 86400; end++; break;
	}
	if (errno || *end || !v || v >= (1ull << 40) / unit)
		return -EINVAL;
	*out = v * unit;
	return 0;
}

/* "0" (none), "30", "30s", "5m", "1h": seconds, at most a day. */
static int kc_parse_timeout(const char *s, unsigned int *out)
{
	uint64_t v;

	if (!strcmp(s, "0")) {
		*out = 0;
		return 0;
	}
	if (kc_parse_age(s, &v) || strchr(s, 'd') || v > 86400)
		return -EINVAL;
	*out = v;
	return 0;
}

/*
 * -o NAME=@s (meta_timeout, negative_timeout), if given: "0" (always ask
 * the source) or an age as max_age takes it, in *@out.
 */
static int kc_check_ttl(const char *name, const char *s, uint64_t *out)
{
	if (!s)
		return 0;
	if (!strcmp(s, "0")) {
		*out = 0;
		return 0;
	}
	if (kc_parse_age(s, out)) {
		kc_fail("%s=%s: not a time (0, or e.g. 30, 90m, 12h, 7d)",
			name, s);
		return -EINVAL;
	}
	return 0;
}

/* -o NAME=@s, if given: a plain number of @unit up to @max in *@out. */
static int kc_check_count(const char *name, const char *s, uint64_t max,
			  const char *unit, uint64_t *out)
{
	char *end;

	if (!s)
		return 0;
	errno = 0;
	*out = strtoull(s, &end, 10);
	if (*s < '0' || *s > '9' || *end || errno || *out > max) {
		kc_fail("%s=%s: not a number of %s (at most %llu)", name, s,
			unit, (unsigned long long)max);
		return -EINVAL;
	}
	return 0;
}

static int kc_check_numbers(const struct kc_raw *raw, struct kc_config *cfg)
{
	uint64_t delay, fill_delay, behind;

	if (raw->size_limit && kc_parse_size(raw->size_limit,
					     &cfg->size_limit)) {
		kc_fail("size_limit=%s: not a size (e.g. 500M, 20G)",
			raw->size_limit);
		return -EINVAL;
	}
	/*
	 * The cap's cull and stop limits are percentages of its blocks, as
	 * cachefiles' are of a filesystem's: below 1 MiB they round to no
	 * block at all, and an overfull cache would never be culled.
	 */
	if (raw->size_limit && cfg->size_limit < KC_SIZE_LIMIT_MIN) {
		kc_fail("size_limit=%s: below the smallest cap, 1M",
			raw->size_limit);
		return -EINVAL;
	}
	if (raw->max_age && kc_parse_age(raw->max_age, &cfg->max_age)) {
		kc_fail("max_age=%s: not an age (e.g. 3600, 90m, 12h, 30d)",
			raw->max_age);
		return -EINVAL;
	}
	if (raw->source_timeout &&
	    kc_parse_timeout(raw->source_timeout, &cfg->source_timeout)) {
		kc_fail("source_timeout=%s: not a timeout (0, or seconds up "
			"to a day: 30, 30s, 5m, 1h)", raw->source_timeout);
		return -EINVAL;
	}
	if (kc_check_ttl("meta_timeout", raw->meta_timeout,
			 &cfg->meta_timeout) ||
	    kc_check_ttl("negative_timeout", raw->negative_timeout,
			 &cfg->negative_timeout))
		return -EINVAL;
	if (raw->attr_timeout &&
	    kc_parse_seconds(raw->attr_timeout, &cfg->attr_timeout)) {
		kc_fail("attr_timeout=%s: not a number of seconds",
			raw->attr_timeout);
		return -EINVAL;
	}
	if (raw->entry_timeout &&
	    kc_parse_seconds(raw->entry_timeout, &cfg->entry_timeout)) {
		kc_fail("entry_timeout=%s: not a number of seconds",
			raw->entry_timeout);
		return -EINVAL;
	}
	if (kc_check_count("source_delay_us", raw->delay, 60000000,
			   "microseconds", &delay) ||
	    kc_check_count("fill_delay_us", raw->fill_delay, 60000000,
			   "microseconds", &fill_delay) ||
	    kc_check_count("fill_behind", raw->behind, KC_FILL_BEHIND_MAX,
			   "buffers", &behind))
		return -EINVAL;
	cfg->source_delay_us = raw->delay ? delay : 0;
	cfg->fill_delay_us = raw->fill_delay ? fill_delay : 0;
	cfg->fill_behind = raw->behind ? behind : KC_FILL_BEHIND_DEFAULT;
	cfg->no_xattr = raw->no_xattr;
	return 0;
}

/* A volume key libkmirror and cachefiles take: 1..254 bytes, no '/'. */
int kc_check_volume_key(const char *key, const char **why)
{
	if (!*key)
		*why = "it is empty";
	else if (strlen(key) > KC_VOLUME_KEY_MAX)
		*why = "it is longer than 254 bytes";
	else if (strchr(key, '/'))
		*why = "it contains '/'";
	else
		return 0;
	return -EINVAL;
}

static int kc_check_opts(struct kc_raw *raw, struct kc_config *cfg)
{
	const char *why;

	if (!raw->source || !cfg->mountpoint) {
		kc_fail("missing SOURCE or MOUNTPOINT (usage: " KC_NAME
			" SOURCE MOUNTPOINT -o cache=DIR)");
		return -EINVAL;
	}
	if (!raw->cache || !*raw->cache) {
		kc_fail("no cache directory: -o cache=DIR is required");
		return -EINVAL;
	}
	if (raw->tag && kc_check_volume_key(raw->tag, &why)) {
		kc_fail("tag=%s: not a usable volume key: %s", raw->tag, why);
		return -EINVAL;
	}
	if (raw->granule && kc_check_granule(raw->granule, cfg))
		return -EINVAL;
	if (kc_check_numbers(raw, cfg) || kc_check_limits(raw, cfg))
		return -EINVAL;
	if (raw->verify && strcmp(raw->verify, "on") &&
	    strcmp(raw->verify, "off")) {
		kc_fail("verify=%s: not on or off", raw->verify);
		return -EINVAL;
	}
	cfg->verify = !raw->verify || !strcmp(raw->verify, "on");
	return 0;
}

static void kc_config_defaults(struct kc_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->granule_shift = __builtin_ctz(KC_GRANULE_DEFAULT);
	cfg->limit[KC_FRUN] = cfg->limit[KC_BRUN] = 7;
	cfg->limit[KC_FCULL] = cfg->limit[KC_BCULL] = 5;
	cfg->limit[KC_FSTOP] = cfg->limit[KC_BSTOP] = 1;
	cfg->attr_timeout = 1.0;
	cfg->entry_timeout = 1.0;
}

static void kc_raw_free(struct kc_raw *raw)
{
	int i;

	free(raw->granule);
	free(raw->size_limit);
	free(raw->attr_timeout);
	free(raw->entry_timeout);
	free(raw->delay);
	free(raw->verify);
	free(raw->behind);
	free(raw->fill_delay);
	free(raw->max_age);
	free(raw->source_timeout);
	free(raw->meta_timeout);
	free(raw->negative_timeout);
	for (i = 0; i < KC_NLIM; i++)
		free(raw->limit[i]);
}

void kc_print_help(const char *prog)
{
	printf("usage: %s SOURCE MOUNTPOINT -o cache=DIR[,OPTION...]\n\n"
"Mount a cached passthrough of the directory SOURCE (typically a slow\n"
"network filesystem) at MOUNTPOINT.  File data is kept in DIR, a\n"
"cachefiles-layout cache, and survives unmounting.\n\n"
KC_NAME " options:\n"
"    -o cache=DIR           cache directory (required): empty, or a cache\n"
"    -o tag=NAME            volume key in the cache (default:\n"
"                           kmirror,<dev>,<ino>,<name> of SOURCE)\n"
"    -o granule=SIZE        caching unit, a power of two from 4K to 64M\n"
"                           (default 256K)\n"
"    -o bcull=N%% brun=N%% bstop=N%%  free-space limits of the cache\n"
"                           filesystem (default 5%% 7%% 1%%)\n"
"    -o fcull=N%% frun=N%% fstop=N%%  free-file limits (default 5%% 7%% 1%%)\n"
"    -o size_limit=SIZE     cap on the cache's size (K, M, G, T; >= 1M)\n"
"    -o no_xattr            no extended attributes: the kernel stops asking\n"
"                           (ls -l asks twice a file otherwise)\n"
"    -o attr_timeout=SECS   attribute cache timeout (default 1.0)\n"
"    -o entry_timeout=SECS  name cache timeout (default 1.0)\n"
"    -o max_age=AGE         cull objects unused for AGE (seconds, or\n"
"                           with m, h, d: 90m, 12h, 30d)\n"
"    -o source_timeout=T    a source call unanswered for T (seconds, or\n"
"                           with s, m, h) takes the mount offline\n"
"                           (default 0: wait for the source)\n"
"    -o fill_behind=N       fill the cache behind reads, from at most N\n"
"                           buffers of 1M (default 8; 0: fill inline)\n"
"    -o fill_delay_us=N     sleep N microseconds before storing each\n"
"                           buffer filled behind a read (tests)\n"
"    -o source_delay_us=N   sleep N microseconds before every read from\n"
"                           the source (tests and benchmarks)\n"
"    -o verify=on|off       check a CRC32C of each cached granule before\n"
"                           serving it (default on)\n"
"    -o meta_timeout=T      serve names, attributes and listings the\n"
"                           source gave (this mount or an earlier one)\n"
"                           for T (seconds, or with m, h, d) without\n"
"                           asking it (default 0: always ask); file data\n"
"                           is checked against the source at every open\n"
"    -o negative_timeout=T  the same for \"no such name\" (default 0)\n\n",
	       prog);
	printf("FUSE options:\n");
	fuse_cmdline_help();
	fuse_lowlevel_help();
}

static void kc_print_version(void)
{
	printf(KC_NAME " version " KMIRROR_VERSION "\n");
	printf("FUSE library version %s\n", fuse_pkgversion());
	fuse_lowlevel_version();
}

/*
 * Parse the command line into @cfg (@args keeps what libfuse takes).
 * 0: go on; 1: help or version printed, exit 0; -1: error printed.
 */
int kc_parse_args(struct fuse_args *args, struct kc_config *cfg,
		  struct fuse_cmdline_opts *opts)
{
	struct kc_raw raw = { 0 };
	int ret;

	kc_config_defaults(cfg);
	memset(opts, 0, sizeof(*opts));
	/*
	 * No setuid programs or device nodes unless the user's own "suid"
	 * or "dev", which come later and so win, ask for them.  With
	 * allow_other, the kernel checks every caller's permissions
	 * (creds.c); without it only the daemon's own user gets in.
	 */
	if (fuse_opt_parse(args, &raw, kc_opts, kc_opt_proc) || raw.bad ||
	    fuse_opt_insert_arg(args, 1, "-o" KC_MOUNT_DEFAULTS) ||
	    (raw.allow_other &&
	     fuse_opt_insert_arg(args, 1, "-odefault_permissions")) ||
	    fuse_parse_cmdline(args, opts)) {
		ret = -1;
	} else if (opts->show_help) {
		kc_print_help(args->argv[0]);
		ret = 1;
	} else if (opts->show_version) {
		kc_print_version();
		ret = 1;
	} else {
		cfg->mountpoint = opts->mountpoint;
		ret = kc_check_opts(&raw, cfg) ? -1 : 0;
	}
	cfg->source = raw.source;
	cfg->cache_dir = raw.cache;
	cfg->tag = raw.tag;
	cfg->mountpoint = opts->mountpoint;
	cfg->foreground = opts->foreground;
	cfg->debug = opts->debug;
	cfg->singlethread = opts->singlethread;
	cfg->clone_fd = opts->clone_fd;
	cfg->max_idle_threads = opts->max_idle_threads;
	cfg->max_threads = opts->max_threads;
	kc_raw_free(&raw);
	return ret;
}

/* "kmirror,<st_dev hex>,<st_ino hex>,<basename>", printable, no '/'. */
char *kc_default_volume_key(const char *source, const struct stat *st)
{
	char *real = realpath(source, NULL), *base, *key;
	size_t i, len;

	base = real ? strrchr(real, '/') : NULL;
	base = base && base[1] ? base + 1 : (char *)"root";
	key = malloc(KC_VOLUME_KEY_MAX + 1);
	if (key) {
		len = snprintf(key, KC_VOLUME_KEY_MAX + 1, "kmirror,%llx,%llx,%s",
			       (unsigned long long)st->st_dev,
			       (unsigned long long)st->st_ino, base);
		if (len > KC_VOLUME_KEY_MAX)
			len = KC_VOLUME_KEY_MAX;
		for (i = 0; i < len; i++)
			if (key[i] <= ' ' || key[i] == '/' || key[i] >= 0x7f)
				key[i] = '_';
	}
	free(real);
	return key;
}
