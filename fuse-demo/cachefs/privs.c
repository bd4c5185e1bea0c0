// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the kernel checked and allows, but the caller's own credentials
 * cannot do on the source (creds.c runs source calls as the caller): the
 * daemon does it as itself, within the kernel's rules and no further.
 *
 *  - Killing privileges.  Before a write, truncate or fallocate by a
 *    caller without CAP_FSETID the kernel clears the file's set-user-ID
 *    bit, and its set-group-ID bit when group execute is set too.  FUSE
 *    (without FUSE_HANDLE_KILLPRIV) sends that as a SETATTR of the mode,
 *    from the caller, whom the source refuses a chmod of a file not
 *    theirs (EPERM): the write then fails where Linux would do it.  A
 *    mode change refused so is made by the daemon if it is exactly that
 *    one: the source's mode less those bits, on a regular file.  A chmod
 *    of its own by a non-owner never gets here: with default_permissions
 *    (allow_other) the kernel refuses it first, and without allow_other
 *    the caller is the daemon's own user.  The kernel must keep the kill
 *    its own (kc_op_init()): the daemon writes as itself, and a source
 *    kills nothing for root.
 *  - Opening for execution.  exec() opens with __FMODE_EXEC, which FUSE
 *    passes in the open flags; the kernel asks for execute permission
 *    only, and the daemon needs to read the file for it.  An execute-only
 *    program (0711) is opened by the daemon, read-only, when the source
 *    says the caller may execute it.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cachefs.h"

/* The kernel's FMODE_EXEC, as it comes in FUSE open flags. */
#define KC_FMODE_EXEC	0x20

/*
 * The kernel kills privileges itself, never leaving it to the daemon
 * (libfuse 3.14 asks nothing; a later one might ask by default).
 */
void kc_op_init(void *userdata, struct fuse_conn_info *conn)
{
	(void)userdata;
	conn->want &= ~FUSE_CAP_HANDLE_KILLPRIV;
#ifdef FUSE_CAP_HANDLE_KILLPRIV_V2
	conn->want &= ~FUSE_CAP_HANDLE_KILLPRIV_V2;
#endif
}

/* Is @mode what the kernel's privilege kill makes of a file like *@st? */
static bool kc_kills_privs(const struct stat *st, mode_t mode)
{
	mode_t kill = st->st_mode & S_ISUID;

	if ((st->st_mode & (S_ISGID | S_IXGRP)) == (S_ISGID | S_IXGRP))
		kill |= S_ISGID;
	return S_ISREG(st->st_mode) && kill &&
	       (mode & 07777) == (st->st_mode & 07777 & ~kill);
}

/*
 * The caller was refused a chmod of @in to @mode (through @fd, an open
 * file of it, or -1): make it as the daemon if it is the kernel's kill of
 * privileges.  0, or an errno (EPERM if it is not that).
 */
int kc_kill_privs(struct kc_fs *fs, struct kc_inode *in, mode_t mode, int fd)
{
	struct stat st;
	char proc[64];

	if (kc_src_fstatat(fs, in->fd, "", &st,
			   AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW) ||
	    !kc_kills_privs(&st, mode))
		return EPERM;
	kc_procname(proc, sizeof(proc), in->fd);
	if (fd >= 0 ? fchmod(fd, mode & 07777) : chmod(proc, mode & 07777))
		return errno;
	return 0;
}

/* Is an open with @flags exec()'s, to read a program for the kernel? */
bool kc_exec_open(int flags)
{
	return (flags & KC_FMODE_EXEC) && (flags & O_ACCMODE) == O_RDONLY &&
	       !(flags & O_TRUNC);
}

/*
 * The caller was refused a read-only open of @proc (the source file's
 * /proc/self/fd link) for exec(): open it as the daemon if the source
 * lets the caller execute it.  The descriptor, or -1 and errno.
 */
int kc_open_exec(fuse_req_t req, const char *proc)
{
	struct kc_fs *fs = kc_fs(req);
	struct kc_creds cr;
	int ret, err;

	kc_creds_take(req, &cr);
	ret = kc_src_faccessat(fs, AT_FDCWD, proc, X_OK, AT_EACCESS);
	err = errno;
	kc_creds_drop(&cr);
	if (ret) {
		errno = err;
		return -1;
	}
	return kc_src_openat(fs, AT_FDCWD, proc, O_RDONLY | O_CLOEXEC, 0);
}
