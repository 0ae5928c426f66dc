/*
 * Statistics of one instance's samples, on GSL.  Kept apart so that the
 * rest of kbench never sees a GSL type, and so that the numbers can be
 * tested against data with known answers (tests/unit/test_stats.c).
 */
#include "stats/stats.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int stats_median_ci_ranks(size_t n, double conf, size_t *lo, size_t *hi)
{
	double tail = (1.0 - conf) / 2.0;
	size_t j;

	/*
	 * [x(j), x(n-j+1)] (1-based) covers the median with probability
	 * 1 - 2 P(B <= j-1), B ~ binomial(n, 1/2).  The largest j that keeps
	 * the tail within (1-conf)/2 gives the tightest such interval.
	 */
	if (n == 0 || gsl_cdf_binomial_P(0, 0.5, (unsigned)n) > tail)
		return -1;
	for (j = 1; j < n / 2 && gsl_cdf_binomial_P((unsigned)j, 0.5, (unsigned)n) <= tail; j++)
		;
	*lo = j - 1;
	*hi = n - j;
	return 0;
}

double stats_median_ci_level(size_t n)
{
	size_t lo, hi;

	if (n < 2)
		return 0;
	if (stats_median_ci_ranks(n, 0.95, &lo, &hi) < 0)
		return 1.0 - 2.0 * gsl_cdf_binomial_P(0, 0.5, (unsigned)n);
	return 1.0 - 2.0 * gsl_cdf_binomial_P((unsigned)lo, 0.5, (unsigned)n);
}

double stats_quantile_sorted(const double *sorted, size_t n, double q)
{
	return gsl_stats_quantile_from_sorted_data(sorted, 1, n, q);
}

double stats_median_sort(double *v, size_t n)
{
	gsl_sort(v, 1, n);
	return stats_quantile_sorted(v, n, 0.5);
}

int stats_summarize(const double *x, size_t n, struct stats_summary *out)
{
	double *s;
	size_t lo, hi;

	if (n == 0)
		return -1;
	s = malloc(n * sizeof(*s));
	if (!s)
		return -1;
	memcpy(s, x, n * sizeof(*s));
	gsl_sort(s, 1, n);

	memset(out, 0, sizeof(*out));
	out->n = n;
	out->median = gsl_stats_median_from_sorted_data(s, 1, n);
	out->min = s[0];
	out->max = s[n - 1];
	out->mean = gsl_stats_mean(s, 1, n);
	out->stddev = n > 1 ? gsl_stats_sd_m(s, 1, n, out->mean) : 0.0;
	out->cv = out->mean != 0.0 ? out->stddev / fabs(out->mean) : 0.0;
	out->p5 = stats_quantile_sorted(s, n, 0.05);
	out->p95 = stats_quantile_sorted(s, n, 0.95);
	if (stats_median_ci_ranks(n, 0.95, &lo, &hi) == 0) {
		out->ci_low = s[lo];
		out->ci_high = s[hi];
	} else {
		/* Too few samples for a 95% interval: say so with the full range. */
		out->ci_low = s[0];
		out->ci_high = s[n - 1];
	}
	free(s);
	return 0;
}

double stats_rel_halfwidth(const struct stats_summary *s)
{
	double half = fmax(s->median - s->ci_low, s->ci_high - s->median);

	if (s->median == 0.0)
		return half == 0.0 ? 0.0 : (double)INFINITY;
	return half / fabs(s->median);
}
