// SPDX-License-Identifier: GPL-2.0-only
/*
 * fsx: random reads, writes, truncates, hole punches, fallocates, mmap
 * reads, reopens and fsyncs on one file, every result checked against an
 * in-memory model of the file (in the spirit of the classic fsx of
 * xfstests, written anew for kmirror-cachefs).
 *
 * usage: fsx [options] FILE
 *   -N OPS       operations (default 1000)
 *   -s SEED      replay a run: the seed is printed at start (default: from
 *                the clock and the pid)
 *   -l MAXLEN    largest file length in the model (default 4M)
 *   -o MAXOP     largest single read, write or size step (default 512K)
 *   -b BASE      put the model at offset BASE of the file (e.g. 4G: the
 *                file becomes sparse and every byte fsx touches lies past
 *                BASE); the file is truncated to BASE at start
 *   -R OFF:LEN   region mode: FILE already exists and holds zeros in
 *                [OFF, OFF+LEN); every operation stays inside that range
 *                and nothing changes the file's size (no truncate, no
 *                fallocate past it), so several fsx may share one file
 *   -V PATH      at the end, check that PATH (the same file as seen from
 *                the source side of the mount) holds the model's bytes
 *   -T -F -M     no truncates / no fallocate or hole punch / no mmap reads
 *   -L           log every operation on stdout
 * Sizes take K, M and G suffixes (powers of 1024).
 *
 * Exit 0: every read and the final comparisons matched the model.  Exit 1:
 * a mismatch or an unexpected error; the seed, the operation and the last
 * operations before it are printed.  Exit 2: bad usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#define HIST 32

enum fsx_op { OP_READ, OP_WRITE, OP_TRUNC, OP_PUNCH, OP_FALLOC, OP_MAPREAD,
	      OP_REOPEN, OP_FSYNC, OP_STAT, OP_NR };

static const char *const op_names[OP_NR] = {
	"read", "write", "truncate", "punch_hole", "fallocate", "mapread",
	"reopen", "fsync", "stat",
};

/* Relative frequency of each operation (zeroed when disabled). */
static unsigned int op_weight[OP_NR] = { 30, 30, 8, 5, 3, 6, 5, 3, 10 };

struct fsx_hist {
	unsigned long n;
	enum fsx_op op;
	uint64_t off, len, size_after;
};

static const char *path, *verify_path;
static int fd = -1;
static uint64_t seed, rng;
static unsigned long nops = 1000, opno;
static uint64_t maxlen = 4 << 20, maxop = 512 << 10, base;
static bool region, logops;
static uint64_t reg_off, reg_len;
static uint8_t *good, *buf;	/* model (maxlen bytes), scratch */
static uint64_t size;		/* model size (relative to base) */
static struct fsx_hist hist[HIST];

/* splitmix64: the whole run is a function of the seed. */
static uint64_t rnd(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* A uniform value in [0, n), n > 0. */
static uint64_t below(uint64_t n)
{
	return rnd() % n;
}

static void dump_history(void)
{
	unsigned long first = opno >= HIST ? opno - HIST + 1 : 1, i;

	fprintf(stderr, "fsx: last operations (offsets relative to %s):\n",
		region ? "the region" : "base");
	for (i = first; i <= opno; i++) {
		struct fsx_hist *h = &hist[i % HIST];

		if (h->n != i)
			continue;
		fprintf(stderr, "  %6lu %-10s off %#" PRIx64 " len %#" PRIx64
			" size %#" PRIx64 "\n", h->n, op_names[h->op], h->off,
			h->len, h->size_after);
	}
}

static void __attribute__((noreturn, format(printf, 1, 2)))
die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "fsx: %s: op %lu: ", path, opno);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	dump_history();
	fprintf(stderr, "fsx: FAILED; replay with -s %" PRIu64 "\n", seed);
	exit(1);
}

/* File offset of model offset @off. */
static off_t foff(uint64_t off)
{
	return (off_t)((region ? reg_off : base) + off);
}

/* The byte op @n writes at model offset @off: op and position show. */
static uint8_t pattern(unsigned long n, uint64_t off)
{
	return (uint8_t)((n * 131) ^ (off % 253) ^ (off >> 8));
}

/* Compare @len bytes read at @off with the model; die on a difference. */
static void check(const uint8_t *got, uint64_t off, uint64_t len,
		  const char *what)
{
	uint64_t i;

	if (!memcmp(got, good + off, len))
		return;
	for (i = 0; i < len && got[i] == good[off + i]; i++)
		;
	die("%s at %#" PRIx64 " len %#" PRIx64 ": first bad byte at file "
	    "offset %#jx: got %#04x, want %#04x", what, off, len,
	    (intmax_t)foff(off + i), got[i], good[off + i]);
}

/* pread exactly what is there; die on an error. */
static uint64_t full_pread(int f, uint8_t *dst, uint64_t len, off_t at)
{
	uint64_t done = 0;
	ssize_t r;

	while (done < len) {
		r = pread(f, dst + done, len - done, at + (off_t)done);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			die("pread at %#jx: %s", (intmax_t)at, strerror(errno));
		if (r == 0)
			break;
		done += (uint64_t)r;
	}
	return done;
}

static void do_read(uint64_t off, uint64_t len)
{
	uint64_t want = off >= size ? 0 : (off + len > size ? size - off : len);
	uint64_t got;

	if (region)
		want = len;
	got = full_pread(fd, buf, len, foff(off));
	if (got != want)
		die("read at %#" PRIx64 " len %#" PRIx64 ": %" PRIu64
		    " bytes, want %" PRIu64 " (model size %#" PRIx64 ")", off,
		    len, got, want, size);
	check(buf, off, got, "read");
}

static void do_write(uint64_t off, uint64_t len)
{
	uint64_t i;
	ssize_t r;

	for (i = 0; i < len; i++)
		buf[i] = pattern(opno, off + i);
	r = pwrite(fd, buf, len, foff(off));
	if (r != (ssize_t)len)
		die("pwrite at %#" PRIx64 " len %#" PRIx64 ": %s", off, len,
		    r < 0 ? strerror(errno) : "short write");
	if (off > size)
		memset(good + size, 0, off - size);
	memcpy(good + off, buf, len);
	if (off + len > size)
		size = off + len;
}

static void do_trunc(uint64_t newsize)
{
	if (ftruncate(fd, foff(newsize)))
		die("ftruncate to %#" PRIx64 ": %s", newsize, strerror(errno));
	if (newsize > size)
		memset(good + size, 0, newsize - size);
	size = newsize;
}

/* fallocate modes the file does not support switch that op off once. */
static bool falloc_unsupported(int err, enum fsx_op op)
{
	if (err != EOPNOTSUPP && err != ENOSYS)
		return false;
	printf("fsx: NOTE: %s not supported here (%s); no more of it\n",
	       op_names[op], strerror(err));
	op_weight[op] = 0;
	return true;
}

static void do_punch(uint64_t off, uint64_t len)
{
	uint64_t end = off + len > size ? size : off + len;

	if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
		      foff(off), (off_t)len)) {
		if (falloc_unsupported(errno, OP_PUNCH))
			return;
		die("punch hole at %#" PRIx64 " len %#" PRIx64 ": %s", off,
		    len, strerror(errno));
	}
	if (off < end)
		memset(good + off, 0, end - off);
}

static void do_falloc(uint64_t off, uint64_t len)
{
	if (fallocate(fd, 0, foff(off), (off_t)len)) {
		if (falloc_unsupported(errno, OP_FALLOC))
			return;
		die("fallocate at %#" PRIx64 " len %#" PRIx64 ": %s", off,
		    len, strerror(errno));
	}
	if (off + len > size) {
		memset(good + size, 0, off + len - size);
		size = off + len;
	}
}

/* Read [off, off+len) through a shared mapping of the file. */
static void do_mapread(uint64_t off, uint64_t len)
{
	long pg = sysconf(_SC_PAGESIZE);
	off_t at = foff(off), start = at & ~(off_t)(pg - 1);
	size_t maplen;
	uint8_t *p;

	if (!region && off + len > size)
		len = off >= size ? 0 : size - off;
	if (!len)
		return;
	maplen = (size_t)(at - start) + len;
	p = mmap(NULL, maplen, PROT_READ, MAP_SHARED, fd, start);
	if (p == MAP_FAILED)
		die("mmap at %#jx len %#zx: %s", (intmax_t)start, maplen,
		    strerror(errno));
	check(p + (at - start), off, len, "mapread");
	munmap(p, maplen);
}

static void open_file(int flags)
{
	fd = open(path, O_RDWR | flags, 0644);
	if (fd < 0)
		die("open: %s", strerror(errno));
}

static void do_reopen(void)
{
	if (close(fd))
		die("close: %s", strerror(errno));
	open_file(0);
}

static void do_stat(void)
{
	struct stat st;
	uint64_t want = region ? 0 : (uint64_t)foff(size);

	if (fstat(fd, &st))
		die("fstat: %s", strerror(errno));
	if (!region && (uint64_t)st.st_size != want)
		die("fstat size %#jx, want %#" PRIx64, (intmax_t)st.st_size,
		    want);
}

static enum fsx_op pick_op(void)
{
	unsigned int total = 0, i;
	uint64_t r;

	for (i = 0; i < OP_NR; i++)
		total += op_weight[i];
	r = below(total);
	for (i = 0; r >= op_weight[i]; i++)
		r -= op_weight[i];
	return (enum fsx_op)i;
}

/* An offset and length for a data operation inside the model's range. */
static void pick_range(enum fsx_op op, uint64_t *off, uint64_t *len)
{
	uint64_t lim = region ? reg_len : maxlen;
	uint64_t span = op == OP_WRITE || op == OP_FALLOC || region ?
		lim : size + maxop / 4 + 1;

	if (span > lim)
		span = lim;
	*off = below(span);
	/* Half the time on a 4 KiB boundary: granule edges get hit. */
	if (rnd() & 1)
		*off &= ~4095ull;
	*len = 1 + below(maxop);
	if (*off + *len > lim)
		*len = lim - *off;
	if (!*len) {
		*off = 0;
		*len = 1;
	}
}

static void one_op(void)
{
	enum fsx_op op = pick_op();
	uint64_t off = 0, len = 0;

	if (op <= OP_MAPREAD && op != OP_TRUNC)
		pick_range(op, &off, &len);
	switch (op) {
	case OP_READ:
		do_read(off, len);
		break;
	case OP_WRITE:
		do_write(off, len);
		break;
	case OP_TRUNC:
		off = below(maxlen + 1);
		if (rnd() & 1)
			off &= ~4095ull;
		do_trunc(off);
		break;
	case OP_PUNCH:
		do_punch(off, len);
		break;
	case OP_FALLOC:
		do_falloc(off, len);
		break;
	case OP_MAPREAD:
		do_mapread(off, len);
		break;
	case OP_REOPEN:
		do_reopen();
		break;
	case OP_FSYNC:
		if (fsync(fd))
			die("fsync: %s", strerror(errno));
		break;
	default:
		do_stat();
	}
	hist[opno % HIST] = (struct fsx_hist){ opno, op, off, len, size };
	if (logops)
		printf("%lu %s %#" PRIx64 " %#" PRIx64 " -> size %#" PRIx64
		       "\n", opno, op_names[op], off, len, size);
}

/* The whole model range, read back through @f, equals the model. */
static void final_check(int f, const char *what)
{
	uint64_t want = region ? reg_len : size, got;
	struct stat st;

	if (!region) {
		if (fstat(f, &st))
			die("%s: fstat: %s", what, strerror(errno));
		if ((uint64_t)st.st_size != (uint64_t)foff(size))
			die("%s: size %#jx, want %#jx", what,
			    (intmax_t)st.st_size, (intmax_t)foff(size));
	}
	got = full_pread(f, buf, want, foff(0));
	if (got != want)
		die("%s: %" PRIu64 " bytes, want %" PRIu64, what, got, want);
	check(buf, 0, want, what);
}

static uint64_t parse_size(const char *s)
{
	char *end;
	uint64_t v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s)
		goto bad;
	switch (*end) {
	case 'G': case 'g':
		v <<= 10;
		/* fall through */
	case 'M': case 'm':
		v <<= 10;
		/* fall through */
	case 'K': case 'k':
		v <<= 10;
		end++;
	}
	if (!*end)
		return v;
bad:
	fprintf(stderr, "fsx: bad size '%s'\n", s);
	exit(2);
}

static void usage(void)
{
	fprintf(stderr, "usage: fsx [-N OPS] [-s SEED] [-l MAXLEN] "
		"[-o MAXOP] [-b BASE] [-R OFF:LEN] [-V PATH] [-TFML] FILE\n");
	exit(2);
}

static void parse_args(int argc, char **argv)
{
	struct timeval tv;
	char *colon;
	int c;

	gettimeofday(&tv, NULL);
	seed = ((uint64_t)tv.tv_sec * 1000003u) ^ (uint64_t)tv.tv_usec ^
	       ((uint64_t)getpid() << 20);
	while ((c = getopt(argc, argv, "N:s:l:o:b:R:V:TFML")) != -1) {
		switch (c) {
		case 'N': nops = (unsigned long)parse_size(optarg); break;
		case 's': seed = parse_size(optarg); break;
		case 'l': maxlen = parse_size(optarg); break;
		case 'o': maxop = parse_size(optarg); break;
		case 'b': base = parse_size(optarg); break;
		case 'V': verify_path = optarg; break;
		case 'T': op_weight[OP_TRUNC] = 0; break;
		case 'F': op_weight[OP_PUNCH] = op_weight[OP_FALLOC] = 0; break;
		case 'M': op_weight[OP_MAPREAD] = 0; break;
		case 'L': logops = true; break;
		case 'R':
			colon = strchr(optarg, ':');
			if (!colon)
				usage();
			*colon = '\0';
			reg_off = parse_size(optarg);
			reg_len = parse_size(colon + 1);
			region = true;
			break;
		default:
			usage();
		}
	}
	if (optind != argc - 1 || !maxlen || !maxop || (region && !reg_len))
		usage();
	path = argv[optind];
}

int main(int argc, char **argv)
{
	uint64_t cap;
	int vfd;

	parse_args(argc, argv);
	if (region) {
		/* Nothing may change the shared file's size. */
		op_weight[OP_TRUNC] = op_weight[OP_FALLOC] = 0;
		base = 0;
	}
	cap = region ? reg_len : maxlen;
	good = calloc(1, cap);
	buf = malloc(cap > maxop ? cap : maxop);
	if (!good || !buf) {
		fprintf(stderr, "fsx: out of memory\n");
		return 1;
	}
	rng = seed;
	printf("fsx: %s: seed %" PRIu64 ", %lu ops\n", path, seed, nops);
	fflush(stdout);
	open_file(region ? 0 : O_CREAT | O_TRUNC);
	if (!region && base && ftruncate(fd, (off_t)base))
		die("ftruncate to base: %s", strerror(errno));
	for (opno = 1; opno <= nops; opno++)
		one_op();
	opno = nops;
	final_check(fd, "final read");
	if (close(fd))
		die("close: %s", strerror(errno));
	open_file(0);
	final_check(fd, "read after reopen");
	close(fd);
	if (verify_path) {
		vfd = open(verify_path, O_RDONLY);
		if (vfd < 0)
			die("open %s: %s", verify_path, strerror(errno));
		final_check(vfd, "source side");
		close(vfd);
	}
	if (region)
		printf("fsx: %s: %lu ops OK in [%#" PRIx64 ", +%#" PRIx64 ")\n",
		       path, nops, reg_off, reg_len);
	else
		printf("fsx: %s: %lu ops OK, final size %#jx\n", path, nops,
		       (intmax_t)foff(size));
	free(good);
	free(buf);
	return 0;
}
