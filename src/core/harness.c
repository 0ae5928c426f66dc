/*
 * Measurement method, DESIGN.md points 1-6 and 8.  A sample is one call of
 * the benchmark's run function with a calibrated iteration count; its value
 * is the time per iteration in the benchmark's unit.  Sampling continues
 * until the 95% CI of the median is within the precision asked for, or the
 * time or sample budget runs out; which one ended it is recorded, and a
 * result that missed its precision is "noisy".
 *
 * The harness never prints and never exits; what it learns goes in the
 * result.
 */
#include "core/harness.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plat/plat.h"
#include "stats/stats.h"

/* Calibration grows n by at most this factor per step, so that a benchmark
 * whose first iterations are unusually fast cannot overshoot for minutes. */
#define CAL_MAX_GROWTH 100.0
/* Two warm-up samples within this relative distance count as agreeing. */
#define WARMUP_AGREE 0.05

void harness_defaults(struct harness_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->clock = timer_monotonic;
	cfg->sample_target_ns = 10e6;
	cfg->granularity_ns = 1;
	cfg->precision = 0.01;
	cfg->max_time_ns = 3e9;
	cfg->min_samples = 10;
	cfg->max_samples = 10000;
	cfg->warmup_max = 5;
	cfg->interference = 1;
}

struct sampler {
	const struct bench *b;
	const struct harness_cfg *cfg;
	struct bench_ctx *ctx;
	uint64_t n;		/* iterations per sample */
};

static uint64_t now(const struct harness_cfg *cfg)
{
	return cfg->clock.now(cfg->clock.arg);
}

/* One timed call of the run function; elapsed nanoseconds in *ns. */
static enum bench_status sample_once(struct sampler *s, uint64_t n, double *ns)
{
	uint64_t t0 = now(s->cfg);
	enum bench_status st = s->b->run(s->ctx, n);
	uint64_t t1 = now(s->cfg);

	*ns = (double)(t1 - t0);
	return st;
}

/*
 * Time per iteration, in the benchmark's unit.  A timed interval holds one
 * clock read besides the n iterations; a cheap operation's iterations also
 * hold the loop's own increment and branch.  Both are subtracted.
 */
static double to_unit(const struct sampler *s, double ns)
{
	double per = (ns - s->cfg->clock_cost_ns) / (double)s->n;

	if (s->b->flags & BENCH_CHEAP)
		per -= s->cfg->loop_ns;
	switch (s->b->metric) {
	case METRIC_US: return per / 1e3;
	case METRIC_NS: return per;
	case METRIC_MBPS: return s->ctx->bytes_per_iter * 1e3 / per;
	}
	BUG("bad metric %d", (int)s->b->metric);
}

/* Grow n until one sample lasts at least the target. */
static enum bench_status calibrate(struct sampler *s, double target)
{
	double ns;
	enum bench_status st;

	for (s->n = 1;; ) {
		st = sample_once(s, s->n, &ns);
		if (st != BENCH_OK)
			return st;
		if (ns >= target)
			return BENCH_OK;
		double grow = ns > 0 ? 1.2 * target / ns : CAL_MAX_GROWTH;
		if (grow > CAL_MAX_GROWTH)
			grow = CAL_MAX_GROWTH;
		if (grow < 2)
			grow = 2;
		s->n = (uint64_t)ceil((double)s->n * grow);
	}
}

static int agree(double a, double b)
{
	double lo = fmin(a, b);
	return lo > 0 && (fmax(a, b) - lo) / lo <= WARMUP_AGREE;
}

/*
 * Discard samples until two in a row agree: the first ones pay for cold
 * caches, page faults and frequency ramp-up.
 */
static enum bench_status warm_up(struct sampler *s)
{
	double prev = -1, ns;
	enum bench_status st;

	for (size_t i = 0; i < s->cfg->warmup_max; i++) {
		st = sample_once(s, s->n, &ns);
		if (st != BENCH_OK)
			return st;
		if (prev >= 0 && agree(prev, ns))
			break;
		prev = ns;
	}
	return BENCH_OK;
}

/* The machine's and our own CPU use, at one instant. */
struct cpu_snap {
	struct plat_cpu_times machine;
	uint64_t own_ns;
	uint64_t wall_ns;
};

static int snap(struct cpu_snap *c)
{
	c->wall_ns = timer_now();
	if (plat_cpu_times(&c->machine) < 0 || plat_group_cpu_ns(&c->own_ns) < 0)
		return -1;
	return 0;
}

/*
 * The fraction of the other CPUs' time that work other than kbench used
 * between two snapshots.  Steal time counts: in a VM it is a neighbour
 * taking our CPU.  With one CPU, the denominator is what kbench did not use.
 */
static double interference(const struct cpu_snap *a, const struct cpu_snap *b)
{
	double wall = (double)(b->wall_ns - a->wall_ns);
	double busy = (double)(b->machine.busy_ns - a->machine.busy_ns);
	double own = (double)(b->own_ns - a->own_ns);
	int ncpu = b->machine.ncpu;
	double other = busy - own;
	double room = ncpu > 1 ? (ncpu - 1) * wall : wall - own;

	if (room <= 0)
		return -1;
	if (other < 0)
		other = 0;
	return fmin(other / room, 1.0);
}

static void fill_stats(struct result *r, const struct stats_summary *ss)
{
	r->n = ss->n;
	r->median = ss->median;
	r->ci_low = ss->ci_low;
	r->ci_high = ss->ci_high;
	r->min = ss->min;
	r->max = ss->max;
	r->mean = ss->mean;
	r->stddev = ss->stddev;
	r->cv = ss->cv;
	r->p5 = ss->p5;
	r->p95 = ss->p95;
}

static void set_outcome(struct result *r, enum bench_status st, const char *why)
{
	r->status = st == BENCH_SKIP ? RES_SKIP : RES_FAIL;
	r->stop = STOP_NONE;
	snprintf(r->reason, sizeof(r->reason), "%s", why[0] ? why : "no reason given");
}

/* Sample until a stop rule fires; fills r's samples and stop reason. */
static enum bench_status sample(struct sampler *s, struct result *r)
{
	const struct harness_cfg *cfg = s->cfg;
	uint64_t start = now(cfg);
	size_t cap = 64;
	struct stats_summary ss;
	double ns;
	enum bench_status st;

	r->samples = malloc(cap * sizeof(*r->samples));
	if (!r->samples)
		return bench_fail(s->ctx, 0, "out of memory for samples");
	for (;;) {
		st = sample_once(s, s->n, &ns);
		if (st != BENCH_OK)
			return st;
		if (r->n == cap) {
			double *more = realloc(r->samples, 2 * cap * sizeof(*more));
			if (!more)
				return bench_fail(s->ctx, 0, "out of memory for samples");
			r->samples = more;
			cap *= 2;
		}
		r->samples[r->n++] = to_unit(s, ns);
		if (!(r->samples[r->n - 1] > 0) || !isfinite(r->samples[r->n - 1]))
			return bench_fail(s->ctx, 0, "sample of %.0f ns for %llu iterations is not a "
					  "positive time: the clock or the overhead is wrong", ns,
					  (unsigned long long)s->n);
		if (r->n >= cfg->min_samples) {
			stats_summarize(r->samples, r->n, &ss);
			if (stats_rel_halfwidth(&ss) <= cfg->precision) {
				r->stop = STOP_PRECISION;
				break;
			}
		}
		if ((double)(now(cfg) - start) >= cfg->max_time_ns) {
			r->stop = STOP_MAX_TIME;
			break;
		}
		if (r->n >= cfg->max_samples) {
			r->stop = STOP_MAX_SAMPLES;
			break;
		}
	}
	return BENCH_OK;
}

int harness_run(const struct bench *b, const struct harness_cfg *cfg, struct result *r)
{
	struct bench_ctx ctx = { .tmpdir = cfg->tmpdir };
	struct sampler s = { .b = b, .cfg = cfg, .ctx = &ctx };
	struct cpu_snap before, after;
	struct stats_summary ss;
	const char *why;
	uint64_t t0 = now(cfg);
	double target = fmax(cfg->sample_target_ns, 1000 * cfg->granularity_ns);
	int have_snap = 0, set_up;
	enum bench_status st = BENCH_OK;

	result_init(r, b);
	if (b->unsupported && (why = b->unsupported()) != NULL) {
		set_outcome(r, BENCH_SKIP, why);
		return 0;
	}
	if (b->setup)
		st = b->setup(&ctx);
	set_up = st == BENCH_OK;
	if (st == BENCH_OK)
		st = calibrate(&s, target);
	if (st == BENCH_OK)
		st = warm_up(&s);
	if (st == BENCH_OK) {
		have_snap = cfg->interference && snap(&before) == 0;
		st = sample(&s, r);
		if (have_snap && snap(&after) == 0)
			r->interference = interference(&before, &after);
	}
	/* Teardown only undoes a setup that succeeded. */
	if (b->teardown && set_up)
		b->teardown(&ctx);
	r->iterations = s.n;
	r->wall_s = (double)(now(cfg) - t0) / 1e9;
	if (st != BENCH_OK) {
		free(r->samples);
		r->samples = NULL;
		r->n = 0;
		set_outcome(r, st, ctx.err);
		return 0;
	}
	stats_summarize(r->samples, r->n, &ss);
	fill_stats(r, &ss);
	r->status = r->stop == STOP_PRECISION ? RES_OK : RES_NOISY;
	/* What was subtracted per iteration, in the result's unit. */
	if (b->metric != METRIC_MBPS) {
		double ns = cfg->clock_cost_ns / (double)s.n + (b->flags & BENCH_CHEAP ? cfg->loop_ns : 0);
		r->overhead = b->metric == METRIC_US ? ns / 1e3 : ns;
	}
	return 0;
}
