// SPDX-License-Identifier: GPL-2.0-only
/*
 * kmv_load(): a .vec table into rows (kmc_kunit_vec.h).  The file is
 * copied once; words, strings and bytes are decoded in place in that copy
 * and the rows point into it, so a load makes two allocations.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/string_helpers.h>

#include "kmc_kunit_vec.h"

static const char *const kmv_type_names[] = {
	[KMV_U32] = "u32", [KMV_INT] = "int", [KMV_HEX] = "hex",
	[KMV_STR] = "str", [KMV_WORD] = "word",
};

/* The next whitespace-separated word of *@s, or NULL at the end. */
static char *kmv_word(char **s)
{
	char *w;

	do {
		w = strsep(s, " \t");
	} while (w && !*w);
	return w;
}

static bool kmv_is_row(const char *line)
{
	line = skip_spaces(line);
	return *line && *line != '#';
}

/* Does "# fields: ..." name the fields of @t, in order? */
static bool kmv_fields_match(const struct kmv_table *t, char *s)
{
	unsigned int i;
	char *w, *type;

	for (i = 0; i < t->nfields; i++) {
		w = kmv_word(&s);
		if (!w)
			return false;
		type = strchr(w, ':');
		if (!type)
			return false;
		*type++ = '\0';
		if (strcmp(w, t->fields[i].name) ||
		    strcmp(type, kmv_type_names[t->fields[i].type]))
			return false;
	}
	return !kmv_word(&s);
}

/* Decode @w, a column of type @f->type, into @row.  0 or -EINVAL. */
static int kmv_cell(const struct kmv_field *f, char *w, void *row)
{
	void *at = row + f->off;
	size_t len;

	switch (f->type) {
	case KMV_U32:
		return kstrtou32(w, 0, at);
	case KMV_INT:
		return kstrtoint(w, 10, at);
	case KMV_HEX:
		len = strcmp(w, "-") ? strlen(w) : 0;
		if (len % 2 || hex2bin((u8 *)w, w, len / 2))
			return -EINVAL;
		*(const u8 **)at = (const u8 *)w;
		*(unsigned int *)(row + f->len_off) = len / 2;
		return 0;
	case KMV_STR:
		if (!strcmp(w, "-"))
			*w = '\0';
		else
			string_unescape_any_inplace(w);
		fallthrough;
	case KMV_WORD:
		*(const char **)at = w;
		return 0;
	}
	return -EINVAL;
}

/* One row's columns from @line.  0 or -EINVAL. */
static int kmv_row(const struct kmv_table *t, char *line, void *row)
{
	unsigned int i;
	char *w;

	for (i = 0; i < t->nfields; i++) {
		w = kmv_word(&line);
		if (!w || kmv_cell(&t->fields[i], w, row))
			return -EINVAL;
	}
	return kmv_word(&line) ? -EINVAL : 0;
}

void *kmv_load(struct kunit *test, const struct kmv_table *t,
	       unsigned int *n)
{
	size_t size = strlen(t->text) + 1;
	char *text, *s, *line;
	unsigned int rows = 0, lineno = 0;
	bool fields = false;
	void *row0, *row;

	text = kunit_kmalloc(test, size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, text);
	memcpy(text, t->text, size);
	for (s = text; (line = strchr(s, '\n')); s = line + 1) {
		*line = '\0';
		rows += kmv_is_row(s);
		*line = '\n';
	}
	rows += kmv_is_row(s);
	row0 = kunit_kcalloc(test, rows ?: 1, t->row_size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, row0);

	row = row0;
	s = text;
	while ((line = strsep(&s, "\n"))) {
		lineno++;
		if (str_has_prefix(line, "# fields:")) {
			fields = kmv_fields_match(t, line + strlen("# fields:"));
			if (!fields)
				goto bad;
			continue;
		}
		if (!kmv_is_row(line))
			continue;
		if (!fields || kmv_row(t, line, row))
			goto bad;
		*(int *)(row + t->line_off) = lineno;
		row += t->row_size;
	}
	*n = rows;
	return row0;
bad:
	KUNIT_FAIL(test, "%s.vec line %u: not a row of its fields", t->name,
		   lineno);
	return NULL;
}

/* The suites link into one module, kmirror_kunit (Makefile). */
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
MODULE_DESCRIPTION("KUnit tests of the kmirror core");
