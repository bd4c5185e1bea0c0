// SPDX-License-Identifier: GPL-2.0-only
/*
 * Differential test: the page-table check of the 6.1 tree (its own
 * mm/page_table_check.c, compiled under tests/kernel-shim/) against the core behind
 * libkmirror's sparse space, on random operation sequences.
 *
 * Per operation the verdicts must be equal: the kernel's BUG_ON() is
 * recorded (which one fired) and unwound, then mapped to the core's rule.
 * Both sides carry on after a violation, so the partial updates the
 * kernel leaves at its BUG_ON() are compared as well: after each PTE/PMD
 * operation the counters of its pages, at the end of a sequence every
 * page touched.  The library sees the kernel's window moved to a base
 * that changes per sequence (low, across its fast-path edge, high, at the
 * top of the 64-bit range).  Sequences reach the kernel both through the
 * exported hooks (__page_table_check_pte_set() with pte_t values, which
 * also clear the entry they replace) and through its static counting
 * functions.
 *
 * Usage: diff_ptc [-n SEQUENCES] [-s SEED] [-V]
 *   -s   seed of the first sequence (sequence i uses SEED + i)
 *   -V   instead: replay tests/vectors/ptc.vec through the kernel's code
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kernel_ptc.h"
#include "kmc_ptc.h"
#include "kmirror/ptc.h"
#include "ptc_vec.h"

#define PUD		(1UL << KMC_PTC_PUD_SHIFT)
#define WIN		(4 * PUD)	/* the kernel's window of pages */
#define BLOCK		512UL
#define MAX_OPS		96

/* Which BUG_ON() of mm/page_table_check.c means which core verdict. */
static const struct {
	const char *func, *cond;
	int verdict;
} kernel_bugs[] = {
	{ "page_table_check_set", "atomic_read(&ptc->file_map_count)",
	  KMC_PTC_ANON_MAP_OF_FILE_MAPPED },
	{ "page_table_check_set",
	  "atomic_inc_return(&ptc->anon_map_count) > 1 && rw",
	  KMC_PTC_ANON_RW_DOUBLE_MAP },
	{ "page_table_check_set", "atomic_read(&ptc->anon_map_count)",
	  KMC_PTC_FILE_MAP_OF_ANON_MAPPED },
	{ "page_table_check_set",
	  "atomic_inc_return(&ptc->file_map_count) < 0",
	  KMC_PTC_FILE_MAP_OVERFLOW },
	{ "page_table_check_clear", "atomic_read(&ptc->file_map_count)",
	  KMC_PTC_ANON_UNMAP_OF_FILE_MAPPED },
	{ "page_table_check_clear",
	  "atomic_dec_return(&ptc->anon_map_count) < 0",
	  KMC_PTC_ANON_UNMAP_UNDERFLOW },
	{ "page_table_check_clear", "atomic_read(&ptc->anon_map_count)",
	  KMC_PTC_FILE_UNMAP_OF_ANON_MAPPED },
	{ "page_table_check_clear",
	  "atomic_dec_return(&ptc->file_map_count) < 0",
	  KMC_PTC_FILE_UNMAP_UNDERFLOW },
	{ "__page_table_check_zero", "atomic_read(&ptc->anon_map_count)",
	  KMC_PTC_STILL_ANON_MAPPED },
	{ "__page_table_check_zero", "atomic_read(&ptc->file_map_count)",
	  KMC_PTC_STILL_FILE_MAPPED },
};

static uint64_t rng_state;

static uint64_t rng(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1DULL;
}

static unsigned int rnd(unsigned int n)
{
	return (unsigned int)(rng() % n);
}

/* ---- the kernel side ---------------------------------------------------- */

/* The core verdict of the BUG_ON() the kernel's code just hit. */
static int bug_verdict(const struct kshim_bug *b)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kernel_bugs); i++)
		if (!strcmp(b->func, kernel_bugs[i].func) &&
		    !strcmp(b->cond, kernel_bugs[i].cond))
			return kernel_bugs[i].verdict;
	fprintf(stderr, "diff_ptc: kernel BUG_ON(%s) in %s has no core verdict (has the tree changed?)\n",
		b->cond, b->func);
	exit(1);
}

static unsigned long entry_bits(const struct kmirror_ptc_op *op)
{
	return (unsigned long)op->pfn << PAGE_SHIFT | _PAGE_PRESENT |
	       _PAGE_USER | (op->rw ? _PAGE_RW : 0) |
	       (op->level != KMIRROR_PTC_PTE ? _PAGE_PSE : 0);
}

/*
 * set/clear through the exported hooks, as set_pte_at() & co. call them:
 * a set replaces the entry @old maps (NULL: an empty entry), which the
 * hook clears first.
 */
static void kernel_hook(const struct kmirror_ptc_op *op,
			const struct kmirror_ptc_op *old)
{
	unsigned long bits = entry_bits(op), addr = 0x7f0000000000UL;
	unsigned long was = old ? entry_bits(old) : 0;
	pte_t pte = { bits }, old_pte = { was };
	pmd_t pmd = { bits }, old_pmd = { was };
	pud_t pud = { bits }, old_pud = { was };
	bool set = op->code == KMIRROR_PTC_SET;

	switch (op->level) {
	case KMIRROR_PTC_PTE:
		if (set)
			__page_table_check_pte_set(&kptc_user_mm, addr,
						   &old_pte, pte);
		else
			__page_table_check_pte_clear(&kptc_user_mm, addr, pte);
		break;
	case KMIRROR_PTC_PMD:
		if (set)
			__page_table_check_pmd_set(&kptc_user_mm, addr,
						   &old_pmd, pmd);
		else
			__page_table_check_pmd_clear(&kptc_user_mm, addr, pmd);
		break;
	default:
		if (set)
			__page_table_check_pud_set(&kptc_user_mm, addr,
						   &old_pud, pud);
		else
			__page_table_check_pud_clear(&kptc_user_mm, addr, pud);
	}
}

static void kernel_call(const struct kmirror_ptc_op *op,
			const struct kmirror_ptc_op *old, bool hook)
{
	unsigned long n = kmc_ptc_level_pages((enum kmc_ptc_level)op->level);

	if (op->code == KMIRROR_PTC_ALLOC || op->code == KMIRROR_PTC_FREE)
		__page_table_check_zero(pfn_to_page(op->pfn), op->order);
	else if (hook || old)
		kernel_hook(op, old);
	else if (op->code == KMIRROR_PTC_SET)
		kptc_set(op->pfn, n, op->rw);
	else
		kptc_clear(op->pfn, n);
}

/*
 * Apply @op (PFNs in the window), replacing @old's entry if not NULL, with
 * the kernel's code: its verdict.  PageAnon() is the ops', as the trace
 * says (@old and @op agree when they start at the same page).
 */
static int kernel_apply(const struct kmirror_ptc_op *op,
			const struct kmirror_ptc_op *old, bool hook)
{
	jmp_buf jb;
	volatile int v = KMC_PTC_OK;

	if (old)
		kshim_set_anon(old->pfn, old->anon);
	if (op->code == KMIRROR_PTC_SET || op->code == KMIRROR_PTC_CLEAR)
		kshim_set_anon(op->pfn, op->anon);
	kshim_bug_jmp = &jb;
	if (setjmp(jb)) {
		v = bug_verdict(&kshim_last_bug);
		kshim_rcu_depth = 0;	/* the oops path drops it */
	} else {
		kernel_call(op, old, hook);
		if (kshim_rcu_depth) {
			fprintf(stderr, "diff_ptc: page_ext_get/put unbalanced\n");
			exit(1);
		}
	}
	kshim_bug_jmp = NULL;
	return v;
}

/* ---- one random sequence ------------------------------------------------- */

struct seq {
	uint64_t seed, base;	/* the library's PFN = base + window PFN */
	bool big;		/* PUD entries and order-18 blocks */
	unsigned int nreg;
	unsigned long reg[8];	/* PMD-aligned hot spots */
	bool reg_anon[8];
	struct kmirror_ptc_op ops[MAX_OPS];
	unsigned int nops;
	uint8_t touched[WIN / BLOCK];
	struct kmirror_ptc *lib;
};

struct stats {
	unsigned long seqs, ops, pages, verdicts[KMC_PTC_VERDICT_NR];
};

static struct stats st;

static void seq_start(struct seq *s, uint64_t seed)
{
	static const uint64_t bases[] = {
		0, (1ULL << 27) - 2 * PUD, 0x5a5a5ULL * PUD, 0ULL - WIN,
	};
	unsigned int i;

	rng_state = seed * 0x9E3779B97F4A7C15ULL | 1;
	s->seed = seed;
	s->base = bases[rnd(ARRAY_SIZE(bases))];
	s->big = rnd(200) == 0;
	s->nreg = 1 + rnd(ARRAY_SIZE(s->reg));
	for (i = 0; i < s->nreg; i++) {
		s->reg[i] = rnd(8) * BLOCK + (s->big ? rnd(4) * PUD : 0);
		s->reg_anon[i] = rnd(2);
	}
	s->nops = 0;
	memset(s->touched, 0, sizeof(s->touched));
	if (kmirror_ptc_create(&s->lib))
		exit(1);
}

/* A random operation around the sequence's hot spots. */
static void random_op(struct seq *s, struct kmirror_ptc_op *op)
{
	static const unsigned int offs[] = { 0, 1, 2, 3, 255, 511 };
	unsigned int r = rnd(100), reg = rnd(s->nreg);
	unsigned long pages;

	memset(op, 0, sizeof(*op));
	op->code = r < 40 ? KMIRROR_PTC_SET : r < 75 ? KMIRROR_PTC_CLEAR :
		   r < 87 ? KMIRROR_PTC_ALLOC : KMIRROR_PTC_FREE;
	r = rnd(100);
	op->level = s->big && r < 6 ? KMIRROR_PTC_PUD :
		    r < 35 ? KMIRROR_PTC_PMD : KMIRROR_PTC_PTE;
	op->pfn = s->reg[reg];
	if (op->level == KMIRROR_PTC_PTE)
		op->pfn += rnd(3) ? offs[rnd(ARRAY_SIZE(offs))] : rnd(BLOCK);
	op->anon = rnd(4) ? s->reg_anon[reg] : rnd(2);
	op->rw = rnd(2);
	if (op->code == KMIRROR_PTC_ALLOC || op->code == KMIRROR_PTC_FREE) {
		r = rnd(100);
		op->order = r < 55 ? 0 : r < 97 || !s->big ? 1 + rnd(9) : 18;
		op->pfn = op->pfn / (1UL << op->order) * (1UL << op->order);
		return;
	}
	pages = kmc_ptc_level_pages((enum kmc_ptc_level)op->level);
	op->pfn = op->pfn / pages * pages;
}

static unsigned long op_pages(const struct kmirror_ptc_op *op)
{
	if (op->code == KMIRROR_PTC_ALLOC || op->code == KMIRROR_PTC_FREE)
		return 1UL << op->order;
	return kmc_ptc_level_pages((enum kmc_ptc_level)op->level);
}

static void print_op(const struct kmirror_ptc_op *op, uint64_t base)
{
	static const char *const code[] = { "alloc", "free", "set", "clear" };
	static const char *const level[] = { "pte", "pmd", "pud" };
	unsigned long long pfn = (unsigned long long)(op->pfn + base);

	if (op->code <= KMIRROR_PTC_FREE)
		fprintf(stderr, "%s %#llx %u\n", code[op->code], pfn,
			op->order);
	else
		fprintf(stderr, "%s %s %#llx %s%s\n", code[op->code],
			level[op->level], pfn, op->anon ? "anon" : "file",
			op->code == KMIRROR_PTC_SET ?
			(op->rw ? " rw" : " ro") : "");
}

static void mismatch(struct seq *s, const char *fmt, unsigned long a,
		     long b, long c)
{
	unsigned int i;

	fprintf(stderr, "diff_ptc: sequence seed %llu (rerun: -s %llu -n 1), library base %#llx: ",
		(unsigned long long)s->seed, (unsigned long long)s->seed,
		(unsigned long long)s->base);
	fprintf(stderr, fmt, a, b, c);
	fprintf(stderr, "\nthe sequence, as a trace in library PFNs:\n");
	for (i = 0; i < s->nops; i++)
		print_op(&s->ops[i], s->base);
	exit(1);
}

/* Counters of [@pfn, @pfn + @n) equal on both sides. */
static void compare_pages(struct seq *s, unsigned long pfn, unsigned long n)
{
	int ka, kf, la, lf;
	unsigned long i;

	for (i = pfn; i < pfn + n; i++) {
		kshim_counts(i, &ka, &kf);
		kmirror_ptc_counts(s->lib, s->base + i, &la, &lf);
		if (ka != la || kf != lf)
			mismatch(s, "page %#lx: kernel %ld/%ld, core differs",
				 i, ka, kf);
	}
	st.pages += n;
}

/* The library's verdict for @op (window PFNs). */
static int lib_apply(struct seq *s, const struct kmirror_ptc_op *op)
{
	struct kmirror_ptc_op moved = *op;
	int v;

	moved.pfn += s->base;
	v = kmirror_ptc_apply(s->lib, &moved, NULL);
	if (v < 0)
		mismatch(s, "library error %lu%ld%ld", 0, v, 0);
	return v;
}

static void touch(struct seq *s, const struct kmirror_ptc_op *op)
{
	unsigned long b, n = op_pages(op);

	for (b = op->pfn / BLOCK; b <= (op->pfn + n - 1) / BLOCK; b++)
		s->touched[b] = 1;
	if (n <= BLOCK && op->code >= KMIRROR_PTC_SET)
		compare_pages(s, op->pfn, n);
}

/*
 * Run @op, which replaces the entry of @old (a clear, or NULL) in one
 * hook call on the kernel's side and two operations on the library's.
 */
static void run_op(struct seq *s, const struct kmirror_ptc_op *op,
		   const struct kmirror_ptc_op *old)
{
	int kv = kernel_apply(op, old, rnd(2)), lv = KMC_PTC_OK;

	if (old)
		lv = lib_apply(s, old);
	if (!lv)
		lv = lib_apply(s, op);
	if (kv != lv)
		mismatch(s, "op %lu: kernel verdict %ld, core %ld",
			 s->nops - 1, kv, lv);
	st.ops++;
	st.verdicts[kv]++;
	if (old)
		touch(s, old);
	touch(s, op);
}

/* Maybe turn set @op into the replacement of an earlier entry: its clear. */
static bool replacement(struct seq *s, struct kmirror_ptc_op *op,
			struct kmirror_ptc_op *old)
{
	const struct kmirror_ptc_op *prev;

	if (op->code != KMIRROR_PTC_SET || !s->nops || rnd(4))
		return false;
	prev = &s->ops[rnd(s->nops)];
	if (prev->code < KMIRROR_PTC_SET || prev->level != op->level)
		return false;
	*old = *prev;
	old->code = KMIRROR_PTC_CLEAR;
	if (old->pfn == op->pfn)
		old->anon = op->anon;
	return true;
}

static void seq_end(struct seq *s)
{
	unsigned long b;

	for (b = 0; b < WIN / BLOCK; b++) {
		if (!s->touched[b])
			continue;
		compare_pages(s, b * BLOCK, BLOCK);
		kshim_reset(b * BLOCK, BLOCK);
	}
	kmirror_ptc_destroy(s->lib);
	st.seqs++;
}

static void run_seq(struct seq *s, uint64_t seed)
{
	unsigned int n, i;

	seq_start(s, seed);
	n = 4 + rnd(MAX_OPS / 2 - 4);
	for (i = 0; i < n; i++) {
		struct kmirror_ptc_op op, old;
		bool replace;

		random_op(s, &op);
		replace = replacement(s, &op, &old);
		if (replace)
			s->ops[s->nops++] = old;
		s->ops[s->nops++] = op;
		run_op(s, &op, replace ? &old : NULL);
	}
	seq_end(s);
}

/* ---- every extreme counter state, one page ------------------------------ */

/* Each rule from each pair of extreme counters: same verdict, same result. */
static int check_extremes(void)
{
	static const int vals[] = { INT_MIN, INT_MIN + 1, -1, 0, 1, 2,
				    INT_MAX - 1, INT_MAX };
	struct kmirror_ptc_op op = { .pfn = 0 };
	struct kmc_ptc_count c;
	unsigned int a, f, k;
	int cv, kv, ka, kf, bad = 0;

	for (a = 0; a < ARRAY_SIZE(vals); a++)
	for (f = 0; f < ARRAY_SIZE(vals); f++)
	for (k = 0; k < 7; k++) {
		atomic_set(&c.anon_map_count, vals[a]);
		atomic_set(&c.file_map_count, vals[f]);
		kshim_set_counts(0, vals[a], vals[f]);
		op.code = k < 4 ? KMIRROR_PTC_SET : k < 6 ? KMIRROR_PTC_CLEAR :
				   KMIRROR_PTC_ALLOC;
		op.anon = k % 2;
		op.rw = k < 2;
		cv = op.code == KMIRROR_PTC_SET ?
			kmc_ptc_set_one(&c, op.anon, op.rw) :
		     op.code == KMIRROR_PTC_CLEAR ?
			kmc_ptc_clear_one(&c, op.anon) : kmc_ptc_zero_one(&c);
		kv = kernel_apply(&op, NULL, false);
		kshim_counts(0, &ka, &kf);
		if (cv != kv || ka != atomic_read(&c.anon_map_count) ||
		    kf != atomic_read(&c.file_map_count)) {
			fprintf(stderr, "diff_ptc: counters %d/%d, op %u: kernel %d -> %d/%d, core %d -> %d/%d\n",
				vals[a], vals[f], k, kv, ka, kf, cv,
				atomic_read(&c.anon_map_count),
				atomic_read(&c.file_map_count));
			bad = 1;
		}
	}
	kshim_reset(0, 1);
	return bad;
}

/* ---- the vectors, through the kernel ----------------------------------- */

static int check_vectors(void)
{
	struct kunit vec = { .name = "diff_ptc" };
	const struct kmv_ptc *kmv_ptc;
	struct ptc_vec_row r;
	unsigned int i, n;
	int v, a, f, bad = 0;

	kmv_ptc = kmv_load(&vec, &kmv_ptc_table, &n);
	if (!kmv_ptc)
		return 1;
	for (i = 0; i < n; i++) {
		const struct kmv_ptc *k = &kmv_ptc[i];

		if (ptc_vec_decode(k, &r) || r.op.pfn + r.pages > WIN) {
			fprintf(stderr, "ptc.vec line %d: malformed\n", k->line);
			kunit_cleanup(&vec);
			return 1;
		}
		if (ptc_vec_new_case(kmv_ptc, i))
			kshim_reset(0, WIN);
		v = r.probe_only ? KMC_PTC_OK : kernel_apply(&r.op, NULL, i % 2);
		kshim_counts(k->probe, &a, &f);
		if (v != r.verdict || a != k->anon || f != k->file) {
			fprintf(stderr, "ptc.vec line %d: kernel %s, page %u: %d/%d\n",
				k->line, kmc_ptc_rule_name((unsigned int)v),
				k->probe, a, f);
			bad = 1;
		}
	}
	printf("diff_ptc: %u vector rows through the tree's code, %s\n",
	       n, bad ? "MISMATCH" : "all agree");
	kunit_cleanup(&vec);
	return bad;
}

int main(int argc, char **argv)
{
	uint64_t seed = (uint64_t)time(NULL) * 1000003ULL;
	unsigned long n = 100000, i;
	struct seq *s;
	int c, vectors = 0, ret;

	while ((c = getopt(argc, argv, "n:s:V")) != -1) {
		if (c == 'n')
			n = strtoul(optarg, NULL, 0);
		else if (c == 's')
			seed = strtoull(optarg, NULL, 0);
		else if (c == 'V')
			vectors = 1;
		else
			return 2;
	}
	if (getenv("KMIRROR_UNDER_VALGRIND") && n > 2000)
		n = 2000;
	if (kshim_init(WIN))
		return 1;
	if (vectors) {
		ret = check_vectors();
		kshim_exit();
		return ret;
	}
	printf("diff_ptc: seed %llu, %lu sequences (-s to replay)\n",
	       (unsigned long long)seed, n);
	ret = check_extremes();
	s = calloc(1, sizeof(*s));
	for (i = 0; s && !ret && i < n; i++)
		run_seq(s, seed + i);
	printf("diff_ptc: %lu sequences, %lu operations, %lu page counters compared, %s\n",
	       st.seqs, st.ops, st.pages, ret ? "MISMATCH" : "all equal");
	for (c = 0; c < KMC_PTC_VERDICT_NR; c++)
		printf("  %-26s %lu\n", kmc_ptc_rule_name((unsigned int)c),
		       st.verdicts[c]);
	free(s);
	kshim_exit();
	return ret || !s;
}
