// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the kmirror CLI's argument readers, on any argv.  The
 * input is split at NUL bytes into arguments, as the kernel hands them to
 * main().  Every argument goes through the volume key check (as `volume
 * hash` and as `cookie path` / `cache put` apply it); the whole vector
 * goes through `cache put`'s command line parser.  Invariants: a volume
 * key is taken exactly when it is 1 to 255 bytes (1 to 254 and no '/'
 * where it names a directory); a put that is taken has a volume key and a
 * cookie key cachefiles can store (the cooked name uncooks back to the
 * key), aux data of at most 255 bytes, its four paths from argv; every
 * refusal is one clean error line.
 */
#include <limits.h>

#include "cache_put.h"
#include "fuzz_cli.h"
#include "kmc_key.h"

#define ARGS_MAX	8

static void check_volume_key(const char *arg, bool dir)
{
	size_t n = strlen(arg);
	bool want = n >= 1 && n <= (dir ? NAME_MAX - 1 : NAME_MAX) &&
		    (!dir || !strchr(arg, '/'));
	struct fz_errors e;
	int ret;

	fz_errors_begin(&e);
	ret = km_check_volume_key(arg, dir);
	fz_errors_end(&e, ret);
	CHECK((ret == KM_EXIT_OK) == want, "volume key of %zu bytes %s", n,
	      ret ? "refused" : "taken");
}

/* The cooked name of a taken key uncooks to it (S/T: zero-padded words). */
static void check_put_key(const struct km_put *p)
{
	uint8_t back[KMC_UNCOOKED_MAX];
	int n = kmc_uncook_key(p->name, strlen(p->name), back, sizeof(back));
	int i;

	CHECK(n >= (int)p->klen && !memcmp(back, p->key, p->klen),
	      "name '%s' uncooks to %d bytes, not the key", p->name, n);
	for (i = (int)p->klen; i < n; i++)
		CHECK(!back[i], "padding byte %d of '%s'", i, p->name);
}

static void check_put(int argc, char **argv)
{
	struct fz_errors e;
	struct km_put p;
	int ret;

	fz_errors_begin(&e);
	ret = km_put_parse(argc, argv, &p);
	fz_errors_end(&e, ret);
	if (ret)
		return;
	CHECK(p.dir && p.vkey && p.file, "a path missing");
	CHECK(*p.vkey && strlen(p.vkey) < NAME_MAX && !strchr(p.vkey, '/'),
	      "volume key '%s' taken", p.vkey);
	CHECK(p.klen >= 1 && p.klen <= KMC_KEY_MAX &&
	      strlen(p.name) <= NAME_MAX, "key of %zu, name of %zu", p.klen,
	      strlen(p.name));
	CHECK(p.auxlen <= KM_AUX_MAX, "aux of %zu", p.auxlen);
	check_put_key(&p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *argv[ARGS_MAX + 2];
	int argc = 1, i;
	size_t at = 0;

	memcpy(buf, data, size);
	buf[size] = '\0';
	argv[0] = "put";
	while (at <= size && argc <= ARGS_MAX) {
		argv[argc++] = buf + at;
		at += strlen(buf + at) + 1;
	}
	argv[argc] = NULL;
	for (i = 1; i < argc; i++) {
		check_volume_key(argv[i], false);
		check_volume_key(argv[i], true);
	}
	check_put(argc, argv);
	free(buf);
	return 0;
}
