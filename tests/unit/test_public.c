// SPDX-License-Identifier: GPL-2.0-only
/*
 * The public wrappers over the core (userspace/lib/keys.c, cull.c,
 * ceph.c) give what the core gives, on random and edge inputs.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kmt_errno.h"

#include "kmc_ceph.h"
#include "kmc_cull.h"
#include "kmc_hash.h"
#include "kmc_key.h"
#include "kmc_layout.h"
#include "kmc_volume.h"
#include "kmirror/cache.h"
#include "kmirror/ceph.h"
#include "kmirror/cull.h"
#include "kmirror/fscache.h"

static unsigned int seed = 1;

static unsigned int rnd(void)
{
	seed = seed * 1103515245 + 12345;
	return seed >> 8;
}

static void test_keys(void **state)
{
	char a[KMIRROR_CACHE_COOKED_MAX + 1], b[KMC_COOKED_MAX + 1];
	uint8_t key[300], ka[300], kb[300];
	char vkey[300];
	uint32_t ha, hb;
	int i, n, ra, rb;

	for (i = 0; i < 2000; i++) {
		n = rnd() % 256;
		for (int j = 0; j < n; j++)
			key[j] = i % 3 ? rnd() : 'a' + rnd() % 26;
		assert_int_equal(fscache_key_hash(i, key, n & ~3),
				 kmc_hash(i, key, n & ~3));
		ra = kmirror_cache_cook_key(key, n, a, sizeof(a));
		rb = kmc_cook_key(key, n, b, sizeof(b));
		assert_int_equal(ra, rb);
		if (ra < 0)
			continue;
		assert_string_equal(a, b);
		assert_int_equal(kmirror_cache_uncook_key(a, ra, ka,
							  sizeof(ka)),
				 kmc_uncook_key(b, rb, kb, sizeof(kb)));
		for (int j = 0; j < n; j++)
			vkey[j] = key[j] ? key[j] : 'x';
		vkey[n] = '\0';
		assert_int_equal(fscache_volume_key_hash(vkey, n, &ha),
				 kmc_volume_hash(vkey, n, &hb));
		assert_int_equal(ha, hb);
		assert_int_equal(kmirror_cache_volume_dir(vkey, a, sizeof(a)),
				 kmc_volume_dir_name(vkey, n, b, sizeof(b)));
	}
	assert_int_equal(kmirror_cache_cook_key(key, 1000, a, sizeof(a)),
			 -ENAMETOOLONG);
	assert_int_equal(fscache_cres_fd(NULL), -1);
}

static void test_cull(void **state)
{
	struct kmirror_cull p;
	struct kmc_cull k;
	int i;

	kmirror_cull_init(&p);
	kmc_cull_init(&k);
	assert_int_equal(p.frun_percent, k.frun_percent);
	assert_int_equal(p.bstop_percent, k.bstop_percent);
	assert_int_equal(kmirror_cull_validate(&p), kmc_cull_validate(&k));
	for (i = 0; i < 2000; i++) {
		struct kmirror_statfs ps = {
			.f_bsize = i % 7 ? 4096 : (long)(rnd() % 9000) - 10,
			.f_blocks = rnd() % 100000, .f_files = rnd() % 1000,
		};
		struct kmc_statfs ks;
		unsigned int pe, ke, fnr = rnd() % 3, bnr = rnd() % 50;
		int why = rnd() % 3;

		ps.f_bavail = ps.f_blocks ? rnd() % ps.f_blocks : 0;
		ps.f_ffree = ps.f_files ? rnd() % ps.f_files : 0;
		ks.f_bsize = ps.f_bsize;
		ks.f_blocks = ps.f_blocks;
		ks.f_bavail = ps.f_bavail;
		ks.f_files = ps.f_files;
		ks.f_ffree = ps.f_ffree;
		if (i % 50 == 0) {
			assert_int_equal(kmirror_cull_bind(&p, &ps),
					 kmc_cull_bind(&k, &ks));
		}
		assert_int_equal(kmirror_cull_has_space(&p, &ps, i, fnr, bnr,
						      why, &pe),
				 kmc_cull_has_space(&k, &ks, i, fnr, bnr, why,
						    &ke));
		assert_int_equal(pe, ke);
		assert_int_equal(p.culling, k.culling);
		assert_true(p.brun == k.brun && p.fstop == k.fstop &&
			    p.bshift == k.bshift);
	}
}

static void test_ceph(void **state)
{
	static const char *const src[] = {
		"admin@01234567-89ab-cdef-0123-456789abcdef.cephfs=/a//b/",
		"1.2.3.4:6789,[::1]:1:/",
		"10.0.0.1:/x",
		"bad",
		"",
	};
	static const char *const opts[] = {
		"mon_addr=1.2.3.4/5.6.7.8:3300,fsc=uniq",
		NULL,
		"fsid=01234567-89ab-cdef-0123-456789abcdef,fsc",
		NULL,
		"nosuchoption",
	};
	unsigned int i, f;

	for (f = 0; f < 2; f++) {
		for (i = 0; i < sizeof(src) / sizeof(src[0]); i++) {
			struct kmc_ceph_mount m;
			const struct kmirror_ceph_mount *pm;
			struct kmirror_ceph_text w;
			struct kmirror_ceph *c;
			size_t ol = opts[i] ? strlen(opts[i]) : 0;
			int r = kmc_ceph_parse(src[i], strlen(src[i]), opts[i],
					       ol, f, &m);
			bool key;

			assert_int_equal(kmirror_ceph_parse(src[i],
							    strlen(src[i]),
							    opts[i], ol, f,
							    &c), r);
			pm = kmirror_ceph_mount(c);
			if (r) {
				const char *why = kmirror_ceph_error(c, &w,
								     &key);

				assert_null(pm);
				assert_string_equal(why, kmc_ceph_reason(
						    m.diag.code));
			} else {
				assert_non_null(pm);
				assert_null(kmirror_ceph_error(c, &w, &key));
				assert_int_equal(pm->num_mon, m.num_mon);
				assert_int_equal(pm->syntax, m.syntax);
				assert_int_equal(pm->fsid.ptr != NULL,
						 kmc_ceph_fsid(&m) != NULL);
				assert_int_equal(pm->fs_name.len,
						 m.fs_name.len);
			}
			kmirror_ceph_free(c);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_cull),
		cmocka_unit_test(test_ceph),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
