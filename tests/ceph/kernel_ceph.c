// SPDX-License-Identifier: GPL-2.0-only
/*
 * The tree's own CephFS source parsing (extracted unchanged into
 * kernel_ceph.inc by extract_ceph.py) over tests/kernel-shim/kceph_shim.h, and the driver
 * that runs it the way a legacy mount(2) does: "source" first, then
 * generic_parse_monolithic() over the option string, then the checks at
 * the head of ceph_get_tree(), then, with fsc, ceph_fscache_register_fs().
 */
#include "kceph_shim.h"
/* libkmirror has its own copy under these names (userspace/kcompat/inet.c) */
#define in4_pton kceph_in4_pton
#define in6_pton kceph_in6_pton
#include "kernel_ceph.inc"
#undef snprintf
#include "kernel_ceph.h"

/* custom: logfc() keeps the first error for the comparison */
void logfc(struct fc_log *log, const char *prefix, char level,
	   const char *fmt, ...)
{
	va_list ap;

	if (level != 'e' || log->errors++)
		return;
	va_start(ap, fmt);
	vsnprintf(log->first_error, sizeof(log->first_error), fmt, ap);
	va_end(ap);
	snprintf(log->first_error_prefix, sizeof(log->first_error_prefix),
		 "%s", prefix ? prefix : "");
}

char *string_nocheck(char *buf, char *end, const char *s,
		     struct printf_spec spec)
{
	for (; *s; s++, buf++)
		if (buf < end)
			*buf = *s;
	return buf;
}

/* lib/vsprintf.c pointer(): the extensions the parsers print with. */
static size_t kceph_pointer(const char *fmt, const void *ptr, char *tmp,
			    size_t size)
{
	struct printf_spec spec = { 0, -1 };

	if (fmt[0] == 'U')
		return uuid_string(tmp, tmp + size, ptr, spec, fmt) - tmp;
	if (fmt[0] == 'I' && fmt[1] == '4')
		return ip4_string(tmp, ptr, fmt) - tmp;
	if (fmt[0] == 'I' && fmt[1] == '6' && fmt[2] == 'c')
		return ip6_compressed_string(tmp, ptr) - tmp;
	abort();
}

/* One conversion of @fmt (at '%') into @tmp; advances @*fmt past it. */
static size_t kceph_convert(const char **fmt, va_list *ap, char *tmp,
			    size_t size, const char **piece)
{
	const char *f = *fmt;

	*piece = tmp;
	if (!strncmp(f, "%s", 2)) {
		*piece = va_arg(*ap, const char *);
		*fmt = f + 2;
		return strlen(*piece);
	}
	if (!strncmp(f, "%d", 2)) {
		*fmt = f + 2;
		return sprintf(tmp, "%d", va_arg(*ap, int));
	}
	if (!strncmp(f, "%hu", 3)) {
		*fmt = f + 3;
		return sprintf(tmp, "%hu", (unsigned short)va_arg(*ap, int));
	}
	if (f[1] != 'p')
		abort();
	size = kceph_pointer(f + 2, va_arg(*ap, const void *), tmp, size);
	for (f += 2; isalnum(*f); f++)
		;
	*fmt = f;
	return size;
}

static size_t kceph_vformat(char *buf, size_t size, const char *fmt,
			    va_list ap)
{
	char tmp[128];
	const char *piece;
	size_t n = 0, len;
	va_list aq;

	va_copy(aq, ap);
	while (*fmt) {
		if (*fmt != '%') {
			piece = fmt++;
			len = 1;
		} else {
			len = kceph_convert(&fmt, &aq, tmp, sizeof(tmp), &piece);
		}
		if (n < size)
			memcpy(buf + n, piece, n + len < size ? len : size - n);
		n += len;
	}
	va_end(aq);
	if (size)
		buf[n < size ? n : size - 1] = '\0';
	return n;
}

int kceph_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	n = kceph_vformat(buf, size, fmt, ap);
	va_end(ap);
	return (int)n;
}

char *kasprintf(int gfp, const char *fmt, ...)
{
	va_list ap;
	size_t n;
	char *p;

	va_start(ap, fmt);
	n = kceph_vformat(NULL, 0, fmt, ap);
	va_end(ap);
	p = malloc(n + 1);
	if (!p)
		return NULL;
	va_start(ap, fmt);
	kceph_vformat(p, n + 1, fmt, ap);
	va_end(ap);
	return p;
}

static char *kceph_volume_name;

struct fscache_volume *fscache_acquire_volume(const char *volume_key,
					      const char *cache_name,
					      const void *coherency_data,
					      size_t coherency_len)
{
	static char volume;

	free(kceph_volume_name);
	kceph_volume_name = strdup(volume_key);
	if (strlen(volume_key) > NAME_MAX)
		return ERR_PTR(-ENOMEM);
	return (struct fscache_volume *)&volume;
}

static bool kceph_fsid_seen;
static struct ceph_fsid kceph_fsid;

int kceph_parse_fsid_hook(const char *str, struct ceph_fsid *fsid)
{
	int ret = ceph_parse_fsid(str, fsid);

	kceph_fsid_seen = !ret;
	if (!ret)
		kceph_fsid = *fsid;
	return ret;
}

/* ceph_init_fs_context() and ceph_alloc_options(), as far as parsing goes. */
static void kceph_init(struct ceph_parse_opts_ctx *pctx, struct fs_context *fc)
{
	pctx->copts = calloc(1, sizeof(*pctx->copts));
	pctx->opts = calloc(1, sizeof(*pctx->opts));
	if (!pctx->copts || !pctx->opts)
		abort();
	pctx->copts->mon_addr = calloc(CEPH_MAX_MON,
				       sizeof(*pctx->copts->mon_addr));
	if (!pctx->copts->mon_addr)
		abort();
	pctx->copts->flags = CEPH_OPT_DEFAULT;
	pctx->copts->crush_locs = RB_ROOT;
	pctx->opts->flags = CEPH_MOUNT_OPT_DEFAULT;
	pctx->opts->snapdir_name = strdup(".snap");
	fc->sb_flags |= SB_POSIXACL;
	fc->fs_private = pctx;
}

static char *kceph_dup(const char *s)
{
	return s ? strdup(s) : NULL;
}

static void kceph_copy_mon(struct kceph_mon *m, const struct ceph_entity_addr *a)
{
	struct sockaddr_storage ss = a->in_addr;
	const char *s = ceph_pr_addr(a);

	m->family = ss.ss_family == AF_INET ? 4 : 6;
	if (m->family == 4)
		memcpy(m->ip, &((struct sockaddr_in *)&ss)->sin_addr, 4);
	else
		memcpy(m->ip, &((struct sockaddr_in6 *)&ss)->sin6_addr, 16);
	m->port = ceph_addr_port(a);
	snprintf(m->str, sizeof(m->str), "%s", strchr(s, ')') + 1);
}

static void kceph_copy(struct kceph_result *r, struct ceph_parse_opts_ctx *pctx)
{
	struct ceph_mount_options *fsopt = pctx->opts;
	struct ceph_options *copts = pctx->copts;
	int i;

	r->new_syntax = fsopt->new_dev_syntax;
	r->name = kceph_dup(copts->name);
	r->fs_name = kceph_dup(fsopt->mds_namespace);
	r->path = kceph_dup(fsopt->server_path);
	r->fscache = fsopt->flags & CEPH_MOUNT_OPT_FSCACHE;
	r->uniq = kceph_dup(fsopt->fscache_uniq);
	r->have_src_fsid = kceph_fsid_seen;
	memcpy(r->src_fsid, kceph_fsid.fsid, 16);
	r->have_opt_fsid = copts->flags & CEPH_OPT_FSID;
	memcpy(r->opt_fsid, copts->fsid.fsid, 16);
	r->have_mon_addr = fsopt->mon_addr;
	r->num_mon = copts->num_mon;
	/* Only CEPH_MAX_MON entries exist (see the count bug in the docs). */
	for (i = 0; i < copts->num_mon && i < CEPH_MAX_MON; i++)
		kceph_copy_mon(&r->mon[i], &copts->mon_addr[i]);
}

static void kceph_free(struct ceph_parse_opts_ctx *pctx, struct fs_context *fc)
{
	free((char *)fc->source);
	free(pctx->opts->snapdir_name);
	free(pctx->opts->mds_namespace);
	free(pctx->opts->server_path);
	free(pctx->opts->fscache_uniq);
	free(pctx->opts->mon_addr);
	free(pctx->opts);
	free(pctx->copts->name);
	free(pctx->copts->mon_addr);
	free(pctx->copts);
}

/* ceph_fscache_register_fs() with @fsid standing for the cluster's. */
static int kceph_register(struct ceph_parse_opts_ctx *pctx,
			  struct fs_context *fc, const uint8_t *fsid)
{
	struct ceph_client client;
	struct ceph_fs_client fsc = { &client, pctx->opts, NULL };

	memset(&client, 0, sizeof(client));
	if (fsid)
		memcpy(client.fsid.fsid, fsid, 16);
	return ceph_fscache_register_fs(&fsc, fc);
}

int kceph_mount(const char *src, const char *opts, const uint8_t *volume_fsid,
		struct kceph_result *r)
{
	static struct file_system_type ceph_fs_type = { "ceph" };
	static const struct fs_context_operations ops = {
		ceph_parse_mount_param, NULL
	};
	struct fc_log log = { "", "", 0 };
	struct ceph_parse_opts_ctx pctx;
	struct fs_context fc = { &ops, &ceph_fs_type, NULL, { "ceph", &log },
				 NULL, NULL, 0, 0 };
	char *data;
	int ret;

	memset(r, 0, sizeof(*r));
	kceph_fsid_seen = false;
	kceph_init(&pctx, &fc);
	ret = vfs_parse_fs_string(&fc, "source", src, strlen(src));
	if (!ret && opts) {
		data = strdup(opts);
		ret = generic_parse_monolithic(&fc, data);
		free(data);
	}
	if (!ret)
		ret = kceph_get_tree_checks(&fc);
	if (!ret && (pctx.opts->flags & CEPH_MOUNT_OPT_FSCACHE))
		ret = kceph_register(&pctx, &fc, volume_fsid);
	if (!ret && volume_fsid && !kceph_register(&pctx, &fc, volume_fsid))
		r->volume_key = kceph_dup(kceph_volume_name);
	r->ret = ret;
	snprintf(r->err, sizeof(r->err), "%s", log.first_error);
	snprintf(r->err_prefix, sizeof(r->err_prefix), "%s",
		 log.first_error_prefix);
	if (!ret)
		kceph_copy(r, &pctx);
	kceph_free(&pctx, &fc);
	free(kceph_volume_name);
	kceph_volume_name = NULL;
	return ret;
}

void kceph_result_free(struct kceph_result *r)
{
	free(r->name);
	free(r->fs_name);
	free(r->path);
	free(r->uniq);
	free(r->volume_key);
	memset(r, 0, sizeof(*r));
}
