/*
 * Steps in a figure's history (kbench history): where a series of levels,
 * one a label (or a run) in order, stepped, by how much and how surely.
 *
 * Each point is a label's mean log level with the variance of that mean:
 * its runs' spread over their count plus the spread between sittings,
 * which no count of runs takes away, so that a label measured once and one
 * measured five times weigh what they are worth.  Binary segmentation, as
 * E-divisive does in Apache Otava and MongoDB's CI: in a segment, the
 * split whose two sides' weighted means differ most in units of their
 * standard error (z); the split is a step when so large a z is rarer
 * than alpha as the largest of the segment's splits where nothing
 * stepped: STEPS_DRAWS series drawn with the points' variances (each
 * draw's variances scaled by a chi-square on their degrees of freedom,
 * as estimated variances are), their largest z counted.  Then each side
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
 * The split of x[0..n) (variances v, known on df degrees of freedom,
 * their scale as estimated c: 1 for the data, a draw's own for a series
 * drawn) whose sides differ most: its index (the first point after it) and
 * |z|, the difference of the sides' weighted means over its standard
 * error, the variances' scale taken from the two sides' residuals pooled
 * with the df the variances were known on.  A split whose sides differ is
 * judged against the spread about their own levels, not about one level
 * for both, which a step would inflate.  Sides of at least one point.
 */
static double steps_best(const double *x, const double *v, size_t n, double df, double c,
			 size_t *at)
{
	double wl = 0, sl = 0, ql = 0, wt = 0, st = 0, qt = 0, best = -1;

	for (size_t i = 0; i < n; i++) {
		wt += 1 / v[i];
		st += x[i] / v[i];
		qt += x[i] * x[i] / v[i];
	}
	*at = 0;
	for (size_t k = 1; k < n; k++) {
		double wr, ml, mr, ss, scale, z;

		wl += 1 / v[k - 1];
		sl += x[k - 1] / v[k - 1];
		ql += x[k - 1] * x[k - 1] / v[k - 1];
		wr = wt - wl;
		ml = sl / wl;
		mr = (st - sl) / wr;
		ss = (ql - sl * ml) + (qt - ql - (st - sl) * mr);
		if ((double)n - 2 + df <= 0)
			return -1;
		scale = (fmax(ss, 0) + df * c) / ((double)n - 2 + df);
		z = fabs(mr - ml) / sqrt(scale * (1 / wl + 1 / wr));
		if (z > best) {
			best = z;
			*at = k;
		}
	}
	return best;
}

struct steps_work {
	const double *x, *v;
	double df, alpha;
	struct stats_step *out;
	size_t max, n;
	gsl_rng *rng;
	double *draw;		/* a drawn segment */
};

/*
 * How often the largest z of a stepless segment like v[0..n) reaches z:
 * its p.  Drawn until it is sure: a split that Bonferroni's bound over the
 * n - 1 splits already finds below alpha needs no draw (the bound, an
 * upper one, is its p), and the draws stop once so many reached z that p
 * is above alpha whatever the rest do (Besag and Clifford's sequential
 * p): a long series of runs is searched in a second, not in minutes.
 */
static double steps_p(struct steps_work *w, const double *v, size_t n, double z)
{
	size_t reach = 0, ignored;
	double bound = fmin(1, 2 * gsl_cdf_tdist_Q(z, (double)n - 2 + w->df) * (double)(n - 1));
	double enough = w->alpha * (STEPS_DRAWS + 1);

	if (bound < w->alpha)
		return bound;
	for (int d = 0; d < STEPS_DRAWS; d++) {
		if ((double)reach >= enough)
			return (double)reach / (double)d;
		double c = w->df > 0 && w->df < 1e5 ? gsl_ran_chisq(w->rng, w->df) / w->df : 1;

		for (size_t i = 0; i < n; i++)
			w->draw[i] = gsl_ran_gaussian(w->rng, sqrt(v[i]));
		reach += steps_best(w->draw, v, n, w->df, c, &ignored) >= z;
	}
	return (double)(reach + 1) / (STEPS_DRAWS + 1);
}

/* Search x[a..b) for a step, and each side of one found; the steps in out by position. */
static void steps_search(struct steps_work *w, size_t a, size_t b)
{
	size_t n = b - a, at;
	double z, p;

	if (n < 2 || w->n >= w->max)
		return;
	z = steps_best(w->x + a, w->v + a, n, w->df, 1, &at);
	if (!(z > 0))
		return;
	p = steps_p(w, w->v + a, n, z);
	if (!(p < w->alpha))
		return;
	steps_search(w, a, a + at);
	if (w->n < w->max) {
		size_t k = w->n++;

		/* Kept in order of position: those found on the left are before it. */
		while (k > 0 && w->out[k - 1].at > a + at) {
			w->out[k] = w->out[k - 1];
			k--;
		}
		w->out[k] = (struct stats_step){ a + at, 0, 0, 0, p };
	}
	steps_search(w, a + at, b);
}

/* The weighted mean of x[a..b) and the variance of that mean. */
static void steps_mean(const double *x, const double *v, size_t a, size_t b, double *m, double *var)
{
	double w = 0, s = 0;

	for (size_t i = a; i < b; i++) {
		w += 1 / v[i];
		s += x[i] / v[i];
	}
	*m = s / w;
	*var = 1 / w;
}

int stats_steps(const double *x, const double *v, size_t n, double df, double alpha,
		struct stats_step *out, size_t max)
{
	struct steps_work w = { x, v, df > 0 ? df : 1e6, alpha, out, max, 0, NULL, NULL };
	/* The variances known exactly weigh as if on a million degrees of freedom. */

	for (size_t i = 0; i < n; i++)
		if (!isfinite(x[i]) || !(v[i] > 0) || !isfinite(v[i]))
			return -1;
	if (n < 2)
		return 0;
	w.rng = gsl_rng_alloc(gsl_rng_mt19937);
	w.draw = malloc(n * sizeof(*w.draw));
	if (!w.rng || !w.draw) {
		if (w.rng)
			gsl_rng_free(w.rng);
		free(w.draw);
		return -1;
	}
	gsl_rng_set(w.rng, 20261204);
	steps_search(&w, 0, n);
	gsl_rng_free(w.rng);
	free(w.draw);
	/*
	 * The variances' scale about the segments' levels, pooled with the df
	 * they were known on, as the tests took it; then each step between its
	 * neighbours, the segment before it and the one after.
	 */
	double ss = 0, rdf = (double)(n - w.n - 1) + w.df, scale, q;

	for (size_t k = 0; k <= w.n; k++) {
		size_t a = k ? out[k - 1].at : 0, b = k < w.n ? out[k].at : n;
		double m, vm;

		steps_mean(x, v, a, b, &m, &vm);
		for (size_t i = a; i < b; i++)
			ss += (x[i] - m) * (x[i] - m) / v[i];
	}
	scale = (ss + w.df) / rdf;
	q = gsl_cdf_tdist_Qinv(0.025, rdf);
	for (size_t k = 0; k < w.n; k++) {
		size_t a = k ? out[k - 1].at : 0, b = k + 1 < w.n ? out[k + 1].at : n;
		double ml, vl, mr, vr, h;

		steps_mean(x, v, a, out[k].at, &ml, &vl);
		steps_mean(x, v, out[k].at, b, &mr, &vr);
		h = q * sqrt(scale * (vl + vr));
		out[k].change = expm1(mr - ml);
		out[k].lo = expm1(mr - ml - h);
		out[k].hi = expm1(mr - ml + h);
	}
	return (int)w.n;
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
