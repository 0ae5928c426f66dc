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

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "plat/plat.h"
#include "stats/hist.h"
#include "stats/stats.h"

/* Calibration grows n by at most this factor per step, so that a benchmark
 * whose first iterations are unusually fast cannot overshoot for minutes. */
#define CAL_MAX_GROWTH 100.0
/* Two warm-up samples within this relative distance count as agreeing. */
#define WARMUP_AGREE 0.05
/*
 * Warm-up samples discarded at most where the start is known to be warm
 * enough (a later replica, a curve's point): one sample pays the cold
 * start, a second is there to agree.
 */
#define WARMUP_KNOWN 2

/* A sample's length: a share of the one asked for, never so short that the clock's steps show. */
static double sample_target(const struct harness_cfg *cfg, double share)
{
	return fmax(cfg->sample_target_ns * share, 1000 * cfg->granularity_ns);
}

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

/* What a sample times: the operation, or the benchmark's own overhead loop. */
enum sample_kind { KIND_RUN, KIND_OVERHEAD, KIND_QUIT };

/* The copies of a --parallel run, each a child with a command pipe. */
struct copies {
	int n;
	pid_t *pid;
	int *cmd;		/* harness -> copy: struct copy_cmd */
	int *rep;		/* copy -> harness: struct copy_reply */
};

struct copy_cmd {
	enum sample_kind kind;
	uint64_t n;
};

/* A copy's answer: after setup (t0 = t1 = 0) and after every sample. */
struct copy_reply {
	enum bench_status st;
	uint64_t t0, t1;
	struct bench_ctx ctx;	/* its pointers mean nothing here; the rest does */
};

struct sampler {
	const struct bench *b;
	const struct harness_cfg *cfg;
	struct bench_ctx *ctx;	/* the benchmark's, or copy 0's as reported */
	struct copies *cp;	/* NULL: the benchmark runs in this process */
	uint64_t n;		/* iterations per sample */
	double ovh_ns;		/* the benchmark's overhead loop, per iteration */
	double agg_ratio;	/* last sample: mean copy time / window */
	uint64_t run_start;	/* the run's start, for the samples' times */
	int nsteal;		/* CPUs in steal, 0: steal time unknown here */
	uint64_t steal[BENCH_MAX_CPUS];	/* each CPU's steal time at the last sample */
	size_t nends, napart;	/* samples whose ends' CPUs are known; of them, apart */
	struct plat_events *ev;	/* --events: started and stopped around each sample */
};

static uint64_t now(const struct harness_cfg *cfg)
{
	return cfg->clock.now(cfg->clock.arg);
}

/* Set every value of src in dst, by key: new keys added, known ones updated. */
static void merge_values(struct bench_ctx *dst, const struct bench_ctx *src)
{
	for (size_t i = 0; i < src->nvalues && i < BENCH_MAX_VALUES; i++) {
		const struct bench_value *v = &src->values[i];

		if (v->text[0])
			bench_value_text(dst, v->key, v->text);
		else
			bench_value(dst, v->key, v->num);
	}
}

/* Start every copy on the same command, then collect every answer. */
static enum bench_status copies_sample(struct sampler *s, enum sample_kind kind, uint64_t n,
				       double *ns)
{
	struct copy_cmd c = { kind, n };
	struct copy_reply rep;
	uint64_t first = UINT64_MAX, last = 0;
	double sum = 0, ops = 0;
	enum bench_status st = BENCH_OK;

	for (int i = 0; i < s->cp->n; i++)
		if (plat_full_io(s->cp->cmd[i], &c, sizeof(c), 1) < 0)
			return bench_fail(s->ctx, errno, "copy %d stopped taking commands", i);
	for (int i = 0; i < s->cp->n; i++) {
		if (plat_full_io(s->cp->rep[i], &rep, sizeof(rep), 0) < 0)
			return bench_fail(s->ctx, 0, "copy %d died during a sample", i);
		if (rep.st != BENCH_OK && st == BENCH_OK) {
			st = rep.st;
			snprintf(s->ctx->err, sizeof(s->ctx->err), "copy %d: %.230s", i, rep.ctx.err);
		}
		sum += (double)(rep.t1 - rep.t0);
		ops += rep.ctx.ops_per_iter > 0 ? rep.ctx.ops_per_iter : 1;
		/* A benchmark that counts its operations (page faults) says so per
		 * sample; copy 0's side figures stand for all, merged into what the
		 * harness recorded itself (the CPUs of a placement). */
		if (i == 0)
			merge_values(s->ctx, &rep.ctx);
		first = rep.t0 < first ? rep.t0 : first;
		last = rep.t1 > last ? rep.t1 : last;
	}
	*ns = sum / s->cp->n;
	s->ctx->ops_per_iter = ops / s->cp->n;
	s->agg_ratio = last > first ? *ns / (double)(last - first) : 1;
	return st;
}

/* One timed call of the run (or overhead) function; elapsed ns in *ns. */
static enum bench_status sample_kind(struct sampler *s, enum sample_kind kind, uint64_t n,
				     double *ns)
{
	enum bench_status (*fn)(struct bench_ctx *, uint64_t) =
		kind == KIND_RUN ? s->b->run : s->b->overhead;
	uint64_t t0, t1;
	enum bench_status st;

	if (s->cp)
		return copies_sample(s, kind, n, ns);
	if (kind == KIND_RUN && s->b->prepare && (st = s->b->prepare(s->ctx, n)) != BENCH_OK)
		return st;
	t0 = now(s->cfg);
	st = fn(s->ctx, n);
	t1 = now(s->cfg);
	*ns = (double)(t1 - t0);
	s->agg_ratio = 1;
	return st;
}

static enum bench_status sample_once(struct sampler *s, uint64_t n, double *ns)
{
	return sample_kind(s, KIND_RUN, n, ns);
}

/*
 * The row's setup, then the operations an iteration counts for: what setup
 * said, else the row's own count (AIM9's factor), else 1.
 */
static enum bench_status setup_row(const struct bench *b, struct bench_ctx *ctx)
{
	enum bench_status st = b->setup ? b->setup(ctx) : BENCH_OK;

	if (st == BENCH_OK && !(ctx->ops_per_iter > 0) && b->ops > 0)
		ctx->ops_per_iter = b->ops;
	return st;
}

static double ops_per_iter(const struct sampler *s)
{
	return s->ctx->ops_per_iter > 0 ? s->ctx->ops_per_iter : 1;
}

/* The benchmark's metric; the registry checked every row's at start-up. */
static const struct metric *row_metric(const struct bench *b)
{
	const struct metric *m = metric_get(b->metric);

	if (!m)
		BUG("%s: bad metric %d", b->id, (int)b->metric);
	return m;
}

/* Per-operation nanoseconds into the benchmark's unit. */
static double ns_to_unit(const struct sampler *s, double per)
{
	return metric_figure(row_metric(s->b), per, s->ctx->bytes_per_iter / ops_per_iter(s));
}

/*
 * Time per operation, in the benchmark's unit.  A timed interval holds one
 * clock read besides the n iterations; a cheap operation's iterations also
 * hold the loop's own increment and branch, and some benchmarks measure
 * their own overhead loop.  All three are subtracted.
 */
static double per_op_ns(const struct sampler *s, double ns)
{
	double per = (ns - s->cfg->clock_cost_ns) / (double)s->n;

	if (s->b->flags & BENCH_CHEAP)
		per -= s->cfg->loop_ns;
	per -= s->ovh_ns;
	return per / ops_per_iter(s);
}

/* A sample's value: the time per operation, or what an observing row saw. */
static double to_unit(const struct sampler *s, double ns)
{
	if (s->b->flags & BENCH_OBSERVED)
		return ns_to_unit(s, s->ctx->observed_ns);
	return ns_to_unit(s, per_op_ns(s, ns));
}

/*
 * All copies together, from the per-copy figure of the same sample: in the
 * window from the first start to the last end the copies did P times the
 * work one did in its own (mean) time.
 */
static double to_aggregate(const struct sampler *s, double per_copy)
{
	double p = s->cp ? s->cp->n : 1;

	if (metric_is_time(row_metric(s->b)))
		return per_copy / (p * s->agg_ratio);
	return per_copy * p * s->agg_ratio;
}

/* Grow *n until one sample of `kind` lasts at least the target. */
static enum bench_status calibrate(struct sampler *s, enum sample_kind kind, double target,
				   uint64_t *n)
{
	double ns;
	enum bench_status st;

	for (*n = 1;; ) {
		st = sample_kind(s, kind, *n, &ns);
		if (st != BENCH_OK)
			return st;
		if (ns >= target)
			return BENCH_OK;
		double grow = ns > 0 ? 1.2 * target / ns : CAL_MAX_GROWTH;
		if (grow > CAL_MAX_GROWTH)
			grow = CAL_MAX_GROWTH;
		if (grow < 2)
			grow = 2;
		*n = (uint64_t)ceil((double)*n * grow);
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
	/* A later replica runs at the first one's n, found warm. */
	size_t cap = s->cfg->iterations && s->cfg->warmup_max > WARMUP_KNOWN ? WARMUP_KNOWN
									      : s->cfg->warmup_max;

	for (size_t i = 0; i < cap; i++) {
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
 * taking our CPU.  With one CPU online (--offline-cpus), the share of the
 * wall time: the time kbench did not use was nearly nothing for a busy
 * benchmark, so an interrupt's worth of other work read as 100% busy.
 */
static double interference(const struct cpu_snap *a, const struct cpu_snap *b)
{
	double wall = (double)(b->wall_ns - a->wall_ns);
	double busy = (double)(b->machine.busy_ns - a->machine.busy_ns);
	double own = (double)(b->own_ns - a->own_ns);
	int ncpu = b->machine.ncpu;
	double other = busy - own;
	double room = ncpu > 1 ? (ncpu - 1) * wall : wall;

	if (room <= 0)
		return -1;
	if (other < 0)
		other = 0;
	return fmin(other / room, 1.0);
}

/*
 * Where the sample just taken ran: its end time, the CPU this process is
 * on (a copy's CPU is its own, so with copies none), and that CPU's steal
 * time since the last sample.  Read after the timed call, so it costs the
 * figure nothing; /proc/stat is one read of about 6 us.
 */
static void where(struct sampler *s, struct result_sample *w)
{
	uint64_t now_steal[BENCH_MAX_CPUS];
	int n = s->nsteal ? plat_steal_ns(now_steal, BENCH_MAX_CPUS) : -1;

	w->t = (double)(now(s->cfg) - s->run_start) / 1e9;
	w->cpu = s->cp ? -1 : plat_current_cpu();
	w->replica = s->cfg->replica;
	w->steal_ns = (double)NAN;
	if (n <= 0)
		return;
	if (w->cpu >= 0 && w->cpu < n && w->cpu < s->nsteal)
		w->steal_ns = (double)(now_steal[w->cpu] - s->steal[w->cpu]);
	else if (w->cpu < 0) {
		/* Copies run everywhere: the steal of every CPU. */
		w->steal_ns = 0;
		for (int c = 0; c < n && c < s->nsteal; c++)
			w->steal_ns += (double)(now_steal[c] - s->steal[c]);
	}
	memcpy(s->steal, now_steal, (size_t)n * sizeof(now_steal[0]));
	s->nsteal = n;
}

/*
 * Whether the ends of a benchmark between processes (this process and its
 * peers) are on more than one CPU: each end's CPU (its last, the
 * scheduler's record) compared with *cpu, the first seen around this
 * sample (-1 before any).  1 or 0; -1 unknown: no peers, a copy (whose
 * peers are its own), or a CPU that could not be read.  Read just before
 * and just after the timed call, outside it: for a 16-process ring 32
 * reads of /proc, about 0.3 ms a sample.
 */
static int ends_apart(const struct sampler *s, int *cpu)
{
	int apart = 0;

	if (s->cp || s->ctx->npeers == 0)
		return -1;
	for (int i = -1; i < s->ctx->npeers; i++) {
		int c = i < 0 ? plat_current_cpu() : plat_task_cpu(s->ctx->peers[i]);

		if (c < 0)
			return -1;
		if (*cpu < 0)
			*cpu = c;
		else if (c != *cpu)
			apart = 1;
	}
	return apart;
}

static void where_start(struct sampler *s)
{
	int n = plat_steal_ns(s->steal, BENCH_MAX_CPUS);

	s->nsteal = n > 0 ? n : 0;
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

/* Sample until a stop rule fires; fills r's samples and stop reason, and
 * with copies the aggregate of every sample in *agg. */
static enum bench_status sample(struct sampler *s, struct result *r, double **agg)
{
	const struct harness_cfg *cfg = s->cfg;
	uint64_t start = now(cfg);
	size_t cap = 64;
	struct stats_summary ss;
	double ns;
	enum bench_status st;
	int observed = (s->b->flags & BENCH_OBSERVED) != 0;

	r->samples = malloc(cap * sizeof(*r->samples));
	r->where = malloc(cap * sizeof(*r->where));
	*agg = malloc(cap * sizeof(**agg));
	if (!r->samples || !r->where || !*agg)
		return bench_fail(s->ctx, 0, "out of memory for samples");
	where_start(s);
	for (;;) {
		int cpu = -1, before = ends_apart(s, &cpu), after;

		/* The counters run over the timed call alone, outside its clock reads. */
		if (s->ev)
			plat_events_enable(s->ev, 1);
		st = sample_once(s, s->n, &ns);
		if (s->ev)
			plat_events_enable(s->ev, 0);
		if (st != BENCH_OK)
			return st;
		after = ends_apart(s, &cpu);
		if (before >= 0 && after >= 0) {
			s->nends++;
			s->napart += before || after;
		}
		if (r->n == cap) {
			double *more = realloc(r->samples, 2 * cap * sizeof(*more));
			struct result_sample *w;

			if (!more)
				return bench_fail(s->ctx, 0, "out of memory for samples");
			r->samples = more;
			if (!(w = realloc(r->where, 2 * cap * sizeof(*w))))
				return bench_fail(s->ctx, 0, "out of memory for samples");
			r->where = w;
			if (!(more = realloc(*agg, 2 * cap * sizeof(*more))))
				return bench_fail(s->ctx, 0, "out of memory for samples");
			*agg = more;
			cap *= 2;
		}
		where(s, &r->where[r->n]);
		(*agg)[r->n] = to_aggregate(s, to_unit(s, ns));
		r->samples[r->n++] = to_unit(s, ns);
		if (observed && (!(r->samples[r->n - 1] >= 0) || !isfinite(r->samples[r->n - 1])))
			return bench_fail(s->ctx, 0, "observed %.0f ns, not a time: the clock went "
					  "back", s->ctx->observed_ns);
		if (!observed && (!(r->samples[r->n - 1] > 0) || !isfinite(r->samples[r->n - 1])))
			return bench_fail(s->ctx, 0, "sample of %.0f ns for %llu iterations is not a "
					  "positive time: the clock or the overhead is wrong", ns,
					  (unsigned long long)s->n);
		/* A distribution's tail needs every sample the budget gives, not a median's precision. */
		if (!observed && r->n >= cfg->min_samples) {
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
	if (s->nends)
		r->apart = (double)s->napart / (double)s->nends;
	return BENCH_OK;
}

/*
 * The benchmark's overhead loop, timed like the operation: calibrated, one
 * sample discarded, then the fastest of OVH_SAMPLES samples per iteration,
 * each OVH_SHARE of a sample's target long.  The fastest, not the median:
 * the loop's cost is its cost in the machine's fast state, as the level
 * reads the operation's (delays only add); a median taken in a slow spell
 * once exceeded a fast sample's whole cost, on a loaded machine, and
 * ctx.2p.16k failed for a sample "not a positive time".  A quarter: the
 * loop is measured in every replica, and at a whole target it took 1.4-1.8
 * s of each ctx.* instance's 5 in the standard suite (32 s of it), for a
 * figure that shorter samples give as well (doc/performance.md).
 */
#define OVH_SAMPLES 11
#define OVH_SHARE 0.25

static enum bench_status measure_overhead(struct sampler *s, double target)
{
	double per[OVH_SAMPLES], ns;
	uint64_t n;
	struct stats_summary ss;
	enum bench_status st = calibrate(s, KIND_OVERHEAD, target, &n);

	if (st == BENCH_OK)
		st = sample_kind(s, KIND_OVERHEAD, n, &ns);
	for (size_t i = 0; i < OVH_SAMPLES && st == BENCH_OK; i++) {
		st = sample_kind(s, KIND_OVERHEAD, n, &ns);
		per[i] = (ns - s->cfg->clock_cost_ns) / (double)n;
	}
	if (st != BENCH_OK)
		return st;
	stats_summarize(per, OVH_SAMPLES, &ss);
	s->ovh_ns = fmax(ss.min, 0);
	return BENCH_OK;
}

/*
 * Placement: which CPUs the ends may be pinned to.  A placement that
 * cannot be honoured here is a skip with the reason, never a figure
 * measured some other way.
 */
static enum bench_status place_prepare(const struct bench *b, const struct harness_cfg *cfg,
				       struct bench_ctx *ctx)
{
	if (!(b->flags & BENCH_PLACED)) {
		ctx->placement = PLACE_NA;
		return BENCH_OK;
	}
	ctx->placement = cfg->placement == PLACE_NA ? PLACE_NONE : cfg->placement;
	if (ctx->placement == PLACE_NONE)
		return BENCH_OK;
	ctx->ncpus = plat_cpus_allowed(ctx->cpus, BENCH_MAX_CPUS);
	if (ctx->ncpus < 0 && errno == ENOSYS)
		return bench_skip(ctx, "this OS offers no CPU affinity, so placement %s cannot "
				  "be honoured", place_name(ctx->placement));
	if (ctx->ncpus < 0)
		return bench_fail(ctx, errno, "cannot read this process's CPU affinity");
	if (ctx->placement == PLACE_SPREAD && ctx->ncpus < 2)
		return bench_skip(ctx, "placement spread needs two CPUs, but kbench may run only "
				  "on CPU %d", ctx->cpus[0]);
	return BENCH_OK;
}

/* "0,1,0,1": the CPUs copy 0's ends were pinned to, for the record. */
static void record_cpus(struct bench_ctx *ctx)
{
	char buf[sizeof(ctx->values[0].text)];
	size_t len = 0;
	int ends = ctx->nends > 0 ? ctx->nends : 1;

	if (ctx->placement != PLACE_SAME && ctx->placement != PLACE_SPREAD)
		return;
	buf[0] = '\0';
	for (int k = 0; k < ends; k++) {
		int w = snprintf(buf + len, sizeof(buf) - len, "%s%d", k ? "," : "",
				 bench_cpu_for(ctx, k));
		if (w < 0 || (size_t)w >= sizeof(buf) - len - 4) {
			snprintf(buf + len, sizeof(buf) - len, ",...");
			break;
		}
		len += (size_t)w;
	}
	bench_value_text(ctx, "cpus", buf);
}

/* A copy's whole life: pin, set up, answer commands, tear down. */
static _Noreturn void copy_main(const struct bench *b, struct bench_ctx *ctx, int cmd, int rep)
{
	struct copy_reply r = { 0 };
	struct copy_cmd c;
	enum bench_status st = BENCH_OK;

	plat_die_with_parent(SIGKILL);
	if (bench_place(ctx, 0) < 0)
		st = BENCH_FAIL;
	if (st == BENCH_OK)
		st = setup_row(b, ctx);
	r.st = st;
	r.ctx = *ctx;
	if (plat_full_io(rep, &r, sizeof(r), 1) < 0 || st != BENCH_OK)
		_exit(st == BENCH_OK ? 1 : 0);
	while (plat_full_io(cmd, &c, sizeof(c), 0) == 0 && c.kind != KIND_QUIT) {
		/* Untimed, like the in-process case: only run's call is between t0 and t1. */
		r.st = c.kind == KIND_RUN && b->prepare ? b->prepare(ctx, c.n) : BENCH_OK;
		r.t0 = timer_now();
		if (r.st == BENCH_OK)
			r.st = (c.kind == KIND_RUN ? b->run : b->overhead)(ctx, c.n);
		r.t1 = timer_now();
		r.ctx = *ctx;
		if (plat_full_io(rep, &r, sizeof(r), 1) < 0)
			break;
	}
	if (b->teardown)
		b->teardown(ctx);
	_exit(0);
}

static void copies_stop(struct copies *cp)
{
	struct copy_cmd c = { KIND_QUIT, 0 };
	int status;

	for (int i = 0; i < cp->n; i++) {
		if (cp->cmd[i] >= 0) {
			if (plat_full_io(cp->cmd[i], &c, sizeof(c), 1) < 0)
				kill(cp->pid[i], SIGKILL);
			close(cp->cmd[i]);
		}
		if (cp->rep[i] >= 0)
			close(cp->rep[i]);
	}
	for (int i = 0; i < cp->n; i++)
		while (cp->pid[i] > 0 && waitpid(cp->pid[i], &status, 0) < 0 && errno == EINTR)
			;
	free(cp->pid);
	free(cp->cmd);
	free(cp->rep);
}

/*
 * Fork the copies, each into its own subdirectory of the private one, and
 * wait for every setup.  On success ctx holds copy 0's state as reported.
 */
static enum bench_status copies_start(const struct bench *b, const struct harness_cfg *cfg,
				      struct bench_ctx *ctx, struct copies *cp)
{
	char dir[4096];
	struct copy_reply r;
	enum bench_status st = BENCH_OK;

	cp->n = 0;
	cp->pid = calloc((size_t)cfg->parallel, sizeof(*cp->pid));
	cp->cmd = calloc((size_t)cfg->parallel, sizeof(*cp->cmd));
	cp->rep = calloc((size_t)cfg->parallel, sizeof(*cp->rep));
	if (!cp->pid || !cp->cmd || !cp->rep)
		return bench_fail(ctx, 0, "out of memory for %d copies", cfg->parallel);
	fflush(NULL);
	for (int i = 0; i < cfg->parallel; i++) {
		int c[2], p[2];
		struct bench_ctx mine = *ctx;

		snprintf(dir, sizeof(dir), "%s/copy%d", ctx->tmpdir ? ctx->tmpdir : ".", i);
		if (ctx->tmpdir && mkdir(dir, 0700) < 0)
			return bench_fail(ctx, errno, "cannot make '%s'", dir);
		if (pipe(c) < 0)
			return bench_fail(ctx, errno, "pipe for copy %d", i);
		if (pipe(p) < 0) {
			close(c[0]);
			close(c[1]);
			return bench_fail(ctx, errno, "pipe for copy %d", i);
		}
		cp->pid[i] = fork();
		if (cp->pid[i] == 0) {
			close(c[1]);
			close(p[0]);
			/* Earlier copies' pipes are theirs, not ours. */
			for (int j = 0; j < i; j++) {
				close(cp->cmd[j]);
				close(cp->rep[j]);
			}
			mine.copy = i;
			mine.tmpdir = ctx->tmpdir ? dir : NULL;
			copy_main(b, &mine, c[0], p[1]);
		}
		close(c[0]);
		close(p[1]);
		cp->cmd[i] = c[1];
		cp->rep[i] = p[0];
		if (cp->pid[i] < 0) {
			close(c[1]);
			close(p[0]);
			return bench_fail(ctx, errno, "fork for copy %d", i);
		}
		cp->n++;
	}
	for (int i = 0; i < cp->n; i++) {
		if (plat_full_io(cp->rep[i], &r, sizeof(r), 0) < 0) {
			if (st == BENCH_OK)
				st = bench_fail(ctx, 0, "copy %d died during setup", i);
			continue;
		}
		if (r.st != BENCH_OK && st == BENCH_OK) {
			st = r.st;
			snprintf(ctx->err, sizeof(ctx->err), "copy %d: %.230s", i, r.ctx.err);
		}
		if (i == 0 && r.st == BENCH_OK) {
			void *priv = ctx->priv;
			const char *tmp = ctx->tmpdir;

			*ctx = r.ctx;
			ctx->priv = priv;
			ctx->tmpdir = tmp;
		}
	}
	return st;
}

/*
 * A curve: each point from setup to teardown, sampled like an instance but
 * on a share of the instance's time budget, so that a curve of 40 points
 * costs what about 10 instances do.  The benchmark's own overhead is the
 * same at every point and is measured at the first.
 *
 * A point's samples are half an instance's long: the ten a point takes at
 * least (min_samples) at full length were 120 ms against its 94 ms share,
 * and the curve was the standard suite's longest row (doc/performance.md).
 * And a point discards at most WARMUP_KNOWN samples warming up, as a later
 * replica does, its array just laid: noisy points seldom agree within 5%,
 * and took all five an instance may.
 */
#define CURVE_POINT_SHARE 0.25
#define CURVE_SAMPLE_SHARE 0.5

static enum bench_status curve_point(struct sampler *s, struct result *r, size_t i,
				     double target)
{
	struct result pr;
	struct stats_summary ss;
	double *agg = NULL;
	enum bench_status st = BENCH_OK;

	result_init(&pr, s->b);
	s->ctx->bytes_per_iter = 0;
	s->ctx->ops_per_iter = 0;
	st = setup_row(s->b, s->ctx);
	if (st != BENCH_OK)
		return st;
	if (i == 0 && s->b->overhead)
		st = measure_overhead(s, target);
	if (st == BENCH_OK)
		st = calibrate(s, KIND_RUN, target, &s->n);
	if (st == BENCH_OK)
		st = warm_up(s);
	if (st == BENCH_OK)
		st = sample(s, &pr, &agg);
	if (s->b->teardown)
		s->b->teardown(s->ctx);
	free(agg);
	if (st != BENCH_OK) {
		free(pr.samples);
		free(pr.where);
		return st;
	}
	stats_summarize(pr.samples, pr.n, &ss);
	struct result_point *p = &r->points[r->npoints++];
	snprintf(p->series, sizeof(p->series), "%s", s->ctx->point->series);
	p->x = s->ctx->point->x;
	p->y = ss.median;
	p->lo = ss.ci_low;
	p->hi = ss.ci_high;
	p->noisy = pr.stop != STOP_PRECISION;
	/* The last point's samples stand for the result; the others are summarised. */
	free(r->samples);
	free(r->where);
	r->samples = pr.samples;
	r->where = pr.where;
	r->n = pr.n;
	r->stop = pr.stop;
	return BENCH_OK;
}

static enum bench_status measure_curve(struct sampler *s, struct result *r,
				       const struct bench_point *pts, size_t np)
{
	struct harness_cfg pcfg = *s->cfg;
	const struct harness_cfg *cfg = s->cfg;
	double target = sample_target(cfg, CURVE_SAMPLE_SHARE);
	size_t noisy = 0;
	enum bench_status st = BENCH_OK;

	r->points = calloc(np, sizeof(*r->points));
	if (!r->points)
		return bench_fail(s->ctx, 0, "out of memory for the curve");
	pcfg.max_time_ns = cfg->max_time_ns * CURVE_POINT_SHARE;
	if (pcfg.warmup_max > WARMUP_KNOWN)
		pcfg.warmup_max = WARMUP_KNOWN;
	s->cfg = &pcfg;
	for (size_t i = 0; i < np && st == BENCH_OK; i++) {
		s->ctx->point = &pts[i];
		st = curve_point(s, r, i, target);
		if (st != BENCH_OK && s->ctx->err[0])
			/* Which point failed is half of the reason. */
			snprintf(s->ctx->err + strlen(s->ctx->err),
				 sizeof(s->ctx->err) - strlen(s->ctx->err), " (at %s %.0f)",
				 pts[i].series, pts[i].x);
		noisy += st == BENCH_OK && r->points[r->npoints - 1].noisy;
	}
	s->ctx->point = NULL;
	s->cfg = cfg;
	/* A curve met its precision when every point did. */
	if (st == BENCH_OK && noisy && r->stop == STOP_PRECISION)
		r->stop = STOP_MAX_TIME;
	if (st == BENCH_OK)
		bench_value(s->ctx, "noisy_points", (double)noisy);
	if (st == BENCH_OK && s->b->curve_done)
		s->b->curve_done(s->ctx, r->points, r->npoints);
	return st;
}

void harness_percentiles(struct result *r)
{
	struct bench_ctx ctx = { .nvalues = r->nvalues };
	double *v = r->n ? malloc(r->n * sizeof(*v)) : NULL;

	if (!v)
		return;
	memcpy(ctx.values, r->values, sizeof(ctx.values));
	memcpy(v, r->samples, r->n * sizeof(*v));
	for (size_t i = 0; i < HIST_NPCT; i++)
		bench_value(&ctx, hist_pct_keys[i], hist_rank_sort(v, r->n, hist_pcts[i]));
	free(v);
	r->nvalues = ctx.nvalues;
	memcpy(r->values, ctx.values, sizeof(r->values));
	for (size_t i = 0; i < HIST_NPCT; i++) {
		double est;

		(void)result_percentile(r, hist_pcts[i], &est, &r->pct_low[i], &r->pct_high[i]);
	}
	/* The whole shape, kept with the result: a store need not keep every sample for it. */
	(void)result_buckets_fill(r);
}

const char *const harness_event_keys[PLAT_NEV] = {
	[PLAT_EV_CONTEXT_SWITCHES] = "ev_context_switches", [PLAT_EV_MIGRATIONS] = "ev_migrations",
	[PLAT_EV_PAGE_FAULTS] = "ev_page_faults", [PLAT_EV_CYCLES] = "ev_cycles",
	[PLAT_EV_INSTRUCTIONS] = "ev_instructions", [PLAT_EV_CACHE_MISSES] = "ev_cache_misses",
	[PLAT_EV_BRANCH_MISSES] = "ev_branch_misses",
};

/*
 * Values a merge may still add (machine_share, noisy_points): the events
 * leave them room, and an event that finds none is left out.
 */
#define EVENTS_ROOM 2

/*
 * The events counted over the samples, per operation, as values: those
 * the machine has; the front end says once which it lacks.  Read after
 * teardown, so that the peers, gone, have added theirs.
 */
static void events_values(struct sampler *s, struct plat_events *ev, const struct result *r)
{
	uint64_t c[PLAT_NEV];
	double ops = (double)s->n * (double)r->n * ops_per_iter(s) * (s->cp ? s->cp->n : 1);

	if (plat_events_read(ev, c) < 0 || !(ops > 0))
		return;
	for (int i = 0; i < PLAT_NEV; i++)
		if (ev->fd[i] >= 0 && s->ctx->nvalues + EVENTS_ROOM < BENCH_MAX_VALUES)
			bench_value(s->ctx, harness_event_keys[i], (double)c[i] / ops);
}

/* The benchmark's parameters and side figures become the result's. */
static void take_values(struct result *r, const struct bench_ctx *ctx)
{
	r->nvalues = ctx->nvalues;
	memcpy(r->values, ctx->values, sizeof(r->values));
}

_Static_assert(HARNESS_SENTINEL_PROBES == 3, "sentinel_probe takes the median of three");

/* The median of three probes of b, ns per operation; NaN when one failed. */
static double sentinel_probe(const struct bench *b, const struct harness_cfg *cfg, uint64_t *n)
{
	double v[HARNESS_SENTINEL_PROBES], t;

	for (int i = 0; i < HARNESS_SENTINEL_PROBES; i++)
		if (!((v[i] = harness_probe(b, cfg, HARNESS_SENTINEL_NS, n)) > 0))
			return (double)NAN;
	if (v[0] > v[1]) {
		t = v[0];
		v[0] = v[1];
		v[1] = t;
	}
	return v[2] < v[0] ? v[0] : v[2] > v[1] ? v[1] : v[2];
}

void harness_sentinel(const struct harness_cfg *cfg, uint64_t *nsys, uint64_t *nuser,
		      struct sentinel_point *p)
{
	p->t = (double)(now(cfg) - cfg->run_start_ns) / 1e9;
	p->cpu = plat_current_cpu();
	p->sys_ns = cfg->sentinel_sys ? sentinel_probe(cfg->sentinel_sys, cfg, nsys) : (double)NAN;
	p->user_ns = cfg->sentinel_user ? sentinel_probe(cfg->sentinel_user, cfg, nuser) : (double)NAN;
}

/* The sentinel around a replica's samples, into r->around[which]. */
static void sentinel_around(const struct harness_cfg *cfg, struct result *r, int which)
{
	uint64_t nsys = cfg->sentinel_nsys, nuser = cfg->sentinel_nuser;

	if (cfg->sentinel_sys || cfg->sentinel_user)
		harness_sentinel(cfg, &nsys, &nuser, &r->around[which]);
}

double harness_probe(const struct bench *b, const struct harness_cfg *cfg, double target_ns,
		     uint64_t *n)
{
	struct bench_ctx ctx = { .arg = b->arg, .tmpdir = cfg->tmpdir };
	struct sampler s = { .b = b, .cfg = cfg, .ctx = &ctx };
	enum bench_status st = setup_row(b, &ctx);
	int set_up = st == BENCH_OK;
	double ns = 0;

	if (st == BENCH_OK && !*n)
		st = calibrate(&s, KIND_RUN, target_ns, n);
	s.n = *n;
	if (st == BENCH_OK)
		st = sample_once(&s, s.n, &ns);
	if (set_up && b->teardown)
		b->teardown(&ctx);
	return st == BENCH_OK && s.n ? per_op_ns(&s, ns) : -1;
}

/*
 * Where a replica's time goes, for bench/suite_time.sh: with
 * $KBENCH_PHASES naming a file, a line is appended to it per replica:
 * id, placement, replica, then the seconds of each phase (setup, the
 * benchmark's overhead loop, calibration, warm-up, the sentinel, the
 * samples, teardown).  Written after the last sample; nothing when unset.
 */
enum harness_phase { PH_SETUP, PH_OVERHEAD, PH_CALIBRATE, PH_WARMUP, PH_SENTINEL, PH_SAMPLE,
		     PH_TEARDOWN, PH_N };

static void phase_mark(const struct harness_cfg *cfg, uint64_t *last, double *acc, enum harness_phase p)
{
	uint64_t t = now(cfg);

	acc[p] += (double)(t - *last) / 1e9;
	*last = t;
}

static void phase_log(const struct bench *b, const struct harness_cfg *cfg, const struct result *r,
		      const double *acc)
{
	const char *path = getenv("KBENCH_PHASES");
	FILE *f;

	if (!path || !*path || !(f = fopen(path, "a")))
		return;
	fprintf(f, "%s %s %d", b->id, r->placement == PLACE_NA ? "-" : place_name(r->placement),
		cfg->replica);
	for (int p = 0; p < PH_N; p++)
		fprintf(f, " %.6f", acc[p]);
	fputc('\n', f);
	fclose(f);
}

int harness_run(const struct bench *b, const struct harness_cfg *cfg, struct result *r)
{
	struct bench_ctx ctx = { .tmpdir = cfg->tmpdir, .arg = b->arg, .suite = cfg->suite,
				 .prior = cfg->prior, .nprior = cfg->nprior };
	struct copies cp = { 0 };
	struct sampler s = { .b = b, .cfg = cfg, .ctx = &ctx,
			     .run_start = cfg->run_start_ns ? cfg->run_start_ns : now(cfg) };
	struct cpu_snap before, after;
	struct stats_summary ss;
	const char *why;
	double *agg = NULL;
	struct bench_point *pts = NULL;
	struct plat_events ev;
	size_t np = 0;
	uint64_t t0 = now(cfg), tp = t0;
	double target = sample_target(cfg, 1), phase[PH_N] = { 0 };
	int have_snap = 0, set_up = 0, parallel = cfg->parallel > 1 ? cfg->parallel : 1;
	enum bench_status st;

	result_init(r, b);
	r->parallel = parallel;
	if (b->unsupported && (why = b->unsupported()) != NULL) {
		set_outcome(r, BENCH_SKIP, why);
		return 0;
	}
	if (b->flags & BENCH_MSG_SIZE)
		ctx.msg_size = cfg->msg_size;
	if (b->flags & BENCH_SIZED)
		ctx.size = cfg->size;
	st = place_prepare(b, cfg, &ctx);
	r->placement = ctx.placement;
	/* A row may be a curve in one suite and a single figure in another. */
	if (st == BENCH_OK && b->points) {
		pts = calloc(BENCH_MAX_POINTS, sizeof(*pts));
		if (!pts)
			st = bench_fail(&ctx, 0, "out of memory for the curve");
		else if ((np = b->points(&ctx, pts, BENCH_MAX_POINTS)) > BENCH_MAX_POINTS)
			BUG("%s: %zu points, more than %d", b->id, np, BENCH_MAX_POINTS);
	}
	/* Opened before setup, so that the peers and copies it forks count too. */
	if (st == BENCH_OK && cfg->events && !np && plat_events_open(&ev) > 0)
		s.ev = &ev;
	if (st == BENCH_OK && np) {
		if (parallel > 1) {
			st = bench_skip(&ctx, "a curve is measured one copy at a time, not with "
					"--parallel %d", parallel);
		} else {
			have_snap = cfg->interference && snap(&before) == 0;
			phase_mark(cfg, &tp, phase, PH_SETUP);
			sentinel_around(cfg, r, 0);
			phase_mark(cfg, &tp, phase, PH_SENTINEL);
			st = measure_curve(&s, r, pts, np);
			phase_mark(cfg, &tp, phase, PH_SAMPLE);
			sentinel_around(cfg, r, 1);
			phase_mark(cfg, &tp, phase, PH_SENTINEL);
			if (have_snap && snap(&after) == 0)
				r->interference = interference(&before, &after);
		}
	} else if (st == BENCH_OK && parallel > 1 && (b->flags & BENCH_OBSERVED)) {
		st = bench_skip(&ctx, "a distribution is measured one copy at a time, not with "
				"--parallel %d", parallel);
	} else if (st == BENCH_OK && parallel > 1) {
		s.cp = &cp;
		st = copies_start(b, cfg, &ctx, &cp);
	} else if (st == BENCH_OK) {
		if (bench_place(&ctx, 0) < 0)
			st = BENCH_FAIL;
		if (st == BENCH_OK)
			st = setup_row(b, &ctx);
		set_up = st == BENCH_OK;
	}
	free(pts);
	if (st == BENCH_OK && !np)
		record_cpus(&ctx);
	if (!np)
		phase_mark(cfg, &tp, phase, PH_SETUP);
	if (st == BENCH_OK && !np && b->overhead)
		st = measure_overhead(&s, sample_target(cfg, OVH_SHARE));
	phase_mark(cfg, &tp, phase, PH_OVERHEAD);
	/* An observing row's sample is one iteration, what it saw of that one. */
	if (st == BENCH_OK && !np && (b->flags & BENCH_OBSERVED))
		s.n = 1;
	/* A later replica keeps the first one's n, so that all replicas measure the same thing. */
	else if (st == BENCH_OK && !np && cfg->iterations)
		s.n = cfg->iterations;
	else if (st == BENCH_OK && !np)
		st = calibrate(&s, KIND_RUN, target, &s.n);
	phase_mark(cfg, &tp, phase, PH_CALIBRATE);
	if (st == BENCH_OK && !np)
		st = warm_up(&s);
	phase_mark(cfg, &tp, phase, PH_WARMUP);
	if (st == BENCH_OK && !np) {
		have_snap = cfg->interference && snap(&before) == 0;
		sentinel_around(cfg, r, 0);
		phase_mark(cfg, &tp, phase, PH_SENTINEL);
		st = sample(&s, r, &agg);
		phase_mark(cfg, &tp, phase, PH_SAMPLE);
		sentinel_around(cfg, r, 1);
		phase_mark(cfg, &tp, phase, PH_SENTINEL);
		if (have_snap && snap(&after) == 0)
			r->interference = interference(&before, &after);
	}
	/* Teardown only undoes a setup that succeeded; copies undo their own. */
	if (s.cp)
		copies_stop(&cp);
	else if (b->teardown && set_up)
		b->teardown(&ctx);
	phase_mark(cfg, &tp, phase, PH_TEARDOWN);
	if (s.ev) {
		if (st == BENCH_OK)
			events_values(&s, &ev, r);
		plat_events_close(&ev);
		s.ev = NULL;
	}
	r->iterations = s.n;
	r->wall_s = (double)(now(cfg) - t0) / 1e9;
	take_values(r, &ctx);
	phase_log(b, cfg, r, phase);
	if (st != BENCH_OK) {
		free(r->samples);
		free(r->where);
		free(agg);
		free(r->points);
		r->samples = NULL;
		r->where = NULL;
		r->points = NULL;
		r->n = r->npoints = 0;
		set_outcome(r, st, ctx.err);
		return 0;
	}
	if (parallel > 1) {
		stats_summarize(agg, r->n, &ss);
		r->aggregate = ss.median;
	}
	free(agg);
	stats_summarize(r->samples, r->n, &ss);
	fill_stats(r, &ss);
	/*
	 * The replica's own level: its fastest stretch, the samples' 5th
	 * percentile (95th where bigger is better), with that quantile's
	 * interval; whether it fell in a slow spell only the other replicas
	 * can tell (replica_merge).
	 */
	stats_quantile_ci(r->samples, r->n, r->better == BETTER_HIGHER ? 0.95 : 0.05, &r->level,
			  &r->level_low, &r->level_high);
	r->status = r->stop == STOP_PRECISION ? RES_OK : RES_NOISY;
	/*
	 * A distribution's figure is its median, whose interval says how
	 * well it is known; its fast tail is no level of the machine but
	 * the wakeups that were lucky.  It ran for its whole budget by
	 * design, so the budget's end is no noise.
	 */
	if (b->flags & BENCH_OBSERVED) {
		stats_quantile_ci(r->samples, r->n, 0.5, &r->level, &r->level_low, &r->level_high);
		r->status = RES_OK;
		harness_percentiles(r);
	}
	/* What was subtracted per operation, in the result's unit: a time's
	 * alone, since a rate's figure is no sum of parts; an observing
	 * row's samples were not timed, so nothing came off them. */
	if (metric_is_time(row_metric(b)) && !(b->flags & BENCH_OBSERVED)) {
		double ns = (cfg->clock_cost_ns / (double)s.n +
			     (b->flags & BENCH_CHEAP ? cfg->loop_ns : 0)) / ops_per_iter(&s);
		double own = s.ovh_ns / ops_per_iter(&s);

		r->overhead = ns_to_unit(&s, ns + own);
		/* The figure before the benchmark's own overhead came off it. */
		if (b->overhead) {
			bench_value(&ctx, "raw", r->median + ns_to_unit(&s, own));
			bench_value(&ctx, "overhead_op", ns_to_unit(&s, own));
			take_values(r, &ctx);
		}
	}
	return 0;
}
