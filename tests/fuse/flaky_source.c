// SPDX-License-Identifier: GPL-2.0-only
/*
 * flaky_source: a test-only passthrough of a directory over FUSE (the
 * libfuse3 high-level API) that can be made to fail and to hang, to play
 * a network source that goes away under kmirror-cachefs.
 *
 *   flaky_source CTLFILE DIR MOUNTPOINT [FUSE options]
 *
 * Every operation first reads the first line of CTLFILE (a regular file,
 * so that a command is in force as soon as the shell's write of it ends):
 *   ok                       pass the call through to DIR (also: no file)
 *   fail ENOTCONN|EIO|ESTALE the call fails with that errno
 *   fail ERRNO NAME          only calls on files called NAME fail
 *   hang                     the call waits until the line says otherwise
 *   delay US                 pass the call through after US microseconds
 *                            (a slow network source, for benchmarks)
 * Attributes and names are never cached by the kernel, and reads and
 * writes bypass its page cache, so that every call of the client reaches
 * us and so meets the command.
 */
#define FUSE_USE_VERSION 312
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

static const char *ctl_path;
static int root_fd = -1;

/*
 * The command in force for @path: 0 (ok), an errno (fail), or -1 (hang);
 * *@delay_us: microseconds to wait first ("delay US").
 */
static int ctl_read(const char *path, long *delay_us)
{
	static const struct { const char *name; int err; } errs[] = {
		{ "ENOTCONN", ENOTCONN }, { "EIO", EIO }, { "ESTALE", ESTALE },
	};
	char line[64] = "", *name;
	const char *base = path ? strrchr(path, '/') : NULL;
	unsigned int i;
	ssize_t n;
	int fd = open(ctl_path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	n = read(fd, line, sizeof(line) - 1);
	close(fd);
	line[n > 0 ? n : 0] = 0;
	line[strcspn(line, "\n")] = 0;
	if (!strcmp(line, "hang"))
		return -1;
	if (!strncmp(line, "delay ", 6)) {
		*delay_us = strtol(line + 6, NULL, 10);
		return 0;
	}
	if (strncmp(line, "fail ", 5))
		return 0;
	name = strchr(line + 5, ' ');
	if (name && (!path || strcmp(name + 1, base ? base + 1 : path)))
		return 0;
	for (i = 0; i < sizeof(errs) / sizeof(errs[0]); i++)
		if (!strncmp(line + 5, errs[i].name, strlen(errs[i].name)))
			return errs[i].err;
	return 0;
}

/* Obey the command for @path: 0 to go on, or the errno to fail with. */
static int gate(const char *path)
{
	struct timespec ts = { 0, 10000000 };
	long delay_us = 0;
	int c;

	while ((c = ctl_read(path, &delay_us)) < 0)
		nanosleep(&ts, NULL);
	if (delay_us > 0) {
		ts.tv_sec = delay_us / 1000000;
		ts.tv_nsec = delay_us % 1000000 * 1000;
		nanosleep(&ts, NULL);
	}
	return c;
}

#define GATE(path) do { int g_ = gate(path); if (g_) return -g_; } while (0)

/* A FUSE path as a name relative to DIR. */
static const char *rel(const char *path)
{
	return path[1] ? path + 1 : ".";
}

static int ret(int r)
{
	return r < 0 ? -errno : 0;
}

static void *fl_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	(void)conn;
	cfg->use_ino = 1;
	cfg->entry_timeout = cfg->attr_timeout = cfg->negative_timeout = 0;
	cfg->direct_io = 1;
	return NULL;
}

static int fl_getattr(const char *path, struct stat *st,
		      struct fuse_file_info *fi)
{
	GATE(path);
	if (fi)
		return ret(fstat(fi->fh, st));
	return ret(fstatat(root_fd, rel(path), st, AT_SYMLINK_NOFOLLOW));
}

static int fl_readdir(const char *path, void *buf, fuse_fill_dir_t fill,
		      off_t off, struct fuse_file_info *fi,
		      enum fuse_readdir_flags flags)
{
	struct dirent *d;
	DIR *dp;
	int fd;

	(void)off, (void)fi, (void)flags;
	GATE(path);
	fd = openat(root_fd, rel(path), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	dp = fd >= 0 ? fdopendir(fd) : NULL;
	if (!dp) {
		if (fd >= 0)
			close(fd);
		return -errno;
	}
	while ((d = readdir(dp)))
		if (fill(buf, d->d_name, NULL, 0, 0))
			break;
	closedir(dp);
	return 0;
}

static int fl_open(const char *path, struct fuse_file_info *fi)
{
	int fd;

	GATE(path);
	fd = openat(root_fd, rel(path), fi->flags & ~O_NOFOLLOW);
	if (fd < 0)
		return -errno;
	fi->fh = fd;
	return 0;
}

static int fl_create(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	int fd;

	GATE(path);
	fd = openat(root_fd, rel(path), fi->flags | O_CREAT, mode);
	if (fd < 0)
		return -errno;
	fi->fh = fd;
	return 0;
}

static int fl_read(const char *path, char *buf, size_t size, off_t off,
		   struct fuse_file_info *fi)
{
	ssize_t n;

	(void)path;
	GATE(path);
	n = pread(fi->fh, buf, size, off);
	return n < 0 ? -errno : n;
}

static int fl_write(const char *path, const char *buf, size_t size,
		    off_t off, struct fuse_file_info *fi)
{
	ssize_t n;

	(void)path;
	GATE(path);
	n = pwrite(fi->fh, buf, size, off);
	return n < 0 ? -errno : n;
}

/* Never refused: the client's close must not leak our descriptor. */
static int fl_release(const char *path, struct fuse_file_info *fi)
{
	(void)path;
	close(fi->fh);
	return 0;
}

static int fl_unlink(const char *path)
{
	GATE(path);
	return ret(unlinkat(root_fd, rel(path), 0));
}

static int fl_mkdir(const char *path, mode_t mode)
{
	GATE(path);
	return ret(mkdirat(root_fd, rel(path), mode));
}

static int fl_rmdir(const char *path)
{
	GATE(path);
	return ret(unlinkat(root_fd, rel(path), AT_REMOVEDIR));
}

static int fl_rename(const char *from, const char *to, unsigned int flags)
{
	GATE(from);
	return ret(renameat2(root_fd, rel(from), root_fd, rel(to), flags));
}

static int fl_truncate(const char *path, off_t size,
		       struct fuse_file_info *fi)
{
	int fd, r;

	GATE(path);
	if (fi)
		return ret(ftruncate(fi->fh, size));
	fd = openat(root_fd, rel(path), O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = ret(ftruncate(fd, size));
	close(fd);
	return r;
}

static int fl_utimens(const char *path, const struct timespec tv[2],
		      struct fuse_file_info *fi)
{
	GATE(path);
	if (fi)
		return ret(futimens(fi->fh, tv));
	return ret(utimensat(root_fd, rel(path), tv, AT_SYMLINK_NOFOLLOW));
}

static int fl_chmod(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	GATE(path);
	if (fi)
		return ret(fchmod(fi->fh, mode));
	return ret(fchmodat(root_fd, rel(path), mode, 0));
}

static int fl_chown(const char *path, uid_t uid, gid_t gid,
		    struct fuse_file_info *fi)
{
	GATE(path);
	if (fi)
		return ret(fchown(fi->fh, uid, gid));
	return ret(fchownat(root_fd, rel(path), uid, gid,
			    AT_SYMLINK_NOFOLLOW));
}

static int fl_statfs(const char *path, struct statvfs *st)
{
	(void)path;
	GATE(path);
	return ret(fstatvfs(root_fd, st));
}

static int fl_fsync(const char *path, int datasync,
		    struct fuse_file_info *fi)
{
	(void)path;
	GATE(path);
	return ret(datasync ? fdatasync(fi->fh) : fsync(fi->fh));
}

static const struct fuse_operations fl_ops = {
	.init		= fl_init,
	.getattr	= fl_getattr,
	.readdir	= fl_readdir,
	.open		= fl_open,
	.create		= fl_create,
	.read		= fl_read,
	.write		= fl_write,
	.release	= fl_release,
	.unlink		= fl_unlink,
	.mkdir		= fl_mkdir,
	.rmdir		= fl_rmdir,
	.rename		= fl_rename,
	.truncate	= fl_truncate,
	.utimens	= fl_utimens,
	.chmod		= fl_chmod,
	.chown		= fl_chown,
	.statfs		= fl_statfs,
	.fsync		= fl_fsync,
};

int main(int argc, char *argv[])
{
	if (argc < 4) {
		fprintf(stderr, "usage: %s CTLFILE DIR MOUNTPOINT [options]\n",
			argv[0]);
		return 2;
	}
	ctl_path = argv[1];
	root_fd = open(argv[2], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (root_fd < 0) {
		perror(argv[2]);
		return 1;
	}
	umask(0);
	argv[2] = argv[0];
	return fuse_main(argc - 2, argv + 2, &fl_ops, NULL);
}
