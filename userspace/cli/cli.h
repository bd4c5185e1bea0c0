/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared by the kmirror subcommands: argument parsing helpers and the exit
 * code convention.
 */
#ifndef KMIRROR_CLI_H
#define KMIRROR_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Exit codes: 0 ok, 1 the operation found a problem, 2 bad input/usage. */
#define KM_EXIT_OK	0
#define KM_EXIT_FAIL	1
#define KM_EXIT_USAGE	2

struct km_command {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv);
};

/* Bounds of what the CLI reads (docs/cli.md, "Bounds"). */
#define KM_MESSAGE_MAX	1024		/* bytes of an error message */
#define KM_LINE_MAX	1024		/* bytes of a stdin key line */
#define KM_STATS_MAX	(1 << 20)	/* bytes of DIR/kmirror-stats */

/*
 * Print "error: ..." on stderr (control characters as \xNN) and return
 * KM_EXIT_USAGE (bad input), or KM_EXIT_FAIL for km_fail().
 */
int km_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int km_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Put @c on @f, a control character as \xNN. */
void km_put_char(FILE *f, char c);

/* One bounded line of @in: 1, 0 at end, -E2BIG, -EILSEQ (NUL), -EIO. */
int km_read_line(FILE *in, char *buf, size_t size, size_t *len);

/* True if @arg is -h or --help. */
int km_is_help(const char *arg);

/*
 * Decode the hex string @hex into @buf (at most @size bytes).  Returns the
 * byte count or -1 (odd length, non-hex digit, too long); "" is zero bytes.
 */
long km_parse_hex(const char *hex, uint8_t *buf, size_t size);
void km_print_hex(FILE *f, const uint8_t *buf, size_t len);

/* Parse a 32-bit number given in hex (1 to 8 digits, optional 0x). */
int km_parse_u32_hex(const char *s, uint32_t *out);

/*
 * Run @cmds[i].run for the subcommand named in argv[1]; print the table on
 * --help or a missing/unknown subcommand.  @group is e.g. "key".
 */
int km_dispatch(const char *group, const struct km_command *cmds, int argc,
		char **argv);

int km_cmd_hash(int argc, char **argv);
int km_cmd_key(int argc, char **argv);
int km_cmd_volume(int argc, char **argv);
int km_cmd_cookie(int argc, char **argv);
int km_cmd_cache(int argc, char **argv);
int km_cache_put(int argc, char **argv);
int km_cmd_ptc(int argc, char **argv);
int km_cmd_ceph(int argc, char **argv);

#endif
