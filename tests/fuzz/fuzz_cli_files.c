// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the files the kmirror CLI opens by name, the way
 * someone else may have planted them.  The first byte picks what stands
 * at the name (a regular file, a symlink to a secret, a FIFO, a
 * directory, a hard link to a secret, ...), the second a size bound, the
 * rest is the file's contents.  `cache stats` reads it with
 * kmirror_cachedir_read() and prints it escaped; `cache put` opens it
 * with km_put_open().  Invariants: only a regular file itself is read,
 * all of it when it fits the bound and -EFBIG when not; nothing blocks;
 * the secret behind a symlink or hard link never comes back; the printed
 * text is printable UTF-8 and newlines.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache_put.h"
#include "fuzz_cli.h"
#include "kmirror/cachedir.h"

enum kind { REGULAR, SYMLINK, FIFO, DIRECTORY, DIR_LINK, DANGLING, HARDLINK,
	    KINDS };

static char dir[64];
static int dfd = -1;

static void cleanup(void)
{
	if (unlinkat(dfd, "f", 0) && errno == EISDIR)
		unlinkat(dfd, "f", AT_REMOVEDIR);
	unlinkat(dfd, "secret", 0);
	close(dfd);
	rmdir(dir);
}

static void setup(void)
{
	int fd;

	snprintf(dir, sizeof(dir), "/tmp/kmirror-fuzz-files.%d", getpid());
	CHECK(!mkdir(dir, 0700) || errno == EEXIST, "mkdir %s", dir);
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	CHECK(dfd >= 0, "open %s", dir);
	fd = openat(dfd, "secret", O_WRONLY | O_CREAT | O_TRUNC, 0600);
	CHECK(fd >= 0 && write(fd, "SECRET", 6) == 6, "secret");
	close(fd);
	atexit(cleanup);
}

/* Put a @kind at "f" under dir, with @len bytes of @data if regular. */
static void plant(enum kind kind, const uint8_t *data, size_t len)
{
	int fd;

	if (unlinkat(dfd, "f", 0) && errno == EISDIR)
		unlinkat(dfd, "f", AT_REMOVEDIR);
	switch (kind) {
	case REGULAR:
		fd = openat(dfd, "f", O_WRONLY | O_CREAT | O_EXCL, 0600);
		CHECK(fd >= 0 && write(fd, data, len) == (ssize_t)len, "write");
		close(fd);
		break;
	case SYMLINK:
		CHECK(!symlinkat("secret", dfd, "f"), "symlink");
		break;
	case FIFO:
		CHECK(!mkfifoat(dfd, "f", 0600), "mkfifo");
		break;
	case DIRECTORY:
		CHECK(!mkdirat(dfd, "f", 0700), "mkdir");
		break;
	case DIR_LINK:
		CHECK(!symlinkat(".", dfd, "f"), "symlink");
		break;
	case HARDLINK:
		CHECK(!linkat(dfd, "secret", dfd, "f", 0), "link");
		break;
	default:
		CHECK(!symlinkat("nowhere", dfd, "f"), "symlink");
		break;
	}
}

static void check_stats(enum kind kind, const uint8_t *data, size_t len,
			size_t bound)
{
	char *buf = NULL, *text = NULL;
	size_t got = 0, tlen = 0;
	int ret = kmirror_cachedir_read(dfd, "f", bound, &buf, &got);
	FILE *f;

	if (kind == REGULAR && len <= bound)
		CHECK(!ret && got == len && !memcmp(buf, data, len),
		      "regular file of %zu (bound %zu): %d, %zu read", len,
		      bound, ret, got);
	else if (kind == REGULAR)
		CHECK(ret == -EFBIG, "%zu bytes over a bound of %zu: %d", len,
		      bound, ret);
	else if (kind == FIFO || kind == DIRECTORY)
		CHECK(ret == -EINVAL, "kind %d read: %d", kind, ret);
	else if (kind == HARDLINK)
		CHECK(ret == -EMLINK, "hard link read: %d", ret);
	else
		CHECK(ret == -ELOOP, "symlink (kind %d) followed: %d", kind, ret);
	if (!ret) {
		f = open_memstream(&text, &tlen);
		km_put_text_with(f, buf, got, '\n', "\n");
		fclose(f);
		fz_check_text(text, tlen, true);
		free(text);
	}
	free(buf);
}

static void check_put_file(enum kind kind, size_t len)
{
	char path[96];
	struct fz_errors e;
	int64_t size = -1;
	int fd = -1, ret;

	snprintf(path, sizeof(path), "%s/f", dir);
	fz_errors_begin(&e);
	ret = km_put_open(path, &fd, &size);
	fz_errors_end(&e, ret);
	/* The user's own input file: a second name of a file is fine. */
	CHECK((ret == KM_EXIT_OK) == (kind == REGULAR || kind == HARDLINK),
	      "kind %d: %d", kind, ret);
	if (ret)
		return;
	if (kind == HARDLINK)
		len = 6;	/* "SECRET" */
	CHECK(size == (int64_t)len, "size %lld of %zu", (long long)size, len);
	close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz in = { data, size };
	enum kind kind = (enum kind)(fz_u8(&in) % KINDS);
	size_t bound = fz_u8(&in);

	if (dfd < 0)
		setup();
	plant(kind, in.p, in.n);
	check_stats(kind, in.p, in.n, bound);
	check_put_file(kind, in.n);
	return 0;
}
