/*
 * The tests of significance against answers known independently: Welch's
 * t, its degrees of freedom and p from the formulas worked by hand and the
 * t distribution integrated numerically (Python, no statistics library);
 * Mann-Whitney's exact p from counting orderings (1 of the C(6,3) = 20
 * orderings puts all of a below b, so p = 2/20); Holm and
 * Benjamini-Hochberg on a list small enough to adjust by hand; and two
 * published examples (Student's sleep data, Hollander and Wolfe's
 * permeability data) as R's manual works them.  Then the
 * property kbench compare relies on, by simulation with a fixed seed: two
 * sets from one distribution are almost never called different after the
 * correction, and a 10% shift with 5 runs a side and 2% noise almost always
 * is.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>

#include "stats/stats.h"

#define assert_near(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

/* Equal sizes and variances: Welch is Student's t, df = 2n - 2. */
static void test_welch_equal(void **state)
{
	static const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 3, 4, 5, 6, 7 };
	struct stats_welch w;
	(void)state;

	assert_int_equal(stats_welch(a, 5, b, 5, &w), 0);
	/* diff 2, se sqrt(2.5/5 + 2.5/5) = 1 */
	assert_near(w.t, 2.0, 1e-12);
	assert_near(w.df, 8.0, 1e-12);
	assert_near(w.p, 0.0805162, 1e-6);
	/* 95% CI: 2 -+ t(0.975, 8) = 2.306004 */
	assert_near(w.diff_lo, 2 - 2.306004, 1e-5);
	assert_near(w.diff_hi, 2 + 2.306004, 1e-5);
}

/*
 * A published example: Student's sleep data (Cushny and Peebles, the extra
 * hours of sleep under two drugs), as R's documentation of t.test works it:
 * t.test(extra ~ group, data = sleep) gives t = -1.8608, df = 17.776,
 * p-value = 0.07939, 95% CI -3.3654832 to 0.2054832.  R's difference is
 * group 1 - group 2; ours is b - a, so group 1 is b.
 */
static void test_welch_published(void **state)
{
	static const double g1[] = { 0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0 };
	static const double g2[] = { 1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4 };
	struct stats_welch w;
	(void)state;

	assert_int_equal(stats_welch(g2, 10, g1, 10, &w), 0);
	assert_near(w.t, -1.8608, 5e-5);
	assert_near(w.df, 17.776, 5e-4);
	assert_near(w.p, 0.07939, 5e-6);
	assert_near(w.diff, -1.58, 1e-12);
	assert_near(w.diff_lo, -3.3654832, 5e-7);
	assert_near(w.diff_hi, 0.2054832, 5e-7);
}

/*
 * A published example for Mann-Whitney: Hollander and Wolfe (1973, p. 69),
 * permeability of the human chorioamnion at term (x) and at 12 to 26 weeks
 * (y), as R's documentation of wilcox.test works it: W = 35 and the exact
 * one-sided p = 0.1272, so the two-sided p is 0.2544 (no ties).
 */
static void test_mann_whitney_published(void **state)
{
	static const double x[] = { 0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46 };
	static const double y[] = { 1.15, 0.88, 0.90, 0.74, 1.21 };
	struct stats_mw mw;
	(void)state;

	assert_int_equal(stats_mann_whitney(x, 10, y, 5, &mw), 0);
	assert_near(mw.u, 35, 1e-12);
	assert_int_equal(mw.exact, 1);
	assert_near(mw.p, 2 * 0.1272061, 1e-6);
}

/* Unequal sizes and variances: the Welch-Satterthwaite df is fractional. */
static void test_welch_unequal(void **state)
{
	static const double a[] = { 2, 4, 6 }, b[] = { 10, 12, 14, 16, 18 };
	struct stats_welch w;
	(void)state;

	assert_int_equal(stats_welch(a, 3, b, 5, &w), 0);
	/* var a 4, var b 10; se^2 = 4/3 + 10/5; df = se^4 / ((4/3)^2/2 + 2^2/4) */
	assert_near(w.t, 5.4772256, 1e-6);
	assert_near(w.df, 5.8823529, 1e-6);
	assert_near(w.p, 0.00165025, 1e-7);
	/* The sign follows b - a. */
	assert_int_equal(stats_welch(b, 5, a, 3, &w), 0);
	assert_near(w.t, -5.4772256, 1e-6);
}

/* On logarithms: the difference is the log of the ratio of geometric means. */
static void test_welch_log(void **state)
{
	double a[3], b[3];
	struct stats_welch w;
	(void)state;

	for (int i = 0; i < 3; i++) {
		a[i] = exp(0.1 * i);
		b[i] = exp(1.0 + 0.1 * i);
	}
	assert_int_equal(stats_welch_log(a, 3, b, 3, &w), 0);
	assert_near(exp(w.diff), exp(1.0), 1e-12);
	assert_near(w.t, 12.247449, 1e-5);
	assert_near(w.df, 4.0, 1e-9);
	assert_near(w.p, 0.000255217, 1e-8);
	assert_true(w.diff_lo < 1.0 && w.diff_hi > 1.0);
	/* A value that is not a positive time cannot be logged. */
	a[1] = 0;
	assert_int_equal(stats_welch_log(a, 3, b, 3, &w), -1);
	assert_int_equal(stats_welch_log(b, 1, b, 3, &w), -1);
}

/* Identical values a side: the same (p = 1) or certainly different (p = 0). */
static void test_welch_no_spread(void **state)
{
	static const double a[] = { 5, 5, 5 }, b[] = { 6, 6, 6 };
	struct stats_welch w;
	(void)state;

	assert_int_equal(stats_welch(a, 3, a, 3, &w), 0);
	assert_true(w.p == 1 && w.t == 0);
	assert_int_equal(stats_welch(a, 3, b, 3, &w), 0);
	assert_true(w.p == 0 && isinf(w.t) && w.t > 0);
}

static void test_mann_whitney_exact(void **state)
{
	static const double a3[] = { 1, 2, 3 }, b3[] = { 4, 5, 6 };
	static const double a5[] = { 1, 2, 3, 4, 5 }, b5[] = { 6, 7, 8, 9, 10 };
	static const double ao[] = { 1, 2, 4 }, bo[] = { 3, 5, 6 };
	struct stats_mw m;
	(void)state;

	/* Complete separation, 3 a side: 1 ordering of 20 each way. */
	assert_int_equal(stats_mann_whitney(a3, 3, b3, 3, &m), 0);
	assert_true(m.exact);
	assert_near(m.u, 0, 1e-12);
	assert_near(m.p, 2.0 / 20, 1e-12);
	/* Either way round. */
	assert_int_equal(stats_mann_whitney(b3, 3, a3, 3, &m), 0);
	assert_near(m.u, 9, 1e-12);
	assert_near(m.p, 2.0 / 20, 1e-12);
	/* 5 a side: 2 of C(10,5) = 252. */
	assert_int_equal(stats_mann_whitney(a5, 5, b5, 5, &m), 0);
	assert_near(m.p, 2.0 / 252, 1e-12);
	/* One pair out of order: U = 1; orderings with U <= 1 are 2 of 20. */
	assert_int_equal(stats_mann_whitney(ao, 3, bo, 3, &m), 0);
	assert_near(m.u, 1, 1e-12);
	assert_near(m.p, 2.0 * 2 / 20, 1e-12);
	/* The same data: U in the middle, p 1. */
	assert_int_equal(stats_mann_whitney(a5, 5, a5, 5, &m), 0);
	assert_near(m.p, 1, 1e-12);
}

static void test_mann_whitney_ties(void **state)
{
	static const double a[] = { 1, 1, 2, 2 }, b[] = { 2, 3, 3, 4 };
	struct stats_mw m;
	(void)state;

	assert_int_equal(stats_mann_whitney(a, 4, b, 4, &m), 0);
	/* Only the two 2s of a against b's 2 tie, half a pair each. */
	assert_near(m.u, 1, 1e-12);
	assert_false(m.exact);
	assert_true(m.p > 0.02 && m.p < 0.1);
}

/*
 * p = 0.01, 0.04, 0.03, 0.005 (m = 4).  Holm: ascending 0.005 x4 = 0.02,
 * 0.01 x3 = 0.03, 0.03 x2 = 0.06, 0.04 x1 = 0.04 -> kept at 0.06.
 * BH: 0.005 x4/1 = 0.02, 0.01 x4/2 = 0.02, 0.03 x4/3 = 0.04, 0.04 x4/4 =
 * 0.04, each the smallest of itself and those above it.
 */
static void test_corrections(void **state)
{
	static const double p[] = { 0.01, 0.04, 0.03, 0.005 };
	static const double holm[] = { 0.03, 0.06, 0.06, 0.02 };
	static const double bh[] = { 0.02, 0.04, 0.04, 0.02 };
	double adj[4];
	(void)state;

	assert_int_equal(stats_holm(p, 4, adj), 0);
	for (int i = 0; i < 4; i++)
		assert_near(adj[i], holm[i], 1e-12);
	assert_int_equal(stats_bh(p, 4, adj), 0);
	for (int i = 0; i < 4; i++)
		assert_near(adj[i], bh[i], 1e-12);
	/* Never above 1. */
	static const double big[] = { 0.6, 0.9 };
	assert_int_equal(stats_holm(big, 2, adj), 0);
	assert_near(adj[0], 1, 1e-12);
	assert_near(adj[1], 1, 1e-12);
}

#define SIM_TABLE 200
#define SIM_RUNS 5

/*
 * SIM_TABLE comparisons of SIM_RUNS run medians a side, lognormal noise of
 * `noise`, side b scaled by `shift`; Welch on logs, Holm over the table.
 * Returns how many are flagged at 0.05.
 */
static int simulate(gsl_rng *rng, double noise, double shift)
{
	double p[SIM_TABLE], adj[SIM_TABLE], a[SIM_RUNS], b[SIM_RUNS];
	struct stats_welch w;
	int flagged = 0;

	for (int k = 0; k < SIM_TABLE; k++) {
		for (int i = 0; i < SIM_RUNS; i++) {
			a[i] = 100 * exp(gsl_ran_gaussian(rng, noise));
			b[i] = 100 * shift * exp(gsl_ran_gaussian(rng, noise));
		}
		assert_int_equal(stats_welch_log(a, SIM_RUNS, b, SIM_RUNS, &w), 0);
		p[k] = w.p;
	}
	assert_int_equal(stats_holm(p, SIM_TABLE, adj), 0);
	for (int k = 0; k < SIM_TABLE; k++)
		flagged += adj[k] < 0.05;
	return flagged;
}

static void test_simulation(void **state)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	int same, shifted;
	(void)state;

	assert_non_null(rng);
	gsl_rng_set(rng, 20261130);
	same = simulate(rng, 0.02, 1.0);
	shifted = simulate(rng, 0.02, 1.10);
	gsl_rng_free(rng);
	/* At most 5% false alarms; at least 90% of real 10% changes found. */
	assert_true(same <= SIM_TABLE / 20);
	assert_true(shifted >= SIM_TABLE * 9 / 10);
}

/*
 * Covariance analysis against ordinary least squares of log y on (1, side,
 * log c), solved by hand from the normal equations for this data: the
 * side's coefficient 0.054622483587, its standard error 0.006328501503,
 * t 8.631187581795 on 4 degrees of freedom, p 0.000990765232.
 */
static void test_ancova_known(void **state)
{
	const double a[] = { 10.0, 10.6, 10.2, 11.1 }, ca[] = { 0.400, 0.412, 0.405, 0.421 };
	const double b[] = { 10.9, 11.5, 11.0 }, cb[] = { 0.404, 0.420, 0.409 };
	const double flat[] = { 0.4, 0.4, 0.4 }, flat4[] = { 0.4, 0.4, 0.4, 0.4 };
	const double bad[] = { 0.4, NAN, 0.41 };
	struct stats_welch w;

	(void)state;
	assert_int_equal(stats_ancova_log(a, ca, 4, b, cb, 3, &w), 0);
	assert_true(fabs(w.diff - 0.054622483587) < 1e-9);
	assert_true(fabs(w.t - 8.631187581795) < 1e-6);
	assert_true(fabs(w.df - 4) < 1e-12);
	assert_true(fabs(w.p - 0.000990765232) < 1e-9);
	assert_true(fabs(w.diff_lo - 0.037051746566) < 1e-8);
	assert_true(fabs(w.diff_hi - 0.072193220608) < 1e-8);
	/* A covariate that never moved, or one missing: no test, Welch's instead. */
	assert_int_equal(stats_ancova_log(a, flat4, 4, b, flat, 3, &w), -1);
	assert_int_equal(stats_ancova_log(a, ca, 4, b, bad, 3, &w), -1);
	assert_int_equal(stats_ancova_log(a, ca, 2, b, cb, 3, &w), -1);
}

/*
 * A machine whose speed moves from run to run by 3%, which the covariate
 * (its adds, with 0.3% of noise of their own) measures; each run's figure
 * follows it with 0.5% of noise of its own.  5 runs a side: Welch on the
 * runs sees a 3% change in fewer than half of the tables' rows, the
 * covariance analysis in nearly all, and neither calls more than its 5%
 * of A/A rows a change.
 */
static void ancova_rates(gsl_rng *rng, double shift, int n, double *welch, double *ancova)
{
	int hw = 0, ha = 0;

	for (int k = 0; k < n; k++) {
		double y[2][5], c[2][5];
		struct stats_welch w;

		for (int s = 0; s < 2; s++)
			for (int i = 0; i < 5; i++) {
				double level = gsl_ran_gaussian(rng, 0.03);

				c[s][i] = 0.4 * exp(level + gsl_ran_gaussian(rng, 0.003));
				y[s][i] = 100 * (s ? shift : 1) * exp(level + gsl_ran_gaussian(rng, 0.005));
			}
		assert_int_equal(stats_welch_log(y[0], 5, y[1], 5, &w), 0);
		hw += w.p < 0.05;
		assert_int_equal(stats_ancova_log(y[0], c[0], 5, y[1], c[1], 5, &w), 0);
		ha += w.p < 0.05;
	}
	*welch = (double)hw / n;
	*ancova = (double)ha / n;
}

static void test_ancova_simulation(void **state)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	double w, a;

	(void)state;
	assert_non_null(rng);
	gsl_rng_set(rng, 20261202);
	ancova_rates(rng, 1.0, 4000, &w, &a);
	print_message("A/A: Welch %.3f, covariance %.3f called a change\n", w, a);
	assert_true(w <= 0.065 && a <= 0.065 && a >= 0.035);
	ancova_rates(rng, 1.03, 2000, &w, &a);
	print_message("3%% change: Welch %.3f, covariance %.3f found it\n", w, a);
	assert_true(w < 0.5);
	assert_true(a >= 0.95);
	gsl_rng_free(rng);
}

/*
 * Pairs by hand: log ratios 0.1, 0.2, 0.3 have mean 0.2 and standard error
 * 0.1 / sqrt(3); t = 2 sqrt(3) on 2 degrees of freedom, where
 * P(T > t) = (1 - t / sqrt(t^2 + 2)) / 2, so p = 1 - sqrt(12 / 14)
 * = 0.074180; the interval 0.2 -+ 4.302653 * 0.057735 (t's 97.5% point on
 * 2).  The same pairs the other way round: the mirror image.  Pairs all
 * alike: their ratio, p 0; nothing differs: p 1; a value that is not
 * positive, or one pair: refused.
 */
static void test_paired_known(void **state)
{
	double a[] = { 1, 2, 4 }, b[3], c[] = { 3, 5, 7, 9 }, d[4], bad[] = { 1, -2, 4 };
	struct stats_welch w;

	(void)state;
	for (int i = 0; i < 3; i++)
		b[i] = a[i] * exp(0.1 * (i + 1));
	assert_int_equal(stats_paired_log(a, b, 3, &w), 0);
	assert_true(fabs(w.diff - 0.2) < 1e-12);
	assert_true(fabs(w.df - 2) < 1e-12);
	assert_true(fabs(w.t - 2 * sqrt(3)) < 1e-9);
	assert_true(fabs(w.p - (1 - sqrt(12.0 / 14.0))) < 1e-9);
	assert_true(fabs(w.diff_lo - (0.2 - 4.302653 * 0.1 / sqrt(3))) < 1e-5);
	assert_true(fabs(w.diff_hi - (0.2 + 4.302653 * 0.1 / sqrt(3))) < 1e-5);
	assert_int_equal(stats_paired_log(b, a, 3, &w), 0);
	assert_true(fabs(w.diff + 0.2) < 1e-12 && fabs(w.p - (1 - sqrt(12.0 / 14.0))) < 1e-9);
	for (int i = 0; i < 4; i++)
		d[i] = c[i] * 1.25;
	assert_int_equal(stats_paired_log(c, d, 4, &w), 0);
	assert_true(fabs(w.diff - log(1.25)) < 1e-12);
	assert_true(w.p < 1e-9);
	assert_int_equal(stats_paired_log(c, c, 4, &w), 0);
	assert_true(w.p == 1 && w.diff == 0);
	assert_int_equal(stats_paired_log(a, bad, 3, &w), -1);
	assert_int_equal(stats_paired_log(a, a, 1, &w), -1);
	/*
	 * Within 15% of the median log ratio (0.015): the pair a state jump split
	 * (0.35) is left out, the others kept in their order.
	 */
	{
		const double dd[] = { 0.01, 0.02, 0.0, 0.35, -0.01, 0.03 };
		double pa[6], pb[6];

		for (int i = 0; i < 6; i++) {
			pa[i] = i + 1;
			pb[i] = pa[i] * exp(dd[i]);
		}
		assert_int_equal(stats_pairs_within(pa, pb, 6, 0.15), 5);
		assert_true(pa[2] == 3 && pa[3] == 5 && pa[4] == 6);
		assert_true(fabs(log(pb[3] / pa[3]) + 0.01) < 1e-12);
	}
}

/*
 * A machine that drifts and jumps between two states (speed 1 and 1.4,
 * leaving its state with probability 0.05 a step, and slowing 1% over a
 * session), measured with 1% noise: 10 values of A then 10 of B one after
 * the other (Welch on the two sides), against 10 rounds of an A and a B
 * next to each other in a random order (the paired test).  With nothing
 * changed, the sequential sides call a difference often, the pairs about
 * 5% of the time; a 5% change the pairs find nearly always.
 */
/* The machine's speed at the next step: it may leave its state, and it slows over the session. */
static double drift_step(gsl_rng *rng, double *m, int t)
{
	if (gsl_rng_uniform(rng) < 0.05)
		*m = *m == 1 ? 1.4 : 1;
	return *m * (1 + 0.01 * t / 40) * exp(gsl_ran_gaussian(rng, 0.01));
}

static void drift_rates(gsl_rng *rng, double effect, int sessions, double *seq, double *paired)
{
	int fs = 0, fp = 0;

	for (int s = 0; s < sessions; s++) {
		double ra[10], rb[10], sa[10], sb[10], m = gsl_rng_uniform(rng) < 0.5 ? 1 : 1.4;
		struct stats_welch w;
		int t = 0;

		/* Rounds: each pair's order drawn, B carrying the effect. */
		for (int r = 0; r < 10; r++) {
			int b_first = gsl_rng_uniform(rng) < 0.5;
			double first = drift_step(rng, &m, t++), second = drift_step(rng, &m, t++);

			ra[r] = b_first ? second : first;
			rb[r] = (b_first ? first : second) * effect;
		}
		/* Then the sequential sides, A's ten and B's ten. */
		for (int k = 0; k < 10; k++)
			sa[k] = drift_step(rng, &m, t++);
		for (int k = 0; k < 10; k++)
			sb[k] = drift_step(rng, &m, t++) * effect;
		fs += stats_welch_log(sa, 10, sb, 10, &w) == 0 && w.p < 0.05;
		fp += stats_paired_log(ra, rb, stats_pairs_within(ra, rb, 10, 0.15), &w) == 0 &&
		      w.p < 0.05;
	}
	*seq = (double)fs / sessions;
	*paired = (double)fp / sessions;
}

static void test_paired_simulation(void **state)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	double seq, paired;

	(void)state;
	assert_non_null(rng);
	gsl_rng_set(rng, 20261203);
	drift_rates(rng, 1.0, 2000, &seq, &paired);
	print_message("A/A on a drifting two-state machine: sequential %.3f, paired %.3f called a change\n",
		      seq, paired);
	assert_true(seq > 0.2);
	assert_true(paired <= 0.08);
	drift_rates(rng, 1.05, 2000, &seq, &paired);
	print_message("5%% change: paired %.3f found it\n", paired);
	assert_true(paired >= 0.8);
	gsl_rng_free(rng);
}

/*
 * Sittings by hand (logs chosen so the answer is exact): label 0 sat
 * twice, at logs {0, 0.02} and {0.10, 0.12}, label 1 once at {5, 5.02,
 * 5.04}.  The means 0.01 and 0.11 spread 0.005 about theirs on 1 degree
 * of freedom; the runs' pooled variance is (0.0002 + 0.0002 + 0.0008) / 4
 * = 0.0003, over 2 runs a sitting 0.00015 of it: tau2 0.00485.  Without a
 * label measured twice nothing is learnt; without a sitting of 2 runs the
 * whole spread of the means is taken.
 */
static void test_sittings_known(void **state)
{
	const double x[] = { 1, exp(0.02), exp(0.10), exp(0.12), exp(5), exp(5.02), exp(5.04) };
	const size_t nper[] = { 2, 2, 3 }, cond[] = { 0, 0, 1 }, one[] = { 1, 1 },
		     apart[] = { 0, 1 }, same[] = { 4, 4 };
	const double y[] = { 1, exp(0.1) };
	struct stats_sittings st;

	(void)state;
	assert_int_equal(stats_sittings(x, nper, cond, 3, &st), 0);
	assert_true(fabs(st.tau2 - 0.00485) < 1e-12);
	assert_true(st.df == 1);
	/* Its upper 80% bound: the means' 0.005 over chi-square(1)'s 20% point, less the runs'. */
	assert_true(fabs(st.tau2_hi - (0.005 / gsl_cdf_chisq_Pinv(0.2, 1) - 0.00015)) < 1e-12);
	assert_true(st.tau2_hi > 15 * st.tau2);
	assert_int_equal(st.sittings, 2);
	assert_int_equal(stats_sittings(y, one, apart, 2, &st), 0);
	assert_true(st.df == 0 && st.tau2 == 0 && st.sittings == 0);
	assert_int_equal(stats_sittings(y, one, same, 2, &st), 0);
	assert_true(fabs(st.tau2 - 0.005) < 1e-12 && st.df == 1);
	/* Sittings closer than their runs' spread: no spread of their own. */
	const double z[] = { 1, exp(0.2), exp(0.01), exp(0.21) };
	const size_t two[] = { 2, 2 };
	assert_int_equal(stats_sittings(z, two, same, 2, &st), 0);
	assert_true(st.tau2 == 0 && st.df == 1);
	/* Nor at their upper bound: the means agree far better than 2 runs each promise. */
	assert_true(st.tau2_hi == 0);
	const double bad[] = { 1, -1 };
	assert_int_equal(stats_sittings(bad, one, same, 2, &st), -1);
}

/*
 * Widening by hand: Welch's on {1, 2, 3} and {2, 3, 4} has diff 1 and
 * se sqrt(2/3) on 4 degrees of freedom; adding var = 2/3 known on 4
 * degrees of freedom doubles the variance (se 2/sqrt(3)) and, by
 * Welch-Satterthwaite, gives 8 degrees of freedom.
 */
static void test_widen_known(void **state)
{
	const double a[] = { 1, 2, 3 }, b[] = { 2, 3, 4 };
	struct stats_welch w, v;
	double se = 2 / sqrt(3);

	(void)state;
	assert_int_equal(stats_welch(a, 3, b, 3, &w), 0);
	v = w;
	stats_widen(&v, 0, 4);
	assert_memory_equal(&v, &w, sizeof(v));
	stats_widen(&w, 2.0 / 3, 4);
	assert_true(fabs(w.df - 8) < 1e-9);
	assert_true(fabs(w.t - 1 / se) < 1e-9);
	assert_true(fabs(w.diff_hi - 1 - gsl_cdf_tdist_Qinv(0.025, 8) * se) < 1e-9);
	assert_true(fabs(w.p - 2 * gsl_cdf_tdist_Q(1 / se, 8)) < 1e-9);
	assert_true(fabs(stats_detectable(1, 1e6) - 2.8016) < 1e-3);
	/* The same with a bar, a stricter level, a wider true spread. */
	assert_true(fabs(stats_detectable_at(1, 1, 1e6, 0.05, 0) - 2.8016) < 1e-3);
	assert_true(fabs(stats_detectable_at(1, 1, 1e6, 0.05, 3) - 3.8416) < 1e-3);
	assert_true(fabs(stats_detectable_at(1, 1, 1e6, 0.005, 0) - (2.8070 + 0.8416)) < 1e-3);
	assert_true(fabs(stats_detectable_at(1, 2, 1e6, 0.05, 0) - (1.9600 + 2 * 0.8416)) < 1e-3);
}

/*
 * A machine whose sittings differ (each sitting's level off by 3%, its
 * runs 1% apart): two sides of 5 runs, each from its own sitting, with a
 * history of 2 labels measured in 3 sittings each.  Welch on the runs
 * alone calls an A/A pair different most of the time; widened by what
 * the history learnt, about 5%; and a true change of the detectable size
 * it then prints (the sittings' spread at its upper bound) is found at
 * least 4 times in 5.
 */
static void sitting_side(gsl_rng *rng, double effect, double *x)
{
	double level = gsl_ran_gaussian(rng, 0.03);

	for (int i = 0; i < 5; i++)
		x[i] = 100 * effect * exp(level + gsl_ran_gaussian(rng, 0.01));
}

static void sittings_rates(gsl_rng *rng, double effect, int trials, double *plain,
			   double *widened, double *detectable)
{
	int fp = 0, fw = 0;
	double dsum = 0;

	for (int k = 0; k < trials; k++) {
		double a[5], b[5], h[30];
		const size_t nper[] = { 5, 5, 5, 5, 5, 5 }, cond[] = { 0, 0, 0, 1, 1, 1 };
		struct stats_sittings st;
		struct stats_welch w;

		sitting_side(rng, 1, a);
		sitting_side(rng, effect, b);
		for (int j = 0; j < 6; j++)
			sitting_side(rng, j < 3 ? 1 : 1.2, h + 5 * j);
		assert_int_equal(stats_welch_log(a, 5, b, 5, &w), 0);
		fp += w.p < 0.05;
		assert_int_equal(stats_sittings(h, nper, cond, 6, &st), 0);
		stats_widen(&w, 2 * st.tau2, st.df);
		fw += w.p < 0.05;
		double se = (w.diff_hi - w.diff) / gsl_cdf_tdist_Qinv(0.025, w.df);
		dsum += stats_detectable_at(se, sqrt(se * se + 2 * (st.tau2_hi - st.tau2)), w.df,
					    0.05, 0);
	}
	*plain = (double)fp / trials;
	*widened = (double)fw / trials;
	*detectable = expm1(dsum / trials);
}

static void test_sittings_simulation(void **state)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	double plain, widened, d, ignored, found;

	(void)state;
	assert_non_null(rng);
	gsl_rng_set(rng, 20261204);
	sittings_rates(rng, 1.0, 4000, &plain, &widened, &d);
	print_message("A/A across sittings: runs alone %.3f, with the history %.3f called a change; "
		      "detectable %.1f%%\n", plain, widened, 100 * d);
	assert_true(plain > 0.4);
	assert_true(widened <= 0.08);
	sittings_rates(rng, 1 + d, 4000, &ignored, &found, &d);
	print_message("a change of the detectable size: found %.3f\n", found);
	assert_true(found >= 0.8);
	gsl_rng_free(rng);
}

/*
 * The common state, by hand: side A's replicas at 10 (fast) and 14 (slow),
 * B's at 10.5 and 14.7 (5% slower in both states).  The lower quartiles
 * are 10 and 10.5, the window +-15% around their geometric midpoint
 * (10.247: 8.91 to 11.78), so the fast replicas are in, the slow ones out,
 * and each run's level is its fast replicas' median; a run with none has
 * NaN and is not counted.
 */
static void test_common_state_known(void **state)
{
	const double a[] = { 10, 10, 14, 10, 14, 14, 10, 10, 10, 14, 14, 14 };
	const size_t ka[] = { 3, 3, 3, 3 };
	const double b[] = { 10.5, 14.7, 10.5, 10.5, 10.5, 14.7, 10.5, 10.5, 14.7 };
	const size_t kb[] = { 3, 3, 3 };
	const double hi[] = { 2, 2, 1, 1 }, hi2[] = { 1.9, 1.9, 1 };
	const size_t k2[] = { 2, 2 }, k1[] = { 2, 1 };
	struct stats_state st;

	(void)state;
	assert_int_equal(stats_common_state(a, ka, 4, b, kb, 3, 1, 0.15, &st), 0);
	assert_float_equal(st.center, (log(10) + log(10.5)) / 2, 1e-12);
	assert_float_equal(st.la[0], 10, 1e-12);
	assert_float_equal(st.la[1], 10, 1e-12);
	assert_float_equal(st.la[2], 10, 1e-12);
	assert_true(isnan(st.la[3]));
	assert_float_equal(st.lb[0], 10.5, 1e-12);
	assert_float_equal(st.lb[1], 10.5, 1e-12);
	assert_float_equal(st.lb[2], 10.5, 1e-12);
	assert_int_equal(st.ha, 3);
	assert_int_equal(st.hb, 3);
	assert_int_equal(st.in, 12);	/* 6 fast of A's 12, 6 of B's 9 */
	assert_int_equal(st.all, 21);
	stats_state_free(&st);
	/* Higher is better: the upper quartiles (2 and 1.9) and the state at 2. */
	assert_int_equal(stats_common_state(hi, k2, 2, hi2, k1, 2, 0, 0.15, &st), 0);
	assert_float_equal(st.center, (log(2) + log(1.9)) / 2, 1e-12);
	assert_float_equal(st.la[0], 2, 1e-12);
	assert_true(isnan(st.la[1]));
	assert_float_equal(st.lb[0], 1.9, 1e-12);
	assert_true(isnan(st.lb[1]));
	assert_int_equal(st.in, 4);
	stats_state_free(&st);
	assert_int_equal(stats_common_state(a, ka, 4, b, kb, 3, 1, 0, &st), -1);
	assert_int_equal(stats_common_state(a, ka, 0, b, kb, 3, 1, 0.15, &st), -1);
}

/*
 * A simulated two-state machine, like this VM's wakeups: each replica
 * (8 a run, 5 runs a side) is 40% slower when it falls in the slow state,
 * which each run visits for its own share of the time (0 to 60%), with
 * 1.5% noise.  The runs' medians swing with those shares; the levels in
 * the common state do not.  Welch's t on either, at p < 0.05: with no
 * change neither may call more than its 5%; a 5% change the common state
 * finds nearly always, the medians in fewer than half.
 */
static void state_rates(gsl_rng *rng, double shift, int n, double *med, double *common)
{
	int hm = 0, hc = 0;

	for (int k = 0; k < n; k++) {
		double v[2][40], meds[2][5], lev[2][5];
		size_t kk[5] = { 8, 8, 8, 8, 8 }, nl[2] = { 0, 0 };
		struct stats_state st;
		struct stats_welch w;

		for (int s = 0; s < 2; s++)
			for (int i = 0; i < 5; i++) {
				double slow = gsl_rng_uniform(rng) * 0.6, sorted[8];

				for (int j = 0; j < 8; j++) {
					double x = (s ? shift : 1) * exp(gsl_ran_gaussian(rng, 0.015));

					v[s][i * 8 + j] = gsl_rng_uniform(rng) < slow ? 1.4 * x : x;
					sorted[j] = v[s][i * 8 + j];
				}
				gsl_sort(sorted, 1, 8);
				meds[s][i] = gsl_stats_median_from_sorted_data(sorted, 1, 8);
			}
		assert_int_equal(stats_welch_log(meds[0], 5, meds[1], 5, &w), 0);
		hm += w.p < 0.05;
		assert_int_equal(stats_common_state(v[0], kk, 5, v[1], kk, 5, 1, 0.15, &st), 0);
		for (int i = 0; i < 5; i++) {
			if (isfinite(st.la[i]))
				lev[0][nl[0]++] = st.la[i];
			if (isfinite(st.lb[i]))
				lev[1][nl[1]++] = st.lb[i];
		}
		stats_state_free(&st);
		if (nl[0] >= 2 && nl[1] >= 2 &&
		    stats_welch_log(lev[0], nl[0], lev[1], nl[1], &w) == 0)
			hc += w.p < 0.05;
	}
	*med = (double)hm / n;
	*common = (double)hc / n;
}

static void test_common_state_simulation(void **state)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	double m, c;

	(void)state;
	assert_non_null(rng);
	gsl_rng_set(rng, 20261203);
	state_rates(rng, 1.0, 4000, &m, &c);
	print_message("A/A: medians %.3f, common state %.3f called a change\n", m, c);
	assert_true(m <= 0.065 && c <= 0.065);
	state_rates(rng, 1.05, 2000, &m, &c);
	print_message("5%% change: medians %.3f, common state %.3f found it\n", m, c);
	assert_true(m < 0.5);
	assert_true(c >= 0.95);
	gsl_rng_free(rng);
}

/*
 * The slope within groups, worked by hand: three groups on y = 2x, each
 * moved by its own offset, and between the groups' centres the opposite
 * relation (the group with the largest x lowest); one point far off its
 * line.  Theil-Sen within groups gives 2 exactly: of the pairs, the
 * outlier's are too few to move the median.  Least squares would give
 * 2.6 here; pooled without groups, the slope would be negative.
 */
static void test_within_slope_known(void **state)
{
	const double x[] = { 1, 2, 3, 4, 5, 11, 12, 13, 14, 21, 22, 23, 24, 25 };
	double y[14];
	const size_t k[] = { 5, 4, 5 };
	const double offset[] = { 0, -40, -80 };
	double slope = 0;

	(void)state;
	for (size_t i = 0, at = 0; i < 3; at += k[i++])
		for (size_t j = 0; j < k[i]; j++)
			y[at + j] = 2 * x[at + j] + offset[i];
	y[7] += 30;
	assert_int_equal(stats_within_slope(y, x, k, 3, &slope), 0);
	assert_true(fabs(slope - 2) < 1e-12);
	/* x that never moves within a group says nothing: fewer than 10 pairs with x apart. */
	const double flat[] = { 1, 1, 1, 2, 2, 2 };
	const size_t k2[] = { 3, 3 };
	assert_int_equal(stats_within_slope(flat, flat, k2, 2, &slope), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_welch_equal),
		cmocka_unit_test(test_welch_unequal),
		cmocka_unit_test(test_welch_published),
		cmocka_unit_test(test_mann_whitney_published),
		cmocka_unit_test(test_welch_log),
		cmocka_unit_test(test_welch_no_spread),
		cmocka_unit_test(test_mann_whitney_exact),
		cmocka_unit_test(test_mann_whitney_ties),
		cmocka_unit_test(test_corrections),
		cmocka_unit_test(test_simulation),
		cmocka_unit_test(test_ancova_known),
		cmocka_unit_test(test_ancova_simulation),
		cmocka_unit_test(test_paired_known),
		cmocka_unit_test(test_paired_simulation),
		cmocka_unit_test(test_common_state_known),
		cmocka_unit_test(test_common_state_simulation),
		cmocka_unit_test(test_within_slope_known),
		cmocka_unit_test(test_sittings_known),
		cmocka_unit_test(test_widen_known),
		cmocka_unit_test(test_sittings_simulation),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
