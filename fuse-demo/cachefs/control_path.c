// SPDX-License-Identifier: GPL-2.0-only
/*
 * The paths of control requests (control.c), resolved beneath the
 * source's root one component at a time with O_NOFOLLOW: no "..", no
 * symlink, so nothing outside the source is ever reached (openat2's
 * RESOLVE_BENEATH, which valgrind and older kernels lack).  The CLI sends
 * paths it resolved already (realpath), a batch's in the order of its
 * walk, so the directory of the last one is kept open (struct kc_ctl_dir)
 * and a file beside it costs one stat.
 *
 * Every call is a timed source call (srccall.c): a source that does not
 * answer fails it with EIO within source_timeout, and takes the mount
 * offline, where it fails at once.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cachefs.h"

void kc_ctl_dir_close(struct kc_ctl_dir *d)
{
	if (d->fd >= 0)
		close(d->fd);
	free(d->path);
	d->path = NULL;
	d->fd = -1;
}

/* Open the directory @path (@len bytes of it) beneath the root: an fd. */
static int kc_ctl_open_dir(struct kc_fs *fs, const char *path, size_t len)
{
	char *copy = strndup(path, len), *name, *save = NULL;
	int dir = fs->root.fd, fd = -1, err = copy ? 0 : ENOMEM;

	for (name = copy ? strtok_r(copy, "/", &save) : NULL; name && !err;
	     name = strtok_r(NULL, "/", &save)) {
		if (!strcmp(name, "..")) {
			err = EXDEV;
			break;
		}
		fd = kc_src_openat(fs, dir, name, O_PATH | O_NOFOLLOW |
				   O_DIRECTORY | O_CLOEXEC, 0);
		if (fd < 0)
			err = errno;
		if (dir != fs->root.fd)
			close(dir);
		dir = fd;
	}
	free(copy);
	if (err && dir >= 0 && dir != fs->root.fd)
		close(dir);
	if (!err && dir == fs->root.fd)
		dir = dup(dir);		/* @d's own */
	return err ? -err : dir < 0 ? -errno : dir;
}

/* Make @d the directory of @path (its first @len bytes): 0 or an errno. */
static int kc_ctl_dir_of(struct kc_fs *fs, struct kc_ctl_dir *d,
			 const char *path, size_t len)
{
	int fd;

	if (d->path && strlen(d->path) == len && !memcmp(d->path, path, len))
		return 0;
	kc_ctl_dir_close(d);
	fd = kc_ctl_open_dir(fs, path, len);
	if (fd < 0)
		return -fd;
	d->path = strndup(path, len);
	d->fd = fd;
	if (d->path)
		return 0;
	kc_ctl_dir_close(d);
	return ENOMEM;
}

/* Stat the file @path names beneath the source's root, through @d. */
static int kc_ctl_stat_beneath(struct kc_fs *fs, const char *path,
			       struct kc_ctl_dir *d, struct stat *st)
{
	const char *slash = strrchr(path, '/');
	const char *name = slash ? slash + 1 : path;
	int err;

	if (!*name || !strcmp(name, ".."))
		return !*name ? EINVAL : EXDEV;
	err = kc_ctl_dir_of(fs, d, path, slash ? (size_t)(slash - path) : 0);
	if (!err && kc_src_fstatat(fs, d->fd, name, st, AT_SYMLINK_NOFOLLOW))
		err = errno;
	return err;
}

/*
 * The key of the source file @path names (from the root, no leading
 * '/'), @d the directory kept open from the last call (fd -1 at first):
 * 0, or an errno: EISDIR, ELOOP (a symlink) or EINVAL (not a regular
 * file), EXDEV (".."), ENAMETOOLONG, or the source's.
 */
int kc_ctl_key(struct kc_fs *fs, const char *path, struct kc_ctl_dir *d,
	       uint8_t key[16], size_t *len)
{
	struct stat st;
	int err;

	if (!*path || *path == '/' || strchr(path, '\n'))
		return EINVAL;
	if (strlen(path) >= PATH_MAX)
		return ENAMETOOLONG;
	err = kc_ctl_stat_beneath(fs, path, d, &st);
	if (!err && !S_ISREG(st.st_mode))
		err = S_ISDIR(st.st_mode) ? EISDIR :
		      S_ISLNK(st.st_mode) ? ELOOP : EINVAL;
	if (!err)
		*len = kc_cookie_key(fs, st.st_dev, st.st_ino, key);
	return err;
}
