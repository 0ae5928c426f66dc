/*
 * Unit tests of a figure's history: the steps found in a series
 * (stats_steps, stats_steps_noise) on known answers (one step, two, none,
 * a step inside a noisy stretch, a label measured once beside labels
 * measured five times) and on simulated histories with this machine's
 * spread; the smallest step the newest label would show
 * (stats_steps_detectable), held against simulated steps of that size;
 * the shapes a kernel series most often has (a regression later fixed,
 * a hump, a one-label spike, at 1, 3 and 5 runs a label), on known data
 * and simulated with this machine's spread, steady and drifting; and the
 * version order labels are put in (parse_version_cmp).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/parse.h"
#include "stats/stats.h"

#define MAXPTS 64

/* The steps of n levels x, each a label's mean with variance v. */
static int steps_of(const double *lev, size_t n, double v, struct stats_step *out)
{
	double x[MAXPTS], var[MAXPTS];

	for (size_t i = 0; i < n; i++) {
		x[i] = log(lev[i]);
		var[i] = v;
	}
	return stats_steps(x, var, n, 0, 0, 0.05, out, 8, NULL);
}

/* A step of +20% after 6 labels, the labels 1% apart: found there, its size within its interval. */
static void test_one_step(void **state)
{
	const double lev[] = { 100, 101, 99, 100.5, 99.5, 100, 120, 121, 119, 120.5, 119.5, 120 };
	struct stats_step st[8];

	(void)state;
	assert_int_equal(steps_of(lev, 12, 1e-4, st), 1);
	assert_int_equal(st[0].at, 6);
	assert_true(st[0].lo < 0.2 && 0.2 < st[0].hi);
	assert_true(fabs(st[0].change - 0.2) < 0.01);
	assert_true(st[0].p < 0.01);
}

/* Up 10% after 4 labels, down 15% after 9: both, in order. */
static void test_two_steps(void **state)
{
	const double lev[] = { 50, 50.3, 49.8, 50.1, 55, 55.2, 54.9, 55.1, 55, 46.8, 46.7, 46.9, 46.8 };
	struct stats_step st[8];

	(void)state;
	assert_int_equal(steps_of(lev, 13, 1e-4, st), 2);
	assert_int_equal(st[0].at, 4);
	assert_int_equal(st[1].at, 9);
	assert_true(st[0].change > 0.08 && st[0].change < 0.12);
	assert_true(st[1].change < -0.13 && st[1].change > -0.17);
}

/* The same labels without a step, and a series of one label: nothing. */
static void test_no_step(void **state)
{
	const double lev[] = { 100, 101, 99, 100.5, 99.5, 100, 100.2, 101, 99, 100.5, 99.5, 100 };
	struct stats_step st[8];
	double x = 0, v = 1;

	(void)state;
	assert_int_equal(steps_of(lev, 12, 1e-4, st), 0);
	assert_int_equal(stats_steps(&x, &v, 1, 0, 0, 0.05, st, 8, NULL), 0);
	v = 0;
	assert_int_equal(stats_steps(&x, &v, 1, 0, 0, 0.05, st, 8, NULL), -1);
}

/*
 * A 5% step inside a stretch whose labels swing 8% while each label's runs
 * agree within 0.2%: the spread between sittings the series shows
 * (estimated about each split's sides) says the step is not above the
 * noise, and nothing is reported; the runs' spread alone would have called
 * it a step.  And the same with the median of the points' differences
 * (stats_steps_noise) as the known spread, as a series of one run a point
 * has it.
 */
static void test_noisy_stretch(void **state)
{
	const double lev[] = { 100, 108, 95, 104, 97, 106, 105, 112, 101, 110, 99, 109 };
	double x[12], u[12], tau2;
	struct stats_step st[8];

	(void)state;
	for (int i = 0; i < 12; i++) {
		x[i] = log(lev[i]);
		u[i] = 0.002 * 0.002;
	}
	assert_int_equal(stats_steps(x, u, 12, NAN, 48, 0.05, st, 8, &tau2), 0);
	assert_true(tau2 > 0.03 * 0.03);
	assert_true(stats_steps(x, u, 12, 0, 48, 0.05, st, 8, NULL) > 0);
	double v = stats_steps_noise(x, 12);
	assert_true(v > 0.001);
	assert_int_equal(steps_of(lev, 12, v, st), 0);
}

/*
 * Labels that differ no more than their runs say: the spread between
 * sittings estimated is nil, and a step of 4 times a label's standard
 * error is found, in its place, with the runs' precision; the median of
 * the differences, a noisy estimate on a few degrees of freedom, would
 * have weighed it against more.
 */
static void test_runs_explain(void **state)
{
	const double lev[] = { 100, 101, 99, 100.6, 99.4, 100, 104, 105, 103, 104.6, 103.4, 104 };
	double x[12], u[12], tau2;
	struct stats_step st[8];

	(void)state;
	for (int i = 0; i < 12; i++) {
		x[i] = log(lev[i]);
		u[i] = 0.01 * 0.01;
	}
	assert_int_equal(stats_steps(x, u, 12, NAN, 48, 0.05, st, 8, &tau2), 1);
	assert_int_equal(st[0].at, 6);
	assert_true(tau2 < 0.01 * 0.01);
	assert_true(st[0].lo > 0 && st[0].lo < 0.04 && st[0].hi > 0.04);
}

/*
 * A label measured once weighs less than labels measured five times: six
 * labels at 100 (variance of their means 1e-4) and one at 130 measured
 * once (variance 25 times more): 30% from a single run is not proof; the
 * same level from five runs is.
 */
static void test_weights(void **state)
{
	double x[7], v[7];
	struct stats_step st[8];

	(void)state;
	for (int i = 0; i < 7; i++) {
		x[i] = log(i == 6 ? 130 : 100 + (i % 2 ? 0.5 : -0.5));
		v[i] = 1e-4;
	}
	v[6] = 0.2 * 0.2;
	assert_int_equal(stats_steps(x, v, 7, 0, 0, 0.05, st, 8, NULL), 0);
	v[6] = 1e-4;
	assert_int_equal(stats_steps(x, v, 7, 0, 0, 0.05, st, 8, NULL), 1);
	assert_int_equal(st[0].at, 6);
}

/*
 * Simulated histories: 12 labels of 5 runs, each label's level off by
 * 1.5% (a sitting's own move; bench/history_steps.py draws them from
 * real sittings) and its runs 2% apart; the runs' spread pooled, the
 * spread between sittings estimated from the series.  A step of
 * 10% after label 6 is found in at least 95% of histories, and 5% in at
 * least 80%, at most one label from where it is; histories without a step
 * report one in at most 5%.  The shares are printed.
 */
static double sim_found(gsl_rng *rng, double step, int trials, int *near_out)
{
	int found = 0, near = 0;

	for (int t = 0; t < trials; t++) {
		double x[12], v[12], noise, within = 0;
		struct stats_step st[8];
		int n;

		for (int i = 0; i < 12; i++) {
			double level = log(i >= 6 ? 1 + step : 1) + gsl_ran_gaussian(rng, 0.015);
			double sum = 0, run[5];

			for (int r = 0; r < 5; r++)
				sum += run[r] = level + gsl_ran_gaussian(rng, 0.02);
			x[i] = sum / 5;
			for (int r = 0; r < 5; r++)
				within += (run[r] - x[i]) * (run[r] - x[i]);
		}
		/* The runs' spread pooled over the labels, on 12 x 4 degrees of freedom. */
		noise = within / 48 / 5;
		for (int i = 0; i < 12; i++)
			v[i] = noise;
		n = stats_steps(x, v, 12, NAN, 48, 0.05, st, 8, NULL);
		assert_true(n >= 0);
		found += n > 0;
		for (int k = 0; k < n; k++)
			if (st[k].at >= 5 && st[k].at <= 7) {
				near++;
				break;
			}
	}
	*near_out = near;
	return (double)found / trials;
}

static void test_simulated_histories(void **state)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	int near;
	double none, five, ten;

	(void)state;
	assert_non_null(rng);
	gsl_rng_set(rng, 20261204);
	none = sim_found(rng, 0, 400, &near);
	ten = sim_found(rng, 0.10, 400, &near);
	print_message("# no step: %.3f reported one; a 10%% step: %.3f found, %.3f within a label\n",
		      none, ten, near / 400.0);
	assert_true(none <= 0.05);
	assert_true(near >= 0.95 * 400);
	five = sim_found(rng, 0.05, 400, &near);
	print_message("# a 5%% step: %.3f found, %.3f within a label\n", five, near / 400.0);
	assert_true(near >= 0.80 * 400);
	gsl_rng_free(rng);
}

/*
 * The detectable step at the newest label is honest: a series of 12
 * labels whose newest is moved by exactly that much has the step found
 * within a label of it about 4 times in 5 (the variances known, then the
 * spread between sittings estimated as history does); a noisier series
 * needs a larger step, a step in the middle (six labels a side) a smaller
 * one, and none can be below the one test's 1.96 + 0.84 standard errors.
 */
static double detect_found(gsl_rng *rng, double tau2, double run2, double step, int trials)
{
	int found = 0;

	for (int t = 0; t < trials; t++) {
		double x[12], v[12];
		struct stats_step st[8];
		int n;

		for (int i = 0; i < 12; i++) {
			x[i] = (i == 11 ? log1p(step) : 0) + gsl_ran_gaussian(rng, sqrt(tau2 + run2));
			v[i] = run2;
		}
		n = stats_steps(x, v, 12, tau2 > 0 ? NAN : 0, 48, 0.05, st, 8, NULL);
		/* The steps are in order of position: the last is the newest's, if any. */
		found += n > 0 && st[n - 1].at >= 10;
	}
	return (double)found / trials;
}

static void test_detectable(void **state)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	double u[12], d, share, dmid, dnoisy;

	(void)state;
	assert_non_null(rng);
	gsl_rng_set(rng, 20261205);
	for (int i = 0; i < 12; i++)
		u[i] = 1e-4;	/* a label's level 1% apart from its runs */
	d = stats_steps_detectable(u, 12, 0, 0, 48, 0.05, 11);
	/* Past one test's (1.96 + 0.84) x 1.04%, below Bonferroni's over 11 splits. */
	assert_true(d > expm1(2.80 * sqrt(1e-4 * (1 + 1.0 / 11))));
	assert_true(d < expm1((3.1 + 0.85) * sqrt(1e-4 * (1 + 1.0 / 11))));
	share = detect_found(rng, 0, 1e-4, d, 400);
	print_message("# known spread: detectable %+.2f%%, found %.3f at it\n", 100 * d, share);
	assert_true(share >= 0.70 && share <= 0.92);
	/* Estimated spread between sittings: 1% beyond the runs' 1%. */
	d = stats_steps_detectable(u, 12, 1e-4, 1, 48, 0.05, 11);
	share = detect_found(rng, 1e-4, 1e-4, d, 400);
	print_message("# estimated spread: detectable %+.2f%%, found %.3f at it\n", 100 * d, share);
	assert_true(share >= 0.70 && share <= 0.92);
	/* Noisier points need a larger step, a step in the middle a smaller one; no split, no figure. */
	dmid = stats_steps_detectable(u, 12, 1e-4, 1, 48, 0.05, 6);
	dnoisy = stats_steps_detectable(u, 12, 4e-4, 1, 48, 0.05, 11);
	assert_true(dmid < d);
	assert_true(dnoisy > d);
	assert_true(isnan(stats_steps_detectable(u, 12, 0, 0, 48, 0.05, 12)));
	assert_true(isnan(stats_steps_detectable(u, 1, 0, 0, 48, 0.05, 0)));
	gsl_rng_free(rng);
}

/*
 * A series as history makes it: n labels of k runs each, label i's level
 * lev[i] (a multiple) moved by a sitting's own sit_sd and each run by
 * run_sd (log sizes).  With k > 1 the runs' spread pooled over the labels
 * is each label's variance, the spread between sittings estimated
 * (tau2 NaN); with one run a label, the points' successive differences
 * give the spread between sittings on about 4 degrees of freedom
 * (stats_steps_noise), as judge/series.c does.
 */
static int series_steps(gsl_rng *rng, const double *lev, size_t n, int k, double run_sd,
			double sit_sd, struct stats_step *out)
{
	double x[MAXPTS], v[MAXPTS], within = 0;

	for (size_t i = 0; i < n; i++) {
		double level = log(lev[i]) + (sit_sd > 0 ? gsl_ran_gaussian(rng, sit_sd) : 0);
		double sum = 0, run[8];

		for (int r = 0; r < k; r++)
			sum += run[r] = level + gsl_ran_gaussian(rng, run_sd);
		x[i] = sum / k;
		for (int r = 0; r < k; r++)
			within += (run[r] - x[i]) * (run[r] - x[i]);
	}
	if (k == 1) {
		for (size_t i = 0; i < n; i++)
			v[i] = 1e-12;
		return stats_steps(x, v, n, stats_steps_noise(x, n), 4, 0.05, out, 8, NULL);
	}
	for (size_t i = 0; i < n; i++)
		v[i] = within / (double)(n * (size_t)(k - 1)) / k;
	return stats_steps(x, v, n, NAN, (double)(n * (size_t)(k - 1)), 0.05, out, 8, NULL);
}

/* Whether the steps of out[0..m) are exactly at[0..na), in order. */
static int steps_at(const struct stats_step *out, int m, const size_t *at, size_t na)
{
	if (m != (int)na)
		return 0;
	for (size_t i = 0; i < na; i++)
		if (out[i].at != at[i])
			return 0;
	return 1;
}

/*
 * A regression later fixed, the commonest shape of a kernel series: 20
 * labels of 3 runs 1% apart, labels 9 to 12 50% slower.  Both steps, in
 * their places, at their sizes: a plain split weighs the hump against the
 * spread its far side makes, and finds nothing.
 */
static void test_regression_fixed(void **state)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	double lev[20];
	struct stats_step st[8];
	const size_t at[] = { 8, 12 };
	int m;

	(void)state;
	gsl_rng_set(rng, 1207);
	for (int i = 0; i < 20; i++)
		lev[i] = i >= 8 && i < 12 ? 1.5 : 1;
	m = series_steps(rng, lev, 20, 3, 0.01, 0, st);
	assert_true(steps_at(st, m, at, 2));
	assert_true(fabs(st[0].change - 0.5) < 0.02 && st[0].lo < 0.5 && st[0].hi > 0.5);
	assert_true(fabs(st[1].change + 1.0 / 3) < 0.02);
	gsl_rng_free(rng);
}

/*
 * Seven labels 0.2, 0.2, 0.3, 0.3, 0.3, 0.2, 0.2 us, with 1, 3 and 5 runs
 * a label 1% apart: both steps, up at the third label and down at the
 * sixth; the same five labels' shape (0.2, 0.3, 0.3, 0.2, 0.2) too.
 */
static void test_hump_runs(void **state)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	const double seven[] = { 0.2, 0.2, 0.3, 0.3, 0.3, 0.2, 0.2 };
	const double five[] = { 0.2, 0.3, 0.3, 0.2, 0.2 };
	const size_t at7[] = { 2, 5 }, at5[] = { 1, 3 };
	const int runs[] = { 1, 3, 5 };
	struct stats_step st[8];

	(void)state;
	gsl_rng_set(rng, 1208);
	for (int r = 0; r < 3; r++) {
		assert_true(steps_at(st, series_steps(rng, seven, 7, runs[r], 0.01, 0, st), at7, 2));
		if (runs[r] > 1)
			assert_true(steps_at(st, series_steps(rng, five, 5, runs[r], 0.01, 0, st), at5, 2));
	}
	gsl_rng_free(rng);
}

/*
 * A 5% hump (labels 4 to 7 of 12) and a one-label 10% spike (label 6 of
 * 12), runs 1% apart, with 1, 3 and 5 runs a label: each found at both its
 * edges.
 */
static void test_hump_and_spike(void **state)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	double hump[12], spike[12];
	const size_t at_hump[] = { 3, 7 }, at_spike[] = { 5, 6 };
	const int runs[] = { 1, 3, 5 };
	struct stats_step st[8];

	(void)state;
	gsl_rng_set(rng, 1209);
	for (int i = 0; i < 12; i++) {
		hump[i] = i >= 3 && i < 7 ? 1.05 : 1;
		spike[i] = i == 5 ? 1.10 : 1;
	}
	for (int r = 0; r < 3; r++) {
		assert_true(steps_at(st, series_steps(rng, hump, 12, runs[r], 0.01, 0, st), at_hump, 2));
		assert_true(steps_at(st, series_steps(rng, spike, 12, runs[r], 0.01, 0, st), at_spike, 2));
	}
	gsl_rng_free(rng);
}

/*
 * The shares over simulated series of 20 labels with this machine's
 * spread (a label's sitting 1.5% off, its runs 2% apart), at 1, 3 and 5
 * runs a label: a 10% regression later fixed (labels 9 to 12), a 10%
 * one-label spike (label 10), found at both edges within a label; and
 * nothing changed, on a steady machine and on one drifting 0.1% a label
 * (2% over the series: a machine 1% slower an hour, a label measured
 * every six minutes), a step reported in at most 5% and 10%.  The shares are printed (doc/performance.md).
 */
struct sim_share {
	double found, any;
};

static struct sim_share sim_shape(gsl_rng *rng, const double *lev, size_t n, int k, size_t e0,
				  size_t e1, int trials)
{
	struct sim_share sh = { 0, 0 };

	for (int t = 0; t < trials; t++) {
		struct stats_step st[8];
		int m = series_steps(rng, lev, n, k, 0.02, 0.015, st), near0 = 0, near1 = 0;

		assert_true(m >= 0);
		sh.any += m > 0;
		for (int i = 0; i < m; i++) {
			near0 |= st[i].at + 1 >= e0 && st[i].at <= e0 + 1;
			near1 |= st[i].at + 1 >= e1 && st[i].at <= e1 + 1;
		}
		sh.found += near0 && near1;
	}
	sh.found /= trials;
	sh.any /= trials;
	return sh;
}

static void test_simulated_shapes(void **state)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	double hump[20], spike[20], flat[20], drift[20];
	const int runs[] = { 1, 3, 5 };

	(void)state;
	gsl_rng_set(rng, 1210);
	for (int i = 0; i < 20; i++) {
		hump[i] = i >= 8 && i < 12 ? 1.10 : 1;
		spike[i] = i == 9 ? 1.10 : 1;
		flat[i] = 1;
		drift[i] = exp(0.001 * i);
	}
	struct sim_share h[3], sp[3], a[3], d[3];

	for (int r = 0; r < 3; r++) {
		h[r] = sim_shape(rng, hump, 20, runs[r], 8, 12, 200);
		sp[r] = sim_shape(rng, spike, 20, runs[r], 9, 10, 200);
		a[r] = sim_shape(rng, flat, 20, runs[r], 0, 0, 400);
		d[r] = sim_shape(rng, drift, 20, runs[r], 0, 0, 400);
		print_message("# %d run%s a label: 10%% hump found %.3f, 10%% spike found %.3f; "
			      "a step reported with nothing changed %.3f, drifting %.3f\n",
			      runs[r], runs[r] == 1 ? "" : "s", h[r].found, sp[r].found, a[r].any,
			      d[r].any);
	}
	for (int r = 0; r < 3; r++) {
		assert_true(a[r].any <= 0.06);
		/* A drift is a change of level, the machine's: found as a step now and then. */
		assert_true(d[r].any <= 0.20);
		/* A label's level 2.5%, 1.9% and 1.8% off with 1, 3 and 5 runs: a 10% shape clear of it. */
		assert_true(h[r].found >= 0.90);
		assert_true(sp[r].found >= (runs[r] > 1 ? 0.50 : 0.15));
	}
	gsl_rng_free(rng);
}

/*
 * The spread between sittings from the successive differences
 * (stats_steps_spread): a 50% step among 12 labels 1% apart moves it
 * little (a one-level estimate would be 0.2^2); labels that differ no more
 * than their runs say give none; labels that swing 8% give about that.
 */
static void test_steps_spread(void **state)
{
	const double step[] = { 100, 101, 99, 100.5, 99.5, 100, 150, 151.5, 148.5, 150.75, 149.25, 150 };
	const double flat[] = { 100, 100.1, 99.9, 100.05, 99.95, 100, 100.1, 99.9, 100, 100.05, 99.95, 100 };
	const double swing[] = { 100, 108, 95, 104, 97, 106, 105, 112, 101, 110, 99, 109 };
	double x[12], u[12], t;

	(void)state;
	for (int i = 0; i < 12; i++) {
		x[i] = log(step[i]);
		u[i] = 1e-6;
	}
	t = stats_steps_spread(x, u, 12);
	assert_true(t > 0 && sqrt(t) < 0.02);
	for (int i = 0; i < 12; i++) {
		x[i] = log(flat[i]);
		u[i] = 1e-4;
	}
	assert_true(stats_steps_spread(x, u, 12) == 0);
	for (int i = 0; i < 12; i++)
		x[i] = log(swing[i]);
	t = stats_steps_spread(x, u, 12);
	assert_true(sqrt(t) > 0.03 && sqrt(t) < 0.1);
	assert_true(isnan(stats_steps_spread(x, u, 2)));
}

/* Version order: the seeds' series, a kernel's rc before its release, numbers as numbers. */
static void test_version_order(void **state)
{
	static const char *const order[] = {
		"2.4.18", "2.4.19", "2.5.46", "2.5.46-mm1", "2.5.47", "2.5.47-mm1", "6.18.9",
		"6.18.10", "6.19-rc1", "6.19-rc2", "6.19", "6.19.1",
	};
	const size_t n = sizeof(order) / sizeof(order[0]);

	(void)state;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++)
			assert_int_equal(parse_version_cmp(order[i], order[j]), (i > j) - (i < j));
	assert_int_equal(parse_version_cmp("1.4W", "1.4X"), -1);
	assert_int_equal(parse_version_cmp("v6.1", "v6.01"), 0);
	assert_int_equal(parse_version_cmp("", "1"), -1);
	assert_int_equal(parse_version_cmp("FreeBSD 5.0-CURRENT", "FreeBSD 4.7-STABLE"), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_step),
		cmocka_unit_test(test_two_steps),
		cmocka_unit_test(test_no_step),
		cmocka_unit_test(test_noisy_stretch),
		cmocka_unit_test(test_runs_explain),
		cmocka_unit_test(test_weights),
		cmocka_unit_test(test_simulated_histories),
		cmocka_unit_test(test_detectable),
		cmocka_unit_test(test_regression_fixed),
		cmocka_unit_test(test_hump_runs),
		cmocka_unit_test(test_hump_and_spike),
		cmocka_unit_test(test_simulated_shapes),
		cmocka_unit_test(test_steps_spread),
		cmocka_unit_test(test_version_order),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
