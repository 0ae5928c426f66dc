/*
 * Unit tests of a figure's history: the steps found in a series
 * (stats_steps, stats_steps_noise) on known answers (one step, two, none,
 * a step inside a noisy stretch, a label measured once beside labels
 * measured five times) and on simulated histories with this machine's
 * spread; the smallest step the newest label would show
 * (stats_steps_detectable), held against simulated steps of that size;
 * and the version order labels are put in (parse_version_cmp).
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
		cmocka_unit_test(test_version_order),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
