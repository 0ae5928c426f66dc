/*
 * Statistics of one instance's samples: the median, its interval from
 * order statistics, the moments.  Written on the C library and libm alone,
 * without GSL, since the measuring process (kbench-worker) summarises its
 * samples as it takes them and must map nothing beyond those two; the
 * figures are GSL's to the last bit, which tests/unit/test_stats.c checks
 * against GSL itself.  The comparisons (signif.c) are GSL's.
 */
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * P(B <= j) for B ~ binomial(n, 1/2), for j = 0, 1, ... in turn: the terms
 * C(n,k) / 2^n summed in order.  Each term comes from its logarithm
 * (lgamma), since 2^-n underflows past n = 1074.  Terms further than 20
 * standard deviations below n/2 are under 1e-86 each and are left out:
 * the sum starts at k0, where they end.
 */
struct stats_binom {
	size_t n, k;			/* the next term to add is k's */
	double cdf;			/* P(B <= k - 1) */
};

static void stats_binom_start(struct stats_binom *b, size_t n)
{
	double skip = (double)n / 2 - 10 * sqrt((double)n);

	b->n = n;
	b->k = skip > 0 ? (size_t)skip : 0;
	b->cdf = 0;
}

/* P(B <= j), j >= every j asked before. */
static double stats_binom_cdf(struct stats_binom *b, size_t j)
{
	double ln2n = (double)b->n * M_LN2, lgn = lgamma((double)b->n + 1);

	for (; b->k <= j; b->k++)
		b->cdf += exp(lgn - lgamma((double)b->k + 1) - lgamma((double)(b->n - b->k) + 1) - ln2n);
	return b->cdf;
}

int stats_median_ci_ranks(size_t n, double conf, size_t *lo, size_t *hi)
{
	double tail = (1.0 - conf) / 2.0;
	struct stats_binom b;
	size_t j;

	/*
	 * [x(j), x(n-j+1)] (1-based) covers the median with probability
	 * 1 - 2 P(B <= j-1), B ~ binomial(n, 1/2).  The largest j that keeps
	 * the tail within (1-conf)/2 gives the tightest such interval.
	 */
	if (n == 0 || ldexp(1.0, -(int)(n < 2000 ? n : 2000)) > tail)
		return -1;
	stats_binom_start(&b, n);
	for (j = 1; j < n / 2 && stats_binom_cdf(&b, j) <= tail; j++)
		;
	*lo = j - 1;
	*hi = n - j;
	return 0;
}

double stats_median_ci_level(size_t n)
{
	struct stats_binom b;
	size_t lo, hi;

	if (n < 2)
		return 0;
	if (stats_median_ci_ranks(n, 0.95, &lo, &hi) < 0)
		return 1.0 - 2.0 * ldexp(1.0, -(int)n);
	stats_binom_start(&b, n);
	return 1.0 - 2.0 * stats_binom_cdf(&b, lo);
}

/* GSL's definition: linear between the two ranks around q (n - 1). */
double stats_quantile_sorted(const double *sorted, size_t n, double q)
{
	double index = q * (double)(n - 1), delta;
	size_t lhs;

	if (n == 0)
		return 0.0;
	lhs = (size_t)index;
	delta = index - (double)lhs;
	if (lhs >= n - 1)
		return sorted[n - 1];
	return (1 - delta) * sorted[lhs] + delta * sorted[lhs + 1];
}

static int stats_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double stats_median_sorted(const double *s, size_t n)
{
	size_t lhs = (n - 1) / 2, rhs = n / 2;

	return lhs == rhs ? s[lhs] : (s[lhs] + s[rhs]) / 2.0;
}

double stats_quantile_sort(double *v, size_t n, double q)
{
	qsort(v, n, sizeof(*v), stats_cmp);
	return stats_quantile_sorted(v, n, q);
}

double stats_median_sort(double *v, size_t n)
{
	return stats_quantile_sort(v, n, 0.5);
}

/*
 * The mean and the sample standard deviation as GSL computes them: running
 * recurrences in long double, so that a summary's figures do not depend on
 * which of the two computed it.
 */
static double stats_mean(const double *x, size_t n)
{
	long double mean = 0;

	for (size_t i = 0; i < n; i++)
		mean += (x[i] - mean) / (long double)(i + 1);
	return (double)mean;
}

static double stats_sd(const double *x, size_t n, double mean)
{
	long double var = 0;
	double v;

	for (size_t i = 0; i < n; i++) {
		long double d = x[i] - mean;

		var += (d * d - var) / (long double)(i + 1);
	}
	v = (double)var;
	return sqrt(v * ((double)n / (double)(n - 1)));
}

/* A sorted copy of x[0..n), n > 0, malloc'd; NULL without memory. */
static double *stats_sorted_copy(const double *x, size_t n)
{
	double *s = malloc(n * sizeof(*s));

	if (s) {
		memcpy(s, x, n * sizeof(*s));
		qsort(s, n, sizeof(*s), stats_cmp);
	}
	return s;
}

int stats_summarize(const double *x, size_t n, struct stats_summary *out)
{
	double *s;
	size_t lo, hi;

	if (n == 0 || !(s = stats_sorted_copy(x, n)))
		return -1;
	memset(out, 0, sizeof(*out));
	out->n = n;
	out->median = stats_median_sorted(s, n);
	out->min = s[0];
	out->max = s[n - 1];
	out->mean = stats_mean(s, n);
	out->stddev = n > 1 ? stats_sd(s, n, out->mean) : 0.0;
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

int stats_quantile_ci(const double *x, size_t n, double q, double *value, double *lo, double *hi)
{
	double *s, half, at;
	long a, b;

	if (n == 0 || !(s = stats_sorted_copy(x, n)))
		return -1;
	*value = stats_quantile_sorted(s, n, q);
	/* Ranks 1-based: the normal approximation to the binomial count below the quantile. */
	at = (double)n * q;
	half = 1.96 * sqrt(at * (1 - q));
	a = (long)floor(at - half);
	b = (long)ceil(at + half) + 1;
	*lo = s[a < 1 ? 0 : (size_t)a - 1];
	*hi = s[b > (long)n ? n - 1 : (size_t)b - 1];
	free(s);
	return 0;
}

int stats_fast_level(const double *cost, size_t n, struct stats_fast *out)
{
	struct stats_summary fast;
	double *s;
	size_t k = 0;

	memset(out, 0, sizeof(*out));
	if (n == 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (!(isfinite(cost[i]) && cost[i] > 0))
			return -1;
	if (!(s = stats_sorted_copy(cost, n)))
		return -1;
	while (k < n && s[k] <= s[0] * (1 + STATS_SLOW_STEP))
		k++;
	if (stats_summarize(s, k, &fast) < 0) {
		free(s);
		return -1;
	}
	out->level = fast.median;
	out->lo = fast.ci_low;
	out->hi = fast.ci_high;
	out->nfast = k;
	out->nslow = n - k;
	if (k < n)
		out->slow_depth = stats_median_sorted(s + k, n - k) / fast.median - 1;
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
