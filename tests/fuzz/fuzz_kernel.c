// SPDX-License-Identifier: GPL-2.0-only
/*
 * Differential fuzz target: the kernel's own cachefiles_daemon_write(), its
 * handlers, cachefiles_add_cache()'s limits and cachefiles_has_space()
 * (compiled from the 6.1 tree, tests/fuzz/kref) against kmc_daemon and
 * kmc_cull, on the same sequence of operations.  Any difference in a
 * return value, in what the handler passed on (dir, tag, cull/inuse name,
 * security context, copen id/size/error) or in the state afterwards aborts.
 *
 * Input: one flag byte (bit 0: CONFIG_CACHEFILES_ONDEMAND), then records,
 * each an op byte (mod 6) and its operands, little-endian:
 *   0 write     u16 length (mod 4200), that many bytes (fewer at the end)
 *   1 statfs    s64 bsize, u64 blocks, bavail, files, ffree
 *   2 has_space u64 b_writing, u32 fnr, u32 bnr, u8 reason (mod 3);
 *               only on a bound cache, as in the kernel
 *   3 limits    6 x u64 absolute limits, u8 culling
 *   4 release   the descriptor is closed: every later write is -EIO
 *   5 reopen    u8 flags: a fresh descriptor, as the first byte does
 * tests/fuzz/corpus/kernel holds each daemon.vec session as a seed, so the
 * vectors themselves are checked against the tree on every run.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmc_daemon.h"
#include "kref_api.h"
#include "fuzz_common.h"

struct core {
	struct kmc_daemon	d;
	struct kmc_statfs	st;
	char			*dir;
	char			*tag;
};

static char *dup_args(const struct kmc_daemon_cmd *cmd)
{
	char *s = malloc(cmd->args_len + 1);

	memcpy(s, cmd->args, cmd->args_len);
	s[cmd->args_len] = '\0';
	return s;
}

static bool same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* The kernel must have passed exactly the parsed args to @what. */
static void expect_name(const char *what, const char *got,
			const struct kmc_daemon_cmd *cmd)
{
	char *want = dup_args(cmd);

	CHECK(got && !strcmp(got, want), "%s: kernel '%s', core '%s'", what,
	      got ? got : "(none)", want);
	free(want);
}

/* What "bind" does after kmc_daemon_write(): cachefiles_add_cache(). */
static ssize_t core_bind(struct core *c)
{
	unsigned int ev;
	int ret;

	if (!c->tag)
		c->tag = strdup(KMC_DAEMON_DEFAULT_TAG);
	ret = kmc_cull_bind(&c->d.cull, &c->st);
	if (ret) {
		kmc_daemon_bind_failed(&c->d);
		return ret;
	}
	kmc_cull_has_space(&c->d.cull, &c->st, 0, 0, 0, KMC_SPACE_CHECK, &ev);
	return 0;
}

/* copen: the kernel completed the request the way the parse said. */
static void check_copen(const struct kmc_daemon_cmd *cmd,
			const struct kref_call *call)
{
	long want_err = cmd->size_err ? cmd->size_err :
			cmd->size < 0 ? cmd->size : 0;

	CHECK(call->copen, "copen: kernel completed no request");
	CHECK(call->copen_id == cmd->number, "copen id %lu vs %lu",
	      call->copen_id, cmd->number);
	CHECK(call->copen_error == want_err, "copen error %d vs %ld",
	      call->copen_error, want_err);
	CHECK(call->copen_size == (want_err ? 0 : (uint64_t)cmd->size),
	      "copen size %llu vs %ld",
	      (unsigned long long)call->copen_size, cmd->size);
}

/*
 * After a write the core accepted (a copen may still have failed on its
 * size): what the kernel handed on must be the parsed args.  Returns the
 * write's final result (bind can still fail in cachefiles_add_cache()).
 */
static ssize_t core_effects(struct core *c, const struct kmc_daemon_cmd *cmd,
			    const struct kref_call *call, ssize_t ret)
{
	switch (cmd->op) {
	case KMC_DAEMON_BIND:
		return core_bind(c);
	case KMC_DAEMON_CULL:
		expect_name("cull", call->cull, cmd);
		break;
	case KMC_DAEMON_INUSE:
		expect_name("inuse", call->inuse, cmd);
		break;
	case KMC_DAEMON_SECCTX:
		expect_name("secctx", call->secctx, cmd);
		break;
	case KMC_DAEMON_COPEN:
		check_copen(cmd, call);
		break;
	case KMC_DAEMON_DIR:
		c->dir = dup_args(cmd);
		break;
	case KMC_DAEMON_TAG:
		c->tag = dup_args(cmd);
		break;
	default:
		break;
	}
	return ret;
}

static void do_write(struct kref *k, struct core *c, struct fz *in)
{
	size_t len;
	char *buf = fz_take(in, fz_uint(in, 2) % 4200, &len);
	char *copy = fz_dup(buf, len);
	const struct kref_call *call;
	struct kmc_daemon_cmd cmd;
	ssize_t kret, cret;

	kret = kref_write(k, copy, len);
	call = kref_last_call(k);
	cret = kmc_daemon_write(&c->d, buf, len, &cmd);
	if (cret >= 0 || (cmd.op == KMC_DAEMON_COPEN && cret == cmd.size_err))
		cret = core_effects(c, &cmd, call, cret);
	else
		CHECK(!call->cull && !call->inuse && !call->secctx &&
		      !call->copen, "kernel acted on a write the core refused");
	if (!cret)
		cret = len;
	CHECK(kret == cret, "write '%.*s' (%zu bytes): kernel %zd, core %zd",
	      (int)len, buf, len, kret, cret);
	CHECK(!memcmp(buf, copy, len), "the kernel's copy was written to?");
	free(copy);
	free(buf);
}

static void do_statfs(struct kref *k, struct core *c, struct fz *in)
{
	struct kref_statfs st;

	st.bsize = (long)fz_uint(in, 8);
	st.blocks = fz_uint(in, 8);
	st.bavail = fz_uint(in, 8);
	st.files = fz_uint(in, 8);
	st.ffree = fz_uint(in, 8);
	kref_set_statfs(k, &st);
	c->st.f_bsize = st.bsize;
	c->st.f_blocks = st.blocks;
	c->st.f_bavail = st.bavail;
	c->st.f_files = st.files;
	c->st.f_ffree = st.ffree;
}

static void do_has_space(struct kref *k, struct core *c, struct fz *in)
{
	uint64_t writing = fz_uint(in, 8);
	unsigned int fnr = fz_uint(in, 4), bnr = fz_uint(in, 4), ev;
	int reason = fz_u8(in) % 3, kret, cret;
	const struct kref_call *call;
	struct kref_state ks;

	if (!c->d.ready)
		return;
	kret = kref_has_space(k, writing, fnr, bnr, reason);
	cret = kmc_cull_has_space(&c->d.cull, &c->st, writing, fnr, bnr,
				  reason, &ev);
	call = kref_last_call(k);
	kref_get_state(k, &ks);
	CHECK(kret == cret, "has_space: kernel %d, core %d", kret, cret);
	CHECK(ks.state_changed == !!(ev & (KMC_CULL_BEGIN | KMC_CULL_CEASE)),
	      "has_space: state change %d, events %#x", ks.state_changed, ev);
	CHECK(call->no_write == !!(ev & KMC_CULL_NO_WRITE) &&
	      call->no_create == !!(ev & KMC_CULL_NO_CREATE),
	      "has_space: counters %u/%u, events %#x", call->no_write,
	      call->no_create, ev);
}

static void do_limits(struct kref *k, struct core *c, struct fz *in)
{
	uint64_t lim[6];
	bool culling;
	int i;

	for (i = 0; i < 6; i++)
		lim[i] = fz_uint(in, 8);
	culling = fz_u8(in) & 1;
	kref_set_limits(k, lim, culling);
	c->d.cull.frun = lim[0];
	c->d.cull.fcull = lim[1];
	c->d.cull.fstop = lim[2];
	c->d.cull.brun = lim[3];
	c->d.cull.bcull = lim[4];
	c->d.cull.bstop = lim[5];
	c->d.cull.culling = culling;
}

static void compare(struct kref *k, const struct core *c)
{
	const struct kmc_cull *cu = &c->d.cull;
	const unsigned int pct[6] = {
		cu->frun_percent, cu->fcull_percent, cu->fstop_percent,
		cu->brun_percent, cu->bcull_percent, cu->bstop_percent,
	};
	const uint64_t lim[6] = {
		cu->frun, cu->fcull, cu->fstop, cu->brun, cu->bcull, cu->bstop,
	};
	struct kref_state ks;

	kref_get_state(k, &ks);
	CHECK(!memcmp(ks.pct, pct, sizeof(pct)), "percentages differ");
	CHECK(!memcmp(ks.limit, lim, sizeof(lim)), "limits differ");
	CHECK(ks.bsize == cu->bsize && ks.bshift == cu->bshift,
	      "bsize %u/%u vs %u/%u", ks.bsize, ks.bshift, cu->bsize,
	      cu->bshift);
	CHECK(ks.debug == c->d.debug, "debug %#x vs %#x", ks.debug,
	      c->d.debug);
	CHECK(ks.ready == c->d.ready && ks.dead == c->d.dead &&
	      ks.culling == cu->culling &&
	      ks.ondemand_mode == c->d.ondemand_mode &&
	      ks.have_secid == c->d.have_secid,
	      "flags: ready %d/%d dead %d/%d culling %d/%d ondemand %d/%d "
	      "secid %d/%d", ks.ready, c->d.ready, ks.dead, c->d.dead,
	      ks.culling, cu->culling, ks.ondemand_mode, c->d.ondemand_mode,
	      ks.have_secid, c->d.have_secid);
	CHECK(same_str(ks.dir, c->dir) && !!ks.dir == c->d.have_dir,
	      "dir '%s' vs '%s'", ks.dir ? ks.dir : "(none)",
	      c->dir ? c->dir : "(none)");
	CHECK(same_str(ks.tag, c->tag) && !!ks.tag == c->d.have_tag,
	      "tag '%s' vs '%s'", ks.tag ? ks.tag : "(none)",
	      c->tag ? c->tag : "(none)");
}

static struct kref *reopen(struct kref *k, struct core *c, bool od)
{
	if (k)
		kref_close(k);
	free(c->dir);
	free(c->tag);
	memset(c, 0, sizeof(*c));
	kmc_daemon_init(&c->d, od);
	return kref_open(od);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz in = { data, size };
	struct core c = { .dir = NULL };
	struct kref *k = reopen(NULL, &c, fz_u8(&in) & 1);

	while (in.n) {
		switch (fz_u8(&in) % 6) {
		case 0:
			do_write(k, &c, &in);
			break;
		case 1:
			do_statfs(k, &c, &in);
			break;
		case 2:
			do_has_space(k, &c, &in);
			break;
		case 3:
			do_limits(k, &c, &in);
			break;
		case 4:
			kref_release(k);
			c.d.dead = true;
			break;
		default:
			k = reopen(k, &c, fz_u8(&in) & 1);
			break;
		}
		compare(k, &c);
	}
	kref_close(k);
	free(c.dir);
	free(c.tag);
	return 0;
}
