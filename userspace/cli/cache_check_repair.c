// SPDX-License-Identifier: GPL-2.0-only
/*
 * kmirror cache check --repair: what is done to a damaged object.
 *
 * Mounted (the control socket answers): nothing is written here.  The
 * daemon evicts the object ("evict-object SIDECAR-NAME", control.c), as
 * `kmirror cache evict` would, and refuses if it is pinned or in use.
 *
 * Not mounted, under the cache lock: the daemon's own code changes the
 * map, in its crash-safe order (content_map.c, rules 1-3).  Damaged
 * granules: unseal, clear their bits, flush (maps, sums, then the seal);
 * a process killed in between leaves an unsealed map, discarded at the
 * next mount.
 * A map the daemon would not trust: kc_map_load() discards it (maps and
 * seal removed), and a sidecar that does not parse or is stale goes too.
 */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "cache_check.h"
#include "cli.h"

/* Below the scrub (cmd_cache_check.c), which reports with it too. */
void km_chk_line(struct km_check *c, const char *path, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	km_progress_clear(&c->prog);
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	km_put_str(stdout, path);
	printf(": %s\n", msg);
	fflush(stdout);
}

/* Evict through the daemon; the reply says why not. */
static bool km_chk_evict(struct km_check *c, const char *path,
			 const char *sidecar)
{
	const char *rest;
	char *reply = NULL;
	int ret = km_ctl_request(c->dir, "evict-object", sidecar, &reply);

	if (!ret)
		ret = km_ctl_status(reply, &rest);
	free(reply);
	if (!ret) {
		km_chk_line(c, path, "repaired: evicted by the daemon (fetched "
			    "from the source at the next read)");
		return true;
	}
	km_chk_line(c, path, "left: the daemon did not evict it: %s",
		    ret == -EPERM ? "pinned (unpin it first)" :
		    ret == -EBUSY ? "in use (open, or being culled)" :
		    ret == -ENOENT ? "not known to the mount (yet)" :
		    strerror(-ret));
	return false;
}

/* Clear the damaged granules' bits: unseal, clear, flush and seal. */
static int km_chk_clear(int fd, const char *sidecar, int sums_fd,
			struct kc_map *m, const struct km_finding *f)
{
	struct kc_sidecar sc = { .dirfd = sums_fd, .verify = true };
	unsigned int lost;
	size_t i;
	int ret;

	snprintf(sc.name, sizeof(sc.name), "%s", sidecar);
	ret = kc_map_unseal(m, fd);
	for (i = 0; !ret && i < f->nbad; i++)
		ret = kc_map_set(m, f->bad[i], false);
	return ret ? ret : kc_map_flush(m, fd, &sc, &lost);
}

/* Discard the map as the daemon would at its next load, and the sums. */
static int km_chk_discard(int fd, const char *sidecar, int sums_fd,
			  struct kc_map *m, uint64_t size)
{
	struct kc_sidecar sc = { .dirfd = sums_fd, .verify = true };
	enum kc_map_state state;
	int ret;

	snprintf(sc.name, sizeof(sc.name), "%s", sums_fd >= 0 ? sidecar : "");
	ret = kc_map_load(m, fd, size, &sc, &state);
	if (!ret && state != KC_MAP_CLEAN && sums_fd >= 0)
		ret = kmirror_cachedir_unlink(sums_fd, sidecar, 0);
	return ret == -ENOENT ? 0 : ret;
}

void km_chk_repair(struct km_check *c, int fd, const char *path,
		   const char *sidecar, uint64_t size, struct kc_map *m,
		   const struct km_finding *f)
{
	int ret;

	if (c->mounted) {
		if (km_chk_evict(c, path, sidecar))
			c->repaired++;
		else
			c->left++;
		return;
	}
	if (f->map_why)
		ret = km_chk_discard(fd, sidecar, c->sums_fd, m, size);
	else
		ret = km_chk_clear(fd, sidecar, c->sums_fd, m, f);
	if (ret) {
		km_chk_line(c, path, "left: cannot repair: %s", strerror(-ret));
		c->left++;
		return;
	}
	km_chk_line(c, path, f->map_why ? "repaired: map discarded" :
		    "repaired: damaged granules marked absent");
	c->repaired++;
}

int km_chk_lock(struct km_check *c)
{
	c->lock_fd = kmirror_cachedir_open(c->cache_fd, "kmirror.lock",
					   O_RDONLY);
	if (c->lock_fd == -ENOENT)
		return 0;	/* never mounted */
	if (c->lock_fd < 0)
		return km_fail("cannot repair '%s': its kmirror.lock: %s",
			       c->dir, kmirror_cachedir_strerror(c->lock_fd));
	if (flock(c->lock_fd, LOCK_EX | LOCK_NB))
		return km_fail("cannot repair '%s': a kmirror-cachefs holds its lock but does not answer on its control socket; try again once it is unmounted",
			       c->dir);
	return 0;
}

void km_chk_unlock(struct km_check *c)
{
	if (c->lock_fd >= 0)
		close(c->lock_fd);
	c->lock_fd = -1;
}
