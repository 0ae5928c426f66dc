/*
 * Statistics against data with known answers: the median and its
 * order-statistic confidence interval (ranks from published binomial
 * tables), mean, sample standard deviation, CV and percentiles; and,
 * since stats.c is written without GSL (the measuring process maps no
 * more than the C library and libm), against GSL itself: the same ranks
 * for every n to 3000 and beyond, and the same summary to the last bit.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"

#define assert_near(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

static void test_ci_ranks_known(void **state)
{
	/* 1-based ranks of the 95% CI of the median: n=6 -> (1,6), n=10 -> (2,9),
	 * n=20 -> (6,15), n=100 -> (40,61); the usual tables give the same. */
	static const struct { size_t n, lo, hi; } known[] = {
		{ 6, 1, 6 }, { 10, 2, 9 }, { 20, 6, 15 }, { 100, 40, 61 },
	};
	size_t lo, hi;
	(void)state;
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		assert_int_equal(stats_median_ci_ranks(known[i].n, 0.95, &lo, &hi), 0);
		assert_int_equal(lo + 1, known[i].lo);
		assert_int_equal(hi + 1, known[i].hi);
	}
}

static void test_ci_ranks_too_few(void **state)
{
	size_t lo, hi;
	(void)state;
	/* With 5 samples the widest interval covers 1 - 2/32 = 93.75% < 95%. */
	assert_int_equal(stats_median_ci_ranks(5, 0.95, &lo, &hi), -1);
	assert_int_equal(stats_median_ci_ranks(0, 0.95, &lo, &hi), -1);
}

static void test_summary_known(void **state)
{
	/* Mean 5, sum of squared deviations 32, so the sample sd is sqrt(32/7). */
	const double x[] = { 9, 2, 4, 4, 5, 7, 4, 5 };
	struct stats_summary s;
	(void)state;
	assert_int_equal(stats_summarize(x, 8, &s), 0);
	assert_int_equal(s.n, 8);
	assert_near(s.median, 4.5, 1e-12);
	assert_near(s.mean, 5.0, 1e-12);
	assert_near(s.stddev, sqrt(32.0 / 7.0), 1e-12);
	assert_near(s.cv, sqrt(32.0 / 7.0) / 5.0, 1e-12);
	assert_near(s.min, 2, 0);
	assert_near(s.max, 9, 0);
	/* n=8: ranks (1,8), so the CI is the whole range. */
	assert_near(s.ci_low, 2, 0);
	assert_near(s.ci_high, 9, 0);
	/* Input untouched. */
	assert_near(x[0], 9, 0);
}

static void test_percentiles_and_ci(void **state)
{
	double x[21];
	struct stats_summary s;
	(void)state;
	/* 21..1 reversed: sorted it is 1..21, so p5 = 1 + 0.05*20 = 2 and p95 = 20. */
	for (int i = 0; i < 21; i++)
		x[i] = 21 - i;
	assert_int_equal(stats_summarize(x, 21, &s), 0);
	assert_near(s.median, 11, 0);
	assert_near(s.p5, 2, 1e-12);
	assert_near(s.p95, 20, 1e-12);
	/* n=21: 1-based ranks (6,16) -> values 6 and 16. */
	assert_near(s.ci_low, 6, 0);
	assert_near(s.ci_high, 16, 0);
	assert_near(stats_rel_halfwidth(&s), 5.0 / 11.0, 1e-12);
}

static void test_single_and_constant(void **state)
{
	const double one[] = { 3.5 };
	double same[30];
	struct stats_summary s;
	(void)state;
	assert_int_equal(stats_summarize(one, 1, &s), 0);
	assert_near(s.median, 3.5, 0);
	assert_near(s.stddev, 0, 0);
	for (int i = 0; i < 30; i++)
		same[i] = 0.25;
	assert_int_equal(stats_summarize(same, 30, &s), 0);
	assert_near(stats_rel_halfwidth(&s), 0, 0);
	assert_near(s.cv, 0, 0);
	assert_int_equal(stats_summarize(same, 0, &s), -1);
}

static void test_quantile_interpolates(void **state)
{
	const double x[] = { 10, 20, 30, 40 };
	(void)state;
	assert_near(stats_quantile_sorted(x, 4, 0.5), 25, 1e-12);
	assert_near(stats_quantile_sorted(x, 4, 0.25), 17.5, 1e-12);
	assert_near(stats_quantile_sorted(x, 4, 1.0), 40, 1e-12);
}

/* The ranks as GSL's binomial distribution gives them (what stats.c once used). */
static int gsl_ranks(size_t n, double conf, size_t *lo, size_t *hi)
{
	double tail = (1.0 - conf) / 2.0;
	size_t j;

	if (n == 0 || gsl_cdf_binomial_P(0, 0.5, (unsigned)n) > tail)
		return -1;
	for (j = 1; j < n / 2 && gsl_cdf_binomial_P((unsigned)j, 0.5, (unsigned)n) <= tail; j++)
		;
	*lo = j - 1;
	*hi = n - j;
	return 0;
}

/* The quantile's interval: ranks n q -+ 1.96 sqrt(n q (1 - q)), by hand for 1..100. */
static void test_quantile_ci_known(void **state)
{
	double x[100], v, lo, hi;

	(void)state;
	for (int i = 0; i < 100; i++)
		x[i] = 100 - i;	/* unsorted on purpose */
	assert_int_equal(stats_quantile_ci(x, 100, 0.05, &v, &lo, &hi), 0);
	/* 5.95 interpolated; ranks 5 -+ 4.27: the 1st (floor 0.73, at least 1) to the 11th. */
	assert_near(v, 5.95, 1e-12);
	assert_near(lo, 1, 0);
	assert_near(hi, 11, 0);
	assert_int_equal(stats_quantile_ci(x, 100, 0.95, &v, &lo, &hi), 0);
	assert_near(v, 95.05, 1e-12);
	assert_near(lo, 90, 0);
	assert_near(hi, 100, 0);
	assert_int_equal(stats_quantile_ci(x, 0, 0.05, &v, &lo, &hi), -1);
}

/* Eight replicas, five in the fast state and three in a spell 30% slower. */
static void test_fast_level_known(void **state)
{
	static const double cost[8] = { 1.00, 1.01, 1.30, 0.99, 1.02, 1.31, 1.02, 1.29 };
	static const double bad[2] = { 1.0, -1.0 };
	struct stats_fast f;

	(void)state;
	assert_int_equal(stats_fast_level(cost, 8, &f), 0);
	assert_int_equal(f.nfast, 5);
	assert_int_equal(f.nslow, 3);
	assert_near(f.level, 1.01, 1e-12);
	/* Five replicas: the interval is their whole range. */
	assert_near(f.lo, 0.99, 1e-12);
	assert_near(f.hi, 1.02, 1e-12);
	assert_near(f.slow_depth, 1.30 / 1.01 - 1, 1e-12);
	/* All in one state: nothing slow, the median of all. */
	assert_int_equal(stats_fast_level(cost, 2, &f), 0);
	assert_int_equal(f.nslow, 0);
	assert_near(f.slow_depth, 0, 0);
	assert_int_equal(stats_fast_level(cost, 0, &f), -1);
	assert_int_equal(stats_fast_level(bad, 2, &f), -1);
}

/* xorshift64*: the same draws on every machine. */
static double test_uniform(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return (double)((*s * 2685821657736338717ull) >> 11) / 9007199254740992.0;
}

/*
 * A simulated machine: 8 replicas a run, each whole in the fast state (cost
 * 1 plus up to 2% of positive delay) or, with probability share, in a spell
 * depth slower.  Over 4000 runs the level is within 2% of 1 in nearly every
 * run whose fast replicas are more than one, the share named is the share
 * drawn, and a quiet machine (share 0) names no spell at all.
 */
static void test_fast_level_simulated(void **state)
{
	static const struct { double share, depth; } m[] = { { 0, 0 }, { 0.3, 0.35 }, { 0.5, 0.2 }, { 0.2, 0.12 } };
	uint64_t seed = 0x9e3779b97f4a7c15ull;

	(void)state;
	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		double cost[8], share = 0, depth = 0, near = 0, runs = 4000, deep = 0;

		for (int run = 0; run < (int)runs; run++) {
			struct stats_fast f;
			int slow = 0;

			for (int k = 0; k < 8; k++) {
				int s = test_uniform(&seed) < m[i].share;

				slow += s;
				cost[k] = (1 + 0.02 * test_uniform(&seed)) * (s ? 1 + m[i].depth : 1);
			}
			assert_int_equal(stats_fast_level(cost, 8, &f), 0);
			/* Every replica in a spell: the spell is all the run saw, and is its level. */
			if (slow == 8)
				continue;
			assert_int_equal(f.nslow, (size_t)slow);
			near += fabs(f.level - 1.01) <= 0.02;
			share += (double)f.nslow / 8;
			if (f.nslow) {
				depth += f.slow_depth;
				deep++;
			}
		}
		assert_true(near / runs > 0.99);
		assert_near(share / runs, m[i].share, 0.02);
		if (m[i].share > 0)
			assert_near(depth / deep, m[i].depth, 0.02);
		else
			assert_near(share, 0, 0);
	}
}

static void test_ranks_as_gsl(void **state)
{
	static const size_t big[] = { 4000, 5001, 7777, 10000 };
	static const double confs[] = { 0.95, 0.99, 0.9, 0.8 };
	(void)state;
	for (size_t c = 0; c < sizeof(confs) / sizeof(*confs); c++)
		for (size_t n = 0; n < 3000 + sizeof(big) / sizeof(*big); n++) {
			size_t m = n < 3000 ? n : big[n - 3000], lo = 0, hi = 0, glo = 0, ghi = 0;
			int rc = stats_median_ci_ranks(m, confs[c], &lo, &hi);

			if (rc != gsl_ranks(m, confs[c], &glo, &ghi))
				fail_msg("n %zu conf %g: rc %d", m, confs[c], rc);
			if (rc == 0 && (lo != glo || hi != ghi))
				fail_msg("n %zu conf %g: ranks (%zu, %zu), GSL's (%zu, %zu)", m, confs[c],
					 lo, hi, glo, ghi);
		}
	/*
	 * Where the tail is exactly a binomial probability (2 values, 50%:
	 * 1/4 each side), the interval exists; GSL's incomplete beta function
	 * rounds it a hair above and says none does.
	 */
	{
		size_t lo, hi;

		assert_int_equal(stats_median_ci_ranks(2, 0.5, &lo, &hi), 0);
		assert_true(lo == 0 && hi == 1);
	}
	for (size_t n = 2; n < 400; n++) {
		size_t lo, hi;
		double want = gsl_ranks(n, 0.95, &lo, &hi) < 0
				      ? 1.0 - 2.0 * gsl_cdf_binomial_P(0, 0.5, (unsigned)n)
				      : 1.0 - 2.0 * gsl_cdf_binomial_P((unsigned)lo, 0.5, (unsigned)n);

		assert_true(fabs(stats_median_ci_level(n) - want) <= 1e-12);
	}
}

/* Skewed data with ties, as a machine's samples are: every field as GSL gives it, bit for bit. */
static void test_summary_as_gsl(void **state)
{
	static const size_t sizes[] = { 1, 2, 3, 6, 7, 10, 33, 100, 999, 4096 };
	double *x = malloc(4096 * sizeof(*x)), *s = malloc(4096 * sizeof(*s));
	uint64_t seed = 42;
	(void)state;
	assert_non_null(x);
	assert_non_null(s);
	for (size_t k = 0; k < sizeof(sizes) / sizeof(*sizes); k++) {
		size_t n = sizes[k], lo, hi;
		struct stats_summary sum;

		for (size_t i = 0; i < n; i++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			x[i] = 1.5 + (double)(seed >> 40 & 0xff) / 64.0 +
			       ((seed >> 20 & 0xf) == 0 ? (double)(seed >> 48) / 1e3 : 0);
		}
		assert_int_equal(stats_summarize(x, n, &sum), 0);
		memcpy(s, x, n * sizeof(*s));
		gsl_sort(s, 1, n);
		assert_true(sum.median == gsl_stats_median_from_sorted_data(s, 1, n));
		assert_true(sum.mean == gsl_stats_mean(s, 1, n));
		if (n > 1)
			assert_true(sum.stddev == gsl_stats_sd_m(s, 1, n, sum.mean));
		assert_true(sum.p5 == gsl_stats_quantile_from_sorted_data(s, 1, n, 0.05));
		assert_true(sum.p95 == gsl_stats_quantile_from_sorted_data(s, 1, n, 0.95));
		assert_true(sum.min == s[0] && sum.max == s[n - 1]);
		if (gsl_ranks(n, 0.95, &lo, &hi) == 0)
			assert_true(sum.ci_low == s[lo] && sum.ci_high == s[hi]);
		for (size_t i = 0; i < n; i++)
			assert_true(stats_quantile_sorted(s, n, (double)i / 7.0 - (double)(i / 7)) ==
				    gsl_stats_quantile_from_sorted_data(s, 1, n, (double)i / 7.0 - (double)(i / 7)));
	}
	free(x);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ci_ranks_known),
		cmocka_unit_test(test_ci_ranks_too_few),
		cmocka_unit_test(test_summary_known),
		cmocka_unit_test(test_percentiles_and_ci),
		cmocka_unit_test(test_single_and_constant),
		cmocka_unit_test(test_quantile_interpolates),
		cmocka_unit_test(test_quantile_ci_known),
		cmocka_unit_test(test_fast_level_known),
		cmocka_unit_test(test_fast_level_simulated),
		cmocka_unit_test(test_ranks_as_gsl),
		cmocka_unit_test(test_summary_as_gsl),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
