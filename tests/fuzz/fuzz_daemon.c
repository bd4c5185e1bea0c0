// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: one daemon write (kmc_daemon_parse/write) on one of several
 * prepared states.  Input: one byte choosing the state (bit 0:
 * CONFIG_CACHEFILES_ONDEMAND; bits 1-2: fresh, dir given, bound, bound
 * "ondemand"), then the bytes written, as an exact-size heap copy.
 * Invariants:
 *   - the input is never written to, the state never changed by a parse;
 *   - the verdict is one of the kernel's errnos, or the whole length;
 *   - accepted args lie inside the write, start with no space, hold no
 *     newline; the command rebuilt as "<name> <args>" parses the same;
 *   - a write changes only what its command owns, and the cull limits
 *     stay ordered (0 <= stop < cull < run < 100).
 * fuzz_kernel compares the same parser against the tree's own code.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kmc_daemon.h"
#include "fuzz_common.h"

static const char *const presets[][2] = {
	{ NULL, NULL },
	{ "dir /cache", NULL },
	{ "dir /cache", "bind" },
	{ "dir /cache", "bind ondemand" },
};

static void prepare(struct kmc_daemon *d, uint8_t sel)
{
	struct kmc_daemon_cmd cmd;
	const char *const *p = presets[(sel >> 1) & 3];
	int i;

	kmc_daemon_init(d, sel & 1);
	for (i = 0; i < 2 && p[i]; i++)
		kmc_daemon_write(d, p[i], strlen(p[i]), &cmd);
}

static bool known_errno(ssize_t ret)
{
	return ret == -EINVAL || ret == -EOPNOTSUPP || ret == -EEXIST ||
	       ret == -EIO || ret == -EBUSY || ret == -ERANGE;
}

/* "<name>[ <args>]" parses to the same command as the original write. */
static void check_rebuilt(const struct kmc_daemon *d,
			  const struct kmc_daemon_cmd *cmd)
{
	const char *name = kmc_daemon_op_name(cmd->op);
	size_t n = strlen(name), len = n + (cmd->args_len ? 1 : 0) +
				       cmd->args_len;
	char *buf = malloc(len);
	struct kmc_daemon_cmd again;

	memcpy(buf, name, n);
	if (cmd->args_len) {
		buf[n] = ' ';
		memcpy(buf + n + 1, cmd->args, cmd->args_len);
	}
	CHECK(kmc_daemon_parse(d, buf, len, &again) == 0 &&
	      again.op == cmd->op && again.args_len == cmd->args_len &&
	      !memcmp(again.args, cmd->args, cmd->args_len) &&
	      again.number == cmd->number && again.size == cmd->size &&
	      again.size_err == cmd->size_err &&
	      again.ondemand == cmd->ondemand,
	      "rebuilt '%.*s' parses differently", (int)len, buf);
	free(buf);
}

static void check_args(const char *buf, size_t len,
		       const struct kmc_daemon_cmd *cmd)
{
	CHECK(cmd->op < KMC_DAEMON_OP_NR, "op %d", cmd->op);
	CHECK(cmd->args >= buf && cmd->args + cmd->args_len <= buf + len,
	      "args outside the write");
	CHECK(!cmd->args_len || !isspace(cmd->args[0]), "args start blank");
	CHECK(!memchr(cmd->args, '\n', cmd->args_len), "newline in args");
}

/* The percent field a command sets, or NULL. */
static unsigned int *percent_of(struct kmc_daemon *d, enum kmc_daemon_op op)
{
	switch (op) {
	case KMC_DAEMON_FRUN:
		return &d->cull.frun_percent;
	case KMC_DAEMON_FCULL:
		return &d->cull.fcull_percent;
	case KMC_DAEMON_FSTOP:
		return &d->cull.fstop_percent;
	case KMC_DAEMON_BRUN:
		return &d->cull.brun_percent;
	case KMC_DAEMON_BCULL:
		return &d->cull.bcull_percent;
	case KMC_DAEMON_BSTOP:
		return &d->cull.bstop_percent;
	default:
		return NULL;
	}
}

/*
 * The state a successful write must leave, spelled out per command (not
 * through kmc_daemon_apply()): only the command's own field moves.
 */
static void check_effect(const struct kmc_daemon *before,
			 const struct kmc_daemon *after,
			 const struct kmc_daemon_cmd *cmd)
{
	struct kmc_daemon expect;
	unsigned int *pct;

	memcpy(&expect, before, sizeof(expect));
	pct = percent_of(&expect, cmd->op);
	if (pct)
		*pct = cmd->number;
	else if (cmd->op == KMC_DAEMON_DIR)
		expect.have_dir = true;
	else if (cmd->op == KMC_DAEMON_TAG)
		expect.have_tag = true;
	else if (cmd->op == KMC_DAEMON_SECCTX)
		expect.have_secid = true;
	else if (cmd->op == KMC_DAEMON_DEBUG)
		expect.debug = cmd->number;
	else if (cmd->op == KMC_DAEMON_BIND)
		expect.ready = expect.have_tag = true;
	if (cmd->op == KMC_DAEMON_BIND && cmd->ondemand)
		expect.ondemand_mode = true;
	CHECK(!memcmp(&expect, after, sizeof(expect)),
	      "%s changed more than its own state", kmc_daemon_op_name(cmd->op));
	CHECK(kmc_cull_validate(&after->cull) == 0, "limits out of order");
	CHECK(!after->ready || (after->have_dir && after->have_tag),
	      "bound without dir or tag");
	CHECK(!after->ondemand_mode || after->ondemand_config,
	      "ondemand mode without ondemand support");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kmc_daemon d, before;
	struct kmc_daemon_cmd cmd;
	char *buf, *copy;
	ssize_t ret;
	int pret;

	if (!size)
		return 0;
	prepare(&d, data[0]);
	buf = fz_dup(data + 1, size - 1);
	copy = fz_dup(data + 1, size - 1);
	memcpy(&before, &d, sizeof(d));
	pret = kmc_daemon_parse(&d, buf, size - 1, &cmd);
	CHECK(!memcmp(&before, &d, sizeof(d)), "parse changed the state");
	CHECK(pret == 0 || known_errno(pret), "parse returned %d", pret);
	if (!pret) {
		check_args(buf, size - 1, &cmd);
		check_rebuilt(&d, &cmd);
	}
	ret = kmc_daemon_write(&d, buf, size - 1, &cmd);
	if (!pret && cmd.op == KMC_DAEMON_COPEN && cmd.size_err)
		pret = cmd.size_err;	/* the request's verdict */
	CHECK(pret ? ret == pret : ret == (ssize_t)(size - 1),
	      "write %zd, parse %d", ret, pret);
	if (ret >= 0)
		check_effect(&before, &d, &cmd);
	else
		CHECK(!memcmp(&before, &d, sizeof(d)), "failed write changed");
	CHECK(!memcmp(buf, copy, size - 1), "input written to");
	free(copy);
	free(buf);
	return 0;
}
