/*
 * A figure's history (kbench history), as judged: each figure's level over the stored
 * runs in order, a point a label (in version order) or a run (in time),
 * and the steps in it (stats_steps), told as a kernel developer mails
 * them: "kbench noticed a +12.0% regression of proc.fork (+9.1..+14.8%)
 * between 6.18.40 and 6.18.44".
 *
 * A point's level is the mean log of its runs' levels: by default their
 * fast levels (result_level: the samples' 5th percentile, or 95th where
 * bigger is better), which a kernel's change moves and the machine's
 * slow spells do not, so that a label's level spreads between sittings
 * far less than its median does; the medians on asking.  The variance of
 * that mean is its runs' spread over their count (pooled over the
 * figure's points, as one label's runs say little of their own spread;
 * a label whose runs spread wider by its own) plus the spread between
 * sittings, which a series of SERIES_OWN_NOISE points or more estimates
 * itself (stats_steps, from the points' residuals about each split's
 * sides beyond what their runs explain; with one run a point, from the
 * points' successive differences: stats_steps_noise); a shorter series
 * takes it from the host's history (labels measured in several sittings:
 * stats_sittings, as compare does), or without one has only its runs'
 * spread, and says so.  The sentinel's own row
 * (cpu.mhz, the machine's adds) is searched too: a figure's step where
 * the machine stepped is said to be the machine's, not the kernel's.  The
 * machine also moves where the sentinel does not (a memory figure by 5%
 * between sittings hours apart): with a control, a label measured again
 * every few labels, each label is read against the control's level at its
 * time (series_control).  What the steps cannot tell is said so, not
 * left as no step: a label alone off (one sitting's word, series_alone),
 * and two adjacent labels that compare's own test tells apart where no
 * step was found (series_untold).
 */
#include "judge/series.h"
#include "core/parse.h"
#include "stats/stats.h"

#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int series_run_usable(const struct result *r)
{
	return (r->status == RES_OK || r->status == RES_NOISY) && r->median > 0 &&
	       isfinite(r->median);
}

static const struct result *series_find(const struct run_info *run, const struct result *key)
{
	for (size_t i = 0; i < run->nresults; i++)
		if (result_same_instance(&run->results[i], key))
			return &run->results[i];
	return NULL;
}

static int series_by_label(const void *a, const void *b)
{
	const struct run_info *x = *(const struct run_info *const *)a,
			      *y = *(const struct run_info *const *)b;
	int c = parse_version_cmp(x->label, y->label);

	if (c == 0)
		c = strcmp(x->label, y->label);
	return c ? c : strcmp(x->started, y->started);
}

static int series_by_time(const void *a, const void *b)
{
	const struct run_info *x = *(const struct run_info *const *)a,
			      *y = *(const struct run_info *const *)b;
	int c = strcmp(x->started, y->started);

	return c ? c : (x->id > y->id) - (x->id < y->id);
}

/* Whether id is one of the globs (all when nonly is 0). */
static int series_wanted(const char *id, const char *const *only, size_t nonly)
{
	if (nonly == 0)
		return 1;
	for (size_t i = 0; i < nonly; i++)
		if (fnmatch(only[i], id, 0) == 0)
			return 1;
	return 0;
}

/*
 * A control's sitting for one figure (history --control): the control is a
 * label measured again every few labels (the series' first kernel, or a
 * reference one), and each of its sittings (a set of runs) says where the
 * machine stood for that figure then.
 */
struct series_ctl {
	const char *set;	/* its runs' set_uuid */
	double t0, t1;		/* its first and last run's start, seconds */
	double sum, sq;		/* of its runs' log levels */
	double n;		/* its runs with the figure */
};

/* A control sitting's mean log level's variance: its runs' spread, at least the pooled s2, over their count. */
static double series_ctl_var(const struct series_ctl *c, double s2)
{
	double own = c->n > 1 ? (c->sq - c->sum * c->sum / c->n) / (c->n - 1) : 0;

	return fmax(s2, own) / c->n;
}

/*
 * The control's log level at time t from its sittings c[0..n) in time
 * order, and that level's variance into *var: drawn linearly between the
 * sittings either side of t, the nearest's beyond them.
 */
static double series_ctl_at(const struct series_ctl *c, size_t n, double t, double s2, double *var)
{
	size_t i = 0;
	double w, a, b;

	while (i < n && (c[i].t0 + c[i].t1) / 2 < t)
		i++;
	if (i == 0 || i == n) {
		const struct series_ctl *e = &c[i ? n - 1 : 0];

		*var = series_ctl_var(e, s2);
		return e->sum / e->n;
	}
	a = (c[i - 1].t0 + c[i - 1].t1) / 2;
	b = (c[i].t0 + c[i].t1) / 2;
	w = b > a ? (t - a) / (b - a) : 0.5;
	*var = (1 - w) * (1 - w) * series_ctl_var(&c[i - 1], s2) + w * w * series_ctl_var(&c[i], s2);
	return (1 - w) * c[i - 1].sum / c[i - 1].n + w * c[i].sum / c[i].n;
}

/* A run's start in seconds, NaN where its time is not kbench's form. */
static double series_time(const struct run_info *run)
{
	time_t t;

	return parse_utc(run->started, &t) == 0 ? (double)t : (double)NAN;
}

/*
 * The figure's levels read against the control, point ctl of x[0..n) (its
 * sittings c[0..nc), in time order), each other point p measured at time
 * t[p]: its level over the control's at that time (series_ctl_at) times
 * the control's over all its sittings, and the control's variance there
 * added to the point's, extra[p]; the control's own point its sittings'
 * mean.  The labels read against one control sitting share its error,
 * which the steps' test does not know: a control sitting should have as
 * many runs as a label.
 */
static void series_control(double *x, double *extra, const double *t, size_t n, size_t ctl,
			   const struct series_ctl *c, size_t nc, double s2)
{
	double mean = 0, var = 0, m, vm;

	for (size_t i = 0; i < nc; i++) {
		mean += c[i].sum / c[i].n / (double)nc;
		var += series_ctl_var(&c[i], s2) / ((double)nc * (double)nc);
	}
	for (size_t p = 0; p < n; p++) {
		if (p == ctl) {
			x[p] = mean;
			extra[p] = var;
			continue;
		}
		extra[p] = 0;
		if (!isfinite(t[p]))
			continue;
		m = series_ctl_at(c, nc, t[p], s2, &vm);
		x[p] -= m - mean;
		extra[p] = vm;
	}
}

/*
 * A wild run is taken at a bound: a run's log level farther than
 * JUDGE_SERIES_CLIP standard deviations of the runs from its point's median is
 * moved to that distance.  The deviation is a robust one: the median of
 * the differences between two runs of one point, over the figure's points
 * (over 1.0483, a normal's), which neither a wild run nor a point of
 * three runs (whose median run is at no distance from its median) bends.
 * One file system's writeback storm or one VM stall makes a run 4x slower
 * than its label's others (fs.create.10k: 114 us among 25 us), and the
 * label's mean log then moves 30%: a history with such runs finds fewer
 * steps, which a wild run is not.  So far out, a run is the machine's:
 * on 13 sittings here, 8 SDs took the 10% steps a history finds from 94.1%
 * to 97.2% and its false steps from 3.8% to 4.1% (bench/history_steps.py);
 * 3 SDs, tried on copies of the sittings clipped so, made 5.7%.
 * y[i] is NaN for a run without the figure; *moved counts those moved.
 * -1 when out of memory.
 */
/* Fewer pairs than this say too little of the runs' spread to clip by. */
#define SERIES_CLIP_PAIRS 10

static int series_clip(double *y, const size_t *first, size_t npts, size_t *moved)
{
	size_t nruns = first[npts], npairs = 0, k;
	double *med = calloc(npts ? npts : 1, sizeof(double)), *tmp = NULL, sd;
	int rc = -1;

	for (size_t p = 0; p < npts; p++) {
		k = first[p + 1] - first[p];
		npairs += k * (k - 1) / 2;
	}
	tmp = calloc(npairs > nruns ? npairs : nruns ? nruns : 1, sizeof(double));
	if (!med || !tmp)
		goto out;
	rc = 0;
	*moved = 0;
	npairs = 0;
	for (size_t p = 0; p < npts; p++) {
		k = 0;
		for (size_t i = first[p]; i < first[p + 1]; i++)
			if (!isnan(y[i]))
				tmp[k++] = y[i];
		med[p] = k ? stats_median_sort(tmp, k) : (double)NAN;
	}
	for (size_t p = 0; p < npts; p++)
		for (size_t i = first[p]; i < first[p + 1]; i++)
			for (size_t j = i + 1; j < first[p + 1]; j++)
				if (!isnan(y[i]) && !isnan(y[j]))
					tmp[npairs++] = fabs(y[i] - y[j]);
	/* A history by time has a run a point: no pairs, nothing to clip against. */
	if (npairs < SERIES_CLIP_PAIRS)
		goto out;
	sd = stats_median_sort(tmp, npairs) / 1.0483;
	/* Runs most of which read the same (a quantised figure): no spread to measure by. */
	if (!(sd > 0))
		goto out;
	for (size_t p = 0; p < npts; p++)
		for (size_t i = first[p]; i < first[p + 1]; i++) {
			double lo = med[p] - JUDGE_SERIES_CLIP * sd, hi = med[p] + JUDGE_SERIES_CLIP * sd;

			if (y[i] < lo || y[i] > hi) {
				y[i] = y[i] < lo ? lo : hi;
				(*moved)++;
			}
		}
out:
	free(med);
	free(tmp);
	return rc;
}

/*
 * A label alone off, up and back or down and back (two steps that come
 * back, series_back, about one label's point, or its runs by time):
 * taken out of f's
 * steps into its untold places.  A single label is a single sitting, and
 * a sitting's own move reads just as a kernel's change does: on this
 * machine's sittings, drawn as series where nothing changed, such lone
 * labels were half the steps reported (doc/performance.md).  Measured
 * again, in a sitting of its own, the label tells.
 */
/*
 * Whether a step of a and then one of b come back: the level after within
 * half the smaller step of the level before (2.5.47-mm1 3.6 times slower
 * and 2.5.48 2.9 times is a step and a partial fix, not a label alone).
 */
static int series_back(double a, double b)
{
	double la = log1p(a), lb = log1p(b);

	return (la > 0) != (lb > 0) && fabs(la + lb) <= 0.5 * fmin(fabs(la), fabs(lb));
}

/* Whether f's points [a, b) are one label's: one point by label, its runs by time. */
static int series_one_label(const struct judge_series_figure *f, size_t a, size_t b)
{
	for (size_t p = a + 1; p < b; p++)
		if (strcmp(f->points[p].label, f->points[a].label) != 0)
			return 0;
	return b > a;
}

static void series_alone(struct judge_series_figure *f)
{
	size_t kept = 0;

	for (size_t i = 0; i < f->nsteps; i++) {
		const struct stats_step *a = &f->steps[i], *b = &f->steps[i + 1];

		if (i + 1 < f->nsteps && series_one_label(f, a->at, b->at) &&
		    series_back(a->change, b->change) && f->nuntold < JUDGE_SERIES_MAX_STEPS) {
			f->untold[f->nuntold++] = (struct judge_series_untold){
				a->at, 1, a->change, a->lo, a->hi, a->p };
			i++;
			continue;
		}
		f->steps[kept] = f->steps[i];
		f->machine[kept++] = f->machine[i];
	}
	f->nsteps = kept;
}

/* Whether point q is within a label of a step of f, or of a lone label. */
static int series_near(const struct judge_series_figure *f, size_t q)
{
	for (size_t i = 0; i < f->nsteps; i++)
		if (f->steps[i].at + 1 >= q && f->steps[i].at <= q + 1)
			return 1;
	for (size_t i = 0; i < f->nuntold; i++)
		if (f->untold[i].at + 2 >= q && f->untold[i].at <= q + 1)
			return 1;
	return 0;
}

/*
 * The pairs of adjacent points of f, each point's runs' log levels ly[i]
 * for i in [first[pidx[p]], first[pidx[p] + 1]) (NaN: none), judged as
 * compare judges two labels: Welch's test on their runs, widened by the
 * spread between sittings each saw alone (twice the series', estimated
 * from its successive differences, which a step passes over:
 * stats_steps_spread, about 0.4 (n - 1) degrees of freedom).  A pair
 * within a label of a step found (or a lone label) is the step's; of the
 * rest, the one whose p, times the pairs tested (Holm's first), is under
 * JUDGE_SERIES_ALPHA is a place the series cannot tell about: its spread
 * between sittings, estimated about the steps it found, hides a
 * difference its labels' runs show.  Into f->untold.  -1 when out of
 * memory.
 */
static int series_untold(struct judge_series_figure *f, const double *x, const double *v,
			 const double *ly, const size_t *first, const size_t *pidx)
{
	double tau2 = stats_steps_spread(x, v, f->npoints), best = 1, m = 0;
	double *a = NULL, *b = NULL;
	size_t na, nb, most = 0, at = 0;
	struct stats_welch w, bw = { 0 };

	if (!isfinite(tau2) || f->nuntold >= JUDGE_SERIES_MAX_STEPS)
		return 0;
	for (size_t p = 0; p < f->npoints; p++)
		if (first[pidx[p] + 1] - first[pidx[p]] > most)
			most = first[pidx[p] + 1] - first[pidx[p]];
	a = malloc((most ? most : 1) * sizeof(*a));
	b = malloc((most ? most : 1) * sizeof(*b));
	if (!a || !b) {
		free(a);
		free(b);
		return -1;
	}
	for (size_t q = 1; q < f->npoints; q++) {
		if (series_near(f, q))
			continue;
		na = nb = 0;
		for (size_t i = first[pidx[q - 1]]; i < first[pidx[q - 1] + 1]; i++)
			if (!isnan(ly[i]))
				a[na++] = ly[i];
		for (size_t i = first[pidx[q]]; i < first[pidx[q] + 1]; i++)
			if (!isnan(ly[i]))
				b[nb++] = ly[i];
		if (na < 2 || nb < 2 || stats_welch(a, na, b, nb, &w) < 0)
			continue;
		stats_widen(&w, 2 * tau2, fmax(1, 0.4 * (double)(f->npoints - 1)));
		m++;
		if (w.p < best) {
			best = w.p;
			bw = w;
			at = q;
		}
	}
	free(a);
	free(b);
	if (at && best * m < JUDGE_SERIES_ALPHA)
		f->untold[f->nuntold++] = (struct judge_series_untold){
			at, 0, expm1(bw.diff), expm1(bw.diff_lo), expm1(bw.diff_hi), best * m };
	return 0;
}

/* The figure of key over the points: levels, variances and the steps. */
static int series_figure(const struct result *key, const struct run_info *const *runs,
			 const size_t *first, size_t npts, const struct judge_cmp_side *history,
			 size_t ctl, struct judge_series_figure *f)
{
	struct stats_sittings sit;
	double df;
	double *x = calloc(npts ? npts : 1, 6 * sizeof(double)), *v, *n, *own, *t, *extra,
	       within = 0, s2, tau2;
	size_t wdf = 0, nruns = first[npts], nc = 0, cq = SIZE_MAX;
	/* Each run's usable result of the figure, or NULL: found once, read twice. */
	const struct result **res = calloc(nruns ? nruns : 1, sizeof(*res));
	/* Each run's log level, NaN where it has none, wild ones clipped. */
	double *ly = calloc(nruns ? nruns : 1, sizeof(*ly));
	/* The control's sittings, at most one a run of its label. */
	struct series_ctl *c = calloc(ctl < npts ? first[ctl + 1] - first[ctl] : 1, sizeof(*c));
	/* Each point's place among the runs' points (a point without the figure is none). */
	size_t *pidx = calloc(npts ? npts : 1, sizeof(*pidx));

	f->key = key;
	f->points = calloc(npts ? npts : 1, sizeof(*f->points));
	if (!x || !res || !ly || !c || !pidx || !f->points)
		goto fail;
	v = x + npts;
	n = v + npts;
	own = n + npts;
	t = own + npts;
	extra = t + npts;
	/* One kind of level along a series: the medians where any run has no fast level. */
	for (size_t i = 0; i < nruns; i++) {
		const struct result *r = series_find(runs[i], key);

		res[i] = r && series_run_usable(r) ? r : NULL;
		if (res[i] && !result_has_level(r, LEVEL_FAST))
			f->level = LEVEL_MEDIAN;
	}
	for (size_t i = 0; i < nruns; i++)
		ly[i] = res[i] ? log(result_level(res[i], f->level)) : (double)NAN;
	if (series_clip(ly, first, npts, &f->clipped) < 0)
		goto fail;
	for (size_t p = 0; p < npts; p++) {
		struct judge_series_point *pt = &f->points[f->npoints];
		double sum = 0, sq = 0, y, t0 = (double)NAN, t1 = (double)NAN;
		size_t k = 0;

		for (size_t i = first[p]; i < first[p + 1]; i++) {
			const struct result *r = res[i];

			if (!r)
				continue;
			y = ly[i];
			sum += y;
			sq += y * y;
			if (!k++) {
				pt->first_run = runs[i]->id;
				t0 = series_time(runs[i]);
			}
			pt->last_run = runs[i]->id;
			t1 = series_time(runs[i]);
			/* The control's runs by sitting: a set's runs are stored together. */
			if (p == ctl) {
				if (!nc || strcmp(c[nc - 1].set, runs[i]->set_uuid) != 0)
					c[nc++] = (struct series_ctl){ runs[i]->set_uuid, t1, t1, 0, 0, 0 };
				c[nc - 1].t1 = t1;
				c[nc - 1].sum += y;
				c[nc - 1].sq += y * y;
				c[nc - 1].n++;
			}
		}
		if (k == 0)
			continue;
		snprintf(pt->label, sizeof(pt->label), "%s", runs[first[p]]->label);
		snprintf(pt->started, sizeof(pt->started), "%s", runs[first[p]]->started);
		pt->nruns = k;
		pidx[f->npoints] = p;
		x[f->npoints] = sum / (double)k;
		n[f->npoints] = (double)k;
		t[f->npoints] = (t0 + t1) / 2;
		own[f->npoints] = k > 1 ? (sq - sum * sum / (double)k) / (double)(k - 1) : 0;
		if (p == ctl)
			cq = f->npoints;
		/* The control's runs spread within its sittings, not across them. */
		if (p == ctl && nc >= 2) {
			for (size_t j = 0; j < nc; j++)
				if (c[j].n > 1) {
					within += c[j].sq - c[j].sum * c[j].sum / c[j].n;
					wdf += (size_t)c[j].n - 1;
				}
		} else if (k > 1) {
			within += sq - sum * sum / (double)k;
			wdf += k - 1;
		}
		f->npoints++;
	}
	/*
	 * The spread between sittings: a series long enough estimates it
	 * itself, about each split's sides (stats_steps) where its labels'
	 * runs say what their own spread is, or from the points' differences
	 * where each point is one run; a short one takes the host's history's,
	 * or has its runs' alone and says so.
	 */
	s2 = wdf ? within / (double)wdf : 0;
	/*
	 * Read against the control where it measured the figure in two
	 * sittings or more; else extra stays 0 (calloc'd).
	 */
	f->controlled = cq != SIZE_MAX && nc >= 2;
	if (f->controlled)
		series_control(x, extra, t, f->npoints, cq, c, nc, s2);
	tau2 = 0;
	if (f->npoints >= JUDGE_SERIES_OWN_NOISE && wdf) {
		f->noise = JUDGE_NOISE_SERIES;
		tau2 = (double)NAN;
		df = (double)wdf;
	} else if (f->npoints >= JUDGE_SERIES_OWN_NOISE) {
		/* The median of the points' differences: about 4 degrees of freedom. */
		f->noise = JUDGE_NOISE_SERIES;
		tau2 = stats_steps_noise(x, f->npoints);
		df = 4;
	} else if (judge_compare_sittings(history, key, f->level, &sit) == 0 && sit.df > 0) {
		f->noise = JUDGE_NOISE_HISTORY;
		tau2 = sit.tau2;
		df = sit.df;
	} else {
		f->noise = JUDGE_NOISE_RUNS;
		df = (double)wdf;
	}
	/* A point whose own runs spread wider than the rest (a wild run) weighs less. */
	for (size_t p = 0; p < f->npoints; p++) {
		v[p] = (f->controlled && p == cq ? 0 : fmax(s2, own[p]) / n[p]) + extra[p];
		if (!(v[p] > 0))
			v[p] = 1e-12;
	}
	f->sitting_var = isfinite(tau2) ? tau2 : 0;
	f->nsteps = 0;
	f->detectable = (double)NAN;
	/* Runs alone with no spread of their own (one run a point) cannot tell anything. */
	if (f->npoints >= 2 && df > 0) {
		int k = stats_steps(x, v, f->npoints, tau2, df, JUDGE_SERIES_ALPHA, f->steps,
				    JUDGE_SERIES_MAX_STEPS, &f->sitting_var);

		if (k < 0)
			goto fail;
		f->nsteps = (size_t)k;
		/*
		 * What a missing step at the newest point says: not one this large;
		 * nothing where the spread between sittings is not known, as the
		 * runs alone would promise steps a sitting's own move hides.
		 */
		if (f->noise != JUDGE_NOISE_RUNS)
			f->detectable = stats_steps_detectable(v, f->npoints, f->sitting_var,
							       !isfinite(tau2), df, JUDGE_SERIES_ALPHA,
							       f->npoints - 1);
		/*
		 * A label alone is one sitting's word where the spread between
		 * sittings is the series' own or unknown; where labels measured in
		 * several sittings gave it, compare's own judgement, and a step.
		 */
		if (f->noise != JUDGE_NOISE_HISTORY)
			series_alone(f);
		/*
		 * Where the series' own spread decides (not the control's levels,
		 * whose runs are not the points'), the labels its steps leave
		 * unexplained.
		 */
		if (f->noise == JUDGE_NOISE_SERIES && !f->controlled &&
		    series_untold(f, x, v, ly, first, pidx) < 0)
			goto fail;
	}
	for (size_t p = 0; p < f->npoints; p++) {
		struct judge_series_point *pt = &f->points[p];
		double sd = sqrt(f->sitting_var + v[p]);

		pt->level = exp(x[p]);
		pt->lo = exp(x[p] - 1.959964 * sd);
		pt->hi = exp(x[p] + 1.959964 * sd);
	}
	free(x);
	free(res);
	free(ly);
	free(c);
	free(pidx);
	return 0;
fail:
	/* The caller frees the figures it counted, and this one is not counted yet. */
	free(f->points);
	f->points = NULL;
	free(x);
	free(res);
	free(ly);
	free(c);
	free(pidx);
	return -1;
}

size_t judge_series_threshold(struct judge_series *s, double threshold)
{
	size_t dropped = 0;

	for (size_t k = 0; k < s->nfigures; k++) {
		struct judge_series_figure *f = &s->figures[k];
		size_t kept = 0;

		for (size_t i = 0; i < f->nsteps; i++) {
			if (fabs(f->steps[i].change) < threshold) {
				dropped++;
				continue;
			}
			f->steps[kept] = f->steps[i];
			f->machine[kept++] = f->machine[i];
		}
		f->nsteps = kept;
		kept = 0;
		for (size_t i = 0; i < f->nuntold; i++)
			if (fabs(f->untold[i].change) >= threshold)
				f->untold[kept++] = f->untold[i];
		f->nuntold = kept;
	}
	return dropped;
}

int judge_series_build(const struct run_info *runs, size_t nruns, int by_label,
			enum result_level level, const char *const *only, size_t nonly,
			const struct judge_cmp_side *history, const char *control,
			struct judge_series *s)
{
	const struct run_info **ord = calloc(nruns ? nruns : 1, sizeof(*ord));
	size_t *first = calloc(nruns + 1, sizeof(*first)), npts = 0, ctl = SIZE_MAX;
	const struct judge_series_figure *machine = NULL;

	memset(s, 0, sizeof(*s));
	s->by_label = by_label;
	s->level = level;
	if (!ord || !first)
		goto fail;
	for (size_t i = 0; i < nruns; i++)
		ord[i] = &runs[i];
	qsort(ord, nruns, sizeof(*ord), by_label ? series_by_label : series_by_time);
	/* A point a label's runs, or a run. */
	for (size_t i = 0; i < nruns; i++)
		if (!by_label || i == 0 || strcmp(ord[i]->label, ord[i - 1]->label) != 0)
			first[npts++] = i;
	first[npts] = nruns;
	s->npoints = npts;
	/* The control's point, and its sittings (a set's runs are stored together). */
	s->control = by_label ? control : NULL;
	for (size_t p = 0; p < npts && s->control; p++)
		if (strcmp(ord[first[p]]->label, control) == 0) {
			ctl = p;
			for (size_t i = first[p]; i < first[p + 1]; i++)
				s->control_sittings += i == first[p] ||
						       strcmp(ord[i]->set_uuid, ord[i - 1]->set_uuid) != 0;
		}
	/* Every instance of any run, in the order first met, the sentinel's row first. */
	for (size_t i = 0; i < nruns; i++)
		for (size_t j = 0; j < ord[i]->nresults; j++) {
			const struct result *r = &ord[i]->results[j];
			int seen = 0, sentinel = strcmp(r->id, SENTINEL_USER_ID) == 0;

			if (!series_run_usable(r) || (!sentinel && !series_wanted(r->id, only, nonly)))
				continue;
			for (size_t k = 0; k < s->nfigures && !seen; k++)
				seen = result_same_instance(s->figures[k].key, r);
			if (seen)
				continue;
			struct judge_series_figure *more =
				realloc(s->figures, (s->nfigures + 1) * sizeof(*more));
			if (!more)
				goto fail;
			s->figures = more;
			memset(&s->figures[s->nfigures], 0, sizeof(*more));
			s->figures[s->nfigures].level = level;
			if (series_figure(r, ord, first, npts, history, ctl,
					  &s->figures[s->nfigures]) < 0)
				goto fail;
			s->figures[s->nfigures].sentinel = sentinel;
			s->nfigures++;
		}
	/* A step where the machine's adds stepped too is the machine's. */
	for (size_t k = 0; k < s->nfigures; k++)
		if (s->figures[k].sentinel)
			machine = &s->figures[k];
	for (size_t k = 0; k < s->nfigures && machine; k++) {
		struct judge_series_figure *f = &s->figures[k];

		for (size_t i = 0; i < f->nsteps && !f->sentinel; i++)
			for (size_t j = 0; j < machine->nsteps; j++)
				if (!strcmp(f->points[f->steps[i].at].label,
					    machine->points[machine->steps[j].at].label) &&
				    !strcmp(f->points[f->steps[i].at].started,
					    machine->points[machine->steps[j].at].started))
					f->machine[i] = 1;
	}
	free(ord);
	free(first);
	return 0;
fail:
	free(ord);
	free(first);
	judge_series_free(s);
	return -1;
}

int judge_series_short(const struct judge_series *s)
{
	for (size_t k = 0; k < s->nfigures; k++)
		if (s->figures[k].noise == JUDGE_NOISE_RUNS)
			return 1;
	return 0;
}

void judge_series_free(struct judge_series *s)
{
	for (size_t k = 0; k < s->nfigures; k++)
		free(s->figures[k].points);
	free(s->figures);
	memset(s, 0, sizeof(*s));
}

int judge_series_worse(const struct judge_series_figure *f, size_t i)
{
	return (f->steps[i].change > 0) == (f->key->better == BETTER_LOWER);
}

/*
 * The first point of f's newest label: by label the newest point; by time
 * the first of the trailing runs that share its label (the newest set, a
 * commit's runs in a `git bisect run` script), where a step the newest
 * label brought sits.
 */
static size_t series_newest_first(const struct judge_series_figure *f)
{
	size_t g = f->npoints - 1;

	while (g > 0 && strcmp(f->points[g - 1].label, f->points[f->npoints - 1].label) == 0)
		g--;
	return g;
}

int judge_series_newest(const struct judge_series *s, int regressions_only)
{
	for (size_t k = 0; k < s->nfigures; k++) {
		const struct judge_series_figure *f = &s->figures[k];

		if (f->sentinel || f->npoints == 0 || f->npoints != s->npoints)
			continue;
		for (size_t i = 0; i < f->nsteps; i++)
			if (!f->machine[i] && f->steps[i].at == series_newest_first(f) &&
			    (!regressions_only || judge_series_worse(f, i)))
				return 1;
	}
	return 0;
}

