// SPDX-License-Identifier: GPL-2.0-only
/*
 * kmirror/cachedir.h, the one way into a cache directory: names planted
 * where a file is opened, made, replaced or read (a symlink to a file
 * outside, a FIFO, a hard link, another user's file) are refused with
 * the errno the header promises, nothing outside the directory changes,
 * and nothing blocks (an alarm would end a test that hangs).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "kmirror/cachedir.h"

#define CANARY	"precious\n"

struct env {
	char	top[64];	/* holds the cache dir "c" and "canary" */
	char	canary[96];
	int	top_fd, dfd;	/* dfd: the cache directory */
};

static int setup(void **state)
{
	struct env *e = calloc(1, sizeof(*e));
	int fd;

	if (!e)
		return -1;
	snprintf(e->top, sizeof(e->top), "/tmp/kmirror-cachedir.XXXXXX");
	if (!mkdtemp(e->top))
		return -1;
	snprintf(e->canary, sizeof(e->canary), "%s/canary", e->top);
	e->top_fd = kmirror_cachedir_root(e->top);
	if (e->top_fd < 0 || mkdirat(e->top_fd, "c", 0700))
		return -1;
	e->dfd = kmirror_cachedir_open(e->top_fd, "c", O_RDONLY | O_DIRECTORY);
	fd = openat(e->top_fd, "canary", O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (e->dfd < 0 || fd < 0 || write(fd, CANARY, 9) != 9)
		return -1;
	close(fd);
	*state = e;
	alarm(20);
	return 0;
}

static int rm_tree(int dfd, const char *name);

static int teardown(void **state)
{
	struct env *e = *state;

	alarm(0);
	close(e->dfd);
	rm_tree(e->top_fd, "c");
	unlinkat(e->top_fd, "canary", 0);
	close(e->top_fd);
	rmdir(e->top);
	free(e);
	return 0;
}

/* Remove @name of @dfd and everything under it, never following. */
static int rm_tree(int dfd, const char *name)
{
	struct dirent *de;
	DIR *d;
	int fd;

	if (!unlinkat(dfd, name, 0) || errno != EISDIR)
		return 0;
	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
	d = fd >= 0 ? fdopendir(fd) : NULL;
	while (d && (de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			rm_tree(fd, de->d_name);
	if (d)
		closedir(d);
	return unlinkat(dfd, name, AT_REMOVEDIR);
}

static void assert_canary(const struct env *e)
{
	char buf[32] = "";
	int fd = open(e->canary, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(read(fd, buf, sizeof(buf)), 9);
	assert_string_equal(buf, CANARY);
	close(fd);
}

static void put(int dfd, const char *name, const char *text)
{
	int fd = openat(dfd, name, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static void test_symlink(void **state)
{
	struct env *e = *state;
	struct stat st;

	assert_int_equal(symlinkat(e->canary, e->dfd, "ln"), 0);
	assert_int_equal(kmirror_cachedir_open(e->dfd, "ln", O_WRONLY |
					       O_TRUNC), -ELOOP);
	assert_int_equal(kmirror_cachedir_open(e->dfd, "ln", O_RDWR | O_CREAT),
			 -ELOOP);
	assert_int_equal(kmirror_cachedir_open(e->dfd, "ln", O_PATH), -ELOOP);
	assert_int_equal(kmirror_cachedir_mkdir(e->dfd, "ln", NULL), -ELOOP);
	/* A symlinked directory on the way, and a dangling one. */
	assert_int_equal(symlinkat(e->top, e->dfd, "d"), 0);
	assert_int_equal(kmirror_cachedir_open(e->dfd, "d/canary", O_RDWR),
			 -ELOOP);
	assert_int_equal(kmirror_cachedir_stat(e->dfd, "d/canary", &st),
			 -ELOOP);
	assert_int_equal(kmirror_cachedir_unlink(e->dfd, "d/canary", 0),
			 -ELOOP);
	assert_int_equal(kmirror_cachedir_open(e->dfd, "d", O_RDONLY |
					       O_DIRECTORY), -ELOOP);
	assert_int_equal(symlinkat("/nonexistent/x", e->dfd, "x"), 0);
	assert_int_equal(kmirror_cachedir_open(e->dfd, "x", O_WRONLY |
					       O_CREAT), -ELOOP);
	assert_int_equal(kmirror_cachedir_stat(e->dfd, "ln", &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(kmirror_cachedir_unlink(e->dfd, "ln", 0), 0);
	assert_canary(e);
}

static void test_escape(void **state)
{
	struct env *e = *state;

	assert_int_equal(kmirror_cachedir_open(e->dfd, "../canary", O_RDONLY),
			 -EXDEV);
	assert_int_equal(kmirror_cachedir_open(e->dfd, e->canary, O_RDONLY),
			 -EXDEV);
	assert_int_equal(kmirror_cachedir_unlink(e->dfd, "..", AT_REMOVEDIR),
			 -EXDEV);
	assert_int_equal(kmirror_cachedir_open(e->dfd, "", O_RDONLY), -ENOENT);
	assert_canary(e);
}

static void test_fifo(void **state)
{
	struct env *e = *state;
	char *buf = NULL;
	size_t len;

	assert_int_equal(mkfifoat(e->dfd, "f", 0600), 0);
	assert_int_equal(kmirror_cachedir_open(e->dfd, "f", O_RDONLY), -EINVAL);
	assert_int_equal(kmirror_cachedir_open(e->dfd, "f", O_WRONLY), -EINVAL);
	assert_int_equal(kmirror_cachedir_open(e->dfd, "f", O_RDWR | O_CREAT),
			 -EINVAL);
	assert_int_equal(kmirror_cachedir_read(e->dfd, "f", 100, &buf, &len),
			 -EINVAL);
	assert_int_equal(kmirror_cachedir_mkdir(e->dfd, "f", NULL), -ENOTDIR);
	assert_int_equal(kmirror_cachedir_open(e->dfd, "f/x", O_RDONLY),
			 -ENOTDIR);
	assert_int_equal(kmirror_cachedir_connect(e->dfd, "f"), -ENOTSOCK);
	assert_null(buf);
	/* A directory where a file is wanted. */
	assert_int_equal(mkdirat(e->dfd, "sub", 0700), 0);
	assert_int_equal(kmirror_cachedir_open(e->dfd, "sub", O_RDONLY),
			 -EINVAL);
	assert_int_equal(kmirror_cachedir_open(e->dfd, "sub", O_WRONLY),
			 -EINVAL);
}

static void test_hard_link(void **state)
{
	struct env *e = *state;
	char *buf = NULL;
	size_t len;

	assert_int_equal(linkat(e->top_fd, "canary", e->dfd, "a", 0), 0);
	assert_int_equal(kmirror_cachedir_open(e->dfd, "a", O_WRONLY |
					       O_TRUNC), -EMLINK);
	assert_int_equal(kmirror_cachedir_open(e->dfd, "a", O_RDWR | O_CREAT |
					       O_TRUNC), -EMLINK);
	assert_int_equal(kmirror_cachedir_read(e->dfd, "a", 100, &buf, &len),
			 -EMLINK);
	assert_canary(e);
}

static void test_owner(void **state)
{
	struct env *e = *state;
	struct stat st;
	int fd;

	if (geteuid() != 0)
		skip();	/* only root can give a file away */
	put(e->dfd, "a", "theirs");
	assert_int_equal(fchownat(e->dfd, "a", 65534, 65534, 0), 0);
	assert_int_equal(kmirror_cachedir_open(e->dfd, "a", O_RDONLY), -EPERM);
	assert_int_equal(mkdirat(e->dfd, "sub", 0700), 0);
	assert_int_equal(fchownat(e->dfd, "sub", 65534, 65534, 0), 0);
	assert_int_equal(kmirror_cachedir_open(e->dfd, "sub/b", O_RDWR |
					       O_CREAT), -EPERM);
	/* The cache of another user: what root makes there is theirs. */
	assert_int_equal(fchown(e->dfd, 65534, 65534), 0);
	fd = kmirror_cachedir_open(e->dfd, "b", O_RDWR | O_CREAT);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_uid, 65534);
	close(fd);
	fd = kmirror_cachedir_mkdir(e->dfd, "d", NULL);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_uid, 65534);
	close(fd);
	assert_int_equal(kmirror_cachedir_write(e->dfd, "x", NULL, "y", 1, 0), 0);
	assert_int_equal(kmirror_cachedir_stat(e->dfd, "x", &st), 0);
	assert_int_equal(st.st_uid, 65534);
	fd = kmirror_cachedir_open(e->dfd, "a", O_RDONLY);
	assert_true(fd >= 0);
	close(fd);
}

static void test_temp(void **state)
{
	struct env *e = *state;
	struct kmirror_cachedir_temp t;
	char *buf = NULL;
	struct stat st;
	size_t len;

	put(e->dfd, "f", "old");
	/* A symlink planted by the temporary name is removed, unfollowed. */
	assert_int_equal(symlinkat(e->canary, e->dfd, "f.tmp"), 0);
	assert_true(kmirror_cachedir_temp(&t, e->dfd, "f", NULL) >= 0);
	assert_int_equal(write(t.fd, "new", 3), 3);
	kmirror_cachedir_abort(&t);
	assert_int_equal(kmirror_cachedir_stat(e->dfd, "f.tmp", &st), -ENOENT);
	assert_int_equal(kmirror_cachedir_read(e->dfd, "f", 100, &buf, &len),
			 0);
	assert_string_equal(buf, "old");
	free(buf);
	/* A FIFO there too; then the new file replaces the old. */
	assert_int_equal(mkfifoat(e->dfd, "f.tmp", 0600), 0);
	assert_true(kmirror_cachedir_temp(&t, e->dfd, "f", NULL) >= 0);
	assert_int_equal(write(t.fd, "new", 3), 3);
	assert_int_equal(kmirror_cachedir_commit(&t, KMIRROR_CACHEDIR_SYNC), 0);
	assert_int_equal(kmirror_cachedir_read(e->dfd, "f", 100, &buf, &len),
			 0);
	assert_int_equal(len, 3);
	assert_string_equal(buf, "new");
	free(buf);
	assert_int_equal(kmirror_cachedir_read(e->dfd, "f", 2, &buf, &len),
			 -EFBIG);
	assert_int_equal(kmirror_cachedir_stat(e->dfd, "f.tmp", &st), -ENOENT);
	/* O_EXCL: an existing file is never opened as new. */
	assert_int_equal(kmirror_cachedir_open(e->dfd, "f", O_RDWR | O_CREAT |
					       O_EXCL), -EEXIST);
	assert_int_equal(kmirror_cachedir_temp(&t, e->dfd, "d/f", NULL),
			 -EXDEV);
	assert_canary(e);
}

static void test_rename_link(void **state)
{
	struct env *e = *state;
	struct stat a, b;
	int fd, sub;

	sub = kmirror_cachedir_mkdir(e->dfd, "sub", NULL);
	assert_true(sub >= 0);
	fd = kmirror_cachedir_tmpfile(e->dfd, "sub", O_RDWR);
	if (fd == -EOPNOTSUPP) {
		close(sub);
		skip();
	}
	assert_true(fd >= 0);
	assert_int_equal(kmirror_cachedir_link(fd, sub, "a"), 0);
	assert_int_equal(kmirror_cachedir_link(fd, e->dfd, "sub/a"), -EEXIST);
	assert_int_equal(kmirror_cachedir_rename(e->dfd, "sub/a", sub, "b", 0),
			 0);
	assert_int_equal(kmirror_cachedir_stat(sub, "b", &a), 0);
	assert_int_equal(fstat(fd, &b), 0);
	assert_int_equal(a.st_ino, b.st_ino);
	assert_int_equal(symlinkat(".", e->dfd, "ln"), 0);
	assert_int_equal(kmirror_cachedir_rename(e->dfd, "sub/b", e->dfd,
						 "ln/b", 0), -ELOOP);
	close(fd);
	close(sub);
}

static void test_socket(void **state)
{
	struct env *e = *state;
	struct sockaddr_un sa;
	socklen_t len;
	int s = socket(AF_UNIX, SOCK_STREAM, 0), c;

	assert_int_equal(kmirror_cachedir_sockaddr(e->dfd, "s", &sa, &len), 0);
	assert_int_equal(bind(s, (struct sockaddr *)&sa, len), 0);
	assert_int_equal(listen(s, 1), 0);
	c = kmirror_cachedir_connect(e->dfd, "s");
	assert_true(c >= 0);
	close(c);
	assert_int_equal(symlinkat("s", e->dfd, "ln"), 0);
	assert_int_equal(kmirror_cachedir_connect(e->dfd, "ln"), -ELOOP);
	assert_int_equal(kmirror_cachedir_connect(e->dfd, "x"), -ENOENT);
	assert_int_equal(kmirror_cachedir_sockaddr(e->dfd, "../s", &sa, &len),
			 -EXDEV);
	close(s);
}

/* A listener whose backlog is full: connect waits the time given, no more. */
static void test_socket_full(void **state)
{
	struct env *e = *state;
	struct sockaddr_un sa;
	socklen_t len;
	int s = socket(AF_UNIX, SOCK_STREAM, 0), c;

	assert_int_equal(kmirror_cachedir_sockaddr(e->dfd, "s", &sa, &len), 0);
	assert_int_equal(bind(s, (struct sockaddr *)&sa, len), 0);
	assert_int_equal(listen(s, 0), 0);
	c = kmirror_cachedir_connect_within(e->dfd, "s", 100);
	assert_true(c >= 0);		/* the one the backlog holds */
	assert_int_equal(kmirror_cachedir_connect_within(e->dfd, "s", 100),
			 -ETIMEDOUT);
	close(c);
	close(s);
}

static void test_strerror(void **state)
{
	static const int errs[] = { -ELOOP, -EINVAL, -EMLINK, -EPERM,
				    -ENOTDIR, -EXDEV };
	const char *a, *b;
	size_t i, j;

	(void)state;
	for (i = 0; i < sizeof(errs) / sizeof(errs[0]); i++) {
		a = kmirror_cachedir_strerror(errs[i]);
		assert_true(kmirror_cachedir_refused(errs[i]));
		for (j = 0; j < i; j++) {
			b = kmirror_cachedir_strerror(errs[j]);
			assert_string_not_equal(a, b);
		}
	}
	a = kmirror_cachedir_strerror(-ELOOP);
	assert_non_null(strstr(a, "symbolic"));
	a = kmirror_cachedir_strerror(-EMLINK);
	assert_non_null(strstr(a, "hard link"));
	assert_false(kmirror_cachedir_refused(-ENOENT));
	assert_string_equal(kmirror_cachedir_strerror(-ENOENT),
			    strerror(ENOENT));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_symlink, setup, teardown),
		cmocka_unit_test_setup_teardown(test_escape, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fifo, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hard_link, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_owner, setup, teardown),
		cmocka_unit_test_setup_teardown(test_temp, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rename_link, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_socket, setup, teardown),
		cmocka_unit_test_setup_teardown(test_socket_full, setup,
						teardown),
		cmocka_unit_test(test_strerror),
	};

	return cmocka_run_group_tests_name("cachedir", tests, NULL, NULL);
}
