/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared by the kmirror subcommands: the exit code convention, the bounds
 * of every input, and the helpers that read, check and echo input.
 */
#ifndef KMIRROR_CLI_H
#define KMIRROR_CLI_H

#include <stdbool.h>
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

/*
 * Bounds of what the CLI reads (docs/cli.md, "Bounds"); a key's own
 * bounds are fscache's and cachefiles' (kmirror/fscache.h, cache.h).
 */
#define KM_MESSAGE_MAX	1024		/* bytes of an error message */
#define KM_LINE_MAX	1024		/* bytes of a stdin key line + NUL */
#define KM_STATS_MAX	(1 << 20)	/* bytes of DIR/kmirror-stats */
#define KM_HASH_MAX	1021		/* bytes of a `hash` key */
#define KM_AUX_MAX	255		/* bytes of --aux data */
#define KM_CEPH_ARG_MAX	4095		/* a ceph SOURCE, all its -o joined */
#define KM_PTC_MEM_MAX	(256UL << 20)	/* page counters of a replay */

/* cli_text.c: everything echoed of the user's input goes through these. */

/*
 * Print "error: ..." on one line of stderr, escaped as km_put_text()
 * does; return KM_EXIT_USAGE (bad input), or KM_EXIT_FAIL for km_fail().
 */
int km_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#define km_fail(...)	(km_error(__VA_ARGS__), KM_EXIT_FAIL)

/* Send error messages to @f instead of stderr (NULL: stderr); for tests. */
void km_set_error_stream(FILE *f);

/*
 * Put @len bytes of @s on @f: printable UTF-8 as is but '\' as \\, other
 * bytes as \xNN.
 */
void km_put_text(FILE *f, const char *s, size_t len);
void km_put_str(FILE *f, const char *s);
/* The same, but every @c goes out as @as. */
void km_put_text_with(FILE *f, const char *buf, size_t len, char c,
		      const char *as);

/* Valid UTF-8 sequence at @s: its length and code point; 0 if invalid. */
size_t km_utf8_len(const unsigned char *s, size_t len, uint32_t *cp);
bool km_is_control(uint32_t cp);

/* cli_input.c: bounded readers. */

/* One bounded line of @in: 1, 0 at end, -E2BIG, -EILSEQ (NUL), -EIO. */
int km_read_line(FILE *in, char *buf, size_t size, size_t *len);

/* cli_keys.c: hex and keys. */

/*
 * Decode the hex string @hex into @buf (at most @size bytes).  Returns the
 * byte count, -EINVAL (odd length, non-hex digit) or -E2BIG (too long);
 * "" is zero bytes.
 */
long km_parse_hex(const char *hex, uint8_t *buf, size_t size);
void km_print_hex(FILE *f, const uint8_t *buf, size_t len);

/* Parse a 32-bit number given in hex (1 to 8 digits, optional 0x). */
int km_parse_u32_hex(const char *s, uint32_t *out);

/* A cookie key, checked and cooked: KM_EXIT_OK or KM_EXIT_USAGE. */
int km_parse_cookie_key(const char *where, const char *hex, uint8_t *key,
			size_t *len, char *name, size_t size);

/* A volume key (@dir: one naming a cachefiles directory), as above. */
int km_check_volume_key(const char *vkey, bool dir);

/* cli.c */

/* True if @arg is -h or --help. */
int km_is_help(const char *arg);

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
/* cmd_cache_pin.c, cmd_cache_warm.c, cmd_cache_top.c: a mounted cache */
int km_cache_pin(int argc, char **argv);
int km_cache_unpin(int argc, char **argv);
int km_cache_pins(int argc, char **argv);
int km_cache_evict(int argc, char **argv);
int km_cache_warm(int argc, char **argv);
int km_cache_check(int argc, char **argv);	/* cmd_cache_check.c */
int km_cache_top(int argc, char **argv);
int km_cmd_ptc(int argc, char **argv);
int km_cmd_ceph(int argc, char **argv);

#endif
