// SPDX-License-Identifier: GPL-2.0-only
/* Specification of the cachefiles daemon command parser (kmc_daemon). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "kmt_errno.h"

#include "kmc_daemon.h"
#include "kmv_daemon.h"

/* The state in daemon.vec's notation: f7,5,1;b7,5,1;g0;DTSRO */
static void state_str(const struct kmc_daemon *d, char *buf, size_t size)
{
	const struct kmc_cull *c = &d->cull;

	snprintf(buf, size, "f%u,%u,%u;b%u,%u,%u;g%u;%s%s%s%s%s",
		 c->frun_percent, c->fcull_percent, c->fstop_percent,
		 c->brun_percent, c->bcull_percent, c->bstop_percent,
		 d->debug, d->have_dir ? "D" : "", d->have_tag ? "T" : "",
		 d->have_secid ? "S" : "", d->ready ? "R" : "",
		 d->ondemand_mode ? "O" : "");
}

/*
 * One write through kmc_daemon_write(), from an exact-size heap copy so
 * that ASan/valgrind catch any read past the length; the copy must come
 * back unchanged.
 */
static ssize_t do_write(struct kmc_daemon *d, const char *data, size_t len,
			struct kmc_daemon_cmd *cmd, size_t *args_off)
{
	char *exact = malloc(len ? len : 1);
	ssize_t ret;

	memcpy(exact, data, len);
	ret = kmc_daemon_write(d, exact, len, cmd);
	assert_memory_equal(exact, data, len);
	if (cmd->args) {
		assert_true(cmd->args >= exact);
		assert_true(cmd->args + cmd->args_len <= exact + len);
		*args_off = cmd->args - exact;
	}
	free(exact);
	return ret;
}

static void check_num(const struct kmv_daemon *v,
		      const struct kmc_daemon_cmd *cmd)
{
	char got[96];

	if (!*v->num)
		return;
	if (cmd->op == KMC_DAEMON_COPEN)
		snprintf(got, sizeof(got), "%lu,%ld,%d", cmd->number,
			 cmd->size, cmd->size_err);
	else
		snprintf(got, sizeof(got), "%lu", cmd->number);
	if (strcmp(got, v->num))
		fail_msg("daemon.vec line %d: number %s, want %s", v->line,
			 got, v->num);
}

static void run_vector(struct kmc_daemon *d, const struct kmv_daemon *v)
{
	struct kmc_daemon_cmd cmd;
	size_t len = strlen(v->write), off = 0;
	char st[128];
	ssize_t ret;
	int want = kmt_errno(v->ret, "daemon.vec", v->line);

	if (!strcmp(v->start, "new") || !strcmp(v->start, "newod"))
		kmc_daemon_init(d, !strcmp(v->start, "newod"));
	ret = do_write(d, v->write, len, &cmd, &off);
	if (want ? ret != want : ret != (ssize_t)len)
		fail_msg("daemon.vec line %d: write gave %zd, want %s",
			 v->line, ret, v->ret);
	if (strcmp(v->op, "-")) {
		if (strcmp(kmc_daemon_op_name(cmd.op), v->op))
			fail_msg("daemon.vec line %d: op %s", v->line,
				 kmc_daemon_op_name(cmd.op));
		if (cmd.args_len != strlen(v->args) ||
		    memcmp(v->write + off, v->args, cmd.args_len))
			fail_msg("daemon.vec line %d: args '%.*s'", v->line,
				 (int)cmd.args_len, v->write + off);
		check_num(v, &cmd);
	}
	state_str(d, st, sizeof(st));
	if (*v->state && strcmp(st, v->state))
		fail_msg("daemon.vec line %d: state %s, want %s", v->line, st,
			 v->state);
}

/* Every daemon.vec write gives the kernel's verdict, args and state. */
static void test_daemon_vectors(void **state)
{
	struct kmc_daemon d;
	unsigned int i;

	kmc_daemon_init(&d, false);
	for (i = 0; i < ARRAY_SIZE(kmv_daemon); i++)
		run_vector(&d, &kmv_daemon[i]);
	assert_true(ARRAY_SIZE(kmv_daemon) > 200);
}

static ssize_t write_bytes(struct kmc_daemon *d, const char *data,
			   size_t len)
{
	struct kmc_daemon_cmd cmd;
	size_t off;

	return do_write(d, data, len, &cmd, &off);
}

/* A NUL anywhere in the write is -EINVAL, even after the newline. */
static void test_daemon_nul(void **state)
{
	static const struct {
		const char *s;
		size_t len;
	} w[] = {
		{ "\0", 1 }, { "bind\0", 5 }, { "dir /a\0", 7 },
		{ "dir /a\n\0", 8 }, { "\0\n", 2 }, { "\n\0", 2 },
		{ "brun 10%\0", 9 }, { "bogus\0", 6 }, { "\0bind", 5 },
	};
	struct kmc_daemon d;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(w); i++) {
		kmc_daemon_init(&d, true);
		assert_int_equal(write_bytes(&d, w[i].s, w[i].len), -EINVAL);
		assert_false(d.have_dir);
	}
}

/* PAGE_SIZE - 1 bytes is the longest write; the length is checked first. */
static void test_daemon_length_limit(void **state)
{
	size_t max = PAGE_SIZE - 1;
	char *buf = malloc(PAGE_SIZE + 1);
	struct kmc_daemon d;

	memset(buf, 'a', PAGE_SIZE + 1);
	memcpy(buf, "dir ", 4);
	kmc_daemon_init(&d, false);
	assert_int_equal(write_bytes(&d, buf, max + 1), -EOPNOTSUPP);
	assert_int_equal(write_bytes(&d, buf, max + 2), -EOPNOTSUPP);
	assert_false(d.have_dir);
	assert_int_equal(write_bytes(&d, buf, max), (ssize_t)max);
	assert_true(d.have_dir);

	buf[10] = '\0';		/* too long wins over the NUL */
	kmc_daemon_init(&d, false);
	assert_int_equal(write_bytes(&d, buf, max + 1), -EOPNOTSUPP);
	assert_int_equal(write_bytes(&d, buf, max), -EINVAL);
	buf[0] = '\n';		/* and over the leading newline */
	assert_int_equal(write_bytes(&d, buf, max + 1), -EOPNOTSUPP);
	free(buf);
}

/* Byte 0xa0 is a space to the kernel's ctype; 0x85 and 0xff are not. */
static void test_daemon_nbsp_is_space(void **state)
{
	struct kmc_daemon_cmd cmd;
	struct kmc_daemon d;

	kmc_daemon_init(&d, false);
	assert_int_equal(kmc_daemon_parse(&d, "dir\xa0/x", 6, &cmd), 0);
	assert_int_equal(cmd.op, KMC_DAEMON_DIR);
	assert_int_equal(cmd.args_len, 2);
	assert_memory_equal(cmd.args, "/x", 2);
	assert_int_equal(kmc_daemon_parse(&d, "dir \xa0\xa0/x\xa0", 9, &cmd),
			 0);
	assert_int_equal(cmd.args_len, 3);
	assert_memory_equal(cmd.args, "/x\xa0", 3);
	assert_int_equal(kmc_daemon_parse(&d, "\xa0" "dir /x", 7, &cmd),
			 -EOPNOTSUPP);
	assert_int_equal(kmc_daemon_parse(&d, "brun\xa0" "10%", 8, &cmd), 0);
	assert_int_equal(cmd.number, 10);
	assert_int_equal(kmc_daemon_parse(&d, "brun 10%\xa0", 9, &cmd),
			 -EINVAL);
	assert_int_equal(kmc_daemon_parse(&d, "dir\x85/x", 6, &cmd),
			 -EOPNOTSUPP);
	assert_int_equal(kmc_daemon_parse(&d, "dir\xff/x", 6, &cmd),
			 -EOPNOTSUPP);
	assert_int_equal(kmc_daemon_parse(&d, "debug\xa0", 6, &cmd), 0);
	assert_int_equal(kmc_daemon_parse(&d, "tag \x85", 5, &cmd), 0);
	assert_int_equal(cmd.args_len, 1);
}

/* Every byte value as the separator after "dir": space iff kernel isspace. */
static void test_daemon_separators(void **state)
{
	struct kmc_daemon_cmd cmd;
	struct kmc_daemon d;
	char w[6] = "dirXab";
	int c, ret, want;

	kmc_daemon_init(&d, false);
	for (c = 0; c < 256; c++) {
		w[3] = c;
		ret = kmc_daemon_parse(&d, w, sizeof(w), &cmd);
		if (c == 0)
			want = -EINVAL;
		else if (c == '\n')
			want = -EINVAL;		/* "dir" with no path */
		else if ((c >= 9 && c <= 13) || c == ' ' || c == 0xa0)
			want = 0;
		else
			want = -EOPNOTSUPP;
		if (ret != want)
			fail_msg("separator 0x%02x: %d, want %d", c, ret, want);
		if (!ret)
			assert_int_equal(cmd.args_len, 2);
	}
}

/* A released descriptor answers -EIO to everything, before any check. */
static void test_daemon_dead(void **state)
{
	static const char *const w[] = {
		"", "\n", "bogus", "bind", "dir /c", " x", "debug 1",
	};
	char *big = calloc(1, PAGE_SIZE + 8);
	struct kmc_daemon_cmd cmd;
	struct kmc_daemon d;
	unsigned int i;

	kmc_daemon_init(&d, true);
	d.dead = true;
	for (i = 0; i < ARRAY_SIZE(w); i++)
		assert_int_equal(kmc_daemon_parse(&d, w[i], strlen(w[i]), &cmd),
				 -EIO);
	assert_int_equal(kmc_daemon_parse(&d, big, PAGE_SIZE + 8, &cmd), -EIO);
	free(big);
}

/* Success returns the whole write, the part after the newline included. */
static void test_daemon_returns_whole_length(void **state)
{
	static const char w[] = "tag x\nignored, even bogus\n\n";
	struct kmc_daemon d;

	kmc_daemon_init(&d, false);
	assert_int_equal(write_bytes(&d, w, sizeof(w) - 1),
			 (ssize_t)sizeof(w) - 1);
	assert_true(d.have_tag);
}

/* Parsing reads but never changes the state; a failed write changes none. */
static void test_daemon_parse_is_pure(void **state)
{
	static const char *const w[] = {
		"dir /a", "tag t", "secctx s", "brun 50%", "bstop 0%",
		"debug 7", "bind ondemand", "bind", "dir /b", "copen 1,2",
		"restore", "cull x", "frun 2%", "fstop 6%",
	};
	struct kmc_daemon d, copy;
	struct kmc_daemon_cmd cmd;
	unsigned int i;
	ssize_t ret;

	kmc_daemon_init(&d, true);
	for (i = 0; i < ARRAY_SIZE(w); i++) {
		memcpy(&copy, &d, sizeof(d));
		kmc_daemon_parse(&d, w[i], strlen(w[i]), &cmd);
		assert_memory_equal(&copy, &d, sizeof(d));
		ret = kmc_daemon_write(&d, w[i], strlen(w[i]), &cmd);
		if (ret < 0)
			assert_memory_equal(&copy, &d, sizeof(d));
	}
	assert_true(d.ready && d.ondemand_mode && d.have_secid);
	assert_int_equal(d.debug, 7);
	assert_int_equal(d.cull.brun_percent, 50);
	assert_int_equal(d.cull.bstop_percent, 0);
}

/*
 * A failed cachefiles_add_cache() leaves the cache unbound but keeps dir,
 * the default tag and the ondemand mode: tag/dir are then -EEXIST and bind
 * may be retried.
 */
static void test_daemon_bind_failed(void **state)
{
	struct kmc_daemon_cmd cmd;
	struct kmc_daemon d;

	kmc_daemon_init(&d, true);
	assert_int_equal(kmc_daemon_write(&d, "dir /c", 6, &cmd), 6);
	assert_int_equal(kmc_daemon_write(&d, "bind ondemand", 13, &cmd), 13);
	assert_true(cmd.ondemand);
	kmc_daemon_bind_failed(&d);
	assert_false(d.ready);
	assert_true(d.have_tag && d.have_dir && d.ondemand_mode);
	assert_int_equal(kmc_daemon_write(&d, "tag x", 5, &cmd), -EEXIST);
	assert_int_equal(kmc_daemon_write(&d, "dir /d", 6, &cmd), -EEXIST);
	assert_int_equal(kmc_daemon_write(&d, "cull x", 6, &cmd), -EIO);
	/* copen only needs the mode, which the failed bind left set */
	assert_int_equal(kmc_daemon_write(&d, "copen 1,1", 9, &cmd), 9);
	assert_int_equal(kmc_daemon_write(&d, "bind", 4, &cmd), 4);
	assert_true(d.ready && d.ondemand_mode);
}

/* bind's limit re-check comes first: -ERANGE before the missing dir. */
static void test_daemon_bind_erange(void **state)
{
	struct kmc_daemon_cmd cmd;
	struct kmc_daemon d;

	kmc_daemon_init(&d, false);
	d.cull.fstop_percent = 5;	/* not reachable through commands */
	assert_int_equal(kmc_daemon_parse(&d, "bind", 4, &cmd), -ERANGE);
	assert_int_equal(kmc_daemon_parse(&d, "bind x", 6, &cmd), -ERANGE);
	kmc_daemon_init(&d, false);
	d.cull.brun_percent = 100;
	d.ready = true;
	assert_int_equal(kmc_daemon_parse(&d, "bind", 4, &cmd), -ERANGE);
}

/* The table: each name parses to its op; names are whole words only. */
static void test_daemon_op_names(void **state)
{
	struct kmc_daemon_cmd cmd;
	struct kmc_daemon d;
	char w[16];
	int op, ret;

	kmc_daemon_init(&d, true);
	d.ondemand_mode = true;
	d.ready = true;
	for (op = 0; op < KMC_DAEMON_OP_NR; op++) {
		const char *name = kmc_daemon_op_name(op);

		snprintf(w, sizeof(w), "%s x", name);
		ret = kmc_daemon_parse(&d, w, strlen(w), &cmd);
		assert_int_not_equal(ret, -EOPNOTSUPP);
		assert_int_equal(cmd.op, op);
		snprintf(w, sizeof(w), "%sx", name);
		assert_int_equal(kmc_daemon_parse(&d, w, strlen(w), &cmd),
				 -EOPNOTSUPP);
	}
	assert_string_equal(kmc_daemon_op_name(KMC_DAEMON_OP_NR), "?");
	assert_string_equal(kmc_daemon_op_name(KMC_DAEMON_SECCTX), "secctx");
}

/* Arguments are never NUL-terminated for the caller: lengths only. */
static void test_daemon_args_unterminated(void **state)
{
	static const char w[] = { 't', 'a', 'g', ' ', 'x', 'y' };
	struct kmc_daemon_cmd cmd;
	struct kmc_daemon d;

	kmc_daemon_init(&d, false);
	assert_int_equal(kmc_daemon_parse(&d, w, sizeof(w), &cmd), 0);
	assert_ptr_equal(cmd.args, w + 4);
	assert_int_equal(cmd.args_len, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_daemon_vectors),
		cmocka_unit_test(test_daemon_nul),
		cmocka_unit_test(test_daemon_length_limit),
		cmocka_unit_test(test_daemon_nbsp_is_space),
		cmocka_unit_test(test_daemon_separators),
		cmocka_unit_test(test_daemon_dead),
		cmocka_unit_test(test_daemon_returns_whole_length),
		cmocka_unit_test(test_daemon_parse_is_pure),
		cmocka_unit_test(test_daemon_bind_failed),
		cmocka_unit_test(test_daemon_bind_erange),
		cmocka_unit_test(test_daemon_op_names),
		cmocka_unit_test(test_daemon_args_unterminated),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
