// SPDX-License-Identifier: GPL-2.0-only
/* kmirror ceph parse [--strict] SOURCE [-o OPTIONS]... */
#include <string.h>
#include <stdlib.h>

#include "cli.h"
#include "kmirror/ceph.h"

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
static void km_ceph_quote(const struct kmirror_ceph_text *w, bool is_key)
{
	size_t len = w->len;

	if (!w->ptr || (!len && !is_key))
		return;
	fputs(is_key ? " '" : ": '", stderr);
	km_ceph_put(stderr, w->ptr, len > KM_CEPH_QUOTE_MAX ?
		    KM_CEPH_QUOTE_MAX : len);
	fputs(len > KM_CEPH_QUOTE_MAX ? "'..." : "'", stderr);
}

static int km_ceph_error(const struct kmirror_ceph *c)
{
	struct kmirror_ceph_text where;
	bool is_key;

	fprintf(stderr, "error: %s", kmirror_ceph_error(c, &where, &is_key));
	km_ceph_quote(&where, is_key);
	fputc('\n', stderr);
	return KM_EXIT_USAGE;
}

/* One warning per accidental corner the kernel accepts. */
static void km_ceph_warn(const struct kmirror_ceph *c)
{
	struct kmirror_ceph_text where;
	const char *why;
	unsigned int i;

	for (i = 0; (why = kmirror_ceph_quirk(c, i, &where)); i++) {
		fprintf(stderr, "warning: accepted as Linux 6.1 does, but: %s",
			why);
		km_ceph_quote(&where, false);
		fputc('\n', stderr);
	}
}

static void km_ceph_line(const char *key, const struct kmirror_ceph_text *t)
{
	printf("%s=", key);
	if (t->ptr)
		km_ceph_put(stdout, t->ptr, t->len);
	putchar('\n');
}

static int km_ceph_print(const struct kmirror_ceph_mount *m)
{
	unsigned int i;

	printf("syntax=%s\n",
	       m->syntax == KMIRROR_CEPH_SYNTAX_NEW ? "new" : "old");
	km_ceph_line("name", &m->name);
	km_ceph_line("fsid", &m->fsid);
	km_ceph_line("fs_name", &m->fs_name);
	km_ceph_line("path", &m->path);
	for (i = 0; i < m->num_mon; i++)
		km_ceph_line("mon_addr", &m->mon_addr[i]);
	km_ceph_line("volume_key", &m->volume_key);
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
			a->flags |= KMIRROR_CEPH_STRICT;
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
	struct kmirror_ceph *c = NULL;
	int ret;

	if (argc >= 2 && km_is_help(argv[1])) {
		fputs(km_ceph_parse_usage, stdout);
		return KM_EXIT_OK;
	}
	ret = km_ceph_args(argc, argv, &a);
	if (ret == KM_EXIT_OK &&
	    kmirror_ceph_parse(a.source, strlen(a.source), a.opts,
			       a.opts ? strlen(a.opts) : 0, a.flags, &c) &&
	    !c)
		ret = km_error("out of memory");
	if (ret == KM_EXIT_OK) {
		if (!kmirror_ceph_mount(c)) {
			ret = km_ceph_error(c);
		} else {
			km_ceph_warn(c);
			ret = km_ceph_print(kmirror_ceph_mount(c));
		}
	}
	kmirror_ceph_free(c);
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
