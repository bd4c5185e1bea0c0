// SPDX-License-Identifier: GPL-2.0-only
/* kmirror ceph parse [--strict] SOURCE [-o OPTIONS]... */
#include <string.h>
#include <stdlib.h>

#include "cli.h"
#include "kmc_ceph.h"

static const char km_ceph_parse_usage[] =
	"usage: kmirror ceph parse [--strict] SOURCE [-o OPTIONS]...\n"
	"Parse a CephFS mount source and its mount options exactly as the Linux 6.1\n"
	"kernel does (mount(2) order: the source, then the options left to right):\n"
	"  new syntax  name@fsid.fs_name=[/path]  -o mon_addr=ip[:port][/ip[:port]...]\n"
	"  old syntax  ip[:port][,ip[:port]...]:[/path]\n"
	"IPv6 addresses go in brackets, [::1]:6789; the default port is 6789.\n"
	"Monitors are IP addresses: without CONFIG_CEPH_LIB_USE_DNS_RESOLVER\n"
	"(unset in Debian's 6.1) the kernel refuses hostnames, and so does this.\n"
	"Options that shape the result: mon_addr=, mds_namespace=, fsid=, name=,\n"
	"fsc, fsc=UNIQ, nofsc.  The other ceph and libceph options are checked\n"
	"as the kernel does (flags, enum values, ip=, snapdirname=) except for the\n"
	"values of numeric ones; unknown options are refused.  Several -o are\n"
	"joined with ','; -- ends the options.\n"
	"\n"
	"Prints key=value lines, every key always present, empty when unknown:\n"
	"  syntax=new|old  name=  fsid=  fs_name=  path=  mon_addr= (one line per\n"
	"  monitor, ip:port or [ip]:port)  volume_key= (the fscache volume key,\n"
	"  ceph,<fsid>[,<uniq>], when an fsid is known)\n"
	"Control characters, bytes that are not UTF-8 and '\\' in values are\n"
	"printed as \\xHH.  SOURCE and the options (all -o joined) are at most\n"
	"4095 bytes each, as mount(2) copies them.\n"
	"\n"
	"Input the kernel accepts only by accident (an fsid written with stray\n"
	"punctuation, a wrapped port, ...) is accepted with a warning on stderr;\n"
	"--strict refuses it.  Invalid input: \"error: <why>\" on stderr, exit 2.\n";

/* At most this much of an offending piece of input is quoted. */
#define KM_CEPH_QUOTE_MAX	48

/* Print @len bytes of @s escaped, '\' as \x5c: values read back. */
static void km_ceph_put(FILE *f, const char *s, size_t len)
{
	km_put_text_with(f, s, len, '\\', "\\x5c");
}

/* ": 'text'" (shortened) after an error or warning, if there is text. */
static void km_ceph_quote(const struct kmc_ceph_span *w, bool is_key)
{
	size_t len = w->len;

	if (!w->ptr || (!len && !is_key))
		return;
	fputs(is_key ? " '" : ": '", stderr);
	km_ceph_put(stderr, w->ptr, len > KM_CEPH_QUOTE_MAX ?
		    KM_CEPH_QUOTE_MAX : len);
	fputs(len > KM_CEPH_QUOTE_MAX ? "'..." : "'", stderr);
}

static int km_ceph_error(const struct kmc_ceph_mount *m)
{
	fprintf(stderr, "error: %s", kmc_ceph_reason(m->diag.code));
	km_ceph_quote(&m->diag.where, m->diag.where_is_key);
	fputc('\n', stderr);
	return KM_EXIT_USAGE;
}

/* One warning per accidental corner the kernel accepts. */
static void km_ceph_warn(const struct kmc_ceph_mount *m)
{
	enum kmc_ceph_code c;

	for (c = KMC_CEPH_S_FIRST; c < KMC_CEPH_CODE_COUNT; c++) {
		if (!(m->diag.quirks & KMC_CEPH_QUIRK(c)))
			continue;
		fprintf(stderr, "warning: accepted as Linux 6.1 does, but: %s",
			kmc_ceph_reason(c));
		if (c == m->diag.quirk_code)
			km_ceph_quote(&m->diag.quirk_where, false);
		fputc('\n', stderr);
	}
}

static void km_ceph_line(const char *key, const char *s, size_t len)
{
	printf("%s=", key);
	if (s)
		km_ceph_put(stdout, s, len);
	putchar('\n');
}

static int km_ceph_print(const struct kmc_ceph_mount *m)
{
	struct kmc_ceph_span name = kmc_ceph_name(m);
	const u8 *fsid = kmc_ceph_fsid(m);
	char addr[KMC_CEPH_ADDR_STR_MAX], fs[KMC_CEPH_FSID_STR_LEN + 1];
	size_t key_size = KMC_CEPH_VOLUME_BASE_LEN + 2 + m->uniq.len;
	size_t size = m->path_len + 1 > key_size ? m->path_len + 1 : key_size;
	char *buf = malloc(size);
	unsigned int i;
	int len;

	if (!buf)
		return km_error("out of memory");
	printf("syntax=%s\n", m->syntax == KMC_CEPH_SYNTAX_NEW ? "new" : "old");
	km_ceph_line("name", name.ptr, name.len);
	if (fsid)
		kmc_ceph_format_fsid(fsid, fs);
	km_ceph_line("fsid", fs, fsid ? KMC_CEPH_FSID_STR_LEN : 0);
	km_ceph_line("fs_name", m->fs_name.ptr, m->fs_name.len);
	len = kmc_ceph_path(m, buf, m->path_len + 1);
	km_ceph_line("path", buf, len > 0 ? len : 0);
	for (i = 0; i < m->num_mon; i++) {
		len = kmc_ceph_format_addr(&m->mon[i], addr, sizeof(addr));
		km_ceph_line("mon_addr", addr, len > 0 ? len : 0);
	}
	len = fsid ? kmc_ceph_volume_key(fsid, m->uniq.ptr, m->uniq.len, buf,
					 key_size) : 0;
	km_ceph_line("volume_key", buf, len > 0 ? len : 0);
	free(buf);
	return KM_EXIT_OK;
}

/* Append "-o VALUE" to the comma-joined option string @*opts. */
static int km_ceph_add_opts(char **opts, const char *more)
{
	size_t old = *opts ? strlen(*opts) : 0, add = strlen(more);
	char *n = realloc(*opts, old + add + 2);

	if (!n)
		return -1;
	if (old)
		n[old++] = ',';
	memcpy(n + old, more, add + 1);
	*opts = n;
	return 0;
}

struct km_ceph_args {
	const char *source;
	char *opts;
	unsigned int flags;
};

static int km_ceph_args(int argc, char **argv, struct km_ceph_args *a)
{
	bool dashdash = false;
	int i;

	for (i = 1; i < argc; i++) {
		const char *v = argv[i];

		if (!dashdash && !strcmp(v, "--")) {
			dashdash = true;
		} else if (!dashdash && !strcmp(v, "--strict")) {
			a->flags |= KMC_CEPH_STRICT;
		} else if (!dashdash && !strncmp(v, "-o", 2)) {
			v = v[2] ? v + 2 : argv[++i];
			if (!v)
				return km_error("-o needs an argument");
			if (km_ceph_add_opts(&a->opts, v))
				return km_error("out of memory");
		} else if (!dashdash && v[0] == '-' && v[1]) {
			return km_error("unknown argument '%s' (see --help)", v);
		} else if (a->source) {
			return km_error("more than one source given");
		} else {
			a->source = v;
		}
	}
	if (!a->source)
		return km_error("no source given (see --help)");
	/* mount(2) copies at most PATH_MAX of the source, a page of options. */
	if (strlen(a->source) > KM_CEPH_ARG_MAX)
		return km_error("source of %zu bytes is too long (at most %d)",
				strlen(a->source), KM_CEPH_ARG_MAX);
	if (a->opts && strlen(a->opts) > KM_CEPH_ARG_MAX)
		return km_error("options of %zu bytes are too long (at most %d, all -o joined)",
				strlen(a->opts), KM_CEPH_ARG_MAX);
	return KM_EXIT_OK;
}

static int km_ceph_parse(int argc, char **argv)
{
	struct km_ceph_args a = { NULL, NULL, 0 };
	struct kmc_ceph_mount *m;
	int ret;

	if (argc >= 2 && km_is_help(argv[1])) {
		fputs(km_ceph_parse_usage, stdout);
		return KM_EXIT_OK;
	}
	ret = km_ceph_args(argc, argv, &a);
	m = malloc(sizeof(*m));
	if (ret == KM_EXIT_OK && !m)
		ret = km_error("out of memory");
	if (ret == KM_EXIT_OK) {
		if (kmc_ceph_parse(a.source, strlen(a.source), a.opts,
				   a.opts ? strlen(a.opts) : 0, a.flags, m)) {
			ret = km_ceph_error(m);
		} else {
			km_ceph_warn(m);
			ret = km_ceph_print(m);
		}
	}
	free(m);
	free(a.opts);
	return ret;
}

static const struct km_command km_ceph_cmds[] = {
	{ "parse", "parse a CephFS mount source and options", km_ceph_parse },
	{ NULL, NULL, NULL },
};

int km_cmd_ceph(int argc, char **argv)
{
	return km_dispatch("ceph", km_ceph_cmds, argc, argv);
}
