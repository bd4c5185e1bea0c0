// SPDX-License-Identifier: GPL-2.0-only
/*
 * The page-table check over a sparse 64-bit PFN space, and the trace
 * format of `kmirror ptc replay`.  The core (kmc_ptc.h) decides every
 * verdict; this file only finds the counters and parses lines.
 *
 * Layout: a radix tree of 4 KiB nodes, 512 slots each.  A leaf holds the
 * counters of 512 pages (one PMD); a level-1 node 512 leaves (one PUD);
 * a level-k node covers PFN bits 9k..9k+8.  Pages below 2^27 (512 GiB of
 * memory) start at an embedded level-2 node, two loads from their leaf;
 * higher PFNs walk down from an embedded level-7 node.  Nodes are added
 * with a compare-and-swap and never removed before destroy, so lookups
 * take no lock and a reader always sees either no node or a zeroed one.
 */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>

#include "kcompat.h"
#include "kmc_ptc.h"
#include "kmirror/ptc.h"

#define PTC_BITS	9
#define PTC_FAN		(1UL << PTC_BITS)
#define PTC_MASK	(PTC_FAN - 1)
#define PTC_LOW_BITS	(3 * PTC_BITS)	/* below this: the embedded low node */
#define PTC_TOP_LEVEL	7		/* 9 * 7 = 63: bit 63 indexes it */

struct ptc_leaf {
	struct kmc_ptc_count c[PTC_FAN];
};

struct ptc_node {
	_Atomic(void *) slot[PTC_FAN];
};

struct kmirror_ptc {
	struct ptc_node low;	/* level 2 for PFNs < 2^27 */
	struct ptc_node top;	/* level 7 for the others */
	atomic_size_t mem;	/* bytes of the nodes and leaves added */
	size_t mem_max;		/* cap on mem, 0: none; set before use */
};

#define PTC_SAME(name) \
	BUILD_BUG_ON((int)KMIRROR_PTC_##name != (int)KMC_PTC_##name)

static inline void ptc_check_enums(void)
{
	PTC_SAME(OK);
	PTC_SAME(ANON_MAP_OF_FILE_MAPPED);
	PTC_SAME(ANON_RW_DOUBLE_MAP);
	PTC_SAME(FILE_MAP_OF_ANON_MAPPED);
	PTC_SAME(FILE_MAP_OVERFLOW);
	PTC_SAME(ANON_UNMAP_OF_FILE_MAPPED);
	PTC_SAME(ANON_UNMAP_UNDERFLOW);
	PTC_SAME(FILE_UNMAP_OF_ANON_MAPPED);
	PTC_SAME(FILE_UNMAP_UNDERFLOW);
	PTC_SAME(STILL_ANON_MAPPED);
	PTC_SAME(STILL_FILE_MAPPED);
	BUILD_BUG_ON(KMC_PTC_VERDICT_NR != 11);
	BUILD_BUG_ON((int)KMIRROR_PTC_PUD != (int)KMC_PTC_PUD);
	BUILD_BUG_ON(KMIRROR_PTC_MAX_ORDER != KMC_PTC_MAX_ORDER);
	BUILD_BUG_ON(sizeof(struct ptc_leaf) != 4096);
}

/* ---- the sparse space ---------------------------------------------- */

/*
 * Count @size more bytes against the cap: a trace must not take memory
 * without bound (a few lines of "set pud" ask for 2 MiB each).
 */
static bool ptc_charge(struct kmirror_ptc *ptc, size_t size)
{
	size_t was = atomic_fetch_add_explicit(&ptc->mem, size,
					       memory_order_relaxed);

	if (!ptc->mem_max || was + size <= ptc->mem_max)
		return true;
	atomic_fetch_sub_explicit(&ptc->mem, size, memory_order_relaxed);
	return false;
}

static void ptc_uncharge(struct kmirror_ptc *ptc, size_t size)
{
	atomic_fetch_sub_explicit(&ptc->mem, size, memory_order_relaxed);
}

/*
 * The node or leaf in *@slot; when there is none and @create, a zeroed one
 * of @size bytes is installed (whoever wins the race keeps theirs).  NULL
 * when absent and !@create, or out of memory, or over the cap.
 */
static void *ptc_slot(struct kmirror_ptc *ptc, _Atomic(void *) *slot,
		      size_t size, bool create)
{
	void *p = atomic_load_explicit(slot, memory_order_acquire);
	void *fresh, *old = NULL;

	if (p || !create)
		return p;
	if (!ptc_charge(ptc, size))
		return NULL;
	fresh = kzalloc(size, GFP_KERNEL);
	if (!fresh) {
		ptc_uncharge(ptc, size);
		return NULL;
	}
	if (atomic_compare_exchange_strong_explicit(slot, &old, fresh,
						    memory_order_acq_rel,
						    memory_order_acquire))
		return fresh;
	kfree(fresh);
	ptc_uncharge(ptc, size);
	return old;
}

/* Why a node or leaf could not be added: -ENOSPC (the cap) or -ENOMEM. */
static int ptc_grow_error(struct kmirror_ptc *ptc)
{
	size_t mem = atomic_load_explicit(&ptc->mem, memory_order_relaxed);

	if (ptc->mem_max && mem + sizeof(struct ptc_leaf) > ptc->mem_max)
		return -ENOSPC;
	return -ENOMEM;
}

static unsigned int ptc_index(u64 pfn, int level)
{
	return (pfn >> (PTC_BITS * level)) & PTC_MASK;
}

/* The level-2 node above @pfn: the low node, or one under the top. */
static struct ptc_node *ptc_level2(struct kmirror_ptc *ptc, u64 pfn,
				   bool create)
{
	struct ptc_node *n = &ptc->top;
	int level;

	if (likely(!(pfn >> PTC_LOW_BITS)))
		return &ptc->low;
	for (level = PTC_TOP_LEVEL; level > 2 && n; level--)
		n = ptc_slot(ptc, &n->slot[ptc_index(pfn, level)],
			     sizeof(struct ptc_node), create);
	return n;
}

/* The leaf holding @pfn's counters, creating what is missing, or NULL. */
static __attribute__((noinline)) struct ptc_leaf *
ptc_leaf_create(struct kmirror_ptc *ptc, u64 pfn)
{
	struct ptc_node *n = ptc_level2(ptc, pfn, true);

	if (n)
		n = ptc_slot(ptc, &n->slot[ptc_index(pfn, 2)],
			     sizeof(struct ptc_node), true);
	if (!n)
		return NULL;
	return ptc_slot(ptc, &n->slot[ptc_index(pfn, 1)],
			sizeof(struct ptc_leaf), true);
}

/* The leaf holding @pfn's counters, or NULL if it was never created. */
static inline struct ptc_leaf *ptc_leaf_find(struct kmirror_ptc *ptc,
					     u64 pfn)
{
	struct ptc_node *n = ptc_level2(ptc, pfn, false);

	if (likely(n))
		n = atomic_load_explicit(&n->slot[ptc_index(pfn, 2)],
					 memory_order_acquire);
	if (unlikely(!n))
		return NULL;
	return atomic_load_explicit(&n->slot[ptc_index(pfn, 1)],
				    memory_order_acquire);
}

/* The leaf of @pfn; when absent and @create, made (NULL: out of memory). */
static inline struct ptc_leaf *ptc_leaf(struct kmirror_ptc *ptc, u64 pfn,
					bool create)
{
	struct ptc_leaf *leaf = ptc_leaf_find(ptc, pfn);

	if (likely(leaf) || !create)
		return leaf;
	return ptc_leaf_create(ptc, pfn);
}

int kmirror_ptc_create(struct kmirror_ptc **ptc)
{
	ptc_check_enums();
	*ptc = kzalloc(sizeof(**ptc), GFP_KERNEL);
	return *ptc ? 0 : -ENOMEM;
}

/* Free the subtree under @n, a node of @level (1: its slots are leaves). */
static void ptc_free_node(struct ptc_node *n, int level)
{
	unsigned long i;
	void *p;

	for (i = 0; i < PTC_FAN; i++) {
		p = atomic_load_explicit(&n->slot[i], memory_order_relaxed);
		if (p && level > 1)
			ptc_free_node(p, level - 1);
		kfree(p);
	}
}

void kmirror_ptc_set_mem_max(struct kmirror_ptc *ptc, size_t bytes)
{
	ptc->mem_max = bytes;
}

void kmirror_ptc_destroy(struct kmirror_ptc *ptc)
{
	if (!ptc)
		return;
	ptc_free_node(&ptc->low, 2);
	ptc_free_node(&ptc->top, PTC_TOP_LEVEL);
	kfree(ptc);
}

void kmirror_ptc_counts(const struct kmirror_ptc *ptc, uint64_t pfn,
			int *anon_map_count, int *file_map_count)
{
	/* Lookups without create never write: the cast is safe. */
	struct ptc_leaf *leaf = ptc_leaf((struct kmirror_ptc *)ptc, pfn,
					 false);
	const struct kmc_ptc_count *c = leaf ? &leaf->c[pfn & PTC_MASK] : NULL;

	*anon_map_count = c ? atomic_read(&c->anon_map_count) : 0;
	*file_map_count = c ? atomic_read(&c->file_map_count) : 0;
}

const char *kmirror_ptc_rule_name(int verdict)
{
	return verdict < 0 ? NULL : kmc_ptc_rule_name((unsigned int)verdict);
}

/* ---- operations ---------------------------------------------------- */

/* Pages @op covers, or 0 if its level/order/alignment is invalid. */
static u64 ptc_op_pages(const struct kmirror_ptc_op *op)
{
	u64 n;

	switch (op->code) {
	case KMIRROR_PTC_ALLOC:
	case KMIRROR_PTC_FREE:
		if (op->order > KMC_PTC_MAX_ORDER)
			return 0;
		n = 1ULL << op->order;
		break;
	case KMIRROR_PTC_SET:
	case KMIRROR_PTC_CLEAR:
		if ((unsigned int)op->level >= KMC_PTC_LEVEL_NR)
			return 0;
		n = kmc_ptc_level_pages((enum kmc_ptc_level)op->level);
		break;
	default:
		return 0;
	}
	return op->pfn & (n - 1) ? 0 : n;
}

/* Run @op's rule over @n counters at @c; *@done as kmc_ptc_*_range(). */
static inline __attribute__((always_inline)) int
ptc_run(const struct kmirror_ptc_op *op, struct kmc_ptc_count *c,
	unsigned long n, unsigned long *done)
{
	switch (op->code) {
	case KMIRROR_PTC_SET:
		return kmc_ptc_set_range(c, n, op->anon, op->rw, done);
	case KMIRROR_PTC_CLEAR:
		return kmc_ptc_clear_range(c, n, op->anon, done);
	default:
		return kmc_ptc_zero_range(c, n, done);
	}
}

/*
 * Make sure every leaf of [@pfn, @pfn + @n) exists, so that a set or
 * clear never stops half-way for want of memory.  0, -ENOMEM or -ENOSPC.
 */
static int ptc_populate(struct kmirror_ptc *ptc, u64 pfn, u64 n)
{
	u64 at;

	for (at = pfn; at - pfn < n; at += PTC_FAN)
		if (!ptc_leaf(ptc, at, true))
			return ptc_grow_error(ptc);
	return 0;
}

/*
 * Apply @op to the aligned range [@pfn, @pfn + @n), leaf by leaf, first
 * page first.  Absent leaves read as zero, which the zero rule accepts.
 */
static __attribute__((noinline)) int
ptc_apply_range(struct kmirror_ptc *ptc, const struct kmirror_ptc_op *op,
		u64 pfn, u64 n, uint64_t *where)
{
	bool create = op->code == KMIRROR_PTC_SET ||
		      op->code == KMIRROR_PTC_CLEAR;
	unsigned long step = n < PTC_FAN ? n : PTC_FAN, done;
	struct ptc_leaf *leaf;
	u64 at;
	int v;

	if (create && n > PTC_FAN) {
		v = ptc_populate(ptc, pfn, n);
		if (v)
			return v;
	}
	for (at = pfn; at - pfn < n; at += step) {
		leaf = ptc_leaf(ptc, at, create);
		if (!leaf && create)
			return ptc_grow_error(ptc);
		if (!leaf)
			continue;
		v = ptc_run(op, &leaf->c[at & PTC_MASK], step, &done);
		if (v) {
			if (where)
				*where = at + done;
			return v;
		}
	}
	return KMIRROR_PTC_OK;
}

/* The same for at most one leaf's worth (PTE, PMD, order <= 9): hot. */
static inline int ptc_apply_leaf(struct kmirror_ptc *ptc,
				 const struct kmirror_ptc_op *op,
				 unsigned long n, uint64_t *where)
{
	bool create = op->code >= KMIRROR_PTC_SET;
	struct ptc_leaf *leaf = ptc_leaf(ptc, op->pfn, create);
	unsigned long done;
	int v;

	if (unlikely(!leaf))
		return create ? ptc_grow_error(ptc) : KMIRROR_PTC_OK;
	v = ptc_run(op, &leaf->c[op->pfn & PTC_MASK], n, &done);
	if (unlikely(v) && where)
		*where = op->pfn + done;
	return v;
}

int kmirror_ptc_apply(struct kmirror_ptc *ptc,
		      const struct kmirror_ptc_op *op, uint64_t *where)
{
	u64 n = ptc_op_pages(op);

	if (unlikely(!n))
		return -EINVAL;
	if (n <= PTC_FAN)
		return ptc_apply_leaf(ptc, op, (unsigned long)n, where);
	return ptc_apply_range(ptc, op, op->pfn, n, where);
}

int kmirror_ptc_set(struct kmirror_ptc *ptc, enum kmirror_ptc_level level,
		    uint64_t pfn, bool anon, bool rw)
{
	struct kmirror_ptc_op op = { .code = KMIRROR_PTC_SET, .level = level,
				     .pfn = pfn, .anon = anon, .rw = rw };

	return kmirror_ptc_apply(ptc, &op, NULL);
}

int kmirror_ptc_clear(struct kmirror_ptc *ptc, enum kmirror_ptc_level level,
		      uint64_t pfn, bool anon)
{
	struct kmirror_ptc_op op = { .code = KMIRROR_PTC_CLEAR, .level = level,
				     .pfn = pfn, .anon = anon };

	return kmirror_ptc_apply(ptc, &op, NULL);
}

int kmirror_ptc_alloc(struct kmirror_ptc *ptc, uint64_t pfn,
		      unsigned int order)
{
	struct kmirror_ptc_op op = { .code = KMIRROR_PTC_ALLOC, .pfn = pfn,
				     .order = order };

	return kmirror_ptc_apply(ptc, &op, NULL);
}

int kmirror_ptc_free(struct kmirror_ptc *ptc, uint64_t pfn,
		     unsigned int order)
{
	struct kmirror_ptc_op op = { .code = KMIRROR_PTC_FREE, .pfn = pfn,
				     .order = order };

	return kmirror_ptc_apply(ptc, &op, NULL);
}

/* ---- the trace format ---------------------------------------------- */

struct ptc_tok {
	const char *s;
	size_t n;
};

#define PTC_MAX_TOKS	6

static int ptc_why(char *why, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Say why in @why (if any room); always -EINVAL. */
static int ptc_why(char *why, size_t size, const char *fmt, ...)
{
	va_list ap;

	if (size) {
		va_start(ap, fmt);
		vsnprintf(why, size, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static bool ptc_tok_is(const struct ptc_tok *t, const char *word)
{
	return t->n == strlen(word) && !memcmp(t->s, word, t->n);
}

/* Echo at most 32 bytes of a token in a message. */
#define PTC_TOK_FMT		"'%.*s%s'"
#define PTC_TOK_ARG(t)		(int)min((t)->n, (size_t)32), (t)->s, \
				(t)->n > 32 ? "..." : ""

/*
 * Reject what no trace line may hold: NUL and control characters other
 * than tab, except one '\r' ending the line.  Returns the length without
 * that '\r', or -EINVAL.
 */
static long ptc_check_bytes(const char *line, size_t len, char *why,
			    size_t size)
{
	size_t i;

	if (len > KMIRROR_PTC_LINE_MAX)
		return ptc_why(why, size, "line longer than %d bytes",
			       KMIRROR_PTC_LINE_MAX);
	if (len && line[len - 1] == '\r')
		len--;
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)line[i];

		if (!c)
			return ptc_why(why, size, "NUL byte at column %zu",
				       i + 1);
		if ((c < 0x20 && c != '\t') || c == 0x7f)
			return ptc_why(why, size,
				       "control character 0x%02x at column %zu",
				       c, i + 1);
	}
	return (long)len;
}

/* Split at spaces and tabs, up to '#'.  Token count, or -EINVAL. */
static int ptc_split(const char *line, size_t len, struct ptc_tok *tok,
		     char *why, size_t size)
{
	size_t i = 0, start;
	int n = 0;

	for (;;) {
		while (i < len && (line[i] == ' ' || line[i] == '\t'))
			i++;
		if (i == len || line[i] == '#')
			return n;
		if (n == PTC_MAX_TOKS)
			return ptc_why(why, size, "too many fields");
		start = i;
		while (i < len && line[i] != ' ' && line[i] != '\t' &&
		       line[i] != '#')
			i++;
		tok[n].s = line + start;
		tok[n++].n = i - start;
	}
}

static int ptc_digit(char c, unsigned int base)
{
	int d = hex_to_bin(c);

	return d >= 0 && (unsigned int)d < base ? d : -1;
}

/* A PFN: decimal without leading zeros, or 0x hex; 0, -EINVAL, -ERANGE. */
static int ptc_parse_u64(const struct ptc_tok *t, u64 *out)
{
	unsigned int base = 10;
	size_t i = 0;
	u64 v = 0;
	int d;

	if (t->n > 2 && t->s[0] == '0' && (t->s[1] | 0x20) == 'x') {
		base = 16;
		i = 2;
	} else if (t->n > 1 && t->s[0] == '0') {
		return -EINVAL;
	}
	for (; i < t->n; i++) {
		d = ptc_digit(t->s[i], base);
		if (d < 0)
			return -EINVAL;
		if (v > (UINT64_MAX - (u64)d) / base)
			return -ERANGE;
		v = v * base + (u64)d;
	}
	*out = v;
	return t->n ? 0 : -EINVAL;
}

static int ptc_parse_pfn(const struct ptc_tok *t, u64 *pfn, char *why,
			 size_t size)
{
	int ret = ptc_parse_u64(t, pfn);

	if (ret == -ERANGE)
		return ptc_why(why, size, "PFN " PTC_TOK_FMT
			       " does not fit in 64 bits", PTC_TOK_ARG(t));
	if (ret)
		return ptc_why(why, size, "bad PFN " PTC_TOK_FMT
			       " (decimal without leading zeros, or 0x hex)",
			       PTC_TOK_ARG(t));
	return 0;
}

/* alloc|free PFN ORDER */
static int ptc_parse_block(const struct ptc_tok *tok, int n,
			   struct kmirror_ptc_op *op, char *why, size_t size)
{
	const char *name = op->code == KMIRROR_PTC_ALLOC ? "alloc" : "free";
	u64 order;

	if (n != 3)
		return ptc_why(why, size, "%s: expected '%s PFN ORDER'", name,
			       name);
	if (ptc_parse_pfn(&tok[1], &op->pfn, why, size))
		return -EINVAL;
	if (tok[2].n > 2 || ptc_parse_u64(&tok[2], &order) ||
	    order > KMC_PTC_MAX_ORDER)
		return ptc_why(why, size, "bad ORDER " PTC_TOK_FMT
			       " (0 to %d)", PTC_TOK_ARG(&tok[2]),
			       KMC_PTC_MAX_ORDER);
	op->order = (unsigned int)order;
	if (op->pfn & ((1ULL << order) - 1))
		return ptc_why(why, size,
			       "%s PFN %#llx is not aligned to its %llu pages",
			       name, (unsigned long long)op->pfn,
			       1ULL << order);
	return 1;
}

static int ptc_parse_level(const struct ptc_tok *t,
			   enum kmirror_ptc_level *level, char *why,
			   size_t size)
{
	static const char *const names[] = { "pte", "pmd", "pud" };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		if (ptc_tok_is(t, names[i])) {
			*level = (enum kmirror_ptc_level)i;
			return 0;
		}
	}
	return ptc_why(why, size, "unknown entry size " PTC_TOK_FMT
		       " (pte, pmd or pud)", PTC_TOK_ARG(t));
}

/* A yes/no field: @yes or @no, else -EINVAL saying what was expected. */
static int ptc_parse_flag(const struct ptc_tok *t, const char *yes,
			  const char *no, bool *out, char *why, size_t size)
{
	*out = ptc_tok_is(t, yes);
	if (*out || ptc_tok_is(t, no))
		return 0;
	return ptc_why(why, size, PTC_TOK_FMT " is neither %s nor %s",
		       PTC_TOK_ARG(t), yes, no);
}

/* set LEVEL PFN anon|file rw|ro  /  clear LEVEL PFN anon|file */
static int ptc_parse_entry(const struct ptc_tok *tok, int n,
			   struct kmirror_ptc_op *op, char *why, size_t size)
{
	bool set = op->code == KMIRROR_PTC_SET;
	u64 pages;

	if (n != (set ? 5 : 4))
		return ptc_why(why, size, set ?
			       "set: expected 'set pte|pmd|pud PFN anon|file rw|ro'" :
			       "clear: expected 'clear pte|pmd|pud PFN anon|file'");
	if (ptc_parse_level(&tok[1], &op->level, why, size) ||
	    ptc_parse_pfn(&tok[2], &op->pfn, why, size) ||
	    ptc_parse_flag(&tok[3], "anon", "file", &op->anon, why, size) ||
	    (set && ptc_parse_flag(&tok[4], "rw", "ro", &op->rw, why, size)))
		return -EINVAL;
	pages = kmc_ptc_level_pages((enum kmc_ptc_level)op->level);
	if (op->pfn & (pages - 1))
		return ptc_why(why, size,
			       "%.3s PFN %#llx is not aligned to %llu pages",
			       tok[1].s, (unsigned long long)op->pfn,
			       (unsigned long long)pages);
	return 1;
}

int kmirror_ptc_parse_line(const char *line, size_t len,
			   struct kmirror_ptc_op *op, char *why, size_t size)
{
	struct ptc_tok tok[PTC_MAX_TOKS];
	long clean = ptc_check_bytes(line, len, why, size);
	int n;

	if (clean < 0)
		return -EINVAL;
	n = ptc_split(line, (size_t)clean, tok, why, size);
	if (n <= 0)
		return n;
	memset(op, 0, sizeof(*op));
	if (ptc_tok_is(&tok[0], "alloc") || ptc_tok_is(&tok[0], "free")) {
		op->code = tok[0].s[0] == 'a' ? KMIRROR_PTC_ALLOC :
						 KMIRROR_PTC_FREE;
		return ptc_parse_block(tok, n, op, why, size);
	}
	if (ptc_tok_is(&tok[0], "set") || ptc_tok_is(&tok[0], "clear")) {
		op->code = tok[0].s[0] == 's' ? KMIRROR_PTC_SET :
						 KMIRROR_PTC_CLEAR;
		return ptc_parse_entry(tok, n, op, why, size);
	}
	return ptc_why(why, size, "unknown operation " PTC_TOK_FMT
		       " (alloc, free, set or clear)", PTC_TOK_ARG(&tok[0]));
}

/* ---- replay -------------------------------------------------------- */

static void ptc_replay_init(struct kmirror_ptc_replay *res)
{
	memset(res, 0, sizeof(*res));
}

/* Replay line number res->line.  0: go on, 1: violation, < 0: error. */
static int ptc_replay_line(struct kmirror_ptc *ptc, const char *line,
			   size_t len, struct kmirror_ptc_replay *res)
{
	struct kmirror_ptc_op op;
	int ret;

	ret = kmirror_ptc_parse_line(line, len, &op, res->why,
				     sizeof(res->why));
	if (ret <= 0) {
		res->error = ret;
		return ret;
	}
	ret = kmirror_ptc_apply(ptc, &op, &res->pfn);
	if (ret == -ENOSPC)
		snprintf(res->why, sizeof(res->why),
			 "the page counters would take more than %zu %s: the trace maps too much memory",
			 ptc->mem_max >> 20 ? ptc->mem_max >> 20 : ptc->mem_max,
			 ptc->mem_max >> 20 ? "MiB" : "bytes");
	else if (ret < 0)
		snprintf(res->why, sizeof(res->why), "%s", strerror(-ret));
	if (ret < 0) {
		res->error = ret;
		return ret;
	}
	res->verdict = ret;
	return ret ? 1 : 0;
}

int kmirror_ptc_replay_buf(struct kmirror_ptc *ptc, const char *buf,
			   size_t len, struct kmirror_ptc_replay *res)
{
	const char *end = buf + len, *nl;
	int ret = 0;

	ptc_replay_init(res);
	while (buf < end && !ret) {
		nl = memchr(buf, '\n', (size_t)(end - buf));
		if (!nl)
			nl = end;
		res->line++;
		ret = ptc_replay_line(ptc, buf, (size_t)(nl - buf), res);
		buf = nl + 1;
	}
	return ret;
}

/*
 * Read one line of at most KMIRROR_PTC_LINE_MAX bytes into @buf (which
 * has room for one more, to tell a line that is too long: reading stops
 * there, so an endless line such as /dev/zero's ends the replay).  Its
 * length, or -1 at end of file.
 */
static long ptc_read_line(FILE *in, char *buf)
{
	long n = 0;
	int c;

	while (n <= KMIRROR_PTC_LINE_MAX &&
	       (c = getc_unlocked(in)) != EOF && c != '\n')
		buf[n++] = (char)c;
	if (n > KMIRROR_PTC_LINE_MAX)
		return n;
	if (c == EOF && !n)
		return -1;
	return n;
}

int kmirror_ptc_replay(struct kmirror_ptc *ptc, FILE *in,
		       struct kmirror_ptc_replay *res)
{
	char *buf = kmalloc(KMIRROR_PTC_LINE_MAX + 1, GFP_KERNEL);
	long n;
	int ret = 0;

	ptc_replay_init(res);
	if (!buf) {
		res->error = -ENOMEM;
		snprintf(res->why, sizeof(res->why), "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	while (!ret && (n = ptc_read_line(in, buf)) >= 0) {
		res->line++;
		ret = ptc_replay_line(ptc, buf, (size_t)n, res);
	}
	if (!ret && ferror(in)) {
		res->error = ret = -EIO;
		snprintf(res->why, sizeof(res->why), "read error: %s",
			 strerror(errno));
	}
	kfree(buf);
	return ret;
}
