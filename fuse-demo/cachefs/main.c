// SPDX-License-Identifier: GPL-2.0-only
/*
 * kmirror-cachefs: start-up, mount and teardown.
 *
 * Every check runs before anything is mounted; a failing one prints one
 * "kmirror-cachefs: error: ..." line and exits 1:
 *   1. the options (options.c);
 *   2. unless -f/-d: fork.  The parent waits until the child says it is
 *      mounted (exit 0) or until the child exits (its status).  libfuse's
 *      fuse_daemonize() cannot report failures that happen after it, and
 *      libkmirror's threads must be started by the process that stays;
 *   3. the source: exists, is a directory, can be read;
 *   4. the cache directory: exists, takes user.* xattrs (a setxattr
 *      probe), is empty or a cachefiles-layout cache (fscache_cache_open()),
 *      is not in use (flock on DIR/kmirror.lock, held while mounted;
 *      the file says who holds it and, once mounted, the device of its
 *      mount: while that mount is there we refuse at once, whatever its
 *      fsname; if it is already gone, we wait for its daemon to finish);
 *   5. the volume, the index of the cache (cull.c);
 *   6. the mount.
 * Unmounting (fusermount -u, or SIGINT/SIGTERM/SIGHUP) seals every map,
 * relinquishes every cookie, writes the statistics and releases the lock.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "cachefs.h"
#include "index.h"
#include "meta.h"

#define KC_PROBE_XATTR	"user.kmirror.probe"

const struct fuse_lowlevel_ops kc_ops = {
	.init		= kc_op_init,
	.lookup		= kc_op_lookup,
	.forget		= kc_op_forget,
	.forget_multi	= kc_op_forget_multi,
	.getattr	= kc_op_getattr,
	.setattr	= kc_op_setattr,
	.readlink	= kc_op_readlink,
	.mknod		= kc_op_mknod,
	.mkdir		= kc_op_mkdir,
	.symlink	= kc_op_symlink,
	.link		= kc_op_link,
	.unlink		= kc_op_unlink,
	.rmdir		= kc_op_rmdir,
	.rename		= kc_op_rename,
	.statfs		= kc_op_statfs,
	.opendir	= kc_op_opendir,
	.readdir	= kc_op_readdir,
	.readdirplus	= kc_op_readdirplus,
	.releasedir	= kc_op_releasedir,
	.fsyncdir	= kc_op_fsyncdir,
	.open		= kc_op_open,
	.create		= kc_op_create,
	.read		= kc_op_read,
	.write		= kc_op_write,
	.flush		= kc_op_flush,
	.fsync		= kc_op_fsync,
	.release	= kc_op_release,
	.fallocate	= kc_op_fallocate,
	.copy_file_range = kc_op_copy_file_range,
	.lseek		= kc_op_lseek,
	.setxattr	= kc_op_setxattr,
	.getxattr	= kc_op_getxattr,
	.listxattr	= kc_op_listxattr,
	.removexattr	= kc_op_removexattr,
};

/* Step 2: the parent never returns; the child gets the pipe to report. */
static int kc_daemon_fork(int *notify)
{
	int p[2], status;
	pid_t pid;
	char c;

	if (pipe(p))
		return kc_fail("pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		return kc_fail("fork: %s", strerror(errno));
	if (pid) {
		close(p[1]);
		if (read(p[0], &c, 1) == 1 && c == 0)
			_exit(0);
		if (waitpid(pid, &status, 0) == pid && WIFEXITED(status))
			_exit(WEXITSTATUS(status) ? WEXITSTATUS(status) : 1);
		_exit(1);
	}
	close(p[0]);
	*notify = p[1];
	return 0;
}

/* Mounted: detach from the terminal and let the parent exit 0. */
static void kc_daemon_ready(int notify)
{
	int null = open("/dev/null", O_RDWR);

	if (setsid() < 0 || chdir("/"))
		fprintf(stderr, KC_NAME ": warning: cannot detach\n");
	if (null >= 0) {
		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
		if (null > 2)
			close(null);
	}
	if (write(notify, "", 1) != 1)
		_exit(1);
	close(notify);
}

static int kc_open_source(struct kc_fs *fs)
{
	const char *src = fs->cfg.source;
	struct stat st;
	int fd, rfd;

	fd = open(src, O_PATH | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT)
		return kc_fail("source '%s' does not exist", src);
	if (fd < 0)
		return kc_fail("cannot open source '%s': %s", src,
			       strerror(errno));
	if (kc_fstatat_born(fd, "", &st, &fs->root.btime, AT_EMPTY_PATH) ||
	    !S_ISDIR(st.st_mode)) {
		close(fd);
		return kc_fail("source '%s' is not a directory", src);
	}
	rfd = open(src, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rfd < 0 || faccessat(fd, "", R_OK | X_OK, AT_EMPTY_PATH)) {
		kc_fail("source '%s' is not readable: %s", src,
			strerror(errno));
		if (rfd >= 0)
			close(rfd);
		close(fd);
		return -1;
	}
	close(rfd);
	fs->root.fd = fd;
	fs->root.dev = fs->source_dev = st.st_dev;
	fs->root.ino = st.st_ino;
	fs->root.type = S_IFDIR;
	fs->root.attr = st;		/* fresh: served under meta_timeout */
	fs->root.has_attr = true;
	fs->root.attr_learnt = kc_wall_ns();
	fs->root.nlookup = 2;
	atomic_init(&fs->root.ref, 1);
	return 0;
}

/* The cache directory exists, is ours alone and apart from the others. */
static int kc_open_cache_dir(struct kc_fs *fs)
{
	const char *dir = fs->cfg.cache_dir;

	fs->cache_fd = kmirror_cachedir_root(dir);
	if (fs->cache_fd == -ENOENT)
		return kc_fail("cache directory '%s' does not exist", dir);
	if (fs->cache_fd < 0)
		return kc_fail("cannot open cache directory '%s': %s", dir,
			       strerror(-fs->cache_fd));
	return kc_check_dirs(fs);
}

/* Which of cache/ and graveyard/ libkmirror found to be a symlink. */
static const char *kc_which_link(int cache_fd)
{
	struct stat st;

	if (!kmirror_cachedir_stat(cache_fd, "cache", &st) &&
	    S_ISLNK(st.st_mode))
		return "cache";
	return "graveyard";
}

/* The cache directory takes user.* xattrs. */
static int kc_probe_cache_dir(struct kc_fs *fs)
{
	const char *dir = fs->cfg.cache_dir;

	if (fsetxattr(fs->cache_fd, KC_PROBE_XATTR, "1", 1, 0)) {
		if (errno == ENOTSUP || errno == EOPNOTSUPP)
			return kc_fail("cache directory '%s' is on a filesystem "
				       "without user extended attributes "
				       "(mount it with user_xattr, or use "
				       "another filesystem)", dir);
		return kc_fail("cannot write to cache directory '%s': %s",
			       dir, strerror(errno));
	}
	fremovexattr(fs->cache_fd, KC_PROBE_XATTR);
	return 0;
}

/* Undo mountinfo's octal escapes (\040 for a space) in place. */
static void kc_unescape(char *s)
{
	char *d = s;

	for (; *s; s++, d++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*d = (s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0');
			s += 3;
		} else {
			*d = *s;
		}
	}
	*d = 0;
}

/*
 * Is a FUSE filesystem mounted on @path now, with device number @dev
 * ("major:minor", as mountinfo's third field) if @dev is not empty?  Any
 * type fuse, fuse.* or fuseblk: with -o fsname= and no subtype, libfuse
 * mounts type "fuse", so the type cannot tell ours apart; the device can.
 * @found, if not NULL, gets the device of the last (topmost) such mount.
 */
static bool kc_fuse_mounted(const char *path, const char *dev,
			    char found[32])
{
	char line[8192], *f[5], *sep, *type, *save;
	bool ret = false;
	FILE *mi = fopen("/proc/self/mountinfo", "r");
	int i;

	while (mi && fgets(line, sizeof(line), mi)) {
		sep = strstr(line, " - ");
		if (!sep)
			continue;
		type = sep + 3;
		for (i = 0, f[0] = strtok_r(line, " ", &save); i < 4 && f[i];)
			f[++i] = strtok_r(NULL, " ", &save);
		if (i < 4 || !f[4] || (strncmp(type, "fuse ", 5) &&
				       strncmp(type, "fuse.", 5) &&
				       strncmp(type, "fuseblk ", 8)))
			continue;
		kc_unescape(f[4]);
		if (strcmp(f[4], path) || (*dev && strcmp(f[2], dev)))
			continue;
		ret = true;
		if (found)
			snprintf(found, 32, "%s", f[2]);
	}
	if (mi)
		fclose(mi);
	return ret;
}

/*
 * The lock's record, as its holder wrote it: "PID\nMOUNTPOINT\n", and
 * once mounted "MAJOR:MINOR\n", the device of its mount (kc_lock_record()).
 */
struct kc_holder {
	char	buf[PATH_MAX + 96];
	char	*pid, *mnt, *dev;
};

static void kc_holder_read(int fd, struct kc_holder *h)
{
	ssize_t n = pread(fd, h->buf, sizeof(h->buf) - 1, 0);
	char *p = h->buf, *field[3];
	int i;

	h->buf[n > 0 ? n : 0] = 0;
	for (i = 0; i < 3; i++) {
		field[i] = p;
		p += strcspn(p, "\n");
		if (*p)
			*p++ = 0;
	}
	h->pid = field[0];
	h->mnt = field[1];
	h->dev = field[2];
}

/*
 * The lock is held.  If its holder's mount is gone, the holder is only
 * finishing its unmount (sealing maps): wait for it, up to a minute.
 * If it still serves its mount, the cache is in use: say so at once.
 */
static int kc_lock_wait(struct kc_fs *fs)
{
	struct kc_holder h;
	int tries;

	for (tries = 0; tries < 1200; tries++) {
		kc_holder_read(fs->lock_fd, &h);
		if (*h.mnt && kc_fuse_mounted(h.mnt, h.dev, NULL))
			break;
		usleep(50000);
		if (!flock(fs->lock_fd, LOCK_EX | LOCK_NB))
			return 0;
	}
	return kc_fail("cache directory '%s' is in use by another " KC_NAME
		       " (pid %s%s%s)", fs->cfg.cache_dir, *h.pid ? h.pid : "?",
		       *h.mnt ? ", mounted on " : "", h.mnt);
}

/* Write the lock's record; @dev: our mount's device, or "" (not yet). */
static void kc_lock_record(struct kc_fs *fs, const char *dev)
{
	char info[PATH_MAX + 96];
	int len;

	len = snprintf(info, sizeof(info), "%ld\n%s\n%s%s", (long)getpid(),
		       fs->cfg.mountpoint, dev, *dev ? "\n" : "");
	if (ftruncate(fs->lock_fd, 0) || pwrite(fs->lock_fd, info, len, 0) < 0)
		kc_warn("warning: cannot write %s", KC_LOCK_FILE);
}

/* Exclusive use of the cache directory while mounted. */
static int kc_lock_cache(struct kc_fs *fs)
{
	fs->lock_fd = kmirror_cachedir_open(fs->cache_fd, KC_LOCK_FILE,
					    O_RDWR | O_CREAT);
	if (fs->lock_fd < 0)
		return kc_fail("cannot use %s/%s: %s", fs->cfg.cache_dir,
			       KC_LOCK_FILE,
			       kmirror_cachedir_strerror(fs->lock_fd));
	if (flock(fs->lock_fd, LOCK_EX | LOCK_NB) && kc_lock_wait(fs))
		return -1;
	kc_lock_record(fs, "");
	return 0;
}

static int kc_open_cache(struct kc_fs *fs)
{
	struct fscache_cache_params params = {
		.lru_timeout_ms = -1, .lru_max = fs->object_budget };
	const char *dir = fs->cfg.cache_dir;
	char self[64];
	int ret;

	if (kc_open_cache_dir(fs) || kc_probe_cache_dir(fs))
		return -1;
	/* The very directory checked above, whatever its path names now. */
	kc_procname(self, sizeof(self), fs->cache_fd);
	ret = fscache_cache_open(self, &params, &fs->cache);
	if (ret == -ENOTDIR)
		return kc_fail("'%s' is not a cachefiles-layout cache (it is "
			       "not empty and has no cache/ directory)", dir);
	if (ret == -EOPNOTSUPP)
		return kc_fail("cache directory '%s' is on a filesystem "
			       "without user extended attributes", dir);
	if (ret == -ELOOP)
		return kc_fail("cache directory '%s': its %s/ is a symbolic "
			       "link (not followed): refused; remove it", dir,
			       kc_which_link(fs->cache_fd));
	if (ret)
		return kc_fail("cannot open cache '%s': %s", dir,
			       strerror(-ret));
	if (kc_lock_cache(fs))
		return -1;
	ret = kc_sums_open(fs);
	if (ret)
		return kc_fail("cannot use %s/%s: %s", dir, KC_SUMS_DIR,
			       kmirror_cachedir_strerror(ret));
	return 0;
}

/* The housekeeper's rounds after culling (cull.c cannot name them). */
static void kc_chores(struct kc_fs *fs)
{
	kc_itable_evict(fs);
	kc_fd_reserve_fill(fs);
	kc_offline_tick(fs);
	kc_meta_flush(fs);
	kc_stats_write_if_changed(fs);
	kc_index_checkpoint(fs);
}

static const struct kc_cull_ops kc_cull_ops = {
	.pin		= kc_inode_pin,
	.unpin		= kc_inode_unpin,
	.cull		= kc_cache_cull,
	.last_used	= kc_cache_last_used,
	.chores		= kc_chores,
};

static int kc_open_volume(struct kc_fs *fs)
{
	struct stat st;
	int ret;

	if (fstat(fs->root.fd, &st))
		return kc_fail("source: %s", strerror(errno));
	fs->volume_key = fs->cfg.tag ? strdup(fs->cfg.tag) :
				       kc_default_volume_key(fs->cfg.source, &st);
	if (!fs->volume_key)
		return kc_fail("out of memory");
	fs->volume = fscache_acquire_volume(fs->cache, fs->volume_key, NULL, 0);
	if (!fs->volume)
		return kc_fail("cannot use volume '%s' in the cache: %s",
			       fs->volume_key,
			       kmirror_cachedir_strerror(-errno));
	fs->cull_ops = &kc_cull_ops;
	ret = kc_index_build(fs);
	if (ret)
		return kc_fail("cannot index cache '%s': %s",
			       fs->cfg.cache_dir,
			       kmirror_cachedir_strerror(ret));
	ret = kc_meta_open(fs);
	if (ret)
		return kc_fail("cannot use %s/%s: %s", fs->cfg.cache_dir,
			       KC_META_DIR, kmirror_cachedir_strerror(ret));
	return 0;
}

static int kc_mount(struct kc_fs *fs, struct fuse_args *args)
{
	char dev[32];

	fs->se = fuse_session_new(args, &kc_ops, sizeof(kc_ops), fs);
	if (!fs->se)
		return kc_fail("bad FUSE options (see --help)");
	if (fuse_set_signal_handlers(fs->se))
		return kc_fail("cannot set signal handlers");
	/* The control socket first: once mounted, kmirror cache pin works. */
	if (kc_control_start(fs)) {
		fuse_remove_signal_handlers(fs->se);
		return kc_fail("cannot start the control socket's thread");
	}
	if (fuse_session_mount(fs->se, fs->cfg.mountpoint)) {
		fuse_remove_signal_handlers(fs->se);
		kc_control_stop(fs);
		return kc_fail("cannot mount on '%s'", fs->cfg.mountpoint);
	}
	/* A daemon wanting the cache tells our mount by its device. */
	if (kc_fuse_mounted(fs->cfg.mountpoint, "", dev))
		kc_lock_record(fs, dev);
	/* The fill queues first: the housekeeper's statistics ask them. */
	if (kc_behind_start(fs) || kc_settle_start(fs) ||
	    kc_housekeeper_start(fs) || kc_notifier_start(fs)) {
		fuse_session_unmount(fs->se);
		fuse_remove_signal_handlers(fs->se);
		kc_control_stop(fs);
		kc_housekeeper_stop(fs);
		kc_notifier_stop(fs);
		kc_settle_stop(fs);
		kc_behind_stop(fs);
		return kc_fail("cannot start the housekeeper threads");
	}
	kc_stats_write(fs, true);
	return 0;
}

static int kc_loop(struct kc_fs *fs)
{
	struct fuse_loop_config *config;
	int ret;

	if (fs->cfg.singlethread)
		return fuse_session_loop(fs->se);
	config = fuse_loop_cfg_create();
	if (!config)
		return -1;
	fuse_loop_cfg_set_clone_fd(config, fs->cfg.clone_fd);
	if (fs->cfg.max_idle_threads != UINT_MAX)	/* UINT_MAX: not given */
		fuse_loop_cfg_set_idle_threads(config,
					       fs->cfg.max_idle_threads);
	fuse_loop_cfg_set_max_threads(config, fs->cfg.max_threads);
	ret = fuse_session_loop_mt(fs->se, config);
	fuse_loop_cfg_destroy(config);
	return ret;
}

/* Undo whatever of the start-up happened, in reverse. */
static void kc_teardown(struct kc_fs *fs, bool mounted)
{
	if (mounted) {
		fuse_session_unmount(fs->se);
		fuse_remove_signal_handlers(fs->se);
		kc_control_stop(fs);
		kc_housekeeper_stop(fs);
		kc_notifier_stop(fs);
		kc_settle_stop(fs);	/* drops what waits */
		kc_behind_stop(fs);	/* stores what is queued */
	}
	if (fs->se)
		fuse_session_destroy(fs->se);
	kc_handles_close(fs);
	if (fs->itable.bucket)
		kc_itable_destroy(fs);
	kc_meta_close(fs);		/* written back */
	if (mounted)
		kc_stats_write(fs, false);
	kc_index_release(fs);
	if (fs->volume)
		fscache_relinquish_volume(fs->volume, NULL, false);
	if (fs->cache)
		fscache_cache_close(fs->cache);
	/* Every object is on disk now: the index file can say what is. */
	if (mounted)
		kc_index_close(fs);
	kc_index_destroy(fs);
	if (fs->sums_fd >= 0)
		close(fs->sums_fd);
	if (fs->lock_fd >= 0)
		close(fs->lock_fd);
	if (fs->cache_fd >= 0)
		close(fs->cache_fd);
	if (fs->root.fd >= 0)
		close(fs->root.fd);
	kc_fd_reserve_close(fs);
}

/*
 * Raise the soft RLIMIT_NOFILE to the hard one, and split what it allows
 * beyond KC_FD_FIXED: a quarter for inodes the kernel looked up (inode.c
 * evicts past it, with some lag), an eighth for unused cache objects left
 * open (libkmirror's lru_max), the rest for open files (a source file
 * and a cache object each) and what eviction has not caught up with.
 */
static void kc_fd_budget(struct kc_fs *fs)
{
	struct rlimit rl;
	rlim_t n = 1024;

	if (!getrlimit(RLIMIT_NOFILE, &rl)) {
		if (rl.rlim_cur < rl.rlim_max) {
			rl.rlim_cur = rl.rlim_max;
			setrlimit(RLIMIT_NOFILE, &rl);
			getrlimit(RLIMIT_NOFILE, &rl);
		}
		n = rl.rlim_cur;
	}
	if (n > KC_FD_MAX)
		n = KC_FD_MAX;
	n = n > 2 * KC_FD_FIXED ? n - KC_FD_FIXED : KC_FD_FIXED;
	fs->inode_budget = n / 4;
	fs->object_budget = n / 8;
}

/* Make a path absolute (the daemon leaves the working directory). */
static void kc_absolute(char **path)
{
	char *real = realpath(*path, NULL);

	if (real) {
		free(*path);
		*path = real;
	}
}

static void kc_config_free(struct kc_config *cfg)
{
	free(cfg->source);
	free(cfg->mountpoint);
	free(cfg->cache_dir);
	free(cfg->tag);
}

static int kc_start(struct kc_fs *fs, struct fuse_args *args, int notify)
{
	bool mounted = false;
	int ret = 1;

	if (kc_scratch_init() || kc_creds_init() || kc_itable_init(fs) ||
	    kc_runners_init(fs)) {
		kc_fail("cannot start: %s", strerror(errno ? errno : ENOMEM));
		goto out;
	}
	if (kc_open_source(fs) || kc_open_cache(fs) || kc_open_volume(fs) ||
	    kc_mount(fs, args))
		goto out;
	mounted = true;
	if (notify >= 0)
		kc_daemon_ready(notify);
	ret = kc_loop(fs);
	/* libfuse reports the signal that ended the loop: a clean unmount. */
	ret = ret == SIGTERM || ret == SIGINT || ret == SIGHUP ? 0 : !!ret;
out:
	kc_teardown(fs, mounted);
	kc_warn_flush();	/* what the rate limits held back */
	kc_runners_stop(fs);
	kc_creds_fini();
	kc_scratch_fini();
	return ret;
}

int main(int argc, char *argv[])
{
	struct fuse_args args = FUSE_ARGS_INIT(argc, argv);
	struct fuse_cmdline_opts opts;
	struct kc_fs *fs = calloc(1, sizeof(*fs));
	int notify = -1, ret;

	if (!fs)
		return 1;
	fs->root.fd = fs->cache_fd = fs->lock_fd = fs->sums_fd = -1;
	kc_handles_init(fs);
	ret = kc_parse_args(&args, &fs->cfg, &opts);
	if (ret) {
		ret = ret > 0 ? 0 : 1;
		goto out;
	}
	fs->attr_timeout_ns = fs->cfg.attr_timeout * 1e9;
	kc_absolute(&fs->cfg.source);
	kc_absolute(&fs->cfg.cache_dir);
	kc_absolute(&fs->cfg.mountpoint);
	umask(0);	/* the kernel applied the caller's umask already */
	kc_fd_budget(fs);
	ret = 1;
	if (!fs->cfg.foreground && kc_daemon_fork(&notify))
		goto out;
	ret = kc_start(fs, &args, notify);
out:
	kc_config_free(&fs->cfg);
	fuse_opt_free_args(&args);
	free(fs->volume_key);
	free(fs);
	return ret;
}
