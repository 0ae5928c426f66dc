/*
 * Tests of significance for comparing two sets of measurements (kbench
 * compare): Welch's t on the logarithms, Mann-Whitney U, and the
 * corrections for the many comparisons one table makes (Holm,
 * Benjamini-Hochberg).
 *
 * Why Welch on logarithms for run-level figures: a kernel change scales
 * a time, so the log makes the effect additive and the answer a ratio
 * with a confidence interval ("+4.1%, 95% CI +2.0% to +6.3%"); Welch does
 * not assume the two kernels are equally noisy.  Mann-Whitney assumes
 * nothing about the shape, but with 3 runs a side its smallest possible
 * two-sided p is 0.1, so it can never call a difference real at the run
 * counts people use; it serves the sample-level comparison instead, where
 * there are dozens of values a side.
 */
#include "stats/stats.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The logs of n positive finite values into l; -1 if one is not. */
static int stats_logs(const double *x, size_t n, double *l)
{
	for (size_t i = 0; i < n; i++) {
		if (!(x[i] > 0) || !isfinite(x[i]))
			return -1;
		l[i] = log(x[i]);
	}
	return 0;
}

/* Mean and sample variance of the logs of n positive values; -1 if one is not. */
static int stats_log_moments(const double *x, size_t n, double *mean, double *var)
{
	double *l = n ? malloc(n * sizeof(*l)) : NULL;

	if (!l || stats_logs(x, n, l) < 0) {
		free(l);
		return -1;
	}
	*mean = gsl_stats_mean(l, 1, n);
	*var = n > 1 ? gsl_stats_variance_m(l, 1, n, *mean) : 0;
	free(l);
	return 0;
}

/* Welch's t from the two sides' means, variances and counts. */
static void stats_welch_from(double ma, double va, size_t na, double mb, double vb, size_t nb,
			     struct stats_welch *w)
{
	double sa = va / (double)na, sb = vb / (double)nb, se = sqrt(sa + sb);

	w->diff = mb - ma;
	if (se == 0) {
		/* Two sets of identical values: the same, or certainly different. */
		w->t = w->diff == 0 ? 0 : copysign(INFINITY, w->diff);
		w->df = (double)(na + nb - 2);
		w->p = w->diff == 0 ? 1 : 0;
		w->diff_lo = w->diff_hi = w->diff;
		return;
	}
	w->t = w->diff / se;
	/* Welch-Satterthwaite degrees of freedom. */
	w->df = (sa + sb) * (sa + sb) /
		(sa * sa / (double)(na - 1) + sb * sb / (double)(nb - 1));
	w->p = 2 * gsl_cdf_tdist_Q(fabs(w->t), w->df);
	double q = gsl_cdf_tdist_Qinv(0.025, w->df);
	w->diff_lo = w->diff - q * se;
	w->diff_hi = w->diff + q * se;
}

int stats_welch(const double *a, size_t na, const double *b, size_t nb, struct stats_welch *w)
{
	double ma, mb;

	if (na < 2 || nb < 2)
		return -1;
	memset(w, 0, sizeof(*w));
	ma = gsl_stats_mean(a, 1, na);
	mb = gsl_stats_mean(b, 1, nb);
	stats_welch_from(ma, gsl_stats_variance_m(a, 1, na, ma), na,
			 mb, gsl_stats_variance_m(b, 1, nb, mb), nb, w);
	return 0;
}

int stats_welch_log(const double *a, size_t na, const double *b, size_t nb,
		    struct stats_welch *w)
{
	double ma, va, mb, vb;

	if (na < 2 || nb < 2 || stats_log_moments(a, na, &ma, &va) < 0 ||
	    stats_log_moments(b, nb, &mb, &vb) < 0)
		return -1;
	memset(w, 0, sizeof(*w));
	stats_welch_from(ma, va, na, mb, vb, nb, w);
	return 0;
}

int stats_sittings(const double *x, const size_t *nper, const size_t *cond, size_t nsit,
		   struct stats_sittings *out)
{
	double between = 0, within = 0, inv_n = 0;
	size_t wdf = 0, used = 0, at = 0;
	double *m = nsit ? malloc(nsit * sizeof(*m)) : NULL;

	memset(out, 0, sizeof(*out));
	if (nsit == 0)
		return 0;
	if (!m)
		return -1;
	/* Each sitting's mean log, and the runs' spread about it. */
	for (size_t j = 0; j < nsit; at += nper[j++]) {
		double v;

		if (nper[j] == 0 || stats_log_moments(x + at, nper[j], &m[j], &v) < 0) {
			free(m);
			return -1;
		}
		within += v * (double)(nper[j] - 1);
		wdf += nper[j] - 1;
	}
	/* The means about their condition's, for conditions seen in 2 sittings or more. */
	for (size_t j = 0; j < nsit; j++) {
		double sum = 0;
		size_t k = 0;
		int first = 1;

		for (size_t i = 0; i < j && first; i++)
			first = cond[i] != cond[j];
		if (!first)
			continue;
		for (size_t i = j; i < nsit; i++)
			if (cond[i] == cond[j]) {
				sum += m[i];
				k++;
			}
		if (k < 2)
			continue;
		for (size_t i = j; i < nsit; i++)
			if (cond[i] == cond[j]) {
				between += (m[i] - sum / (double)k) * (m[i] - sum / (double)k);
				inv_n += 1.0 / (double)nper[i];
				used++;
			}
		out->df += (double)(k - 1);
	}
	free(m);
	if (out->df == 0)
		return 0;
	out->sittings = used;
	/* E[spread of the means] = tau2 + sigma2 / n over the sittings: take the runs' part out. */
	double runs_part = wdf ? within / (double)wdf * inv_n / (double)used : 0;

	out->tau2 = between / out->df - runs_part;
	out->tau2_hi = between / gsl_cdf_chisq_Pinv(0.2, out->df) - runs_part;
	if (!(out->tau2 > 0))
		out->tau2 = 0;
	if (!(out->tau2_hi > out->tau2))
		out->tau2_hi = out->tau2;
	return 0;
}

void stats_widen(struct stats_welch *w, double var, double var_df)
{
	double q = gsl_cdf_tdist_Qinv(0.025, w->df), se0, se, df;

	if (!(var > 0) || !(var_df > 0))
		return;
	se0 = isfinite(q) && q > 0 ? (w->diff_hi - w->diff) / q : 0;
	se = sqrt(se0 * se0 + var);
	df = se * se * se * se /
	     ((se0 > 0 ? se0 * se0 * se0 * se0 / w->df : 0) + var * var / var_df);
	w->df = df;
	w->t = w->diff / se;
	w->p = 2 * gsl_cdf_tdist_Q(fabs(w->t), df);
	q = gsl_cdf_tdist_Qinv(0.025, df);
	w->diff_lo = w->diff - q * se;
	w->diff_hi = w->diff + q * se;
}

double stats_t975(double df)
{
	return gsl_cdf_tdist_Qinv(0.025, df);
}

double stats_detectable(double se, double df)
{
	return se * (gsl_cdf_tdist_Qinv(0.025, df) + gsl_cdf_tdist_Qinv(0.2, df));
}

double stats_detectable_at(double se, double se_true, double df, double alpha, double bar)
{
	return fmax(se * gsl_cdf_tdist_Qinv(alpha / 2, df), bar) +
	       se_true * gsl_cdf_tdist_Qinv(0.2, df);
}

double stats_detectable_side(const double *x, size_t n, const struct stats_sittings *st,
			     double *floor)
{
	struct stats_welch w;
	double m, v, se, runs_var;
	int sit = st && st->df > 0 && st->tau2_hi > 0;

	*floor = 0;
	if (n < 2 || stats_log_moments(x, n, &m, &v) < 0)
		return (double)NAN;
	/* Two sides alike: Welch's on them, at no difference, then the sittings' part. */
	memset(&w, 0, sizeof(w));
	stats_welch_from(m, v, n, m, v, n, &w);
	runs_var = 2 * v / (double)n;
	if (sit) {
		stats_widen(&w, 2 * st->tau2, st->df);
		*floor = stats_detectable_at(sqrt(2 * st->tau2), sqrt(2 * st->tau2_hi), st->df,
					     0.05, 0);
	}
	if (w.diff_hi == w.diff && !sit)
		return 0;
	se = sqrt(runs_var + (sit ? 2 * st->tau2 : 0));
	return stats_detectable_at(se, sqrt(runs_var + (sit ? 2 * st->tau2_hi : 0)), w.df, 0.05, 0);
}

/*
 * Why pairs: two conditions measured in the same minutes share the
 * machine's moves, which then cancel in each pair's ratio, so the spread
 * left is the pairs' own, much less than that between two sittings.  Why
 * Student's t and not the ranks: a table of 50 figures is corrected as a
 * whole (Benjamini-Hochberg), and one change among them must reach p
 * 0.05/50; the signed-rank test of 10 pairs cannot go below 2/1024, and
 * marked nothing in a session whose getppid slowed by 29% (interval
 * +23..+42%).  What the ranks were for, the pair a jump of the machine
 * between two states splits, stats_pairs_within leaves out first.
 */
int stats_paired_log(const double *a, const double *b, size_t n, struct stats_welch *w)
{
	double *d, m, v, se, q;

	if (n < 2 || !(d = malloc(n * sizeof(*d))))
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (!(a[i] > 0) || !isfinite(a[i]) || !(b[i] > 0) || !isfinite(b[i])) {
			free(d);
			return -1;
		}
		d[i] = log(b[i]) - log(a[i]);
	}
	m = gsl_stats_mean(d, 1, n);
	v = gsl_stats_variance_m(d, 1, n, m);
	free(d);
	memset(w, 0, sizeof(*w));
	w->diff = m;
	w->df = (double)(n - 1);
	se = sqrt(v / (double)n);
	if (se == 0) {
		/* Pairs all alike: the same, or certainly different. */
		w->t = m == 0 ? 0 : copysign(INFINITY, m);
		w->p = m == 0 ? 1 : 0;
		w->diff_lo = w->diff_hi = m;
		return 0;
	}
	w->t = m / se;
	w->p = 2 * gsl_cdf_tdist_Q(fabs(w->t), w->df);
	q = gsl_cdf_tdist_Qinv(0.025, w->df);
	w->diff_lo = m - q * se;
	w->diff_hi = m + q * se;
	return 0;
}

static int stats_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

size_t stats_pairs_within(double *a, double *b, size_t n, double width)
{
	double *d = n ? malloc(2 * n * sizeof(*d)) : NULL, med;
	size_t kept = 0;

	if (!d)
		return n;
	for (size_t i = 0; i < n; i++) {
		if (!(a[i] > 0) || !isfinite(a[i]) || !(b[i] > 0) || !isfinite(b[i])) {
			free(d);
			return n;
		}
		d[i] = d[n + i] = log(b[i]) - log(a[i]);
	}
	qsort(d + n, n, sizeof(*d), stats_cmp_double);
	med = n % 2 ? d[n + n / 2] : (d[n + n / 2 - 1] + d[n + n / 2]) / 2;
	for (size_t i = 0; i < n; i++)
		if (fabs(d[i] - med) <= log1p(width)) {
			a[kept] = a[i];
			b[kept++] = b[i];
		}
	free(d);
	return kept;
}

/*
 * Why: on a shared machine a run's figures move with the machine's level
 * during it, and that spread hides a kernel's change; a covariate that
 * measured the level (the sentinel's dependent adds, which no kernel
 * change touches) takes it out of both the noise and the difference.
 * Centring the covariate within each side instead, to keep the difference
 * as measured, would shrink the variance without shrinking the
 * difference's own, and call the machine's moves real (a fifth of the A/A
 * splits of ten runs here had a false positive: doc/performance.md).
 */
int stats_ancova_log(const double *a, const double *ca, size_t na, const double *b,
		     const double *cb, size_t nb, struct stats_welch *w)
{
	size_t n = na + nb;
	double *y, *c, m[2] = { 0, 0 }, cm[2] = { 0, 0 }, sxx = 0, sxy = 0, beta, res = 0, se, q;

	if (na < 3 || nb < 3)
		return -1;
	y = malloc(2 * n * sizeof(*y));
	if (!y)
		return -1;
	c = y + n;
	if (stats_logs(a, na, y) < 0 || stats_logs(b, nb, y + na) < 0 ||
	    stats_logs(ca, na, c) < 0 || stats_logs(cb, nb, c + na) < 0) {
		free(y);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		m[i >= na] += y[i];
		cm[i >= na] += c[i];
	}
	m[0] /= (double)na, m[1] /= (double)nb, cm[0] /= (double)na, cm[1] /= (double)nb;
	for (size_t i = 0; i < n; i++) {
		int g = i >= na;

		sxx += (c[i] - cm[g]) * (c[i] - cm[g]);
		sxy += (c[i] - cm[g]) * (y[i] - m[g]);
	}
	if (!(sxx > 0)) {
		free(y);
		return -1;	/* a covariate that never moved explains nothing */
	}
	beta = sxy / sxx;
	for (size_t i = 0; i < n; i++) {
		int g = i >= na;
		double r = y[i] - m[g] - beta * (c[i] - cm[g]);

		res += r * r;
	}
	free(y);
	memset(w, 0, sizeof(*w));
	w->df = (double)(n - 3);
	w->diff = (m[1] - m[0]) - beta * (cm[1] - cm[0]);
	se = sqrt(res / w->df * (1.0 / (double)na + 1.0 / (double)nb +
				 (cm[1] - cm[0]) * (cm[1] - cm[0]) / sxx));
	if (se == 0) {
		w->t = w->diff == 0 ? 0 : copysign(INFINITY, w->diff);
		w->p = w->diff == 0 ? 1 : 0;
		w->diff_lo = w->diff_hi = w->diff;
		return 0;
	}
	w->t = w->diff / se;
	w->p = 2 * gsl_cdf_tdist_Q(fabs(w->t), w->df);
	q = gsl_cdf_tdist_Qinv(0.025, w->df);
	w->diff_lo = w->diff - q * se;
	w->diff_hi = w->diff + q * se;
	return 0;
}

/* One value and which side it came from, for ranking. */
struct stats_ranked {
	double v;
	int side;
};

static int stats_cmp_ranked(const void *x, const void *y)
{
	double a = ((const struct stats_ranked *)x)->v, b = ((const struct stats_ranked *)y)->v;

	return (a > b) - (a < b);
}

/*
 * P(U <= u) for sides of na and nb values without ties, exactly: the count
 * of orderings in which at most u (a, b) pairs have a above b, over all
 * C(na + nb, na) orderings, each equally likely when both sides come from
 * one distribution.  N(m, n, k), the orderings of m a's and n b's with k
 * such pairs, follows from where the largest value is: an a above all n
 * b's, N(m - 1, n, k - n), or a b, N(m, n - 1, k).
 */
static double stats_u_cdf_exact(size_t na, size_t nb, double u)
{
	size_t umax = na * nb;
	double *f = calloc((na + 1) * (nb + 1) * (umax + 1), sizeof(*f)), total = 0, below = 0;

	if (!f)
		return NAN;
#define N(m, n, k) f[((m) * (nb + 1) + (n)) * (umax + 1) + (k)]
	for (size_t m = 0; m <= na; m++)
		for (size_t n = 0; n <= nb; n++)
			for (size_t k = 0; k <= m * n; k++) {
				if (m == 0 || n == 0) {
					N(m, n, k) = k == 0;
					continue;
				}
				N(m, n, k) = (k >= n ? N(m - 1, n, k - n) : 0) + N(m, n - 1, k);
			}
	for (size_t k = 0; k <= umax; k++) {
		total += N(na, nb, k);
		if ((double)k <= u + 1e-9)
			below += N(na, nb, k);
	}
#undef N
	free(f);
	return below / total;
}

int stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
		       struct stats_mw *out)
{
	size_t n = na + nb, i = 0;
	struct stats_ranked *r;
	double ra = 0, ties = 0, mu, sigma, z;
	int tied = 0;

	if (na == 0 || nb == 0)
		return -1;
	r = malloc(n * sizeof(*r));
	if (!r)
		return -1;
	for (size_t k = 0; k < na; k++)
		r[i++] = (struct stats_ranked){ a[k], 0 };
	for (size_t k = 0; k < nb; k++)
		r[i++] = (struct stats_ranked){ b[k], 1 };
	qsort(r, n, sizeof(*r), stats_cmp_ranked);
	/* Midranks for ties, and the sum of t^3 - t over tie groups. */
	for (i = 0; i < n;) {
		size_t j = i;

		while (j + 1 < n && r[j + 1].v == r[i].v)
			j++;
		double rank = (double)(i + j) / 2 + 1, t = (double)(j - i + 1);
		for (size_t k = i; k <= j; k++)
			if (r[k].side == 0)
				ra += rank;
		ties += t * t * t - t;
		tied |= j > i;
		i = j + 1;
	}
	free(r);
	memset(out, 0, sizeof(*out));
	out->u = ra - (double)na * (double)(na + 1) / 2;
	mu = (double)na * (double)nb / 2;
	double umin = fmin(out->u, (double)na * (double)nb - out->u);
	/* Exact while the table is small and there are no ties; else normal. */
	if (!tied && na <= 20 && nb <= 20) {
		out->exact = 1;
		out->p = fmin(1, 2 * stats_u_cdf_exact(na, nb, umin));
		return isnan(out->p) ? -1 : 0;
	}
	sigma = sqrt((double)na * (double)nb / 12 *
		     ((double)(n + 1) - ties / ((double)n * (double)(n - 1))));
	if (sigma == 0) {
		out->p = 1;
		return 0;
	}
	/* Continuity correction: U moves in steps of one. */
	z = (fabs(out->u - mu) - 0.5) / sigma;
	out->p = fmin(1, 2 * gsl_cdf_ugaussian_Q(z > 0 ? z : 0));
	return 0;
}

/* Indices of p in ascending order of p. */
static size_t *stats_order(const double *p, size_t n)
{
	size_t *idx = malloc((n ? n : 1) * sizeof(*idx));

	if (idx)
		gsl_sort_index(idx, p, 1, n);
	return idx;
}

int stats_holm(const double *p, size_t n, double *adj)
{
	size_t *idx = stats_order(p, n);
	double run = 0;

	if (!idx)
		return -1;
	/* Step down: the k-th smallest times (n - k), never below the one before. */
	for (size_t k = 0; k < n; k++) {
		double v = fmin(1, p[idx[k]] * (double)(n - k));

		run = fmax(run, v);
		adj[idx[k]] = run;
	}
	free(idx);
	return 0;
}

int stats_bh(const double *p, size_t n, double *adj)
{
	size_t *idx = stats_order(p, n);
	double run = 1;

	if (!idx)
		return -1;
	/* Step up: the k-th smallest times n / k, never above the one after. */
	for (size_t k = n; k-- > 0;) {
		double v = fmin(1, p[idx[k]] * (double)n / (double)(k + 1));

		run = fmin(run, v);
		adj[idx[k]] = run;
	}
	free(idx);
	return 0;
}

/* The q-quantile of the logarithms of v[0..n-1] (all positive), into *out: 0 or -1. */
static int stats_log_quantile(const double *v, size_t n, double q, double *out)
{
	double *l = malloc((n ? n : 1) * sizeof(*l));

	if (!l || !n || stats_logs(v, n, l) < 0) {
		free(l);
		return -1;
	}
	gsl_sort(l, 1, n);
	*out = stats_quantile_sorted(l, n, q);
	free(l);
	return 0;
}

/* One side's run levels in the window [lo, hi] of logarithms; the runs that have one. */
static size_t stats_state_side(const double *v, const size_t *k, size_t nruns, double lo, double hi,
			       double *lev, size_t *in, double *scratch)
{
	size_t have = 0;

	for (size_t i = 0, at = 0; i < nruns; at += k[i], i++) {
		size_t m = 0;

		for (size_t j = 0; j < k[i]; j++) {
			double l = log(v[at + j]);

			if (l >= lo && l <= hi)
				scratch[m++] = v[at + j];
		}
		*in += m;
		lev[i] = (double)NAN;
		if (m) {
			gsl_sort(scratch, 1, m);
			lev[i] = gsl_stats_median_from_sorted_data(scratch, 1, m);
			have++;
		}
	}
	return have;
}

/*
 * Why a common window, and not each side's own state: a window around a
 * side's own level pulls that side's runs towards it, and the two sides'
 * levels apart; tried on real A/A sets, 92 of 126 splits then had a false
 * mark (doc/performance.md).  One window for both keeps the sides
 * exchangeable when nothing changed: 1 of 126.
 */
int stats_common_state(const double *a, const size_t *ka, size_t nra, const double *b,
		       const size_t *kb, size_t nrb, int lower, double width,
		       struct stats_state *out)
{
	size_t na = 0, nb = 0, most = 1;
	double qa, qb, q = lower ? 0.25 : 0.75, *scratch;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < nra; i++) {
		na += ka[i];
		most = ka[i] > most ? ka[i] : most;
	}
	for (size_t i = 0; i < nrb; i++) {
		nb += kb[i];
		most = kb[i] > most ? kb[i] : most;
	}
	if (!(width > 0) || stats_log_quantile(a, na, q, &qa) < 0 ||
	    stats_log_quantile(b, nb, q, &qb) < 0)
		return -1;
	out->center = (qa + qb) / 2;
	out->all = na + nb;
	scratch = malloc(most * sizeof(*scratch));
	if (!scratch)
		return -1;
	out->la = malloc((nra + nrb) * sizeof(*out->la));
	if (!out->la) {
		free(scratch);
		return -1;
	}
	out->lb = out->la + nra;
	out->ha = stats_state_side(a, ka, nra, out->center - log1p(width),
				   out->center + log1p(width), out->la, &out->in, scratch);
	out->hb = stats_state_side(b, kb, nrb, out->center - log1p(width),
				   out->center + log1p(width), out->lb, &out->in, scratch);
	free(scratch);
	return 0;
}

void stats_state_free(struct stats_state *s)
{
	free(s->la);
	s->la = s->lb = NULL;
}

/*
 * Why Theil-Sen and not least squares: a replica that another program hit,
 * or that fell in the machine's other state, lies far off the line, and
 * one such point in eighty moves a least-squares slope by more than the
 * relation itself (the figures between processes here).
 */
int stats_within_slope(const double *y, const double *x, const size_t *k, size_t ngroups,
		       double *slope)
{
	size_t n = 0, most = 1, step, m = 0, np = 0;
	double *dx, *dy, *s, *scratch;

	for (size_t g = 0; g < ngroups; g++) {
		n += k[g];
		most = k[g] > most ? k[g] : most;
	}
	step = n > 1000 ? (n + 999) / 1000 : 1;
	dx = malloc((2 * n + most + 1) * sizeof(*dx));
	if (!dx)
		return -1;
	dy = dx + n;
	scratch = dy + n;
	for (size_t g = 0, at = 0; g < ngroups; at += k[g++]) {
		double mx, my;

		if (!k[g])
			continue;
		memcpy(scratch, x + at, k[g] * sizeof(*scratch));
		mx = stats_median_sort(scratch, k[g]);
		memcpy(scratch, y + at, k[g] * sizeof(*scratch));
		my = stats_median_sort(scratch, k[g]);
		for (size_t i = 0; i < k[g]; i++, m++)
			if (m % step == 0) {
				dx[np] = x[at + i] - mx;
				dy[np++] = y[at + i] - my;
			}
	}
	s = np > 1 ? malloc(np * (np - 1) / 2 * sizeof(*s)) : NULL;
	m = 0;
	for (size_t i = 0; s && i < np; i++)
		for (size_t j = i + 1; j < np; j++)
			if (dx[j] != dx[i])
				s[m++] = (dy[j] - dy[i]) / (dx[j] - dx[i]);
	free(dx);
	if (!s || m < 10) {
		free(s);
		return -1;
	}
	*slope = stats_median_sort(s, m);
	free(s);
	return 0;
}
