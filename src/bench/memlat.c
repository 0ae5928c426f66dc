/*
 * Memory latency, lmbench's lat_mem_rd done so that prefetchers cannot
 * hide it: a chain of pointers laid through an array, each load's address
 * being the value the last one returned, so loads cannot overlap.  One
 * iteration is one load; the figure is nanoseconds per load, with the
 * loop's own counting measured apart (the overhead hook: the same loop
 * with the load taken out) and subtracted.
 *
 * The chain visits the array's cache lines in one of three orders, each a
 * series of the curve mem.lat.curve:
 *   page      pages in random order, the lines of each page in random
 *             order: no prefetcher guesses it, and a TLB miss costs once
 *             per 64 loads, so the steps are the caches'.  Cache levels
 *             are read off this series.
 *   random    every line in random order across the whole array: TLB
 *             misses included, as a program chasing pointers sees them;
 *             the curve's last point, and mem.lat.main, are this.
 *   strideN   every N bytes in address order, lmbench's way: the
 *             prefetchers at work (full suite only).
 * Pages are 4 KiB (transparent huge pages are refused with madvise): where
 * THP is on, a random chase would otherwise measure 2 MiB pages here and
 * 4 KiB pages there, and the same kernel would read differently.
 *
 * mem.lat.l1, .l2 and .l3 measure each level's latency at one size per
 * machine (half of L1, twice the level below for the others: the OS's
 * sizes, else the curve's), after the curve of the same run (a run that
 * selects them measures it first) has shown that size inside a cache.
 *
 * The work is checked exactly: the harness asks for n loads, and after
 * them the chain must stand on the element the visiting order says.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "bench/families.h"
#include "core/result.h"
#include "plat/plat.h"
#include "stats/levels.h"

#define MEMLAT_PAGE 4096
#define MEMLAT_LINE 64
/* The smallest array on the curve: far inside any L1. */
#define MEMLAT_MIN_SIZE 512
/* The curve runs to 4x the last-level cache, and at least this far. */
#define MEMLAT_MIN_TOP (8ull << 20)
/* Element counts are kept in 32 bits: 256 GiB of lines is far past any need. */
#define MEMLAT_MAX_ELEMENTS 0xffffffffull
/*
 * A random chain holds at most this many elements (4M, 256 MiB of lines:
 * far past any last-level cache).  Over a larger array the elements are
 * spread out instead, one per slot of size/4M bytes: every load still
 * lands on a random page and misses every cache, and laying the chain
 * takes a second instead of ten.
 */
#define MEMLAT_MAX_RANDOM (4u << 20)
/* Main memory is measured over this much, as an independent chase would be. */
#define MEMLAT_MAIN_SIZE (1ull << 30)

enum memlat_order { ORDER_STRIDE, ORDER_PAGE, ORDER_RANDOM };

struct memlat_state {
	char *base;		/* the array, mmap'd */
	size_t bytes;		/* mapped */
	size_t step;		/* bytes between elements (a slot each) */
	int spread;		/* an element anywhere in its slot, not at its start */
	size_t nel;		/* elements on the chain */
	uint32_t *order;	/* order[k]: the element visited k-th */
	size_t pos;		/* where the chain stands: order[pos] */
	void **p;		/* the same, as a pointer */
};

/* What a level row measures: its level (1-3) or 0 for main memory. */
struct memlat_param {
	int level;
};

/*
 * xorshift64*: a fixed seed, so that every run lays the same chain and two
 * kernels are compared on the same access order.
 */
static uint64_t memlat_next(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dull;
}

/* Shuffle a[0..n) in place (Fisher-Yates). */
static void memlat_shuffle(uint32_t *a, size_t n, uint64_t *seed)
{
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)(memlat_next(seed) % i);
		uint32_t t = a[i - 1];

		a[i - 1] = a[j];
		a[j] = t;
	}
}

/*
 * Where element e lives: at the start of its slot, or, when a random chain
 * is spread out over slots of several lines, on a line of the slot picked
 * by a hash of e.  Always the slot's first line would put every element at
 * the same offset modulo the slot, on a quarter of the cache sets and of
 * the DRAM banks, and the chase would measure bank conflicts: 20% slower
 * over 1 GiB than every line, on the development VM.
 */
static char *memlat_addr(const struct memlat_state *m, uint32_t e)
{
	size_t lines = m->step / MEMLAT_LINE, off = 0;

	if (m->spread && lines > 1)
		off = (size_t)(((uint64_t)e * 0x9e3779b97f4a7c15ull) >> 40) % lines * MEMLAT_LINE;
	return m->base + (size_t)e * m->step + off;
}

/* The visiting order of the elements. */
static void memlat_lay(struct memlat_state *m, enum memlat_order how)
{
	uint64_t seed = 0x6b62656e63680001ull;
	size_t per_page = MEMLAT_PAGE / m->step;

	for (size_t k = 0; k < m->nel; k++)
		m->order[k] = (uint32_t)k;
	if (how == ORDER_RANDOM) {
		memlat_shuffle(m->order, m->nel, &seed);
	} else if (how == ORDER_PAGE && m->nel > per_page) {
		size_t npages = m->nel / per_page;
		uint32_t *pages = malloc(npages * sizeof(*pages));

		/* Without memory for the page order, pages go in address order;
		 * the lines within them are still shuffled. */
		if (pages) {
			for (size_t k = 0; k < npages; k++)
				pages[k] = (uint32_t)k;
			memlat_shuffle(pages, npages, &seed);
		}
		for (size_t k = 0; k < npages; k++) {
			uint32_t *run = &m->order[k * per_page];
			uint32_t pg = pages ? pages[k] : (uint32_t)k;

			for (size_t j = 0; j < per_page; j++)
				run[j] = (uint32_t)(pg * per_page + j);
			memlat_shuffle(run, per_page, &seed);
		}
		free(pages);
	} else if (how == ORDER_PAGE) {
		memlat_shuffle(m->order, m->nel, &seed);
	}
	for (size_t k = 0; k < m->nel; k++) {
		void **at = (void **)memlat_addr(m, m->order[k]);

		*at = memlat_addr(m, m->order[(k + 1) % m->nel]);
	}
	m->pos = 0;
	m->p = (void **)memlat_addr(m, m->order[0]);
}

/* Also after a failed setup, which the harness does not tear down. */
static void memlat_teardown(struct bench_ctx *ctx)
{
	struct memlat_state *m = ctx->priv;

	if (!m)
		return;
	if (m->base)
		munmap(m->base, m->bytes);
	free(m->order);
	free(m);
	ctx->priv = NULL;
}

/* A chain over `bytes` with elements `step` apart, in the order named. */
static enum bench_status memlat_build(struct bench_ctx *ctx, size_t bytes, size_t step,
				      enum memlat_order how)
{
	struct memlat_state *m;
	enum bench_status st;
	int spread = 0;

	if (how == ORDER_RANDOM && bytes / step > MEMLAT_MAX_RANDOM) {
		step = (bytes / MEMLAT_MAX_RANDOM + MEMLAT_LINE - 1) / MEMLAT_LINE * MEMLAT_LINE;
		spread = 1;
	}
	if (bytes < 2 * step || bytes / step > MEMLAT_MAX_ELEMENTS)
		return bench_fail(ctx, 0, "a chain of %zu bytes with elements %zu bytes apart "
				  "cannot be laid", bytes, step);
	/* The array and its order: 1 + 4/step of the size. */
	st = bench_check_memory(ctx, (double)bytes * (1.0 + 4.0 / (double)step),
				"the latency array");
	if (st != BENCH_OK)
		return st;
	m = calloc(1, sizeof(*m));
	if (!m)
		return bench_fail(ctx, ENOMEM, "latency state");
	ctx->priv = m;
	m->bytes = bytes;
	m->step = step;
	m->spread = spread;
	m->nel = bytes / step;
	m->base = plat_mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m->base == MAP_FAILED) {
		m->base = NULL;
		st = bench_fail(ctx, errno, "mmap of %zu bytes for the chain", bytes);
		memlat_teardown(ctx);
		return st;
	}
#ifdef MADV_NOHUGEPAGE
	/*
	 * A kernel without THP says EINVAL; its pages are 4 KiB anyway.  Any
	 * other failure may leave the chain on huge pages, another figure.
	 */
	if (plat_madvise(m->base, bytes, MADV_NOHUGEPAGE) != 0 && errno != EINVAL) {
		st = bench_fail(ctx, errno, "madvise(MADV_NOHUGEPAGE)");
		memlat_teardown(ctx);
		return st;
	}
#endif
	m->order = malloc(m->nel * sizeof(*m->order));
	if (!m->order) {
		st = bench_fail(ctx, ENOMEM, "the chain's order (%zu elements)", m->nel);
		memlat_teardown(ctx);
		return st;
	}
	memlat_lay(m, how);
	/* A curve's points carry their own sizes. */
	if (!ctx->point) {
		bench_value(ctx, "size", (double)bytes);
		bench_value(ctx, "step", (double)step);
	}
	return BENCH_OK;
}

#define MEMLAT_LOAD (p = (void **)*p)
#define MEMLAT_LOAD8 do { MEMLAT_LOAD; MEMLAT_LOAD; MEMLAT_LOAD; MEMLAT_LOAD; \
	MEMLAT_LOAD; MEMLAT_LOAD; MEMLAT_LOAD; MEMLAT_LOAD; } while (0)

/* Where the chain must stand after n more loads; checked after every sample. */
static enum bench_status memlat_arrive(struct bench_ctx *ctx, struct memlat_state *m,
				       void **p, uint64_t n)
{
	size_t want = (size_t)((m->pos + n % m->nel) % m->nel);

	if (p != (void **)memlat_addr(m, m->order[want]))
		return bench_fail(ctx, 0, "after %llu loads the chain stands at offset %td, not at "
				  "element %u: the chain is broken",
				  (unsigned long long)n, (char *)p - m->base, m->order[want]);
	m->pos = want;
	m->p = p;
	return BENCH_OK;
}

static enum bench_status memlat_run(struct bench_ctx *ctx, uint64_t n)
{
	struct memlat_state *m = ctx->priv;
	void **p = m->p;
	uint64_t i = n;

	/* 32 loads per turn: the loop's count and branch run beside the chain. */
	for (; i >= 32; i -= 32) {
		MEMLAT_LOAD8;
		MEMLAT_LOAD8;
		MEMLAT_LOAD8;
		MEMLAT_LOAD8;
	}
	while (i-- > 0)
		MEMLAT_LOAD;
	return memlat_arrive(ctx, m, p, n);
}

/* The same loop with the load taken out: what counting n costs. */
static enum bench_status memlat_overhead(struct bench_ctx *ctx, uint64_t n)
{
	struct memlat_state *m = ctx->priv;
	void **p = m->p;
	uint64_t i = n;

#define MEMLAT_KEEP __asm__ volatile("" : "+r"(p))
	for (; i >= 32; i -= 32) {
		MEMLAT_KEEP; MEMLAT_KEEP; MEMLAT_KEEP; MEMLAT_KEEP;
		MEMLAT_KEEP; MEMLAT_KEEP; MEMLAT_KEEP; MEMLAT_KEEP;
	}
	while (i-- > 0)
		MEMLAT_KEEP;
#undef MEMLAT_KEEP
	if (p != m->p)
		return bench_fail(ctx, 0, "the overhead loop moved the chain");
	return BENCH_OK;
}

/* ------------------------------------------------------------------ */
/* The curve                                                           */
/* ------------------------------------------------------------------ */

/* The curve's largest array: --size, else 4x the last-level cache. */
static size_t memlat_top(const struct bench_ctx *ctx)
{
	uint64_t top = 4 * plat_llc_size();

	if (ctx->size)
		return ctx->size;
	return (size_t)(top > MEMLAT_MIN_TOP ? top : MEMLAT_MIN_TOP);
}

/*
 * Sizes from 512 B to the top, `per_octave` to a doubling, rounded to whole
 * lines below a page and to whole pages above (the page series shuffles
 * whole pages), the top always last.
 */
static size_t memlat_sizes(size_t top, int per_octave, size_t *out, size_t max)
{
	size_t n = 0;

	for (int k = 0; n < max; k++) {
		double s = MEMLAT_MIN_SIZE * pow(2, (double)k / per_octave);
		size_t unit = s < MEMLAT_PAGE ? MEMLAT_LINE : MEMLAT_PAGE;
		size_t v = (size_t)(s / (double)unit + 0.5) * unit;

		if (v >= top)
			break;
		if (n == 0 || v > out[n - 1])
			out[n++] = v;
	}
	if (n < max)
		out[n++] = top / MEMLAT_PAGE * MEMLAT_PAGE;
	return n;
}

static size_t memlat_add(struct bench_point *pts, size_t n, size_t max, const char *series,
			 const size_t *sizes, size_t nsizes, size_t least)
{
	for (size_t i = 0; i < nsizes && n < max; i++) {
		if (sizes[i] < least)
			continue;
		snprintf(pts[n].series, sizeof(pts[n].series), "%s", series);
		pts[n++].x = (double)sizes[i];
	}
	return n;
}

/*
 * The page series first (the levels are read off it), lmbench's strides in
 * the full suite, the random series last, so that the curve's own figure
 * is main memory with TLB misses.  Quick takes a point per octave, the
 * others two.
 */
static size_t memlat_points(struct bench_ctx *ctx, struct bench_point *pts, size_t max)
{
	static const size_t strides[] = { 64, 256, 1024, 4096 };
	size_t sizes[128], nsizes, n = 0;
	int per_octave = ctx->suite == SUITE_QUICK ? 1 : 2;

	nsizes = memlat_sizes(memlat_top(ctx), per_octave, sizes, 128);
	n = memlat_add(pts, n, max, "page", sizes, nsizes, 0);
	if (ctx->suite == SUITE_FULL) {
		size_t octaves[128], noct = memlat_sizes(memlat_top(ctx), 1, octaves, 128);

		for (size_t k = 0; k < sizeof(strides) / sizeof(strides[0]); k++) {
			char name[16];

			snprintf(name, sizeof(name), "stride%zu", strides[k]);
			n = memlat_add(pts, n, max, name, octaves, noct, 2 * strides[k]);
		}
	}
	return memlat_add(pts, n, max, "random", sizes, nsizes, 0);
}

static enum bench_status memlat_curve_setup(struct bench_ctx *ctx)
{
	const struct bench_point *pt = ctx->point;
	size_t size = pt ? (size_t)pt->x : memlat_top(ctx);

	if (!pt || strcmp(pt->series, "random") == 0)
		return memlat_build(ctx, size, MEMLAT_LINE, ORDER_RANDOM);
	if (strcmp(pt->series, "page") == 0)
		return memlat_build(ctx, size, MEMLAT_LINE, ORDER_PAGE);
	if (strncmp(pt->series, "stride", 6) == 0)
		return memlat_build(ctx, size, (size_t)atol(pt->series + 6), ORDER_STRIDE);
	BUG("mem.lat.curve: unknown series '%s'", pt->series);
}

/* The page series' sizes and latencies, for the level reader. */
static size_t memlat_page_series(const struct result_point *pts, size_t n, double *x, double *y,
				 size_t max)
{
	size_t k = 0;

	for (size_t i = 0; i < n && k < max; i++)
		if (strcmp(pts[i].series, "page") == 0) {
			x[k] = pts[i].x;
			y[k++] = pts[i].y;
		}
	return k;
}

static void memlat_curve_done(struct bench_ctx *ctx, const struct result_point *pts, size_t n)
{
	static const char *const keys[] = { "l1_detected", "l2_detected", "l3_detected" };
	double x[BENCH_MAX_POINTS], y[BENCH_MAX_POINTS];
	size_t k = memlat_page_series(pts, n, x, y, BENCH_MAX_POINTS);
	struct levels lv;
	char why[256];
	int found = levels_detect(x, y, k, &lv, why, sizeof(why));

	bench_value(ctx, "levels", found);
	for (int i = 0; i < found && i < 3; i++)
		bench_value(ctx, keys[i], lv.cache[i].size);
}

/* ------------------------------------------------------------------ */
/* The levels                                                          */
/* ------------------------------------------------------------------ */

/* The size the OS gives for cache level `level` (data or unified), 0 unknown. */
static uint64_t memlat_os_size(int level)
{
	struct plat_cache c[16];
	int n = plat_caches(c, 16);

	for (int i = 0; i < n; i++)
		if (c[i].level == level && strcmp(c[i].type, "Instruction") != 0)
			return c[i].size;
	return 0;
}

/*
 * The size a level's latency is measured at: one the level holds and the
 * level below does not, the same in every run on one machine.  L1 at half
 * its size; a higher level at twice the size of the level below, where a
 * chain that cycles through misses the level below on every load (a
 * cache of LRU kind keeps none of a cycle twice its size).  The sizes are
 * the OS's where it gives them, the curve's otherwise.  A size read off
 * each run's curve moves: on a VM whose L3 is shared with its neighbours
 * the third level ended at 4, 8 or 64 MiB from run to run, and half of
 * that was an L3 hit, a main-memory load or a skip, three figures under
 * one name.  The curve then only confirms that the size is inside a
 * cache: its latency there under half of the curve's top (main memory).
 */
static enum bench_status memlat_level_setup(struct bench_ctx *ctx)
{
	const struct memlat_param *lp = ctx->arg;
	const struct result *curve = bench_prior(ctx, "mem.lat.curve");
	double x[BENCH_MAX_POINTS], y[BENCH_MAX_POINTS];
	int below = lp->level == 1 ? 1 : lp->level - 1;
	uint64_t base = memlat_os_size(below);
	struct levels lv;
	char why[256];
	size_t k, at, size;
	int found;

	if (!curve)
		return bench_skip(ctx, "needs mem.lat.curve measured in the same run");
	if (curve->status != RES_OK && curve->status != RES_NOISY)
		return bench_skip(ctx, "mem.lat.curve was not measured: %.200s", curve->reason);
	k = memlat_page_series(curve->points, curve->npoints, x, y, BENCH_MAX_POINTS);
	found = levels_detect(x, y, k, &lv, why, sizeof(why));
	if (found >= lp->level)
		bench_value(ctx, "detected", lv.cache[lp->level - 1].size);
	bench_value(ctx, "os_size", (double)memlat_os_size(lp->level));
	if (base == 0) {
		if (found == 0)
			return bench_skip(ctx, "no cache level found on mem.lat.curve "
					  "and the OS gives no sizes: %.200s", why);
		if (found < below)
			return bench_skip(ctx, "mem.lat.curve shows %d cache level%s and the "
					  "OS gives no L%d size", found, found == 1 ? "" : "s", below);
		base = (uint64_t)lv.cache[below - 1].size;
	}
	size = (size_t)(lp->level == 1 ? base / 2 : 2 * base);
	size = size < MEMLAT_PAGE ? size / MEMLAT_LINE * MEMLAT_LINE : size / MEMLAT_PAGE * MEMLAT_PAGE;
	for (at = 0; at < k && x[at] < (double)size; at++)
		;
	if (at + 1 >= k)
		return bench_skip(ctx, "mem.lat.curve stops at %.0f KiB, short of the %zu KiB "
				  "L%d is measured at and main memory past it",
				  k ? x[k - 1] / 1024 : 0.0, size / 1024, lp->level);
	if (y[at] * 2 > y[k - 1])
		return bench_skip(ctx, "no L%d holds %zu KiB: mem.lat.curve reads %.1f ns there, "
				  "%.1f ns at its top", lp->level, size / 1024, y[at], y[k - 1]);
	return memlat_build(ctx, size, MEMLAT_LINE, ORDER_PAGE);
}

/*
 * Main memory: random order over 1 GiB (--size to change it), TLB misses
 * and all, as a program chasing pointers through a large heap sees it.
 * The latency still grows with the array as the page tables outgrow the
 * caches: 4x the last-level cache reads about half of what 1 GiB does on
 * a VM with nested paging.  On a machine with little memory, a quarter of
 * what is available, but never less than the curve's top.
 */
static enum bench_status memlat_main_setup(struct bench_ctx *ctx)
{
	uint64_t total = 0, avail = 0, size = MEMLAT_MAIN_SIZE;

	if (ctx->size)
		size = ctx->size;
	else if (plat_memory(&total, &avail) == 0 && avail / 4 < size)
		size = avail / 4 > memlat_top(ctx) ? avail / 4 : memlat_top(ctx);
	return memlat_build(ctx, (size_t)(size / MEMLAT_PAGE * MEMLAT_PAGE), MEMLAT_LINE,
			    ORDER_RANDOM);
}

static const struct memlat_param memlat_l1 = { 1 }, memlat_l2 = { 2 }, memlat_l3 = { 3 };

#define MEMLAT_ROW .metric = METRIC_NS, .better = BETTER_LOWER, .suites = SUITE_SUMMARY, \
	.run = memlat_run, .overhead = memlat_overhead, .teardown = memlat_teardown

const struct bench memlat_benches[] = {
	{ .id = "mem.lat.curve", MEMLAT_ROW, .flags = BENCH_SIZED,
	  .summary = "load latency by array size, page/random order (and strides in full)",
	  .setup = memlat_curve_setup, .points = memlat_points, .curve_done = memlat_curve_done },
	{ .id = "mem.lat.l1", MEMLAT_ROW, .needs = "mem.lat.curve",
	  .summary = "load latency in L1, at half its size",
	  .setup = memlat_level_setup, .arg = &memlat_l1 },
	{ .id = "mem.lat.l2", MEMLAT_ROW, .needs = "mem.lat.curve",
	  .summary = "load latency in L2, at twice the size of L1",
	  .setup = memlat_level_setup, .arg = &memlat_l2 },
	{ .id = "mem.lat.l3", MEMLAT_ROW, .needs = "mem.lat.curve",
	  .summary = "load latency in L3, at twice the size of L2",
	  .setup = memlat_level_setup, .arg = &memlat_l3 },
	{ .id = "mem.lat.main", MEMLAT_ROW, .flags = BENCH_SIZED,
	  .summary = "load latency from memory: random order over 1 GiB, TLB misses included",
	  .setup = memlat_main_setup },
};
const size_t memlat_nbenches = sizeof(memlat_benches) / sizeof(memlat_benches[0]);
