// SPDX-License-Identifier: GPL-2.0-only
/*
 * cachefiles daemon command parser (see kmc_daemon.h for the language and
 * the kernel corners it keeps).
 *
 * The kernel parses a NUL-terminated copy it may write into; the core reads
 * a const (buffer, length) pair and never past it.  Every helper below
 * works on a [start, end) range and reads nothing at or after end, where
 * the kernel would read its NUL.
 */
#include "kcompat.h"
#include "kmc_daemon.h"

/* cachefiles_daemon_cmds[], same order, same 8-byte names. */
static const char kmc_daemon_names[KMC_DAEMON_OP_NR][8] = {
	[KMC_DAEMON_BIND] = "bind",
	[KMC_DAEMON_BRUN] = "brun",
	[KMC_DAEMON_BCULL] = "bcull",
	[KMC_DAEMON_BSTOP] = "bstop",
	[KMC_DAEMON_CULL] = "cull",
	[KMC_DAEMON_DEBUG] = "debug",
	[KMC_DAEMON_DIR] = "dir",
	[KMC_DAEMON_FRUN] = "frun",
	[KMC_DAEMON_FCULL] = "fcull",
	[KMC_DAEMON_FSTOP] = "fstop",
	[KMC_DAEMON_INUSE] = "inuse",
	[KMC_DAEMON_SECCTX] = "secctx",
	[KMC_DAEMON_TAG] = "tag",
	[KMC_DAEMON_COPEN] = "copen",
	[KMC_DAEMON_RESTORE] = "restore",
};

/* lib/kstrtox.h KSTRTOX_OVERFLOW: or-ed into a digit count on overflow. */
#define KMC_KSTRTOX_OVERFLOW	BIT(31)

/* The state cachefiles_daemon_open() gives a fresh descriptor. */
void kmc_daemon_init(struct kmc_daemon *d, bool ondemand_config)
{
	memset(d, 0, sizeof(*d));
	kmc_cull_init(&d->cull);
	d->ondemand_config = ondemand_config;
}
EXPORT_SYMBOL(kmc_daemon_init);

/* "bind" ... "restore", or "?" for an invalid @op. */
const char *kmc_daemon_op_name(enum kmc_daemon_op op)
{
	if ((unsigned int)op >= KMC_DAEMON_OP_NR)
		return "?";
	return kmc_daemon_names[op];
}
EXPORT_SYMBOL(kmc_daemon_op_name);

/* First isspace() byte in [s, end), or end. */
static const char *kmc_find_space(const char *s, const char *end)
{
	while (s < end && !isspace(*s))
		s++;
	return s;
}

/* skip_spaces() bounded by end. */
static const char *kmc_skip_spaces(const char *s, const char *end)
{
	while (s < end && isspace(*s))
		s++;
	return s;
}

/* The op whose name is exactly [w, w + n); -1 if none (ondemand-aware). */
static int kmc_daemon_lookup(const char *w, size_t n, bool ondemand_config)
{
	int op, nr = ondemand_config ? KMC_DAEMON_OP_NR : KMC_DAEMON_COPEN;

	for (op = 0; op < nr; op++)
		if (strlen(kmc_daemon_names[op]) == n &&
		    !memcmp(kmc_daemon_names[op], w, n))
			return op;
	return -1;
}

/*
 * _parse_integer_fixup_radix(): base 0 becomes 16 for "0x<xdigit>", 8 for
 * another leading '0', else 10; a "0x" prefix is skipped in base 16.  The
 * kernel looks at s[1] and s[2] only while they are not its NUL, which the
 * length checks here reproduce.
 */
static const char *kmc_fixup_radix(const char *s, const char *end,
				   unsigned int *base)
{
	if (*base == 0) {
		if (s < end && s[0] == '0') {
			if (end - s > 2 && _tolower(s[1]) == 'x' &&
			    isxdigit(s[2]))
				*base = 16;
			else
				*base = 8;
		} else {
			*base = 10;
		}
	}
	if (*base == 16 && end - s >= 2 && s[0] == '0' &&
	    _tolower(s[1]) == 'x')
		s += 2;
	return s;
}

/*
 * _parse_integer(): digits of @base from @s, wrapping modulo 2^64.
 * Returns how many were consumed, or-ed with KMC_KSTRTOX_OVERFLOW if the
 * value wrapped.
 */
static unsigned int kmc_parse_integer(const char *s, const char *end,
				      unsigned int base,
				      unsigned long long *p)
{
	unsigned long long res = 0;
	unsigned int rv = 0;
	int val;

	for (; s < end; s++, rv++) {
		val = hex_to_bin(*s);
		if (val < 0 || (unsigned int)val >= base)
			break;
		if (unlikely(res & (~0ULL << 60)) &&
		    res > (ULLONG_MAX - val) / base)
			rv |= KMC_KSTRTOX_OVERFLOW;
		res = res * base + val;
	}
	*p = res;
	return rv;
}

/* simple_strtoul(): never fails; *@endp is the first byte not consumed. */
static unsigned long kmc_simple_strtoul(const char *s, const char *end,
					const char **endp, unsigned int base)
{
	unsigned long long res;
	unsigned int rv;

	s = kmc_fixup_radix(s, end, &base);
	rv = kmc_parse_integer(s, end, base, &res);
	*endp = s + (rv & ~KMC_KSTRTOX_OVERFLOW);
	return res;
}

/* _kstrtoull(): the whole range is one number, or -EINVAL / -ERANGE. */
static int kmc_kstrtoull_raw(const char *s, const char *end,
			     unsigned int base, unsigned long long *res)
{
	unsigned long long tmp;
	unsigned int rv;

	s = kmc_fixup_radix(s, end, &base);
	rv = kmc_parse_integer(s, end, base, &tmp);
	if (rv & KMC_KSTRTOX_OVERFLOW)
		return -ERANGE;
	if (rv == 0)
		return -EINVAL;
	s += rv;
	if (s < end && *s == '\n')
		s++;
	if (s < end)
		return -EINVAL;
	*res = tmp;
	return 0;
}

/* kstrtoul(): kstrtoull() with an optional '+', checked to fit a long. */
static int kmc_kstrtoul(const char *s, const char *end, unsigned int base,
			unsigned long *res)
{
	unsigned long long tmp;
	int rv;

	if (s < end && s[0] == '+')
		s++;
	rv = kmc_kstrtoull_raw(s, end, base, &tmp);
	if (rv < 0)
		return rv;
	if (tmp != (unsigned long)tmp)
		return -ERANGE;
	*res = tmp;
	return 0;
}

/*
 * kstrtol() = kstrtoll(): '-' then digits (no '+' after it), or kstrtoull;
 * -ERANGE for what does not fit, with LLONG_MIN itself accepted.
 */
static int kmc_kstrtol(const char *s, const char *end, unsigned int base,
		       long *res)
{
	unsigned long long tmp;
	long long val;
	int rv;

	if (s < end && s[0] == '-') {
		rv = kmc_kstrtoull_raw(s + 1, end, base, &tmp);
		if (rv < 0)
			return rv;
		if ((long long)(0 - tmp) > 0)
			return -ERANGE;
		val = (long long)(0 - tmp);
	} else {
		if (s < end && s[0] == '+')
			s++;
		rv = kmc_kstrtoull_raw(s, end, base, &tmp);
		if (rv < 0)
			return rv;
		if ((long long)tmp < 0)
			return -ERANGE;
		val = tmp;
	}
	if (val != (long)val)
		return -ERANGE;
	*res = val;
	return 0;
}

/* The limit a percent command sets; only called for those six ops. */
static enum kmc_cull_limit kmc_daemon_limit(enum kmc_daemon_op op)
{
	switch (op) {
	case KMC_DAEMON_FRUN:
		return KMC_FRUN;
	case KMC_DAEMON_FCULL:
		return KMC_FCULL;
	case KMC_DAEMON_FSTOP:
		return KMC_FSTOP;
	case KMC_DAEMON_BRUN:
		return KMC_BRUN;
	case KMC_DAEMON_BCULL:
		return KMC_BCULL;
	default:
		return KMC_BSTOP;
	}
}

/*
 * cachefiles_daemon_{b,f}{run,cull,stop}(): non-empty, a simple_strtoul()
 * number (possibly no digit at all: 0), exactly "%" after it, then the
 * ordering rule of kmc_cull_check_percent().  All -EINVAL.
 */
static int kmc_check_percent(const struct kmc_daemon *d,
			     struct kmc_daemon_cmd *cmd)
{
	const char *end = cmd->args + cmd->args_len, *p;

	if (!cmd->args_len)
		return -EINVAL;
	cmd->number = kmc_simple_strtoul(cmd->args, end, &p, 10);
	if (end - p != 1 || *p != '%')
		return -EINVAL;
	return kmc_cull_check_percent(&d->cull, kmc_daemon_limit(cmd->op),
				      cmd->number);
}

/*
 * dir, tag, secctx: a non-empty argument (-EINVAL), accepted once.  A
 * second dir or tag is -EEXIST, a second secctx -EINVAL (daemon.c:561,
 * 589, 617).  Nothing else is checked: '/', spaces, anything goes.
 */
static int kmc_check_once(const struct kmc_daemon *d,
			  const struct kmc_daemon_cmd *cmd)
{
	if (!cmd->args_len)
		return -EINVAL;
	switch (cmd->op) {
	case KMC_DAEMON_DIR:
		return d->have_dir ? -EEXIST : 0;
	case KMC_DAEMON_TAG:
		return d->have_tag ? -EEXIST : 0;
	default:
		return d->have_secid ? -EINVAL : 0;
	}
}

/*
 * cull, inuse: a name without '/' (-EINVAL, checked first), and a bound,
 * live cache (-EIO).  The empty name passes here (daemon.c:640-651).
 */
static int kmc_check_name(const struct kmc_daemon *d,
			  const struct kmc_daemon_cmd *cmd)
{
	if (memchr(cmd->args, '/', cmd->args_len))
		return -EINVAL;
	if (!d->ready || d->dead)
		return -EIO;
	return 0;
}

/* debug: simple_strtoul() base 0 must consume everything (empty: 0). */
static int kmc_check_debug(struct kmc_daemon_cmd *cmd)
{
	const char *end = cmd->args + cmd->args_len, *p;

	cmd->number = kmc_simple_strtoul(cmd->args, end, &p, 0);
	return p == end ? 0 : -EINVAL;
}

/* True if [s, s + n) is exactly the NUL-free string @lit. */
static bool kmc_args_are(const char *s, size_t n, const char *lit)
{
	return strlen(lit) == n && !memcmp(s, lit, n);
}

/*
 * bind (daemon.c:761-792): limits in order (-ERANGE), a dir (-EINVAL), not
 * bound yet (-EBUSY), then no argument, or "ondemand" if configured.
 */
static int kmc_check_bind(const struct kmc_daemon *d,
			  struct kmc_daemon_cmd *cmd)
{
	int ret = kmc_cull_validate(&d->cull);

	if (ret)
		return ret;
	if (!d->have_dir)
		return -EINVAL;
	if (d->ready)
		return -EBUSY;
	if (d->ondemand_config &&
	    kmc_args_are(cmd->args, cmd->args_len, "ondemand")) {
		cmd->ondemand = true;
		return 0;
	}
	return cmd->args_len ? -EINVAL : 0;
}

/*
 * copen <id>,<size> (ondemand.c:170-221): ondemand mode (-EOPNOTSUPP), a
 * non-empty argument and a ',' (-EINVAL), kstrtoul(id, 0).  The size is
 * judged only after the request lookup, so its verdict goes to size_err.
 */
static int kmc_check_copen(const struct kmc_daemon *d,
			   struct kmc_daemon_cmd *cmd)
{
	const char *end = cmd->args + cmd->args_len, *comma;
	int ret;

	if (!d->ondemand_mode)
		return -EOPNOTSUPP;
	if (!cmd->args_len)
		return -EINVAL;
	comma = memchr(cmd->args, ',', cmd->args_len);
	if (!comma)
		return -EINVAL;
	ret = kmc_kstrtoul(cmd->args, comma, 0, &cmd->number);
	if (ret)
		return ret;
	cmd->size_err = kmc_kstrtol(comma + 1, end, 0, &cmd->size);
	if (!cmd->size_err && cmd->size < 0 && !IS_ERR_VALUE(cmd->size))
		cmd->size_err = -EINVAL;
	return 0;
}

/* Each handler's checks, in the kernel's order, before any side effect. */
static int kmc_daemon_check(const struct kmc_daemon *d,
			    struct kmc_daemon_cmd *cmd)
{
	switch (cmd->op) {
	case KMC_DAEMON_BRUN:
	case KMC_DAEMON_BCULL:
	case KMC_DAEMON_BSTOP:
	case KMC_DAEMON_FRUN:
	case KMC_DAEMON_FCULL:
	case KMC_DAEMON_FSTOP:
		return kmc_check_percent(d, cmd);
	case KMC_DAEMON_DIR:
	case KMC_DAEMON_TAG:
	case KMC_DAEMON_SECCTX:
		return kmc_check_once(d, cmd);
	case KMC_DAEMON_CULL:
	case KMC_DAEMON_INUSE:
		return kmc_check_name(d, cmd);
	case KMC_DAEMON_DEBUG:
		return kmc_check_debug(cmd);
	case KMC_DAEMON_BIND:
		return kmc_check_bind(d, cmd);
	case KMC_DAEMON_COPEN:
		return kmc_check_copen(d, cmd);
	case KMC_DAEMON_RESTORE:
		return d->ondemand_mode ? 0 : -EOPNOTSUPP;
	default:
		return -EOPNOTSUPP;
	}
}

/*
 * Split a write into command word and arguments (daemon.c:292-332): the
 * framing rules of kmc_daemon.h.  @cmd gets op and args.
 */
static int kmc_daemon_split(const struct kmc_daemon *d, const char *data,
			    size_t len, struct kmc_daemon_cmd *cmd)
{
	const char *end, *word_end, *args;
	int op;

	if (d->dead)
		return -EIO;
	if (len > PAGE_SIZE - 1)
		return -EOPNOTSUPP;
	if (!len)
		return -EOPNOTSUPP;	/* "" names no command */
	if (memchr(data, '\0', len))
		return -EINVAL;
	end = memchr(data, '\n', len);
	if (end == data)
		return -EINVAL;
	if (!end)
		end = data + len;

	word_end = kmc_find_space(data, end);
	args = word_end;
	if (word_end < end) {
		if (word_end == data)
			return -EOPNOTSUPP;
		args = kmc_skip_spaces(word_end + 1, end);
	}
	op = kmc_daemon_lookup(data, word_end - data, d->ondemand_config);
	if (op < 0)
		return -EOPNOTSUPP;
	cmd->op = op;
	cmd->args = args;
	cmd->args_len = end - args;
	return 0;
}

/*
 * Parse one write of @len bytes at @data against the state @d, without
 * changing either.  0 and a filled @cmd if the kernel's handler would go
 * on to act (or, for cull/inuse/copen/secctx, go on to the VFS, the
 * request table or the LSM); else the kernel's negative errno.
 */
int kmc_daemon_parse(const struct kmc_daemon *d, const char *data,
		     size_t len, struct kmc_daemon_cmd *cmd)
{
	int ret;

	memset(cmd, 0, sizeof(*cmd));
	ret = kmc_daemon_split(d, data, len, cmd);
	if (ret)
		return ret;
	return kmc_daemon_check(d, cmd);
}
EXPORT_SYMBOL(kmc_daemon_parse);

/*
 * The state change of a command kmc_daemon_parse() accepted.  "bind" marks
 * the cache bound; if the caller's cachefiles_add_cache() then fails it
 * calls kmc_daemon_bind_failed().  cull, inuse, copen and restore change no
 * state here.
 */
void kmc_daemon_apply(struct kmc_daemon *d, const struct kmc_daemon_cmd *cmd)
{
	switch (cmd->op) {
	case KMC_DAEMON_BRUN:
	case KMC_DAEMON_BCULL:
	case KMC_DAEMON_BSTOP:
	case KMC_DAEMON_FRUN:
	case KMC_DAEMON_FCULL:
	case KMC_DAEMON_FSTOP:
		kmc_cull_set_percent(&d->cull, kmc_daemon_limit(cmd->op),
				     cmd->number);
		break;
	case KMC_DAEMON_DIR:
		d->have_dir = true;
		break;
	case KMC_DAEMON_TAG:
		d->have_tag = true;
		break;
	case KMC_DAEMON_SECCTX:
		d->have_secid = true;
		break;
	case KMC_DAEMON_DEBUG:
		d->debug = cmd->number;
		break;
	case KMC_DAEMON_BIND:
		d->ondemand_mode |= cmd->ondemand;
		d->have_tag = true;
		d->ready = true;
		break;
	default:
		break;
	}
}

/*
 * cachefiles_daemon_write() over the state alone: parse, apply, and return
 * @len (the whole write, even the part after a newline) or the errno.  The
 * outside steps are taken to succeed: the LSM accepts a secctx, the VFS
 * finds a cull/inuse name, a copen finds its request (whose own verdict is
 * cmd->size_err), and cachefiles_add_cache() binds.
 */
ssize_t kmc_daemon_write(struct kmc_daemon *d, const char *data, size_t len,
			 struct kmc_daemon_cmd *cmd)
{
	int ret = kmc_daemon_parse(d, data, len, cmd);

	if (ret)
		return ret;
	kmc_daemon_apply(d, cmd);
	if (cmd->op == KMC_DAEMON_COPEN && cmd->size_err)
		return cmd->size_err;
	return len;
}
EXPORT_SYMBOL_IF_KUNIT(kmc_daemon_write);

/*
 * cachefiles_add_cache() failed after "bind": the cache is not bound, but
 * the default tag and the ondemand mode bind set stay, as in the kernel.
 */
void kmc_daemon_bind_failed(struct kmc_daemon *d)
{
	d->ready = false;
}
EXPORT_SYMBOL_IF_KUNIT(kmc_daemon_bind_failed);
