// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: the page-table trace format of `kmirror ptc replay`.
 * Input: a trace (any bytes).  Invariants:
 *   - every line parses to an operation, to nothing, or to -EINVAL with a
 *     reason; an operation is in range and aligned, and printing it in the
 *     canonical form and parsing that gives the same operation back;
 *   - parsing reads only the line's bytes (each line is an exact-size heap
 *     copy, so ASan sees any read past it);
 *   - replaying from a buffer and from a stream stop at the same line with
 *     the same verdict or error, and that is the first line where parsing
 *     alone fails or the operation gives a verdict;
 *   - a violation names a rule; allocation counters balance at the end.
 * Inputs over 2 KiB or with more than four 1 GiB operations are skipped
 * (each touches 262144 counters: slow, not interesting).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kcompat.h"
#include "kmirror/ptc.h"
#include "fuzz_common.h"

/* The canonical text of @op. */
static int format_op(const struct kmirror_ptc_op *op, char *buf, size_t size)
{
	static const char *const code[] = { "alloc", "free", "set", "clear" };
	static const char *const level[] = { "pte", "pmd", "pud" };

	if (op->code <= KMIRROR_PTC_FREE)
		return snprintf(buf, size, "%s %#llx %u", code[op->code],
				(unsigned long long)op->pfn, op->order);
	return snprintf(buf, size, "%s %s %#llx %s%s", code[op->code],
			level[op->level], (unsigned long long)op->pfn,
			op->anon ? "anon" : "file",
			op->code == KMIRROR_PTC_SET ?
			(op->rw ? " rw" : " ro") : "");
}

static void check_op(const struct kmirror_ptc_op *op)
{
	struct kmirror_ptc_op again;
	char text[96], why[160];
	uint64_t pages;
	int n;

	CHECK(op->code <= KMIRROR_PTC_CLEAR, "opcode %d", op->code);
	if (op->code <= KMIRROR_PTC_FREE) {
		CHECK(op->order <= KMIRROR_PTC_MAX_ORDER, "order %u",
		      op->order);
		pages = 1ULL << op->order;
	} else {
		CHECK(op->level <= KMIRROR_PTC_PUD, "level %d", op->level);
		pages = 1ULL << (9 * op->level);
	}
	CHECK(!(op->pfn & (pages - 1)), "unaligned PFN %#llx",
	      (unsigned long long)op->pfn);
	n = format_op(op, text, sizeof(text));
	CHECK(kmirror_ptc_parse_line(text, (size_t)n, &again, why,
				     sizeof(why)) == 1, "'%s': %s", text, why);
	CHECK(!memcmp(op, &again, sizeof(*op)), "'%s' parsed differently",
	      text);
}

/*
 * Parse and apply line by line: where a replay must stop.  Returns
 * 0 (clean), 1 (violation) or -EINVAL/-ENOMEM, with *@line and *@verdict.
 */
static int walk(const uint8_t *data, size_t size, unsigned long *line,
		int *verdict)
{
	const uint8_t *p = data, *end = data + size, *nl;
	struct kmirror_ptc_op op;
	struct kmirror_ptc *ptc;
	char why[160];
	char *copy;
	size_t len;
	int ret = 0;

	*line = 0;
	*verdict = 0;
	CHECK(kmirror_ptc_create(&ptc) == 0, "create");
	while (p < end && !ret) {
		nl = memchr(p, '\n', (size_t)(end - p));
		len = (size_t)((nl ? nl : end) - p);
		copy = fz_dup(p, len);
		(*line)++;
		why[0] = '\0';
		ret = kmirror_ptc_parse_line(copy, len, &op, why, sizeof(why));
		free(copy);
		CHECK(ret >= -EINVAL && ret <= 1, "parse %d", ret);
		if (ret < 0)
			CHECK(why[0], "error without a reason");
		if (ret == 1) {
			check_op(&op);
			ret = kmirror_ptc_apply(ptc, &op, NULL);
			CHECK(ret >= 0, "apply %d", ret);
			*verdict = ret;
			ret = ret ? 1 : 0;
		}
		p = nl ? nl + 1 : end;
	}
	kmirror_ptc_destroy(ptc);
	return ret;
}

static int replay_stream(const uint8_t *data, size_t size,
			 struct kmirror_ptc_replay *res)
{
	struct kmirror_ptc *ptc;
	FILE *f = fmemopen((void *)data, size, "r");
	int ret;

	if (!size)	/* fmemopen() wants a buffer */
		f = fopen("/dev/null", "r");
	CHECK(f, "fmemopen");
	CHECK(kmirror_ptc_create(&ptc) == 0, "create");
	ret = kmirror_ptc_replay(ptc, f, res);
	kmirror_ptc_destroy(ptc);
	fclose(f);
	return ret;
}

/* Over 2 KiB, or more than four operations on 4096 pages or more. */
static bool too_slow(const uint8_t *data, size_t size)
{
	const uint8_t *p = data, *end = data + size, *nl;
	struct kmirror_ptc_op op;
	int big = 0;

	if (size > 2048)
		return true;
	for (; p < end; p = nl ? nl + 1 : end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (kmirror_ptc_parse_line((const char *)p,
					   (size_t)((nl ? nl : end) - p), &op,
					   NULL, 0) == 1 &&
		    (op.code <= KMIRROR_PTC_FREE ? op.order >= 12 :
		     op.level == KMIRROR_PTC_PUD) && ++big > 4)
			return true;
	}
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kmirror_ptc_replay buf_res, file_res;
	struct kmirror_ptc *ptc;
	unsigned long line;
	char *exact;
	int ret, sret, wret, verdict;

	if (too_slow(data, size))
		return 0;
	exact = fz_dup(data, size);
	CHECK(kmirror_ptc_create(&ptc) == 0, "create");
	ret = kmirror_ptc_replay_buf(ptc, exact, size, &buf_res);
	kmirror_ptc_destroy(ptc);
	free(exact);
	CHECK(ret == 0 || ret == 1 || ret == -EINVAL, "replay %d", ret);
	CHECK(ret == buf_res.error || ret == 1, "return vs error");
	if (ret == 1)
		CHECK(kmirror_ptc_rule_name(buf_res.verdict) &&
		      buf_res.verdict > 0, "verdict %d", buf_res.verdict);

	sret = replay_stream(data, size, &file_res);
	CHECK(sret == ret && file_res.line == buf_res.line &&
	      file_res.verdict == buf_res.verdict &&
	      !strcmp(file_res.why, buf_res.why),
	      "stream %d line %lu (%s), buffer %d line %lu (%s)", sret,
	      file_res.line, file_res.why, ret, buf_res.line, buf_res.why);

	wret = walk(data, size, &line, &verdict);
	CHECK(wret == ret && line == buf_res.line &&
	      verdict == buf_res.verdict,
	      "line by line %d at %lu, replay %d at %lu", wret, line, ret,
	      buf_res.line);
	CHECK(kmc_alloc_live() == 0, "leaked %ld allocations",
	      kmc_alloc_live());
	return 0;
}
