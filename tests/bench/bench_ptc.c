// SPDX-License-Identifier: GPL-2.0-only
/*
 * Page-table check: set+clear cost per page, on the same generated traces
 * (tests/ptc/ptc_gen: fork/COW, page cache, THP, DAX PUDs), in one run:
 *
 *   kernel   the 6.1 tree's page_table_check_set()/clear(), compiled from
 *            the unpacked tree under tests/kernel-shim (page_ext walk with
 *            the runtime page_ext_size stride, as in the kernel)
 *   core     the page_ext of the first page and the core's kmc_ptc_*_run()
 *            over the entries page_ext_size apart: the shape of the
 *            kernel patch, i.e. what sharing costs the kernel
 *   library  libkmirror's kmirror_ptc_apply() over its sparse 64-bit space
 *
 * with 1 thread, and 2 threads replaying two traces over disjoint pages at
 * once.  Cost is thread CPU time per page (summed over the threads), best
 * of ROUNDS interleaved rounds, so that other load on the machine does not
 * count; 2-thread runs still pay for any cache-line sharing.  A second
 * table keeps only the PTE entries, where per-call overhead rather than
 * the per-page loop dominates.  Timings are reported, never judged; a
 * trace that does not replay clean (BUG, or counters left non-zero) fails
 * the benchmark.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kernel_ptc.h"
#include "kmc_ptc.h"
#include "kmirror/ptc.h"
#include "ptc_gen.h"

#define PUD		(1UL << KMC_PTC_PUD_SHIFT)
#define WIN		(4 * PUD)
#define ROUNDS		9
#define EVENTS		3000

enum impl { KERNEL, CORE, LIBRARY, NR_IMPL };

static const char *const impl_name[NR_IMPL] = { "kernel", "core", "library" };

struct trace {
	struct kmirror_ptc_op *ops;
	size_t n, cap;
	unsigned long pages;	/* per replay */
	unsigned int repeat;	/* replays per measurement */
};

struct job {
	const struct trace *t;
	enum impl impl;
	struct kmirror_ptc *lib;
	pthread_barrier_t *start;
	double cpu;		/* this thread's CPU time for its replays */
	int bad;
};

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The set/clear lines of trace @seed, RAM at @base (1 GiB, then DAX). */
static int load(struct trace *t, uint64_t seed, uint64_t base, bool pte_only)
{
	struct ptc_gen_result res;
	struct ptc_gen_opts o;
	char *buf = NULL, *line, *next;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct kmirror_ptc_op op;

	ptc_gen_defaults(&o, seed);
	o.events = EVENTS;
	o.base = base;
	if (!f || ptc_gen(&o, f, &res) || fclose(f))
		return -1;
	memset(t, 0, sizeof(*t));
	t->repeat = pte_only ? 40 : 2;
	for (line = buf; line < buf + len; line = next + 1) {
		next = memchr(line, '\n', (size_t)(buf + len - line));
		if (kmirror_ptc_parse_line(line, (size_t)(next - line), &op,
					   NULL, 0) != 1 ||
		    op.code < KMIRROR_PTC_SET ||
		    (pte_only && op.level != KMIRROR_PTC_PTE))
			continue;
		if (t->n == t->cap) {
			t->cap = t->cap ? 2 * t->cap : 4096;
			t->ops = realloc(t->ops, t->cap * sizeof(*t->ops));
			if (!t->ops)
				return -1;
		}
		t->ops[t->n++] = op;
		t->pages += kmc_ptc_level_pages((enum kmc_ptc_level)op.level);
	}
	free(buf);
	return 0;
}

static void run_kernel(const struct trace *t, bool core)
{
	const struct kmirror_ptc_op *op;
	unsigned long n;

	for (op = t->ops; op < t->ops + t->n; op++) {
		n = kmc_ptc_level_pages((enum kmc_ptc_level)op->level);
		kshim_set_anon(op->pfn, op->anon);
		if (op->code == KMIRROR_PTC_SET)
			(core ? kcore_set : kptc_set)(op->pfn, n, op->rw);
		else
			(core ? kcore_clear : kptc_clear)(op->pfn, n);
	}
}

static int run_library(const struct trace *t, struct kmirror_ptc *lib)
{
	const struct kmirror_ptc_op *op;
	int bad = 0;

	for (op = t->ops; op < t->ops + t->n; op++)
		bad |= kmirror_ptc_apply(lib, op, NULL);
	return bad;
}

static void *job_run(void *arg)
{
	struct job *j = arg;
	unsigned int r;

	pthread_barrier_wait(j->start);
	j->cpu = cpu_now();
	for (r = 0; r < j->t->repeat; r++) {
		if (j->impl == LIBRARY)
			j->bad |= run_library(j->t, j->lib);
		else
			run_kernel(j->t, j->impl == CORE);
	}
	j->cpu = cpu_now() - j->cpu;
	return NULL;
}

/* CPU time of @nt traces replayed at once by @impl, over all threads. */
static double timed(struct trace *t, unsigned int nt, enum impl impl,
		    struct kmirror_ptc *lib, int *bad)
{
	struct job jobs[2];
	pthread_barrier_t start;
	pthread_t th[2];
	double cpu = 0;
	unsigned int i;

	pthread_barrier_init(&start, NULL, nt);
	for (i = 0; i < nt; i++) {
		jobs[i] = (struct job){ .t = &t[i], .impl = impl, .lib = lib,
					.start = &start };
		pthread_create(&th[i], NULL, job_run, &jobs[i]);
	}
	for (i = 0; i < nt; i++) {
		pthread_join(th[i], NULL);
		*bad |= jobs[i].bad;
		cpu += jobs[i].cpu;
	}
	pthread_barrier_destroy(&start);
	return cpu;
}

/* Every counter back at zero after a clean trace, on every side. */
static int all_zero(struct kmirror_ptc *lib)
{
	unsigned long pfn;
	int a, f, la, lf;

	for (pfn = 0; pfn < WIN; pfn++) {
		kshim_counts(pfn, &a, &f);
		kmirror_ptc_counts(lib, pfn, &la, &lf);
		if (a | f | la | lf)
			return 0;
	}
	return 1;
}

/* Best-of-ROUNDS ns per page for each implementation, interleaved. */
static int measure(struct trace *t, unsigned int nt, double ns[NR_IMPL])
{
	struct kmirror_ptc *lib;
	unsigned long pages = 0;
	unsigned int r, i;
	int bad = 0;
	double d;

	if (kmirror_ptc_create(&lib))
		return -1;
	for (i = 0; i < nt; i++)
		pages += t[i].pages * t[i].repeat;
	for (i = 0; i < NR_IMPL; i++)
		ns[i] = 1e30;
	timed(t, nt, LIBRARY, lib, &bad);	/* warm-up: build the tree */
	for (r = 0; r < ROUNDS; r++) {
		for (i = 0; i < NR_IMPL; i++) {
			d = timed(t, nt, (enum impl)i, lib, &bad) * 1e9 / pages;
			ns[i] = d < ns[i] ? d : ns[i];
		}
	}
	bad |= !all_zero(lib);
	kmirror_ptc_destroy(lib);
	return bad ? -1 : 0;
}

static int report(const char *what, struct trace *t, unsigned int nt)
{
	double ns[NR_IMPL];
	unsigned int i;

	if (measure(t, nt, ns)) {
		printf("ptc %s: a trace did not replay clean\n", what);
		return 1;
	}
	printf("ptc %-22s", what);
	for (i = 0; i < NR_IMPL; i++)
		printf(" %s %5.2f ns/page%s", impl_name[i], ns[i],
		       i + 1 < NR_IMPL ? "," : "");
	printf("\nptc %-22s core/kernel %.3fx, library/kernel %.3fx (goal <= 1.05x)\n",
	       what, ns[CORE] / ns[KERNEL], ns[LIBRARY] / ns[KERNEL]);
	return 0;
}

int main(void)
{
	struct trace all[2], pte[2];
	int bad = 0, i;

	if (kshim_init(WIN))
		return 1;
	for (i = 0; i < 2; i++) {
		if (load(&all[i], 1 + i, i * 2 * PUD, false) ||
		    load(&pte[i], 1 + i, i * 2 * PUD, true))
			return 1;
	}
	printf("ptc: ptc_gen -s 1/-s 2 -n %d, %zu+%zu set/clear lines, %lu+%lu pages (%zu+%zu PTE lines); best of %d\n",
	       EVENTS, all[0].n, all[1].n, all[0].pages, all[1].pages,
	       pte[0].n, pte[1].n, ROUNDS);
	bad |= report("1 thread:", all, 1);
	bad |= report("2 threads:", all, 2);
	bad |= report("PTE only, 1 thread:", pte, 1);
	bad |= report("PTE only, 2 threads:", pte, 2);
	for (i = 0; i < 2; i++) {
		free(all[i].ops);
		free(pte[i].ops);
	}
	kshim_exit();
	return bad;
}
