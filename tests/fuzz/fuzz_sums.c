// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz kmirror-cachefs's checksum sidecar reader (fuse-demo/format/
 * sums_file.c), which the daemon and `kmirror cache check` run on
 * whatever DIR/kmirror-sums holds:
 *  - kc_sums_parse() ends without a fault, and what it accepts is a fixed
 *    point: its header, sums and a fresh CRC give back the input's bytes;
 *  - kc_sums_load() of the same bytes from a file, into a map whose
 *    present granules the input's first byte chooses, bound to the
 *    object the header names (so the sums are reached), ends without a
 *    fault, and on success every present granule has the sum read.
 *  - the same bytes behind a symlink or a hard link planted by the
 *    sidecar's name are never loaded (kmirror/cachedir.h).
 * The input is a mode byte, then the sidecar.  A CRC is a wall no
 * mutation climbs: with bit 0 of the mode set, the sidecar's trailing CRC
 * is made right first, so that the header and sums behind it are fuzzed.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "crc32c.h"
#include "fuzz_common.h"
#include "kmap.h"

static int fz_dir = -1;
static char fz_path[] = "/tmp/kmirror-fuzz-sums.XXXXXX";

static void fz_cleanup(void)
{
	unlinkat(fz_dir, "s", 0);
	unlinkat(fz_dir, "t", 0);
	rmdir(fz_path);
}

static void fz_roundtrip(const uint8_t *data, size_t size,
			 const struct kc_sums_hdr *h, const uint32_t *sums)
{
	uint8_t *again = malloc(size);
	uint32_t crc;

	CHECK(again, "out of memory");
	memcpy(again, h, sizeof(*h));
	memcpy(again + sizeof(*h), sums, h->n * 4);
	crc = kc_crc32c(0, again, size - 4);
	memcpy(again + size - 4, &crc, 4);
	CHECK(!memcmp(again, data, size), "accepted sums are no fixed point");
	free(again);
}

/* The object the header @h names, as kc_sums_load() wants it. */
static void fz_object(const struct kc_sums_hdr *h, struct stat *st)
{
	memset(st, 0, sizeof(*st));
	st->st_ino = h->ino;
	st->st_mtim.tv_sec = h->mtime_sec;
	st->st_mtim.tv_nsec = h->mtime_nsec;
}

static void fz_load(uint8_t mode, const uint8_t *data, size_t size,
		    const struct kc_sums_hdr *h, const uint32_t *sums)
{
	struct kc_sidecar sc = { .verify = true, .name = "s" };
	struct kc_map m;
	struct stat st;
	uint64_t g;
	int fd;

	sc.dirfd = fz_dir;
	fd = openat(fz_dir, "s", O_WRONLY | O_CREAT | O_TRUNC, 0600);
	CHECK(fd >= 0 && write(fd, data, size) == (ssize_t)size, "write");
	close(fd);
	kc_map_init(&m, h ? h->shift : 12);
	/* Up to 7 present granules, some maybe past the sidecar's end. */
	for (g = 0; g < 7; g++)
		if (mode & (2u << g))
			CHECK(!kc_map_set(&m, g * (h ? h->n / 4 + 1 : 1), true),
			      "map");
	if (h)
		fz_object(h, &st);
	else
		memset(&st, 0, sizeof(st));
	if (!kc_sums_load(&m, &sc, &st))
		for (g = 0; g < m.nsum; g++)
			CHECK(!kc_map_test(&m, g) || kc_map_sum(&m, g) ==
			      sums[g], "granule %llu: another sum",
			      (unsigned long long)g);
	kc_map_destroy(&m);
}

/* Load the sidecar @name, bound to the object the header @h names. */
static int fz_load_name(const char *name, const struct kc_sums_hdr *h)
{
	struct kc_sidecar sc = { .verify = true };
	struct kc_map m;
	struct stat st;
	int ret;

	sc.dirfd = fz_dir;
	snprintf(sc.name, sizeof(sc.name), "%s", name);
	fz_object(h, &st);
	kc_map_init(&m, h->shift);
	ret = kc_sums_load(&m, &sc, &st);
	kc_map_destroy(&m);
	return ret;
}

/*
 * The sidecar @data (its header @h) as the file "t", which loads, then
 * "s" as a symlink and as a hard link to it, which must not.
 */
static void fz_planted(const uint8_t *data, size_t size,
		       const struct kc_sums_hdr *h)
{
	int fd, i;

	fd = openat(fz_dir, "t", O_WRONLY | O_CREAT | O_TRUNC, 0600);
	CHECK(fd >= 0 && write(fd, data, size) == (ssize_t)size, "write");
	close(fd);
	if (fz_load_name("t", h))
		return;		/* not a sidecar of this object anyway */
	for (i = 0; i < 2; i++) {
		unlinkat(fz_dir, "s", 0);
		CHECK(!(i ? linkat(fz_dir, "t", fz_dir, "s", 0) :
			symlinkat("t", fz_dir, "s")), "plant");
		CHECK(fz_load_name("s", h), "a planted %s was loaded",
		      i ? "hard link" : "symlink");
	}
	unlinkat(fz_dir, "s", 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t mode = size ? data[0] : 0, *copy;
	struct kc_sums_hdr h;
	uint32_t *sums = NULL, crc;
	int ret;

	if (fz_dir < 0) {
		CHECK(mkdtemp(fz_path), "mkdtemp");
		fz_dir = open(fz_path, O_RDONLY | O_DIRECTORY);
		CHECK(fz_dir >= 0, "open %s", fz_path);
		atexit(fz_cleanup);
	}
	data += !!size;
	size -= !!size;
	copy = malloc(size ? size : 1);
	CHECK(copy, "out of memory");
	memcpy(copy, data, size);	/* exact size: ASan sees overreads */
	if (mode & 1 && size >= 4) {
		crc = kc_crc32c(0, copy, size - 4);
		memcpy(copy + size - 4, &crc, 4);
	}
	ret = kc_sums_parse(copy, size, &h, &sums);
	if (!ret)
		fz_roundtrip(copy, size, &h, sums);
	fz_load(mode, copy, size, ret ? NULL : &h, sums);
	if (!ret)
		fz_planted(copy, size, &h);
	free(sums);
	free(copy);
	return 0;
}
