// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cachefiles daemon command parser (kmc_daemon.h), against daemon.vec:
 * a KUnit suite in the kernel, and run by cmocka in userspace
 * (tests/kernel-shim).
 */
#include <kunit/test.h>

#include "kmc_daemon.h"
#include "kmc_kunit.h"
#include "kmv_tables.h"

static const struct kmv_daemon *kmv_daemon;
static unsigned int kmv_daemon_n;

/* Each case starts with the rows of daemon.vec. */
static int kmc_daemon_test_init(struct kunit *test)
{
	kmv_daemon = kmv_load(test, &kmv_daemon_table, &kmv_daemon_n);
	return kmv_daemon ? 0 : -EINVAL;
}

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
 * One write through kmc_daemon_write(), from an exact-size heap copy (so
 * that KASAN or valgrind catch a read past the length); the copy must come
 * back unchanged and the args must point into it.
 */
static ssize_t do_write(struct kunit *test, struct kmc_daemon *d,
			const char *data, size_t len,
			struct kmc_daemon_cmd *cmd, size_t *args_off)
{
	char *exact = kmk_exact(test, data, len);
	ssize_t ret;

	cmd->args = NULL;
	ret = kmc_daemon_write(d, exact, len, cmd);
	KUNIT_EXPECT_EQ_MSG(test, memcmp(exact, data, len), 0,
			    "the write's buffer was changed");
	if (cmd->args) {
		KUNIT_EXPECT_TRUE(test, cmd->args >= exact);
		KUNIT_EXPECT_TRUE(test, cmd->args + cmd->args_len <=
				  exact + len);
		*args_off = cmd->args - exact;
	}
	kunit_kfree(test, exact);
	return ret;
}

/* The num column: percent, debug mask, or copen's "id,size,size_err". */
static void check_num(struct kunit *test, const struct kmv_daemon *v,
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
	KUNIT_EXPECT_STREQ_MSG(test, got, v->num, "daemon.vec line %d: number",
			       v->line);
}

/* The parsed command: op, args and number. */
static void check_cmd(struct kunit *test, const struct kmv_daemon *v,
		      const struct kmc_daemon_cmd *cmd, size_t off)
{
	KUNIT_EXPECT_STREQ_MSG(test, kmc_daemon_op_name(cmd->op), v->op,
			       "daemon.vec line %d: op", v->line);
	KUNIT_EXPECT_EQ_MSG(test, cmd->args_len, strlen(v->args),
			    "daemon.vec line %d: args length", v->line);
	if (cmd->args_len == strlen(v->args))
		KUNIT_EXPECT_EQ_MSG(test, memcmp(v->write + off, v->args,
						 cmd->args_len), 0,
				    "daemon.vec line %d: args '%.*s'", v->line,
				    (int)cmd->args_len, v->write + off);
	check_num(test, v, cmd);
}

static void run_vector(struct kunit *test, struct kmc_daemon *d,
		       const struct kmv_daemon *v)
{
	int want = kmk_errno(test, v->ret, "daemon.vec", v->line);
	size_t len = strlen(v->write), off = 0;
	struct kmc_daemon_cmd cmd;
	char st[128];
	ssize_t ret;

	if (!strcmp(v->start, "new") || !strcmp(v->start, "newod"))
		kmc_daemon_init(d, !strcmp(v->start, "newod"));
	ret = do_write(test, d, v->write, len, &cmd, &off);
	KUNIT_EXPECT_EQ_MSG(test, ret, want ? (ssize_t)want : (ssize_t)len,
			    "daemon.vec line %d: write, want %s", v->line,
			    v->ret);
	if (strcmp(v->op, "-"))
		check_cmd(test, v, &cmd, off);
	state_str(d, st, sizeof(st));
	if (*v->state)
		KUNIT_EXPECT_STREQ_MSG(test, st, v->state,
				       "daemon.vec line %d: state", v->line);
}

/* Every daemon.vec write gives the kernel's verdict, args and state. */
static void test_daemon_vectors(struct kunit *test)
{
	struct kmc_daemon d;
	unsigned int i;

	kmc_daemon_init(&d, false);
	for (i = 0; i < kmv_daemon_n; i++)
		run_vector(test, &d, &kmv_daemon[i]);
	KUNIT_EXPECT_GT(test, kmv_daemon_n, 200);
}

static ssize_t write_bytes(struct kunit *test, struct kmc_daemon *d,
			   const char *data, size_t len)
{
	struct kmc_daemon_cmd cmd;
	size_t off;

	return do_write(test, d, data, len, &cmd, &off);
}

/* A NUL anywhere in the write is -EINVAL, even after the newline. */
static void test_daemon_nul(struct kunit *test)
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
		KUNIT_EXPECT_EQ_MSG(test, write_bytes(test, &d, w[i].s,
						      w[i].len),
				    -EINVAL, "case %u", i);
		KUNIT_EXPECT_FALSE_MSG(test, d.have_dir, "case %u", i);
	}
}

/* PAGE_SIZE - 1 bytes is the longest write; the length is checked first. */
static void test_daemon_length_limit(struct kunit *test)
{
	char *buf = kunit_kmalloc(test, PAGE_SIZE + 1, GFP_KERNEL);
	size_t max = PAGE_SIZE - 1;
	struct kmc_daemon d;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	memset(buf, 'a', PAGE_SIZE + 1);
	memcpy(buf, "dir ", 4);
	kmc_daemon_init(&d, false);
	KUNIT_EXPECT_EQ(test, write_bytes(test, &d, buf, max + 1),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, write_bytes(test, &d, buf, max + 2),
			-EOPNOTSUPP);
	KUNIT_EXPECT_FALSE(test, d.have_dir);
	KUNIT_EXPECT_EQ(test, write_bytes(test, &d, buf, max), (ssize_t)max);
	KUNIT_EXPECT_TRUE(test, d.have_dir);

	buf[10] = '\0';		/* too long wins over the NUL */
	kmc_daemon_init(&d, false);
	KUNIT_EXPECT_EQ(test, write_bytes(test, &d, buf, max + 1),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, write_bytes(test, &d, buf, max), -EINVAL);
	buf[0] = '\n';		/* and over the leading newline */
	KUNIT_EXPECT_EQ(test, write_bytes(test, &d, buf, max + 1),
			-EOPNOTSUPP);
}

/* Byte 0xa0 is a space to the kernel's ctype; 0x85 and 0xff are not. */
static void test_daemon_nbsp_is_space(struct kunit *test)
{
	struct kmc_daemon_cmd cmd;
	struct kmc_daemon d;

	kmc_daemon_init(&d, false);
	KUNIT_ASSERT_EQ(test, kmc_daemon_parse(&d, "dir\xa0/x", 6, &cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd.op, KMC_DAEMON_DIR);
	KUNIT_ASSERT_EQ(test, cmd.args_len, 2);
	KUNIT_EXPECT_EQ(test, memcmp(cmd.args, "/x", 2), 0);
	KUNIT_ASSERT_EQ(test, kmc_daemon_parse(&d, "dir \xa0\xa0/x\xa0", 9,
					       &cmd), 0);
	KUNIT_ASSERT_EQ(test, cmd.args_len, 3);
	KUNIT_EXPECT_EQ(test, memcmp(cmd.args, "/x\xa0", 3), 0);
	KUNIT_EXPECT_EQ(test, kmc_daemon_parse(&d, "\240dir /x", 7, &cmd),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, kmc_daemon_parse(&d, "brun\24010%", 8, &cmd),
			0);
	KUNIT_EXPECT_EQ(test, cmd.number, 10);
	KUNIT_EXPECT_EQ(test, kmc_daemon_parse(&d, "brun 10%\xa0", 9, &cmd),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, kmc_daemon_parse(&d, "dir\x85/x", 6, &cmd),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, kmc_daemon_parse(&d, "dir\xff/x", 6, &cmd),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, kmc_daemon_parse(&d, "debug\xa0", 6, &cmd), 0);
	KUNIT_EXPECT_EQ(test, kmc_daemon_parse(&d, "tag \x85", 5, &cmd), 0);
	KUNIT_EXPECT_EQ(test, cmd.args_len, 1);
}

/* Every byte value as the separator after "dir": space iff kernel isspace */
static void test_daemon_separators(struct kunit *test)
{
	struct kmc_daemon_cmd cmd;
	char w[6] = "dirXab";
	struct kmc_daemon d;
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
		KUNIT_EXPECT_EQ_MSG(test, ret, want, "separator 0x%02x", c);
		if (!ret)
			KUNIT_EXPECT_EQ_MSG(test, cmd.args_len, 2,
					    "separator 0x%02x", c);
	}
}

/* A released descriptor answers -EIO to everything, before any check. */
static void test_daemon_dead(struct kunit *test)
{
	static const char *const w[] = {
		"", "\n", "bogus", "bind", "dir /c", " x", "debug 1",
	};
	char *big = kunit_kzalloc(test, PAGE_SIZE + 8, GFP_KERNEL);
	struct kmc_daemon_cmd cmd;
	struct kmc_daemon d;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, big);
	kmc_daemon_init(&d, true);
	d.dead = true;
	for (i = 0; i < ARRAY_SIZE(w); i++)
		KUNIT_EXPECT_EQ_MSG(test, kmc_daemon_parse(&d, w[i],
							   strlen(w[i]), &cmd),
				    -EIO, "'%s'", w[i]);
	KUNIT_EXPECT_EQ(test, kmc_daemon_parse(&d, big, PAGE_SIZE + 8, &cmd),
			-EIO);
}

/* Success returns the whole write, the part after the newline included. */
static void test_daemon_returns_whole_length(struct kunit *test)
{
	static const char w[] = "tag x\nignored, even bogus\n\n";
	struct kmc_daemon d;

	kmc_daemon_init(&d, false);
	KUNIT_EXPECT_EQ(test, write_bytes(test, &d, w, sizeof(w) - 1),
			(ssize_t)sizeof(w) - 1);
	KUNIT_EXPECT_TRUE(test, d.have_tag);
}

/* Parsing reads but never changes the state; a failed write changes none */
static void test_daemon_parse_is_pure(struct kunit *test)
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
		KUNIT_EXPECT_EQ_MSG(test, memcmp(&copy, &d, sizeof(d)), 0,
				    "parse '%s'", w[i]);
		ret = kmc_daemon_write(&d, w[i], strlen(w[i]), &cmd);
		if (ret < 0)
			KUNIT_EXPECT_EQ_MSG(test, memcmp(&copy, &d, sizeof(d)),
					    0, "failed write '%s'", w[i]);
	}
	KUNIT_EXPECT_TRUE(test, d.ready && d.ondemand_mode && d.have_secid);
	KUNIT_EXPECT_EQ(test, d.debug, 7);
	KUNIT_EXPECT_EQ(test, d.cull.brun_percent, 50);
	KUNIT_EXPECT_EQ(test, d.cull.bstop_percent, 0);
}

/*
 * A failed cachefiles_add_cache() leaves the cache unbound but keeps dir,
 * the default tag and the ondemand mode: tag/dir are then -EEXIST and bind
 * may be retried.
 */
static void test_daemon_bind_failed(struct kunit *test)
{
	struct kmc_daemon_cmd cmd;
	struct kmc_daemon d;

	kmc_daemon_init(&d, true);
	KUNIT_EXPECT_EQ(test, kmc_daemon_write(&d, "dir /c", 6, &cmd), 6);
	KUNIT_EXPECT_EQ(test, kmc_daemon_write(&d, "bind ondemand", 13, &cmd),
			13);
	KUNIT_EXPECT_TRUE(test, cmd.ondemand);
	kmc_daemon_bind_failed(&d);
	KUNIT_EXPECT_FALSE(test, d.ready);
	KUNIT_EXPECT_TRUE(test, d.have_tag && d.have_dir && d.ondemand_mode);
	KUNIT_EXPECT_EQ(test, kmc_daemon_write(&d, "tag x", 5, &cmd), -EEXIST);
	KUNIT_EXPECT_EQ(test, kmc_daemon_write(&d, "dir /d", 6, &cmd),
			-EEXIST);
	KUNIT_EXPECT_EQ(test, kmc_daemon_write(&d, "cull x", 6, &cmd), -EIO);
	/* copen only needs the mode, which the failed bind left set */
	KUNIT_EXPECT_EQ(test, kmc_daemon_write(&d, "copen 1,1", 9, &cmd), 9);
	KUNIT_EXPECT_EQ(test, kmc_daemon_write(&d, "bind", 4, &cmd), 4);
	KUNIT_EXPECT_TRUE(test, d.ready && d.ondemand_mode);
}

/* bind's limit re-check comes first: -ERANGE before the missing dir. */
static void test_daemon_bind_erange(struct kunit *test)
{
	struct kmc_daemon_cmd cmd;
	struct kmc_daemon d;

	kmc_daemon_init(&d, false);
	d.cull.fstop_percent = 5;	/* not reachable through commands */
	KUNIT_EXPECT_EQ(test, kmc_daemon_parse(&d, "bind", 4, &cmd), -ERANGE);
	KUNIT_EXPECT_EQ(test, kmc_daemon_parse(&d, "bind x", 6, &cmd),
			-ERANGE);
	kmc_daemon_init(&d, false);
	d.cull.brun_percent = 100;
	d.ready = true;
	KUNIT_EXPECT_EQ(test, kmc_daemon_parse(&d, "bind", 4, &cmd), -ERANGE);
}

/* The table: each name parses to its op; names are whole words only. */
static void test_daemon_op_names(struct kunit *test)
{
	struct kmc_daemon_cmd cmd;
	struct kmc_daemon d;
	const char *name;
	char w[16];
	int op;

	kmc_daemon_init(&d, true);
	d.ondemand_mode = true;
	d.ready = true;
	for (op = 0; op < KMC_DAEMON_OP_NR; op++) {
		name = kmc_daemon_op_name(op);
		snprintf(w, sizeof(w), "%s x", name);
		KUNIT_EXPECT_NE_MSG(test, kmc_daemon_parse(&d, w, strlen(w),
							   &cmd),
				    -EOPNOTSUPP, "'%s'", w);
		KUNIT_EXPECT_EQ_MSG(test, cmd.op, op, "'%s'", w);
		snprintf(w, sizeof(w), "%sx", name);
		KUNIT_EXPECT_EQ_MSG(test, kmc_daemon_parse(&d, w, strlen(w),
							   &cmd),
				    -EOPNOTSUPP, "'%s'", w);
	}
	KUNIT_EXPECT_STREQ(test, kmc_daemon_op_name(KMC_DAEMON_OP_NR), "?");
	KUNIT_EXPECT_STREQ(test, kmc_daemon_op_name(KMC_DAEMON_SECCTX),
			   "secctx");
}

/* Arguments are never NUL-terminated for the caller: lengths only. */
static void test_daemon_args_unterminated(struct kunit *test)
{
	static const char w[] = { 't', 'a', 'g', ' ', 'x', 'y' };
	struct kmc_daemon_cmd cmd;
	struct kmc_daemon d;

	kmc_daemon_init(&d, false);
	KUNIT_ASSERT_EQ(test, kmc_daemon_parse(&d, w, sizeof(w), &cmd), 0);
	KUNIT_EXPECT_PTR_EQ(test, cmd.args, w + 4);
	KUNIT_EXPECT_EQ(test, cmd.args_len, 2);
}

static struct kunit_case kmc_daemon_cases[] = {
	KUNIT_CASE(test_daemon_vectors),
	KUNIT_CASE(test_daemon_nul),
	KUNIT_CASE(test_daemon_length_limit),
	KUNIT_CASE(test_daemon_nbsp_is_space),
	KUNIT_CASE(test_daemon_separators),
	KUNIT_CASE(test_daemon_dead),
	KUNIT_CASE(test_daemon_returns_whole_length),
	KUNIT_CASE(test_daemon_parse_is_pure),
	KUNIT_CASE(test_daemon_bind_failed),
	KUNIT_CASE(test_daemon_bind_erange),
	KUNIT_CASE(test_daemon_op_names),
	KUNIT_CASE(test_daemon_args_unterminated),
	{}
};

static struct kunit_suite kmc_daemon_suite = {
	.name = "kmc_daemon",
	.init = kmc_daemon_test_init,
	.test_cases = kmc_daemon_cases,
};

kunit_test_suite(kmc_daemon_suite);
