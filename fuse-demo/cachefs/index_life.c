// SPDX-License-Identifier: GPL-2.0-only
/*
 * The life of the object index across a mount: built from the index file
 * (index_file.c) or by a scan (index_scan.c), with its pins (pins.c) and
 * its culler (cull.c); saved and freed at unmount.  Apart from index.c's
 * table because it calls all of those, and they all call the table: in
 * one file the two made a call cycle (tests/tools/callcycles.py).
 */
#include <stdbool.h>

#include "index.h"

static int kc_index_init(struct kc_fs *fs)
{
	int ret = kc_index_new(fs);

	if (!ret)
		ret = kc_culler_init(fs);
	return ret ? ret : kc_pins_load(fs);
}

/*
 * Build the index at mount, before any FUSE request: from the index file
 * if it can be trusted, else from what it holds (if anything) while a
 * scan checks the cache in the background.
 */
int kc_index_build(struct kc_fs *fs)
{
	bool trusted = false;
	int ret = kc_index_init(fs);

	if (!ret)
		ret = kc_index_load(fs, &trusted);
	if (ret)
		return ret;
	if (trusted) {
		atomic_store(&fs->index->complete, true);
		return 0;
	}
	return kc_scan_start(fs);
}

/* Stop the scan; give back the volumes culling took (before the cache). */
void kc_index_release(struct kc_fs *fs)
{
	struct kc_index *x = fs->index;
	size_t i;

	if (!x)
		return;
	kc_scan_stop(fs);
	for (i = 1; i < x->nvol; i++) {
		if (x->vol[i]->v)
			fscache_relinquish_volume(x->vol[i]->v, NULL, false);
		x->vol[i]->v = NULL;
	}
}

/*
 * Write the index for the next mount (at unmount, after the cache was
 * closed: libkmirror then has every object on disk).
 */
void kc_index_close(struct kc_fs *fs)
{
	if (!fs->index)
		return;
	kc_scan_stop(fs);
	kc_index_save(fs, atomic_load(&fs->index->complete));
}

void kc_index_destroy(struct kc_fs *fs)
{
	struct kc_index *x = fs->index;

	if (!x)
		return;
	kc_index_release(fs);	/* the scan first: it uses the entries */
	kc_culler_destroy(fs);
	kc_pins_free(x);
	kc_index_free(x);
	fs->index = NULL;
}
