/*
 * Replicas merged into one result: see replica.h for the rules.  Pure
 * computation over what the runner returned, so the tests can feed it
 * replicas from a simulated machine and check the interval's promise.
 */
#include "core/replica.h"
#include "core/harness.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "stats/stats.h"

static int replica_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The mean of the finite ones of a and b; NaN when neither is. */
static double replica_mean2(double a, double b)
{
	if (isfinite(a) && isfinite(b))
		return (a + b) / 2;
	return isfinite(a) ? a : b;
}

void replica_sentinel(const struct result *rep, double *sys_ns, double *user_ns)
{
	*sys_ns = replica_mean2(rep->around[0].sys_ns, rep->around[1].sys_ns);
	*user_ns = replica_mean2(rep->around[0].user_ns, rep->around[1].user_ns);
}

/*
 * How far a sentinel's values moved: the interquartile range over the
 * median of the positive values among v[0..n-1] (which it reorders); NaN
 * with fewer than 2.  Not the range: one probe that an interrupt hit, or
 * the sentinel's own noise taken at its extremes over 8 replicas, would flag
 * a steady machine.
 */
static double replica_spread(double *v, size_t n)
{
	size_t k = 0;
	struct stats_summary ss;

	for (size_t i = 0; i < n; i++)
		if (isfinite(v[i]) && v[i] > 0)
			v[k++] = v[i];
	if (k < 2 || stats_summarize(v, k, &ss) < 0)
		return (double)NAN;
	qsort(v, k, sizeof(*v), replica_cmp);
	return (stats_quantile_sorted(v, k, 0.75) - stats_quantile_sorted(v, k, 0.25)) / ss.median;
}

/*
 * The machine's spread over the run, relative: REPLICA_MACHINE_Z standard
 * deviations (from the interquartile range) of the timeline's operation
 * that moved more; 0 without a timeline of a few points.  -1 without
 * memory.
 */
static int replica_machine(const struct replica_cfg *cfg, double *w)
{
	size_t n = cfg->ntimeline;
	double *v, sys, user;

	*w = 0;
	if (n < 4)
		return 0;
	v = malloc(n * sizeof(*v));
	if (!v)
		return -1;
	for (size_t i = 0; i < n; i++)
		v[i] = cfg->timeline[i].sys_ns;
	sys = replica_spread(v, n);
	for (size_t i = 0; i < n; i++)
		v[i] = cfg->timeline[i].user_ns;
	user = replica_spread(v, n);
	free(v);
	/* fmax ignores a NaN: one operation's spread stands when the other is unknown. */
	if (isfinite(fmax(sys, user)))
		*w = REPLICA_MACHINE_Z * fmax(sys, user);
	return 0;
}

/*
 * The machine's spread in its fast state, relative: as replica_machine,
 * over the timeline's points that the sentinel took in the fast state
 * alone (within STATS_SLOW_STEP of its fastest tenth), so that the slow
 * spells, which the level leaves out, do not widen it.
 */
static int replica_machine_fast(const struct replica_cfg *cfg, double *w)
{
	size_t n = cfg->ntimeline;
	double *v, spread[2];

	*w = 0;
	if (n < 4)
		return 0;
	v = malloc(n * sizeof(*v));
	if (!v)
		return -1;
	for (int op = 0; op < 2; op++) {
		size_t k = 0;
		double anchor;

		for (size_t i = 0; i < n; i++) {
			double x = op ? cfg->timeline[i].user_ns : cfg->timeline[i].sys_ns;

			if (isfinite(x) && x > 0)
				v[k++] = x;
		}
		spread[op] = (double)NAN;
		if (k < 4)
			continue;
		qsort(v, k, sizeof(*v), replica_cmp);
		anchor = stats_quantile_sorted(v, k, 0.1);
		while (k > 0 && v[k - 1] > anchor * (1 + STATS_SLOW_STEP))
			k--;
		spread[op] = replica_spread(v, k);
	}
	free(v);
	if (isfinite(fmax(spread[0], spread[1])))
		*w = REPLICA_MACHINE_Z * fmax(spread[0], spread[1]);
	return 0;
}

/*
 * The interval [*lo, *hi] around m made at least w (relative) wide on
 * each side: on the logarithm where it can be, so that a positive
 * figure's bound never goes below zero.  A floor, not a sum: replicas that
 * already disagree by more than the machine moved have taken its movement
 * in and keep their interval; the tight ones are those that missed the
 * next run (doc/performance.md).
 */
static void replica_widen(double m, double w, double *lo, double *hi)
{
	if (w <= 0)
		return;
	if (m > 0 && *lo > 0) {
		/*
		 * w relative is log1p(w) on the logarithm: the same for a small w,
		 * and a machine that moved by a factor of ten (a sentinel preempted
		 * through a busy spell) widens by ten, not by exp(10).
		 */
		double lw = log1p(w);

		*lo = m * exp(-fmax(log(m / *lo), lw));
		*hi = m * exp(fmax(log(*hi / m), lw));
	} else {
		*lo = m - fmax(m - *lo, w * fabs(m));
		*hi = m + fmax(*hi - m, w * fabs(m));
	}
}

/*
 * The level of the figure's replicas (in[k]) in the machine's fast state
 * (stats_fast_level over each one's fast level), its interval at least
 * the fast state's own spread w wide, and the slow spells' share and
 * depth.  scratch holds n doubles.  -1 without memory.
 */
static int replica_level(const struct result *reps, size_t n, const unsigned char *in, double w,
			 double *scratch, struct result *out)
{
	int up = reps[0].better == BETTER_HIGHER;
	struct stats_fast f;
	size_t m = 0;

	for (size_t k = 0; k < n; k++)
		if (in[k] && result_level_known(&reps[k]))
			scratch[m++] = up ? 1 / reps[k].level : reps[k].level;
	if (m == 0) {
		out->level = out->level_low = out->level_high = (double)NAN;
		out->slow_share = out->slow_depth = (double)NAN;
		return 0;
	}
	if (stats_fast_level(scratch, m, &f) < 0)
		return -1;
	replica_widen(f.level, w, &f.lo, &f.hi);
	out->level = up ? 1 / f.level : f.level;
	out->level_low = up ? 1 / f.hi : f.lo;
	out->level_high = up ? 1 / f.lo : f.hi;
	out->slow_share = (double)f.nslow / (double)m;
	out->slow_depth = f.slow_depth;
	return 0;
}

/* A side figure into a result's values, as a benchmark's own would be. */
static void replica_value(struct result *out, const char *key, double num)
{
	struct bench_ctx ctx = { .nvalues = out->nvalues };

	memcpy(ctx.values, out->values, sizeof(ctx.values));
	bench_value(&ctx, key, num);
	out->nvalues = ctx.nvalues;
	memcpy(out->values, ctx.values, sizeof(out->values));
}

/* A failure or skip as the result: the replica's reason, naming it when there were several. */
static void replica_outcome(const struct result *rep, size_t k, size_t n, struct result *out)
{
	*out = *rep;
	out->samples = NULL;
	out->where = NULL;
	out->usage = NULL;
	out->buckets = NULL;
	out->nbuckets = 0;
	out->points = NULL;
	out->replicas = NULL;
	out->n = out->npoints = out->nreplicas = 0;
	if (n > 1 && rep->status == RES_FAIL)
		snprintf(out->reason, sizeof(out->reason), "replica %zu of %zu: %.200s", k + 1, n,
			 rep->reason);
}

/* Every replica's samples, and where each ran, one after the other. */
static int replica_samples(const struct result *reps, size_t n, struct result *out)
{
	size_t total = 0, at = 0;

	for (size_t k = 0; k < n; k++)
		total += reps[k].n;
	out->samples = malloc((total ? total : 1) * sizeof(*out->samples));
	out->where = malloc((total ? total : 1) * sizeof(*out->where));
	if (!out->samples || !out->where)
		return -1;
	for (size_t k = 0; k < n; k++) {
		for (size_t i = 0; i < reps[k].n; i++, at++) {
			out->samples[at] = reps[k].samples[i];
			if (reps[k].where)
				out->where[at] = reps[k].where[i];
			else
				out->where[at] = (struct result_sample){ .t = (double)NAN,
									 .steal_ns = (double)NAN,
									 .cpu = -1 };
			out->where[at].replica = (int)k;
		}
	}
	out->n = total;
	return 0;
}

/*
 * A curve point by point: the median of the replicas' medians at each
 * (series, x), its CI over them.  The replicas measured the same points in
 * the same order (the points depend on the machine and the suite only); a
 * replica that did not is a programmer's mistake.
 */
static int replica_points(const struct result *reps, size_t n, double precision, double *ys,
			  struct result *out)
{
	size_t np = reps[0].npoints;
	struct stats_summary ss;

	out->points = malloc(np * sizeof(*out->points));
	if (!out->points)
		return -1;
	out->npoints = np;
	memcpy(out->points, reps[0].points, np * sizeof(*out->points));
	if (n == 1)
		return 0;	/* one replica: its points as measured, CIs included */
	for (size_t i = 0; i < np; i++) {
		struct result_point *p = &out->points[i];

		for (size_t k = 0; k < n; k++) {
			const struct result_point *q = &reps[k].points[i];

			if (reps[k].npoints != np || strcmp(q->series, p->series) != 0 || q->x != p->x)
				BUG("%s: replica %zu measured other points than the first", reps[0].id, k);
			ys[k] = q->y;
		}
		if (stats_summarize(ys, n, &ss) < 0)
			return -1;
		p->y = ss.median;
		p->lo = ss.ci_low;
		p->hi = ss.ci_high;
		p->noisy = stats_rel_halfwidth(&ss) > precision;
	}
	return 0;
}

/* The curve's levels found again on the merged points, replacing the first replica's. */
static void replica_levels(const struct bench *b, struct result *out)
{
	struct bench_ctx ctx = { .arg = b->arg };
	size_t noisy = 0;

	if (!b->curve_done || !out->npoints)
		return;
	ctx.nvalues = out->nvalues;
	memcpy(ctx.values, out->values, sizeof(ctx.values));
	for (size_t i = 0; i < out->npoints; i++)
		noisy += out->points[i].noisy != 0;
	bench_value(&ctx, "noisy_points", (double)noisy);
	b->curve_done(&ctx, out->points, out->npoints);
	out->nvalues = ctx.nvalues;
	memcpy(out->values, ctx.values, sizeof(out->values));
}

/*
 * The replicas' own figures into the merged result: each one's median, CI,
 * times and the sentinel around it; the time spent and the interference
 * over all (weighted by time); the sentinel's drift between them.  scratch
 * holds 2n doubles.
 */
static void replica_records(const struct result *reps, size_t n, const struct replica_cfg *cfg,
			    double *scratch, struct result *out)
{
	double *sys = scratch, *user = scratch + n, itf = 0, itf_wall = 0;

	out->wall_s = 0;
	for (size_t k = 0; k < n; k++) {
		const struct result *r = &reps[k];
		struct result_replica *rr = &out->replicas[k];

		rr->median = r->median;
		rr->fast = r->level;
		rr->lo = r->ci_low;
		rr->hi = r->ci_high;
		rr->n = r->n;
		rr->stop = r->stop;
		rr->t0 = r->where && r->n ? r->where[0].t : (double)NAN;
		rr->t1 = r->where && r->n ? r->where[r->n - 1].t : (double)NAN;
		rr->apart = r->apart;
		replica_sentinel(r, &rr->sentinel_sys, &rr->sentinel_user);
		sys[k] = rr->sentinel_sys;
		user[k] = rr->sentinel_user;
		out->wall_s += r->wall_s;
		if (r->interference >= 0) {
			itf += r->interference * r->wall_s;
			itf_wall += r->wall_s;
		}
	}
	out->nreplicas = n;
	out->interference = itf_wall > 0 ? itf / itf_wall : -1;
	/* fmax ignores a NaN: one operation's movement stands when the other is unknown. */
	out->drift = fmax(replica_spread(sys, n), replica_spread(user, n));
	out->drifted = isfinite(out->drift) && out->drift > cfg->precision;
}

const char *replica_ends_name(enum replica_ends e)
{
	return e == REPLICA_ONE_CPU ? "one CPU" : "several CPUs";
}

/*
 * The modes of n replicas, from each one's median and apart (as
 * replica_modes says): 2 with out filled, out[0] the figure's, and in[k]
 * whether replica k is in it; else 0.  scratch holds n doubles.
 */
static size_t replica_split(const double *median, const double *apart, size_t n, double *scratch,
			    struct replica_mode out[2], unsigned char *in)
{
	size_t count[2] = { 0, 0 };
	struct stats_summary ss;

	for (size_t k = 0; k < n; k++)
		if (isfinite(apart[k]))
			count[apart[k] >= REPLICA_APART]++;
	if (!count[0] || !count[1])
		return 0;
	out[0].ends = count[1] > count[0] ? REPLICA_SEVERAL_CPUS : REPLICA_ONE_CPU;
	out[1].ends = out[0].ends == REPLICA_ONE_CPU ? REPLICA_SEVERAL_CPUS : REPLICA_ONE_CPU;
	for (int m = 0; m < 2; m++) {
		size_t got = 0;

		for (size_t k = 0; k < n; k++) {
			int mine = isfinite(apart[k]) && (apart[k] >= REPLICA_APART) == (int)out[m].ends;

			if (m == 0 && in)
				in[k] = (unsigned char)mine;
			if (mine)
				scratch[got++] = median[k];
		}
		if (stats_summarize(scratch, got, &ss) < 0)
			return 0;
		out[m].n = got;
		out[m].level = ss.median;
		out[m].lo = ss.ci_low;
		out[m].hi = ss.ci_high;
	}
	return 2;
}

size_t replica_modes(const struct result *r, struct replica_mode out[2])
{
	double *v;
	size_t n = r->nreplicas, got;

	if (n < 2 || !r->replicas || r->placement == PLACE_NA || !(v = malloc(3 * n * sizeof(*v))))
		return 0;
	for (size_t k = 0; k < n; k++) {
		v[k] = result_replica_figure(&r->replicas[k]);
		v[n + k] = r->replicas[k].apart;
	}
	got = replica_split(v, v + n, n, v + 2 * n, out, NULL);
	free(v);
	return got;
}

/* The failure, or the skip, that decides the result; NULL when all replicas measured. */
static const struct result *replica_missing(const struct result *reps, size_t n, size_t *which)
{
	for (size_t k = 0; k < n; k++)
		if (reps[k].status == RES_FAIL || reps[k].status == RES_SKIP) {
			*which = k;
			return &reps[k];
		}
	return NULL;
}

/*
 * The spread fields of the figure's replicas (in[k]): over their samples
 * alone, so that another mode's do not stretch them.
 */
static int replica_spread_of(const struct result *reps, size_t n, const unsigned char *in,
			     struct stats_summary *all)
{
	size_t total = 0, at = 0;
	double *v;
	int rc;

	for (size_t k = 0; k < n; k++)
		total += in[k] ? reps[k].n : 0;
	if (!(v = malloc((total ? total : 1) * sizeof(*v))))
		return -1;
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; in[k] && i < reps[k].n; i++)
			v[at++] = reps[k].samples[i];
	rc = stats_summarize(v, total, all);
	free(v);
	return rc;
}

/* The share of every replica's samples whose ends were apart, weighted by samples. */
static double replica_apart(const struct result *reps, size_t n)
{
	double sum = 0, weight = 0;

	for (size_t k = 0; k < n; k++)
		if (isfinite(reps[k].apart) && reps[k].n) {
			sum += reps[k].apart * (double)reps[k].n;
			weight += (double)reps[k].n;
		}
	return weight > 0 ? sum / weight : (double)NAN;
}

int replica_merge(const struct bench *b, const struct result *reps, size_t n,
		  const struct replica_cfg *cfg, struct result *out)
{
	const struct result *miss;
	double *scratch, best = INFINITY, w, wf;
	size_t near = 0, which = 0, m = 0;
	struct stats_summary ss, all;
	struct replica_mode modes[2];
	unsigned char *in;

	if (n == 0)
		BUG("replica_merge of no replicas");
	if ((miss = replica_missing(reps, n, &which)) != NULL) {
		replica_outcome(miss, which, n, out);
		if (miss->status == RES_SKIP && which > 0) {
			/* Measured, then not: a failure to report, not a skip. */
			out->status = RES_FAIL;
			snprintf(out->reason, sizeof(out->reason), "replica %zu of %zu skipped "
				 "after replica 1 ran: %.150s", which + 1, n, miss->reason);
		}
		return 0;
	}
	scratch = malloc(4 * n * sizeof(*scratch));
	in = malloc(n);
	if (!scratch || !in)
		goto fail_scratch;
	/* The replicas of the figure: every one, or those of its mode when they split. */
	for (size_t k = 0; k < n; k++) {
		scratch[2 * n + k] = reps[k].median;
		scratch[3 * n + k] = reps[k].apart;
		in[k] = 1;
	}
	if (reps[0].placement != PLACE_NA)
		(void)replica_split(scratch + 2 * n, scratch + 3 * n, n, scratch, modes, in);
	for (size_t k = 0; k < n; k++)
		if (in[k])
			scratch[m++] = reps[k].median;
	if (stats_summarize(scratch, m, &ss) < 0)
		goto fail_scratch;
	/* The values of the replica nearest the figure, as for a label's runs. */
	for (size_t k = 0; k < n; k++)
		if (in[k] && fabs(reps[k].median - ss.median) < best) {
			best = fabs(reps[k].median - ss.median);
			near = k;
		}
	*out = reps[near];
	out->samples = NULL;
	out->where = NULL;
	out->usage = NULL;
	out->buckets = NULL;
	out->nbuckets = 0;
	out->points = NULL;
	out->npoints = 0;
	out->iterations = reps[0].iterations;
	out->apart = replica_apart(reps, n);
	out->replicas = calloc(n, sizeof(*out->replicas));
	if (!out->replicas || replica_samples(reps, n, out) < 0 ||
	    (reps[0].npoints && replica_points(reps, n, cfg->precision, scratch, out) < 0))
		goto fail;
	replica_records(reps, n, cfg, scratch, out);
	replica_levels(b, out);
	/* A distribution's percentiles are over every replica's samples, not one's. */
	if (b->flags & BENCH_OBSERVED)
		harness_percentiles(out);
	if (n == 1) {
		free(scratch);
		free(in);
		return 0;	/* one replica: its own figure, CI and stop, as measured */
	}
	if (replica_spread_of(reps, n, in, &all) < 0 || replica_machine(cfg, &w) < 0 ||
	    replica_machine_fast(cfg, &wf) < 0 || replica_level(reps, n, in, wf, scratch, out) < 0)
		goto fail;
	/*
	 * The intervals for the next run: the replicas' own, at least the
	 * machine's movement; the level's, the fast state's (machine_share, as
	 * the figure quoted is the level).
	 */
	if (cfg->ntimeline) {
		replica_widen(ss.median, w, &ss.ci_low, &ss.ci_high);
		replica_value(out, "machine_share", wf);
	}
	out->median = ss.median;
	out->ci_low = ss.ci_low;
	out->ci_high = ss.ci_high;
	out->min = all.min;
	out->max = all.max;
	out->mean = all.mean;
	out->stddev = all.stddev;
	out->cv = all.cv;
	out->p5 = all.p5;
	out->p95 = all.p95;
	m = 0;
	for (size_t k = 0; k < n; k++)
		if (in[k])
			scratch[m++] = reps[k].aggregate;
	if (reps[0].parallel > 1 && stats_summarize(scratch, m, &all) == 0)
		out->aggregate = all.median;
	/* The figure quoted met its precision or not: the level's interval where there is one. */
	if (isfinite(out->level) && out->level > 0)
		out->stop = fmax(out->level - out->level_low, out->level_high - out->level) / out->level <=
					    cfg->precision ? STOP_PRECISION : STOP_MAX_TIME;
	else
		out->stop = stats_rel_halfwidth(&ss) <= cfg->precision ? STOP_PRECISION : STOP_MAX_TIME;
	out->status = out->stop == STOP_PRECISION ? RES_OK : RES_NOISY;
	free(scratch);
	free(in);
	return 0;
fail:
	result_free(out);
fail_scratch:
	free(scratch);
	free(in);
	return -1;
}
