/*
 * Statistics against data with known answers: the median and its
 * order-statistic confidence interval (ranks from published binomial
 * tables), mean, sample standard deviation, CV and percentiles.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ci_ranks_known),
		cmocka_unit_test(test_ci_ranks_too_few),
		cmocka_unit_test(test_summary_known),
		cmocka_unit_test(test_percentiles_and_ci),
		cmocka_unit_test(test_single_and_constant),
		cmocka_unit_test(test_quantile_interpolates),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
