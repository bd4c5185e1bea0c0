/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The test vectors of the kmirror core's KUnit suites are the .vec tables
 * its userspace cmocka suites read: one row a line, whitespace-separated
 * columns, '#' comment lines, and a "# fields: NAME:TYPE ..." line naming
 * the columns.  kmv_data.S links the files in as they are; kmv_load()
 * parses one into an array of rows when a case starts.  The row structs
 * and their field lists are in kmv_tables.h; kmv_load() fails the case if
 * the file's fields line does not name exactly those fields.
 */
#ifndef KMC_KUNIT_VEC_H
#define KMC_KUNIT_VEC_H

#include <kunit/test.h>
#include <linux/stddef.h>
#include <linux/types.h>

enum kmv_type {
	KMV_U32,	/* u32: decimal, or hex with 0x */
	KMV_INT,	/* int: signed decimal */
	KMV_HEX,	/* const u8 * and unsigned int length; '-' is none */
	KMV_STR,	/* const char *, C escapes undone; '-' is "" */
	KMV_WORD,	/* const char *, the word as it stands */
};

struct kmv_field {
	const char *name;
	enum kmv_type type;
	size_t off;		/* of the value in the row */
	size_t len_off;		/* KMV_HEX: of its length in the row */
};

struct kmv_table {
	const char *name;		/* "hash" for hash.vec */
	const char *text;		/* the whole file, NUL-terminated */
	const struct kmv_field *fields;
	unsigned int nfields;
	size_t row_size;
	size_t line_off;		/* of the row's int line (1-based) */
};

#define KMV_FIELD(row, f, t) { #f, KMV_##t, offsetof(struct row, f), 0 }
#define KMV_HEX_FIELD(row, f) \
	{ #f, KMV_HEX, offsetof(struct row, f), offsetof(struct row, f##_len) }

/*
 * The rows of @t in a test-managed array, their number in @n; NULL (and
 * the case failed, saying where) if the file does not parse.
 */
void *kmv_load(struct kunit *test, const struct kmv_table *t,
	       unsigned int *n);

#endif /* KMC_KUNIT_VEC_H */
