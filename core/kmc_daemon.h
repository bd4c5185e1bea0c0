/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The cachefiles daemon command language: what cachefiles_daemon_write()
 * and its handlers in fs/cachefiles/daemon.c (6.1) accept and reject, with
 * the same errno for every input, in the same order of checks.
 *
 * A write is one command:  <word>[<space>+<args>][\n<ignored>]
 *   - longer than PAGE_SIZE - 1 bytes: -EOPNOTSUPP; any NUL byte: -EINVAL;
 *   - cut at the first '\n' (a leading '\n' is -EINVAL); the rest of the
 *     write is ignored but still counted in the returned length;
 *   - the word ends at the first isspace() byte (kernel ctype: 9-13, 32 and
 *     160); a leading space is -EOPNOTSUPP; spaces before args are skipped,
 *     trailing spaces stay part of args;
 *   - unknown word (case-sensitive): -EOPNOTSUPP.
 *
 * Commands (daemon.c:65-84; copen and restore only with
 * CONFIG_CACHEFILES_ONDEMAND, i.e. kmc_daemon_init(.., true)):
 *   brun|bcull|bstop|frun|fcull|fstop <N>%   simple_strtoul base 10, then
 *              exactly "%" and the end.  Range: 0 <= stop < cull < run < 100
 *   dir <path>     once; tag <name>  once; secctx <ctx>  once
 *   cull <name>, inuse <name>   no '/', cache must be bound
 *   debug <mask>   simple_strtoul base 0 (0x hex, 0 octal), then the end
 *   bind [ondemand]
 *   copen <id>,<size>   restore [anything]
 *
 * Odd corners of the kernel, kept (daemon.c line numbers):
 *   "fstop %"       is 0%: simple_strtoul() parses no digit as 0 (463)
 *   "fstop 18446744073709551617%" is 1%: digits wrap modulo 2^BITS_PER_LONG
 *   "brun +5%", "brun -5%", "brun 5 %", "brun 5%\r" are -EINVAL
 *   "debug"         sets the mask to 0 (686: empty parses as 0)
 *   "debug 0x"      is -EINVAL (base 8, stops at 'x'); "debug 09" too
 *   "tag a b"       tag is "a b"; "dir /c " keeps the trailing space
 *   "tag x\nrest"   sets tag "x", and the write returns the whole length
 *   "dir x\xa0y"    is the word "dir" and path "x\xa0y"; "dir\xa0x" is dir "x"
 *   "secctx" twice  is -EINVAL, not -EEXIST like dir and tag (589-592)
 *   "cull" and "inuse" with no name pass the parser; the VFS lookup of ""
 *                   later fails (-EACCES, turned into -EIO); so do "." and
 *                   ".."; cull/inuse check '/' before readiness (640, 711)
 *   "bind" fills in the default tag "CacheFiles" and the ondemand mode
 *                   before cachefiles_add_cache(): a failed bind leaves both
 *                   (and the dir) set, so "tag"/"dir" after it are -EEXIST
 *   "bind" checks the limits (-ERANGE), then "dir" given (-EINVAL), then
 *                   not yet bound (-EBUSY), then its argument (-EINVAL)
 *   "bind " and "bind\r" are plain "bind": args are "" after the spaces
 *   "brun 50%" after bind is accepted, but the absolute limits were fixed
 *                   at bind (cache.c:106-119) and do not move
 *   "restore junk"  ignores its argument (ondemand.c:271)
 *   "copen 7,abc"   finds request 7 first and completes it with the size's
 *                   error, which the write also returns (ondemand.c:205)
 *   a released descriptor answers -EIO before any other check (292)
 *   "copen" and "restore" are -EOPNOTSUPP until "bind ondemand", the same
 *                   errno as an unknown command
 */
#ifndef KMC_DAEMON_H
#define KMC_DAEMON_H

#include "kcompat.h"
#include "kmc_cull.h"

/* The kernel's command table, in its order. */
enum kmc_daemon_op {
	KMC_DAEMON_BIND,
	KMC_DAEMON_BRUN,
	KMC_DAEMON_BCULL,
	KMC_DAEMON_BSTOP,
	KMC_DAEMON_CULL,
	KMC_DAEMON_DEBUG,
	KMC_DAEMON_DIR,
	KMC_DAEMON_FRUN,
	KMC_DAEMON_FCULL,
	KMC_DAEMON_FSTOP,
	KMC_DAEMON_INUSE,
	KMC_DAEMON_SECCTX,
	KMC_DAEMON_TAG,
	KMC_DAEMON_COPEN,	/* CONFIG_CACHEFILES_ONDEMAND */
	KMC_DAEMON_RESTORE,	/* CONFIG_CACHEFILES_ONDEMAND */
	KMC_DAEMON_OP_NR
};

/* The tag "bind" gives a cache that has none (daemon.c:800). */
#define KMC_DAEMON_DEFAULT_TAG	"CacheFiles"

/*
 * One parsed write.  @args points into the caller's buffer and is not
 * NUL-terminated (the kernel would have written its NUL at
 * args[args_len]).  @number is the percentage, the debug mask or the copen
 * id.  copen only: @size, and @size_err, the error copen reports once the
 * id is found among the requests (kstrtol's -EINVAL/-ERANGE, or -EINVAL
 * for a negative size that is not an errno); 0 with a size in
 * [-MAX_ERRNO, -1] means the daemon reports that error for the request.
 */
struct kmc_daemon_cmd {
	enum kmc_daemon_op	op;
	const char		*args;
	size_t			args_len;
	unsigned long		number;
	long			size;
	int			size_err;
	bool			ondemand;	/* "bind ondemand" */
};

/*
 * The struct cachefiles_cache state the commands read and write.  The
 * strings themselves (dir, tag, security context) belong to the caller,
 * which copies them from the command's args.
 */
struct kmc_daemon {
	struct kmc_cull	cull;
	unsigned int	debug;		/* cachefiles_debug (module-wide) */
	bool		ondemand_config; /* CONFIG_CACHEFILES_ONDEMAND */
	bool		ondemand_mode;	/* CACHEFILES_ONDEMAND_MODE */
	bool		ready;		/* CACHEFILES_READY: bound */
	bool		dead;		/* CACHEFILES_DEAD: released */
	bool		have_dir;	/* rootdirname set */
	bool		have_tag;	/* tag set */
	bool		have_secid;	/* secctx accepted by the LSM */
};

void kmc_daemon_init(struct kmc_daemon *d, bool ondemand_config);
int kmc_daemon_parse(const struct kmc_daemon *d, const char *data,
		     size_t len, struct kmc_daemon_cmd *cmd);
void kmc_daemon_apply(struct kmc_daemon *d, const struct kmc_daemon_cmd *cmd);
ssize_t kmc_daemon_write(struct kmc_daemon *d, const char *data, size_t len,
			 struct kmc_daemon_cmd *cmd);
void kmc_daemon_bind_failed(struct kmc_daemon *d);
const char *kmc_daemon_op_name(enum kmc_daemon_op op);

#endif
