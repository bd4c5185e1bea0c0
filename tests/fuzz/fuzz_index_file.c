// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz kmirror-cachefs's index file reader (fuse-demo/cachefs/index_file.c)
 * through the mount's own entry point, kc_index_build(): the input becomes
 * DIR/kmirror-index of a scratch cache.
 *
 * A checksum guards the file, so random bytes would never get past the
 * header.  Inputs long enough to hold one get their identity fields fixed
 * up first (this cache's cache/ inode, the payload length) and the checksum
 * recomputed; an input whose length is a multiple of 7 is left as it is,
 * so the checks themselves are fuzzed too.  Whatever the file holds, the index
 * must come out consistent: every live entry on the LRU list, found by its
 * key, and the byte total the sum of its entries.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz_cachefs.h"
#include "fuzz_common.h"
#include "index.h"

/* ---- what index.c needs from the rest of the daemon ----------------- */

int kc_culler_init(struct kc_fs *fs)
{
	return 0;
}

void kc_culler_destroy(struct kc_fs *fs)
{
}

void kc_cull_kick(struct kc_fs *fs)
{
}

uint64_t kc_now_ns(void)
{
	return 0;
}

/* ---- the header, as index_file.c lays it out ------------------------ */

#define HDR_LEN		72
#define OFF_NVOL	20
#define OFF_DEV		40
#define OFF_INO		48
#define OFF_PLEN	56
#define OFF_SUM		64

static uint64_t fnv(uint64_t h, const uint8_t *p, size_t len)
{
	while (len--)
		h = (h ^ *p++) * 0x100000001b3ull;
	return h;
}

static void fix_header(uint8_t *f, size_t len, const struct stat *cache)
{
	uint64_t v, sum;

	v = cache->st_dev;
	memcpy(f + OFF_DEV, &v, 8);
	v = cache->st_ino;
	memcpy(f + OFF_INO, &v, 8);
	v = len - HDR_LEN;
	memcpy(f + OFF_PLEN, &v, 8);
	sum = fnv(0xcbf29ce484222325ull, f + HDR_LEN, len - HDR_LEN);
	sum = fnv(sum, f + OFF_NVOL, OFF_SUM - OFF_NVOL);
	memcpy(f + OFF_SUM, &sum, 8);
}

static char dir[] = "/tmp/kmirror-fuzz-index-XXXXXX";
static struct stat cache_st;
static int dir_fd = -1;

static int remove_one(const char *path, const struct stat *st, int type,
		      struct FTW *ftw)
{
	remove(path);
	return 0;
}

/* The scratch cache goes when the fuzzer exits, whatever it holds. */
static void cleanup(void)
{
	close(dir_fd);
	nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void setup(void)
{
	char path[64];

	CHECK(mkdtemp(dir), "mkdtemp: %s", strerror(errno));
	snprintf(path, sizeof(path), "%s/cache", dir);
	CHECK(!mkdir(path, 0700) && !stat(path, &cache_st), "%s", path);
	dir_fd = open(dir, O_RDONLY | O_DIRECTORY);
	CHECK(dir_fd >= 0, "open %s", dir);
	atexit(cleanup);
}

static void check_index(struct kc_index *x)
{
	int64_t bytes = 0;
	struct kc_obj *o;
	size_t n = 0;

	for (o = kc_lru_first(x); o; o = kc_lru_next(x, o), n++) {
		CHECK(kc_obj_find_locked(x, o->vol, kc_obj_key(o),
					 o->key_len) == o,
		      "entry %u not found by its key", o->id);
		CHECK(o->vol < x->nvol, "entry %u: volume %u", o->id, o->vol);
		bytes += o->bytes;
	}
	CHECK(n == x->n, "%zu on the LRU, %zu live", n, x->n);
	CHECK(bytes == atomic_load(&x->bytes), "byte total");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kc_fs fs = { .cache_fd = -1 };
	uint8_t *f = malloc(size ? size : 1);
	int fd;

	if (dir_fd < 0)
		setup();
	memcpy(f, data, size);
	if (size >= HDR_LEN && size % 7)
		fix_header(f, size, &cache_st);
	fd = openat(dir_fd, KC_INDEX_FILE, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	CHECK(fd >= 0 && write(fd, f, size) == (ssize_t)size && !close(fd),
	      "writing the index file");
	free(f);
	fs.cache_fd = dir_fd;
	fs.volume_key = "fuzz";
	if (!kc_index_build(&fs)) {
		/* Consistent whenever the lock is free, scan or not. */
		pthread_mutex_lock(&fs.index->lock);
		check_index(fs.index);
		pthread_mutex_unlock(&fs.index->lock);
	}
	kc_index_destroy(&fs);
	return 0;
}
