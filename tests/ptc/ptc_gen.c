// SPDX-License-Identifier: GPL-2.0-only
/*
 * Page-table trace generator (see ptc_gen.h).  The simulation's own page
 * counts are its oracle: emit_entry() refuses, by abort(), to write a line
 * the detection table forbids, so a generator bug cannot pass for a
 * checker bug.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "kmc_ptc.h"
#include "ptc_gen.h"

#define PMD_PAGES	512UL
#define PUD_PAGES	262144UL
#define MAX_PROCS	8
#define MAX_MAPS	4096	/* per process; splits stop above */
#define FORK_MAPS	1024	/* a process with more does not fork */
#define NFILES		6	/* 0..3: order-0 page cache, 4..5: shmem THP */
#define FILE_SLOTS	48
#define SHMEM_FILE	4

enum ftype { F_ANON, F_FILE, F_DAX };

struct folio {
	uint64_t idx;		/* first page, relative to base */
	unsigned int maps;	/* mapping records that point at it */
	int file, slot;		/* page-cache position, or -1 */
	uint8_t order;
	uint8_t type;
	bool cached;		/* the page cache holds a reference */
};

struct map {
	unsigned int folio;
	unsigned int off;	/* first page within the folio */
	uint8_t level;		/* KMC_PTC_PTE/PMD/PUD */
	bool rw;
	bool priv;		/* private file mapping: COW on write */
};

struct proc {
	struct map *m;
	unsigned int n, cap;
};

/* The simulation's count of entries mapping each page, by type. */
struct gpage {
	int anon, file;
};

struct gen {
	const struct ptc_gen_opts *o;
	FILE *out;
	struct ptc_gen_result *res;
	uint64_t rng, base;
	unsigned long ram, npages;
	struct gpage *pg;
	uint32_t *free0, *freeblk;	/* LIFO: freed pages come back first */
	unsigned long nfree0, nfreeblk;
	struct folio *fo;
	unsigned int nfo, capfo, *fofree, nfofree;
	struct proc proc[MAX_PROCS];
	unsigned int nproc;
	unsigned int cache[NFILES][FILE_SLOTS];	/* folio + 1, or 0 */
	unsigned int dax;			/* folio + 1, or 0 */
};

static uint64_t rng(struct gen *g)
{
	g->rng ^= g->rng >> 12;
	g->rng ^= g->rng << 25;
	g->rng ^= g->rng >> 27;
	return g->rng * 0x2545F4914F6CDD1DULL;
}

static unsigned int rnd(struct gen *g, unsigned int n)
{
	return (unsigned int)(rng(g) % n);
}

static bool coin(struct gen *g, unsigned int percent)
{
	return rnd(g, 100) < percent;
}

static void die(const char *what)
{
	fprintf(stderr, "ptc_gen: internal error: %s\n", what);
	abort();
}

/* ---- output ------------------------------------------------------------ */

static void line(struct gen *g, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void line(struct gen *g, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(g->out, fmt, ap);
	va_end(ap);
	fputc('\n', g->out);
	g->res->lines++;
}

static unsigned long long pfn(struct gen *g, uint64_t idx)
{
	return (unsigned long long)(g->base + idx);
}

static unsigned long level_pages(int level)
{
	return kmc_ptc_level_pages((enum kmc_ptc_level)level);
}

static const char *const level_name[] = { "pte", "pmd", "pud" };

/* alloc/free of a block whose pages the simulation knows to be unmapped. */
static void emit_block(struct gen *g, bool alloc, uint64_t idx,
		       unsigned int order)
{
	unsigned long i;

	for (i = 0; i < 1UL << order; i++)
		if (g->pg[idx + i].anon || g->pg[idx + i].file)
			die("allocating or freeing a mapped page");
	line(g, "%s %#llx %u", alloc ? "alloc" : "free", pfn(g, idx), order);
}

/* The detection table, as the generator obeys it (not the core's code). */
static bool entry_allowed(const struct gpage *p, bool set, bool anon, bool rw)
{
	if (anon ? p->file : p->anon)
		return false;
	if (set)
		return !anon || !rw || p->anon == 0;
	return (anon ? p->anon : p->file) > 0;
}

static void emit_entry(struct gen *g, bool set, int level, uint64_t idx,
		       bool anon, bool rw)
{
	unsigned long i, n = level_pages(level);
	struct gpage *p;

	for (i = 0; i < n; i++) {
		p = &g->pg[idx + i];
		if (!entry_allowed(p, set, anon, rw))
			die("emitting a forbidden mapping");
		*(anon ? &p->anon : &p->file) += set ? 1 : -1;
	}
	if (set)
		line(g, "set %s %#llx %s %s", level_name[level], pfn(g, idx),
		     anon ? "anon" : "file", rw ? "rw" : "ro");
	else
		line(g, "clear %s %#llx %s", level_name[level], pfn(g, idx),
		     anon ? "anon" : "file");
}

/* ---- page allocator ---------------------------------------------------- */

/* An order-0 page, splitting a free 2 MiB block when none is left. */
static long alloc0(struct gen *g)
{
	uint32_t blk;
	unsigned long i;

	if (!g->nfree0) {
		if (!g->nfreeblk)
			return -1;
		blk = g->freeblk[--g->nfreeblk];
		for (i = PMD_PAGES; i--;)
			g->free0[g->nfree0++] = blk * PMD_PAGES + i;
	}
	return g->free0[--g->nfree0];
}

static long alloc9(struct gen *g)
{
	if (!g->nfreeblk)
		return -1;
	return (long)g->freeblk[--g->nfreeblk] * PMD_PAGES;
}

/* ---- folios ------------------------------------------------------------- */

static unsigned int new_folio(struct gen *g, uint64_t idx, unsigned int order,
			      int type)
{
	unsigned int f;

	if (g->nfofree) {
		f = g->fofree[--g->nfofree];
	} else {
		if (g->nfo == g->capfo) {
			g->capfo = g->capfo ? 2 * g->capfo : 256;
			g->fo = realloc(g->fo, g->capfo * sizeof(*g->fo));
			g->fofree = realloc(g->fofree,
					    g->capfo * sizeof(*g->fofree));
			if (!g->fo || !g->fofree)
				die("out of memory");
		}
		f = g->nfo++;
	}
	g->fo[f] = (struct folio){ .idx = idx, .order = (uint8_t)order,
				   .type = (uint8_t)type, .file = -1,
				   .slot = -1 };
	return f;
}

/* Drop the folio when nothing maps or caches it: free its pages. */
static void put_folio(struct gen *g, unsigned int f)
{
	struct folio *fo = &g->fo[f];
	unsigned long i;

	if (fo->maps || fo->cached)
		return;
	emit_block(g, false, fo->idx, fo->order);
	g->fofree[g->nfofree++] = f;
	if (fo->type == F_DAX)	/* device memory: not the allocator's */
		return;
	if (fo->order == 0)
		g->free0[g->nfree0++] = (uint32_t)fo->idx;
	else
		for (i = 0; i < 1UL << fo->order; i += PMD_PAGES)
			g->freeblk[g->nfreeblk++] =
				(uint32_t)((fo->idx + i) / PMD_PAGES);
}

/* ---- mappings ---------------------------------------------------------- */

static uint64_t map_idx(struct gen *g, const struct map *m)
{
	return g->fo[m->folio].idx + m->off;
}

static bool map_anon(struct gen *g, const struct map *m)
{
	return g->fo[m->folio].type == F_ANON;
}

static void map_emit(struct gen *g, const struct map *m, bool set)
{
	emit_entry(g, set, m->level, map_idx(g, m), map_anon(g, m), m->rw);
}

/* Map @m into @p (emitting the set).  false when @p is full. */
static bool map_add(struct gen *g, struct proc *p, struct map m)
{
	if (p->n == MAX_MAPS)
		return false;
	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 16;
		p->m = realloc(p->m, p->cap * sizeof(*p->m));
		if (!p->m)
			die("out of memory");
	}
	map_emit(g, &m, true);
	g->fo[m.folio].maps++;
	p->m[p->n++] = m;
	return true;
}

/* Unmap entry @i of @p (emitting the clear) and release its folio. */
static void map_del(struct gen *g, struct proc *p, unsigned int i)
{
	unsigned int f = p->m[i].folio;

	map_emit(g, &p->m[i], false);
	p->m[i] = p->m[--p->n];
	g->fo[f].maps--;
	put_folio(g, f);
}

/* True when only one entry maps each page of @m: a write may reuse it. */
static bool map_exclusive(struct gen *g, const struct map *m)
{
	uint64_t idx = map_idx(g, m);
	unsigned long i;

	for (i = 0; i < level_pages(m->level); i++)
		if (g->pg[idx + i].anon + g->pg[idx + i].file != 1)
			return false;
	return true;
}

static struct proc *any_proc(struct gen *g)
{
	return &g->proc[rnd(g, g->nproc)];
}

/* A random entry of a random process for which @want holds, or NULL. */
static struct map *pick_map(struct gen *g, struct proc **pp,
			    bool (*want)(struct gen *, const struct map *))
{
	struct proc *p;
	struct map *m;
	int tries;

	for (tries = 0; tries < 64; tries++) {
		p = any_proc(g);
		if (!p->n)
			continue;
		m = &p->m[rnd(g, p->n)];
		if (!want || want(g, m)) {
			*pp = p;
			return m;
		}
	}
	return NULL;
}

/* ---- events ------------------------------------------------------------ */

/* do_anonymous_page(): a new page, mapped writable. */
static void ev_anon_fault(struct gen *g, struct proc *p)
{
	long idx = p->n < MAX_MAPS ? alloc0(g) : -1;
	unsigned int f;

	if (idx < 0)
		return;
	f = new_folio(g, (uint64_t)idx, 0, F_ANON);
	emit_block(g, true, (uint64_t)idx, 0);
	map_add(g, p, (struct map){ .folio = f, .level = KMC_PTC_PTE,
				    .rw = true });
}

/* do_huge_pmd_anonymous_page(): an order-9 page, one writable PMD. */
static void ev_anon_thp(struct gen *g, struct proc *p)
{
	long idx = p->n < MAX_MAPS ? alloc9(g) : -1;
	unsigned int f;

	if (idx < 0)
		return;
	f = new_folio(g, (uint64_t)idx, 9, F_ANON);
	emit_block(g, true, (uint64_t)idx, 9);
	map_add(g, p, (struct map){ .folio = f, .level = KMC_PTC_PMD,
				    .rw = true });
}

/* The page-cache folio of @file/@slot, read in (allocated) on a miss. */
static int cache_get(struct gen *g, int file, int slot)
{
	unsigned int order = file >= SHMEM_FILE ? 9 : 0;
	long idx;
	int f;

	if (g->cache[file][slot])
		return (int)g->cache[file][slot] - 1;
	idx = order ? alloc9(g) : alloc0(g);
	if (idx < 0)
		return -1;
	f = (int)new_folio(g, (uint64_t)idx, order, F_FILE);
	emit_block(g, true, (uint64_t)idx, order);
	g->fo[f].cached = true;
	g->fo[f].file = file;
	g->fo[f].slot = slot;
	g->cache[file][slot] = (unsigned int)f + 1;
	return f;
}

/* filemap_fault(): shared (rw or ro) or private (ro) file page. */
static void ev_file_fault(struct gen *g, struct proc *p)
{
	int f = cache_get(g, (int)rnd(g, SHMEM_FILE), (int)rnd(g, FILE_SLOTS));
	bool priv = coin(g, 30);

	if (f < 0)
		return;
	if (!map_add(g, p, (struct map){ .folio = (unsigned int)f,
					 .level = KMC_PTC_PTE, .priv = priv,
					 .rw = !priv && coin(g, 50) }))
		put_folio(g, (unsigned int)f);
}

/* shmem_fault() on a huge tmpfs: one PMD over an order-9 page. */
static void ev_shmem_thp(struct gen *g, struct proc *p)
{
	int f = cache_get(g, SHMEM_FILE + (int)rnd(g, NFILES - SHMEM_FILE),
			  (int)rnd(g, 4));

	if (f >= 0)
		map_add(g, p, (struct map){ .folio = (unsigned int)f,
					    .level = KMC_PTC_PMD,
					    .rw = coin(g, 50) });
}

/* dax_iomap_fault(): PUD, PMD or PTE entries over device memory. */
static void ev_dax(struct gen *g, struct proc *p)
{
	int level = (int)rnd(g, 3);
	unsigned long n;

	if (!g->dax)
		return;
	n = level_pages(level);
	map_add(g, p, (struct map){ .folio = g->dax - 1, .level = (uint8_t)level,
				    .off = (unsigned int)(rnd(g, PUD_PAGES / n) * n),
				    .rw = coin(g, 70) });
}

/*
 * dup_mmap(): the child maps what the parent maps; anonymous pages
 * read-only in both (the parent's write-protect is not a checked set).
 */
static void ev_fork(struct gen *g)
{
	struct proc *p = any_proc(g), *c;
	unsigned int i;
	struct map m;

	if (g->nproc == MAX_PROCS || p->n > FORK_MAPS)
		return;
	c = &g->proc[g->nproc++];
	line(g, "# fork: process %u -> %u", (unsigned int)(p - g->proc),
	     (unsigned int)(c - g->proc));
	for (i = 0; i < p->n; i++) {
		if (map_anon(g, &p->m[i]) || p->m[i].priv)
			p->m[i].rw = false;
		m = p->m[i];
		map_add(g, c, m);
	}
}

/* __split_huge_pmd_locked(): the PMD goes, 512 PTEs of the same kind come. */
static bool split_pmd(struct gen *g, struct proc *p, unsigned int i)
{
	struct map m = p->m[i], pte = m;
	unsigned int k;

	if (p->n + PMD_PAGES - 1 > MAX_MAPS || g->fo[m.folio].type == F_DAX)
		return false;
	line(g, "# split pmd %#llx", pfn(g, map_idx(g, &m)));
	map_emit(g, &m, false);
	p->m[i] = p->m[--p->n];
	pte.level = KMC_PTC_PTE;
	for (k = 0; k < PMD_PAGES; k++, pte.off++)
		map_add(g, p, pte);
	g->fo[m.folio].maps--;
	return true;
}

static bool is_pmd_thp(struct gen *g, const struct map *m)
{
	return m->level == KMC_PTC_PMD && g->fo[m->folio].type != F_DAX;
}

static void ev_split(struct gen *g)
{
	struct proc *p;
	struct map *m = pick_map(g, &p, is_pmd_thp);

	if (m)
		split_pmd(g, p, (unsigned int)(m - p->m));
}

/* wp_page_copy(): a new anonymous page replaces the entry's page. */
static void cow(struct gen *g, struct proc *p, unsigned int i)
{
	long idx = alloc0(g);
	struct map *m = &p->m[i];
	unsigned int old = m->folio;

	if (idx < 0)
		return;
	emit_block(g, true, (uint64_t)idx, 0);
	map_emit(g, m, false);
	*m = (struct map){ .folio = new_folio(g, (uint64_t)idx, 0, F_ANON),
			   .level = KMC_PTC_PTE, .rw = true };
	map_emit(g, m, true);
	g->fo[m->folio].maps++;
	g->fo[old].maps--;
	put_folio(g, old);
}

static bool is_readonly(struct gen *g, const struct map *m)
{
	return !m->rw;
}

/* do_wp_page(): reuse an exclusive page, else copy; shared files reuse. */
static void ev_write_fault(struct gen *g)
{
	struct proc *p;
	struct map *m = pick_map(g, &p, is_readonly);
	unsigned int i;

	if (!m)
		return;
	i = (unsigned int)(m - p->m);
	if (!map_anon(g, m) && !m->priv) {
		m->rw = true;
	} else if (map_anon(g, m) && map_exclusive(g, m)) {
		m->rw = true;
	} else if (m->level == KMC_PTC_PMD) {
		if (split_pmd(g, p, i))
			cow(g, p, p->n - 1 - rnd(g, PMD_PAGES));
	} else {
		cow(g, p, i);
	}
}

/* change_protection(): get-and-clear, then set with the new permission. */
static void ev_mprotect(struct gen *g)
{
	struct proc *p;
	struct map *m = pick_map(g, &p, NULL);

	if (!m || (!m->rw && m->priv))
		return;
	if (!m->rw && map_anon(g, m) && !map_exclusive(g, m))
		return;
	map_emit(g, m, false);
	m->rw = !m->rw;
	map_emit(g, m, true);
}

static void ev_munmap(struct gen *g)
{
	struct proc *p;
	struct map *m = pick_map(g, &p, NULL);

	if (m)
		map_del(g, p, (unsigned int)(m - p->m));
}

static void proc_exit(struct gen *g, unsigned int n)
{
	struct proc *p = &g->proc[n];

	line(g, "# exit: process %u", n);
	while (p->n)
		map_del(g, p, p->n - 1);
	free(p->m);
	g->proc[n] = g->proc[--g->nproc];
	memset(&g->proc[g->nproc], 0, sizeof(g->proc[0]));
}

/* shrink_folio_list(): an unmapped page-cache folio is dropped. */
static void ev_evict(struct gen *g)
{
	int file = (int)rnd(g, NFILES), slot = (int)rnd(g, FILE_SLOTS);
	unsigned int f = g->cache[file][slot];

	if (!f || g->fo[f - 1].maps)
		return;
	g->cache[file][slot] = 0;
	g->fo[f - 1].cached = false;
	put_folio(g, f - 1);
}

/* ---- injection ----------------------------------------------------------- */

static bool is_anon_map(struct gen *g, const struct map *m)
{
	return map_anon(g, m);
}

static bool is_file_map(struct gen *g, const struct map *m)
{
	return !map_anon(g, m);
}

/*
 * The first entry for which @want holds, scanning every process, from a
 * random one on: what pick_map()'s 64 random tries can miss when few
 * entries qualify (one anon page among thousands of file maps).
 */
static struct map *scan_map(struct gen *g,
			    bool (*want)(struct gen *, const struct map *))
{
	unsigned int i, j, pi = rnd(g, g->nproc);

	for (i = 0; i < g->nproc; i++) {
		struct proc *p = &g->proc[(pi + i) % g->nproc];

		for (j = 0; j < p->n; j++)
			if (want(g, &p->m[j]))
				return &p->m[j];
	}
	return NULL;
}

/* A page some entry maps (anon or file), or -1 if no entry does. */
static int64_t mapped_page(struct gen *g, bool anon, struct map **mp)
{
	bool (*want)(struct gen *, const struct map *) =
		anon ? is_anon_map : is_file_map;
	struct proc *p;
	struct map *m = pick_map(g, &p, want);

	if (!m)
		m = scan_map(g, want);
	*mp = m;
	if (!m)
		return -1;
	return (int64_t)(map_idx(g, m) + rnd(g, level_pages(m->level)));
}

/* A page nothing maps: one just freed, or one of a free block. */
static int64_t unmapped_page(struct gen *g)
{
	if (g->nfree0)
		return g->free0[g->nfree0 - 1];
	if (g->nfreeblk)
		return (int64_t)g->freeblk[g->nfreeblk - 1] * PMD_PAGES;
	return -1;
}

/* Write the line that breaks rule @v now.  false if the state has no target. */
static bool inject(struct gen *g, int v)
{
	bool anon = v == KMC_PTC_ANON_RW_DOUBLE_MAP ||
		    v == KMC_PTC_FILE_MAP_OF_ANON_MAPPED ||
		    v == KMC_PTC_FILE_UNMAP_OF_ANON_MAPPED ||
		    v == KMC_PTC_STILL_ANON_MAPPED;
	bool unmapped = v == KMC_PTC_ANON_UNMAP_UNDERFLOW ||
			v == KMC_PTC_FILE_UNMAP_UNDERFLOW;
	struct map *m = NULL;
	int64_t idx = unmapped ? unmapped_page(g) : mapped_page(g, anon, &m);
	unsigned long long at;
	const char *rw = coin(g, 50) ? "rw" : "ro";

	if (idx < 0)
		return false;
	at = pfn(g, (uint64_t)idx);
	g->res->inject_line = g->res->lines + 1;
	g->res->inject_verdict = v;
	switch (v) {
	case KMC_PTC_ANON_RW_DOUBLE_MAP:
		if (m->level != KMC_PTC_PTE && coin(g, 50))
			line(g, "set %s %#llx anon rw", level_name[m->level],
			     pfn(g, map_idx(g, m)));
		else
			line(g, "set pte %#llx anon rw", at);
		break;
	case KMC_PTC_ANON_MAP_OF_FILE_MAPPED:
		line(g, "set pte %#llx anon %s", at, rw);
		break;
	case KMC_PTC_FILE_MAP_OF_ANON_MAPPED:
		line(g, "set pte %#llx file %s", at, rw);
		break;
	case KMC_PTC_ANON_UNMAP_OF_FILE_MAPPED:
	case KMC_PTC_ANON_UNMAP_UNDERFLOW:
		line(g, "clear pte %#llx anon", at);
		break;
	case KMC_PTC_FILE_UNMAP_OF_ANON_MAPPED:
	case KMC_PTC_FILE_UNMAP_UNDERFLOW:
		line(g, "clear pte %#llx file", at);
		break;
	default:	/* still mapped when allocated or freed */
		line(g, "%s %#llx 0", coin(g, 50) ? "alloc" : "free", at);
	}
	return true;
}

bool ptc_gen_can_inject(int verdict)
{
	return verdict > KMC_PTC_OK && verdict < KMC_PTC_VERDICT_NR &&
	       verdict != KMC_PTC_FILE_MAP_OVERFLOW;
}

static int pick_injection(struct gen *g)
{
	int v;

	do {
		v = 1 + (int)rnd(g, KMC_PTC_VERDICT_NR - 1);
	} while (!ptc_gen_can_inject(v));
	return v;
}

/* ---- driver ------------------------------------------------------------ */

/* The process with the fewest maps: room for the last-chance faults. */
static struct proc *emptiest_proc(struct gen *g)
{
	struct proc *p = &g->proc[0];
	unsigned int i;

	for (i = 1; i < g->nproc; i++)
		if (g->proc[i].n < p->n)
			p = &g->proc[i];
	return p;
}

static void event(struct gen *g)
{
	unsigned int r = rnd(g, 100);
	struct proc *p = any_proc(g);

	if (r < 20)
		ev_anon_fault(g, p);
	else if (r < 24)
		ev_anon_thp(g, p);
	else if (r < 38)
		ev_file_fault(g, p);
	else if (r < 40)
		ev_shmem_thp(g, p);
	else if (r < 43)
		ev_dax(g, p);
	else if (r < 47)
		ev_fork(g);
	else if (r < 60)
		ev_write_fault(g);
	else if (r < 64)
		ev_mprotect(g);
	else if (r < 67)
		ev_split(g);
	else if (r < 84)
		ev_munmap(g);
	else if (r < 86 && g->nproc > 1)
		proc_exit(g, rnd(g, g->nproc));
	else if (r < 88 && g->nproc < MAX_PROCS)
		g->nproc++;	/* exec of a new process */
	else
		ev_evict(g);
}

/* Everything exits, the page cache and the DAX region go. */
static void teardown(struct gen *g)
{
	int file, slot;

	while (g->nproc)
		proc_exit(g, g->nproc - 1);
	for (file = 0; file < NFILES; file++) {
		for (slot = 0; slot < FILE_SLOTS; slot++) {
			if (!g->cache[file][slot])
				continue;
			g->fo[g->cache[file][slot] - 1].cached = false;
			put_folio(g, g->cache[file][slot] - 1);
		}
	}
	if (g->dax) {
		line(g, "# DAX region goes");
		g->fo[g->dax - 1].cached = false;
		put_folio(g, g->dax - 1);
	}
}

static int setup(struct gen *g)
{
	unsigned long b, blocks = g->ram / PMD_PAGES;

	g->npages = g->ram + (g->o->dax ? PUD_PAGES : 0);
	g->pg = calloc(g->npages, sizeof(*g->pg));
	g->free0 = malloc(g->ram * sizeof(*g->free0));
	g->freeblk = malloc(blocks * sizeof(*g->freeblk));
	if (!g->pg || !g->free0 || !g->freeblk)
		return -1;
	for (b = blocks; b--;)
		g->freeblk[g->nfreeblk++] = (uint32_t)b;
	g->nproc = 1;
	if (g->o->dax) {
		line(g, "# DAX region: 1 GiB of device memory");
		g->dax = new_folio(g, g->ram, 18, F_DAX) + 1;
		g->fo[g->dax - 1].cached = true;
		emit_block(g, true, g->ram, 18);
	}
	return 0;
}

void ptc_gen_defaults(struct ptc_gen_opts *o, uint64_t seed)
{
	memset(o, 0, sizeof(*o));
	o->seed = seed;
	o->events = 1000;
	o->base = UINT64_MAX;
	o->ram_gib = 1;
	o->dax = true;
}

/* RAM starts low, across the library's fast-path edge, high or at the top. */
static uint64_t pick_base(struct gen *g)
{
	uint64_t span = (uint64_t)g->npages;

	switch (rnd(g, 4)) {
	case 0:
		return (uint64_t)rnd(g, 64) * PUD_PAGES;
	case 1:
		return (1ULL << 27) - PUD_PAGES;
	case 2:
		return (rng(g) >> 30) * PUD_PAGES;
	default:
		return 0ULL - span;
	}
}

int ptc_gen(const struct ptc_gen_opts *o, FILE *out,
	    struct ptc_gen_result *res)
{
	struct gen g = { .o = o, .out = out, .res = res };
	unsigned int e, inject_at = 0;
	int v = o->inject, ret = -1;

	memset(res, 0, sizeof(*res));
	if (!o->ram_gib || o->ram_gib > 64 || (v && v != -1 &&
					       !ptc_gen_can_inject(v)))
		return -1;
	g.rng = o->seed * 0x9E3779B97F4A7C15ULL + 0x6A09E667F3BCC909ULL;
	g.ram = o->ram_gib * PUD_PAGES;
	g.npages = g.ram + (o->dax ? PUD_PAGES : 0);
	g.base = o->base == UINT64_MAX ? pick_base(&g) : o->base;
	if (g.base % PUD_PAGES || g.base + g.npages - 1 < g.base)
		return -1;
	line(&g, "# ptc_gen -s %llu -n %u: RAM at %#llx, %u GiB%s",
	     (unsigned long long)o->seed, o->events, pfn(&g, 0), o->ram_gib,
	     o->dax ? ", DAX after it" : "");
	if (setup(&g))
		goto out;
	if (v == -1)
		v = pick_injection(&g);
	if (v)
		inject_at = o->inject_last ? o->events :
					     rnd(&g, o->events + 1);
	for (e = 0; e < o->events; e++) {
		if (v && e >= inject_at && !res->inject_line)
			inject(&g, v);
		event(&g);
	}
	if (v && !res->inject_line) {
		/* Last chance: new anon and file maps where there is room. */
		struct proc *p = emptiest_proc(&g);

		ev_anon_fault(&g, p);
		ev_file_fault(&g, p);
		if (!inject(&g, v))
			die("nothing to inject into");
	}
	teardown(&g);
	ret = 0;
out:
	while (g.nproc)
		free(g.proc[--g.nproc].m);
	free(g.pg);
	free(g.free0);
	free(g.freeblk);
	free(g.fo);
	free(g.fofree);
	return ret;
}
