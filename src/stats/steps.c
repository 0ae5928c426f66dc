/*
 * Steps in a figure's history (kbench history): where a series of levels,
 * one a label (or a run) in order, stepped, by how much and how surely.
 *
 * Each point is a label's mean log level with the variance of that mean:
 * its runs' spread over their count plus the spread between sittings,
 * which no count of runs takes away, so that a label measured once and one
 * measured five times weigh what they are worth.  The spread between
 * sittings is given (the host's history) or estimated from the series
 * itself, for each split from the points' residuals about its two sides
 * beyond what their runs explain (DerSimonian and Laird's moment
 * estimate, as meta-analyses pool studies): a step is not taken for
 * noise, nor is noise taken for the runs' alone.  Circular binary
 * segmentation (binary segmentation, as E-divisive does in Apache Otava
 * and MongoDB's CI, with a stretch inside against the rest besides each
 * split): in a segment, the candidate whose two levels' weighted means
 * differ most in units of their standard error (z); it is a step (a
 * split) or two (a stretch's edges) when so large a z is rarer than its
 * family's share of alpha as the largest of the segment's candidates of
 * its family where nothing stepped: STEPS_DRAWS series drawn with the
 * points' variances (each
 * draw's variances scaled by a chi-square on their degrees of freedom,
 * as estimated variances are; the spread between sittings, estimated, as
 * the segment shows it whole), their largest z counted, the estimate made
 * again in each draw as in the data.  Then each part
 * is searched the same way.  Under no step anywhere, the first test holds
 * the chance of reporting any at alpha.  Not a permutation test: one label
 * after a step could never be told from one that came last by chance, and
 * the newest label's step is what a bisection asks about; nor Bonferroni
 * over the splits, which neighbouring splits' likeness makes cost a third
 * of the power on a 5% step.  The draws come from a generator seeded the
 * same for every series, so a series gives the same steps every time.
 * Each step's size is taken last, between the segments on either side.
 */
#include "stats/stats.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>

/* Series drawn where nothing stepped, for a split's p; the smallest p is 1 / (STEPS_DRAWS + 1). */
#define STEPS_DRAWS 999

/*
 * The candidates of a segment of n points, in two families: a plain
 * split, the points before it against those after; and a stretch [i, j)
 * inside (0 < i < j < n) against the rest, the rest one level on both
 * sides of it (a regression later fixed, a label alone off: Olshen and
 * Venkatraman's circular binary segmentation).  A plain split weighs a
 * hump against the two levels either side of one of its edges, which the
 * hump's far side makes spread: four labels of twenty 50% up are lost in
 * the noise they make themselves, and one label alone off has no split
 * that isolates it.  Each family is tested at its share of alpha
 * (Bonferroni's): the stretches are many more, and tested with the splits
 * as one maximum they would raise the bar a single step must clear (a 5%
 * step found in 65% of the unit simulation's histories, not 83%).
 * Stretches only up to span points long where n is large, so that a
 * series of a thousand runs (by time) is searched in the time a few
 * thousand candidates take: a long stretch has points enough either side
 * for a plain split to see it.
 */
#define STEPS_PAIRS_BUDGET 1024
enum { STEPS_SPLIT, STEPS_STRETCH, STEPS_FAMILIES };
/* Each family's share of alpha. */
static const double steps_share[STEPS_FAMILIES] = { 0.75, 0.25 };

static size_t steps_span(size_t n)
{
	size_t span = STEPS_PAIRS_BUDGET / (n ? n : 1);

	return n * n / 2 <= STEPS_PAIRS_BUDGET ? n : span ? span : 1;
}

/* How many candidates of family f a segment of n points has: the test's multiplicity. */
static double steps_candidates(size_t n, int f)
{
	size_t span = steps_span(n), c = 0;

	if (f == STEPS_SPLIT)
		return n > 1 ? (double)(n - 1) : 0;
	for (size_t len = 1; len <= span && len + 2 <= n; len++)
		c += n - 1 - len;
	return (double)c;
}

/* Each family's best candidate: |z|, the stretch [at, at2) (a split: [0, at2)). */
struct steps_max {
	double z[STEPS_FAMILIES];
	size_t at[STEPS_FAMILIES], at2[STEPS_FAMILIES];
};

/* The first and past the last i a search of the families fams (bits) looks at. */
#define STEPS_FIRST(fams) ((fams) & 1u << STEPS_SPLIT ? 0 : 1)
#define STEPS_END(fams, n) ((fams) & 1u << STEPS_STRETCH ? (n) : 1)
#define STEPS_ALL (1u << STEPS_SPLIT | 1u << STEPS_STRETCH)

/* Whether [i, j) of n is a candidate, and of which family into *f. */
static int steps_candidate(size_t n, size_t span, size_t i, size_t j, int *f)
{
	*f = i == 0 ? STEPS_SPLIT : STEPS_STRETCH;
	return i == 0 ? j < n : j < n && j - i <= span;
}

/* Keep [i, j) in m where its z is its family's largest yet. */
static void steps_consider(struct steps_max *m, int f, size_t i, size_t j, double z)
{
	if (z > m->z[f]) {
		m->z[f] = z;
		m->at[f] = i;
		m->at2[f] = j;
	}
}

static void steps_max_init(struct steps_max *m)
{
	for (int f = 0; f < STEPS_FAMILIES; f++) {
		m->z[f] = -1;
		m->at[f] = m->at2[f] = 0;
	}
}

/* A segment's sums under weights w: of w, w x, w x x and w w. */
struct steps_sums {
	double w, wx, wxx, ww;
};

static void steps_add(struct steps_sums *s, double x, double w, double sign)
{
	s->w += sign * w;
	s->wx += sign * w * x;
	s->wxx += sign * w * x * x;
	s->ww += sign * w * w;
}

/* The sums of x[0..n) under weights 1 / (tau2 + c u) into pre[0..n] cumulated, pre[0] nil. */
static void steps_prefix(struct steps_sums *pre, const double *x, const double *u, size_t n,
			 double tau2, double c)
{
	pre[0] = (struct steps_sums){ 0 };
	for (size_t i = 0; i < n; i++) {
		pre[i + 1] = pre[i];
		steps_add(&pre[i + 1], x[i], 1 / (tau2 + c * u[i]), 1);
	}
}

/* The stretch [i, j) of pre's sums, and the rest. */
static void steps_split(const struct steps_sums *pre, size_t n, size_t i, size_t j,
			struct steps_sums *in, struct steps_sums *out)
{
	in->w = pre[j].w - pre[i].w;
	in->wx = pre[j].wx - pre[i].wx;
	in->wxx = pre[j].wxx - pre[i].wxx;
	in->ww = pre[j].ww - pre[i].ww;
	out->w = pre[n].w - in->w;
	out->wx = pre[n].wx - in->wx;
	out->wxx = pre[n].wxx - in->wxx;
	out->ww = pre[n].ww - in->ww;
}

/* The segment's level, and its part of the DerSimonian-Laird Q and of Q's scale C. */
static double steps_seg(const struct steps_sums *s, double *q, double *cc)
{
	double m = s->wx / s->w;

	*q += fmax(0, s->wxx - s->wx * m);
	*cc += s->w - s->ww / s->w;
	return m;
}

/* The variance of a segment's level (weighted by its runs) with tau2 between sittings. */
static double steps_seg_var(const struct steps_sums *s, double tau2)
{
	return (tau2 * s->ww + s->w) / (s->w * s->w);
}

/* The spread between sittings from nseg segments' Q and C (DerSimonian and Laird). */
static double steps_tau2(double q, double cc, size_t n, size_t nseg)
{
	return n > nseg && cc > 0 ? fmax(0, (q - (double)(n - nseg)) / cc) : 0;
}

/*
 * The candidates of x[0..n) whose stretch differs most from the rest, a
 * family each, when the spread between sittings is known (tau2 + u[i] a
 * point's variance, known on df degrees of freedom, its scale as
 * estimated c: 1 for the data, a draw's own for a series drawn): into m,
 * with |z|, the difference of the two levels' weighted means over its
 * standard error, the variances' scale taken from the residuals about the
 * two levels pooled with the df the variances were known on.  A candidate
 * is judged against the spread about its own levels, not about one level
 * for all, which a step would inflate.
 */
static void steps_best_known(struct steps_sums *pre, const double *x, const double *u, size_t n,
			     double tau2, double df, double c, unsigned fams, struct steps_max *m)
{
	size_t span = steps_span(n);
	int f;

	steps_max_init(m);
	if ((double)n - 2 + df <= 0)
		return;
	steps_prefix(pre, x, u, n, tau2, 1);
	for (size_t i = STEPS_FIRST(fams); i < STEPS_END(fams, n); i++)
		for (size_t j = i + 1; j < n; j++) {
			struct steps_sums in, out;
			double ss, scale;

			if (!steps_candidate(n, span, i, j, &f))
				continue;
			steps_split(pre, n, i, j, &in, &out);
			ss = (in.wxx - in.wx * in.wx / in.w) + (out.wxx - out.wx * out.wx / out.w);
			scale = (fmax(ss, 0) + df * c) / ((double)n - 2 + df);
			steps_consider(m, f, i, j, fabs(in.wx / in.w - out.wx / out.w) /
						      sqrt(scale * (1 / in.w + 1 / out.w)));
		}
}

/*
 * The same when the spread between sittings is not known: the points'
 * variances are their runs' alone (u[i], their scale c as above), and the
 * spread between sittings beyond them is estimated for each candidate
 * from the residuals about its two levels (DerSimonian and Laird's moment
 * estimate), so that a step is judged against the points' spread about
 * their own level, and points that the runs explain are judged by the
 * runs: a series whose labels differ by no more than their runs say needs
 * no sitting noise at all, and one whose labels swing gets all it shows.
 * Each level is its runs' weighted mean, its variance with the estimate
 * included.
 */
static void steps_best_est(struct steps_sums *pre, const double *x, const double *u, size_t n,
			   double c, unsigned fams, struct steps_max *m)
{
	size_t span = steps_span(n);
	int f;

	steps_max_init(m);
	steps_prefix(pre, x, u, n, 0, c);
	for (size_t i = STEPS_FIRST(fams); i < STEPS_END(fams, n); i++)
		for (size_t j = i + 1; j < n; j++) {
			struct steps_sums in, out;
			double q = 0, cc = 0, mi, mo, t2;

			if (!steps_candidate(n, span, i, j, &f))
				continue;
			steps_split(pre, n, i, j, &in, &out);
			mi = steps_seg(&in, &q, &cc);
			mo = steps_seg(&out, &q, &cc);
			t2 = steps_tau2(q, cc, n, 2);
			steps_consider(m, f, i, j, fabs(mi - mo) /
						      sqrt(steps_seg_var(&in, t2) + steps_seg_var(&out, t2)));
		}
}

struct steps_work {
	const double *x, *u;
	double tau2;		/* the spread between sittings, known; NaN: estimated */
	double df, alpha;
	struct stats_step *out;
	size_t max, n;
	gsl_rng *rng;
	double *draw;		/* a drawn segment */
	struct steps_sums *pre;	/* a segment's cumulated sums */
	unsigned fams;		/* the families searched (bits): a draw needs only those still open */
};

/* Each family's largest z of x[0..n) under w's model, into m. */
static void steps_best(const struct steps_work *w, const double *x, const double *u, size_t n,
		       double c, struct steps_max *m)
{
	if (isfinite(w->tau2))
		steps_best_known(w->pre, x, u, n, w->tau2, w->df, c, w->fams, m);
	else
		steps_best_est(w->pre, x, u, n, c, w->fams, m);
}

/*
 * Each family's largest z of one series drawn like u[0..n) with tau2
 * between sittings and no step, into m: the variances' scale drawn as a
 * chi-square on their degrees of freedom over them (1 when known
 * exactly), as estimated variances are.
 */
static void steps_draw_best(struct steps_work *w, const double *u, size_t n, double tau2,
			    struct steps_max *m)
{
	double c = w->df < 1e5 ? gsl_ran_chisq(w->rng, w->df) / w->df : 1;

	for (size_t i = 0; i < n; i++)
		w->draw[i] = gsl_ran_gaussian(w->rng, sqrt(tau2 + u[i]));
	steps_best(w, w->draw, u, n, c, m);
}

/* The generator (seeded the same for every series) and a drawn series of n; 0, or -1. */
static int steps_work_open(struct steps_work *w, size_t n)
{
	w->rng = gsl_rng_alloc(gsl_rng_mt19937);
	w->draw = malloc(n * sizeof(*w->draw));
	w->pre = malloc((n + 1) * sizeof(*w->pre));
	if (!w->rng || !w->draw || !w->pre) {
		if (w->rng)
			gsl_rng_free(w->rng);
		free(w->draw);
		free(w->pre);
		return -1;
	}
	gsl_rng_set(w->rng, 20261204);
	return 0;
}

static void steps_work_close(struct steps_work *w)
{
	gsl_rng_free(w->rng);
	free(w->draw);
	free(w->pre);
}

/*
 * How often each family's largest z of a stepless segment like u[0..n),
 * its sittings' spread tau2, reaches the data's z[f]: its p[f].  Drawn
 * until it is sure: a family whose Bonferroni bound over its candidates
 * is already below its share of alpha needs no draw (the bound, an upper
 * one, is its p: on a t whose degrees of freedom are the fewest the scale
 * was known on), and the draws stop once so many reached each z that no
 * p can fall below its share whatever the rest do (Besag and Clifford's
 * sequential p): a long series of runs is searched in a second, not in
 * minutes.
 */
static void steps_p(struct steps_work *w, const double *u, size_t n, double tau2,
		    const double *z, double *p)
{
	size_t reach[STEPS_FAMILIES] = { 0 };
	double bdf = isfinite(w->tau2) ? (double)n - 2 + w->df : fmax(1, fmin((double)n - 2, w->df));
	double enough[STEPS_FAMILIES];
	int open = 0, d;
	struct steps_max m;

	for (int f = 0; f < STEPS_FAMILIES; f++) {
		enough[f] = w->alpha * steps_share[f] * (STEPS_DRAWS + 1);
		p[f] = z[f] > 0 ? fmin(1, 2 * gsl_cdf_tdist_Q(z[f], bdf) * steps_candidates(n, f)) : 1;
		/* Drawn: a family with a candidate whose bound says nothing yet. */
		if (p[f] >= w->alpha * steps_share[f] && z[f] > 0)
			open |= 1 << f;
	}
	for (d = 0; d < STEPS_DRAWS && open; d++) {
		for (int f = 0; f < STEPS_FAMILIES; f++)
			if (open & 1 << f && (double)reach[f] >= enough[f]) {
				p[f] = (double)reach[f] / (double)d;
				open &= ~(1 << f);
			}
		if (!open)
			break;
		w->fams = (unsigned)open;
		steps_draw_best(w, u, n, tau2, &m);
		for (int f = 0; f < STEPS_FAMILIES; f++)
			reach[f] += m.z[f] >= z[f];
	}
	w->fams = STEPS_ALL;
	for (int f = 0; f < STEPS_FAMILIES; f++)
		if (open & 1 << f)
			p[f] = (double)(reach[f] + 1) / (STEPS_DRAWS + 1);
}

/* The sums of x[a..b) under the weights 1 / (tau2 + u). */
static struct steps_sums steps_sum(const double *x, const double *u, double tau2, size_t a,
				   size_t b)
{
	struct steps_sums s = { 0 };

	for (size_t i = a; i < b; i++)
		steps_add(&s, x[i], 1 / (tau2 + u[i]), 1);
	return s;
}

/* A step found at at, its p, kept in out in order of position. */
static void steps_keep(struct steps_work *w, size_t at, double p)
{
	size_t k;

	if (w->n >= w->max)
		return;
	k = w->n++;
	while (k > 0 && w->out[k - 1].at > at) {
		w->out[k] = w->out[k - 1];
		k--;
	}
	w->out[k] = (struct stats_step){ at, 0, 0, 0, p };
}

/*
 * Search x[a..b) for a step, or a stretch off the rest (two steps, its
 * edges), and each part either side of one found; the steps in out by
 * position, each with its family's p over its share (Bonferroni's
 * adjusted p: below alpha, a step).
 */
static void steps_search(struct steps_work *w, size_t a, size_t b)
{
	size_t n = b - a, at, at2;
	double p[STEPS_FAMILIES], tau2 = w->tau2, adj = 1;
	struct steps_max m;
	int best = -1;

	if (n < 2 || w->n >= w->max)
		return;
	steps_best(w, w->x + a, w->u + a, n, 1, &m);
	if (!(m.z[STEPS_SPLIT] > 0) && !(m.z[STEPS_STRETCH] > 0))
		return;
	/*
	 * Estimated, the series are drawn with the spread the segment shows as
	 * one level, as it would without a step: the best candidate's own
	 * estimate is the lowest of any (it is chosen where its levels sit
	 * tightest), and series drawn with it would find the data's z rarer
	 * than it is.
	 */
	if (!isfinite(w->tau2)) {
		struct steps_sums s = steps_sum(w->x, w->u, 0, a, b);
		double q = 0, cc = 0;

		steps_seg(&s, &q, &cc);
		tau2 = steps_tau2(q, cc, n, 1);
	}
	steps_p(w, w->u + a, n, tau2, m.z, p);
	/* The family whose adjusted p is the smaller: a step as a split, a hump as a stretch. */
	for (int f = 0; f < STEPS_FAMILIES; f++)
		if (m.z[f] > 0 && p[f] / steps_share[f] < adj) {
			adj = p[f] / steps_share[f];
			best = f;
		}
	if (best < 0 || !(adj < w->alpha))
		return;
	at = m.at[best];
	at2 = m.at2[best];
	if (best == STEPS_SPLIT) {
		steps_search(w, a, a + at2);
		steps_keep(w, a + at2, adj);
		steps_search(w, a + at2, b);
		return;
	}
	steps_search(w, a, a + at);
	steps_keep(w, a + at, adj);
	steps_search(w, a + at, a + at2);
	steps_keep(w, a + at2, adj);
	steps_search(w, a + at2, b);
}

int stats_steps(const double *x, const double *u, size_t n, double tau2, double df, double alpha,
		struct stats_step *out, size_t max, double *tau2_out)
{
	/* Variances known exactly weigh as if on a million degrees of freedom. */
	struct steps_work w = { x, u, tau2, df > 0 ? df : 1e6, alpha, out, max, 0, NULL, NULL, NULL,
				STEPS_ALL };
	double q = 0, cc = 0, t2, rdf, qt, scale = 1;

	for (size_t i = 0; i < n; i++)
		if (!isfinite(x[i]) || !(u[i] > 0) || !isfinite(u[i]))
			return -1;
	if (isfinite(tau2) && tau2 < 0)
		return -1;
	if (tau2_out)
		*tau2_out = isfinite(tau2) ? tau2 : 0;
	if (n < 2)
		return 0;
	if (steps_work_open(&w, n) < 0)
		return -1;
	steps_search(&w, 0, n);
	steps_work_close(&w);
	/*
	 * The spread the steps are sized with, about the segments found: known,
	 * with the variances' scale pooled from the residuals as the tests took
	 * it; or estimated from them (DerSimonian and Laird) and the interval on
	 * as many degrees of freedom as the segments left, the runs' where the
	 * estimate is none.  Then each step between its neighbours, the segment
	 * before it and the one after.
	 */
	for (size_t k = 0; k <= w.n; k++) {
		size_t a = k ? out[k - 1].at : 0, b = k < w.n ? out[k].at : n;
		struct steps_sums s = steps_sum(x, u, isfinite(tau2) ? tau2 : 0, a, b);

		steps_seg(&s, &q, &cc);
	}
	if (isfinite(tau2)) {
		t2 = tau2;
		rdf = (double)(n - w.n - 1) + w.df;
		scale = (q + w.df) / rdf;
	} else {
		t2 = steps_tau2(q, cc, n, w.n + 1);
		rdf = t2 > 0 ? fmax(1, (double)(n - w.n - 1)) : w.df;
		if (tau2_out)
			*tau2_out = t2;
	}
	qt = gsl_cdf_tdist_Qinv(0.025, rdf);
	for (size_t k = 0; k < w.n; k++) {
		size_t a = k ? out[k - 1].at : 0, b = k + 1 < w.n ? out[k + 1].at : n;
		double d, h;
		/* Known: weighted by the whole variance; estimated: by the runs', as the test. */
		double wt2 = isfinite(tau2) ? tau2 : 0;
		struct steps_sums l = steps_sum(x, u, wt2, a, out[k].at),
				  r = steps_sum(x, u, wt2, out[k].at, b);

		d = r.wx / r.w - l.wx / l.w;
		if (isfinite(tau2))
			h = qt * sqrt(scale * (1 / l.w + 1 / r.w));
		else
			h = qt * sqrt(steps_seg_var(&l, t2) + steps_seg_var(&r, t2));
		out[k].change = expm1(d);
		out[k].lo = expm1(d - h);
		out[k].hi = expm1(d + h);
	}
	return (int)w.n;
}

/* Series drawn for a detectable step's critical value: its 95th percentile is the 10th largest of 199. */
#define STEPS_DETECT_DRAWS 199
/* The standard normal's 80th percentile: a step found 4 times in 5 clears the critical value by it. */
#define STEPS_Z80 0.841621

/* The 1 - alpha quantile of the largest z of series drawn like u[0..n) with tau2 and no step. */
static double steps_crit(struct steps_work *w, const double *u, size_t n, double tau2, double *z)
{
	struct steps_max m;

	gsl_rng_set(w->rng, 20261204);
	/* The newest point's step is a split's. */
	w->fams = 1u << STEPS_SPLIT;
	for (int d = 0; d < STEPS_DETECT_DRAWS; d++) {
		steps_draw_best(w, u, n, tau2, &m);
		z[d] = m.z[STEPS_SPLIT];
	}
	w->fams = STEPS_ALL;
	return stats_quantile_sort(z, STEPS_DETECT_DRAWS, 1 - w->alpha * steps_share[STEPS_SPLIT]);
}

double stats_steps_detectable(const double *u, size_t n, double tau2, int estimated, double df,
			      double alpha, size_t at)
{
	struct steps_work w = { NULL, u, estimated ? (double)NAN : tau2, df > 0 ? df : 1e6, alpha,
				NULL, 0, 0, NULL, NULL, NULL, STEPS_ALL };
	double z[STEPS_DETECT_DRAWS], se, d, q = 0, cc = 0;
	struct steps_sums l, r, all;

	if (n < 2 || at < 1 || at >= n || !(tau2 >= 0))
		return (double)NAN;
	for (size_t i = 0; i < n; i++)
		if (!(u[i] > 0) || !isfinite(u[i]))
			return (double)NAN;
	/*
	 * The two sides' difference at the split, weighed as the test weighs it
	 * (the x sums unused: u stands in for x).
	 */
	if (estimated) {
		l = steps_sum(u, u, 0, 0, at);
		r = steps_sum(u, u, 0, at, n);
		se = sqrt(steps_seg_var(&l, tau2) + steps_seg_var(&r, tau2));
	} else {
		l = steps_sum(u, u, tau2, 0, at);
		r = steps_sum(u, u, tau2, at, n);
		se = sqrt(1 / l.w + 1 / r.w);
	}
	if (steps_work_open(&w, n) < 0)
		return (double)NAN;
	d = (steps_crit(&w, u, n, tau2, z) + STEPS_Z80) * se;
	/*
	 * Estimated, the test draws its series with the spread the segment
	 * shows as one level, which the step itself widens (by d^2 Wl Wr / W
	 * over C in DerSimonian and Laird's terms): its critical value is that
	 * of the wider spread, so the step that clears it is sought again.
	 */
	if (estimated) {
		all = steps_sum(u, u, 0, 0, n);
		steps_seg(&all, &q, &cc);
		for (int it = 0; it < 3 && cc > 0; it++)
			d = (steps_crit(&w, u, n, tau2 + d * d * l.w * r.w / all.w / cc, z) +
			     STEPS_Z80) * se;
	}
	steps_work_close(&w);
	return expm1(d);
}

double stats_steps_noise(const double *x, size_t n)
{
	double *d;
	double mad;

	if (n < 3)
		return (double)NAN;
	d = malloc((n - 1) * sizeof(*d));
	if (!d)
		return (double)NAN;
	for (size_t i = 0; i + 1 < n; i++)
		d[i] = fabs(x[i + 1] - x[i]);
	mad = stats_median_sort(d, n - 1);
	free(d);
	/*
	 * The median of |a - b| for two normal draws of variance s2 is
	 * 0.6745 sqrt(2 s2): a step or two among the differences moves it little.
	 */
	return mad * mad / (2 * 0.674490 * 0.674490);
}

/* The median of a chi-square on one degree of freedom: of a squared standard normal. */
#define STEPS_CHISQ1_MEDIAN 0.454936

/* The median of d[i]^2 / (2 t + s[i]) over n differences, in tmp. */
static double steps_spread_at(const double *d, const double *s, size_t n, double t, double *tmp)
{
	for (size_t i = 0; i < n; i++)
		tmp[i] = d[i] * d[i] / (2 * t + s[i]);
	return stats_median_sort(tmp, n);
}

double stats_steps_spread(const double *x, const double *u, size_t n)
{
	double *d, lo = 0, hi = 0, t = (double)NAN;

	if (n < 3 || !(d = malloc(3 * (n - 1) * sizeof(*d))))
		return (double)NAN;
	double *s = d + (n - 1), *tmp = s + (n - 1);

	for (size_t i = 0; i + 1 < n; i++) {
		d[i] = x[i + 1] - x[i];
		s[i] = u[i] + u[i + 1];
		hi = fmax(hi, d[i] * d[i]);
	}
	/*
	 * A difference of two points of variance tau2 + u is normal with
	 * variance 2 tau2 + u[i] + u[i + 1]: tau2 the one at which the squared
	 * differences so scaled have a chi-square's median, sought by halving
	 * (the median falls as tau2 grows); nil where the runs explain them.
	 * A step is one difference of n - 1, which the median passes over.
	 */
	if (steps_spread_at(d, s, n - 1, 0, tmp) <= STEPS_CHISQ1_MEDIAN) {
		t = 0;
	} else {
		for (int it = 0; it < 100; it++) {
			double mid = (lo + hi) / 2;

			if (steps_spread_at(d, s, n - 1, mid, tmp) > STEPS_CHISQ1_MEDIAN)
				lo = mid;
			else
				hi = mid;
		}
		t = (lo + hi) / 2;
	}
	free(d);
	return t;
}
