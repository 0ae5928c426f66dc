/*
 * Latency distributions; see hist.h.
 */
#include "stats/hist.h"

#include <math.h>
#include <stdlib.h>

const double hist_pcts[HIST_NPCT] = { 50, 90, 99, 99.9 };
const char *const hist_pct_keys[HIST_NPCT] = { "p50", "p90", "p99", "p999" };

size_t hist_bucket(uint64_t v)
{
	unsigned e = 0;

	if (v < HIST_SUB)
		return (size_t)v;
	for (uint64_t t = v; t > 1; t >>= 1)
		e++;
	if (e >= HIST_MAX_BITS)
		return HIST_BUCKETS - 1;
	return HIST_SUB + (size_t)(e - HIST_SUB_BITS) * HIST_SUB +
	       (size_t)((v >> (e - HIST_SUB_BITS)) & (HIST_SUB - 1));
}

void hist_bounds(size_t b, uint64_t *lo, uint64_t *hi)
{
	unsigned e;

	if (b < HIST_SUB) {
		*lo = b;
		*hi = b + 1;
		return;
	}
	if (b >= HIST_BUCKETS)
		b = HIST_BUCKETS - 1;
	e = HIST_SUB_BITS + (unsigned)((b - HIST_SUB) / HIST_SUB);
	*lo = (uint64_t)(HIST_SUB + (b - HIST_SUB) % HIST_SUB) << (e - HIST_SUB_BITS);
	*hi = *lo + ((uint64_t)1 << (e - HIST_SUB_BITS));
	/* The last bucket takes everything above it. */
	if (b == HIST_BUCKETS - 1)
		*hi = UINT64_MAX;
}

void hist_add(struct hist *h, uint64_t v)
{
	h->count[hist_bucket(v)]++;
	h->total++;
}

uint64_t hist_percentile(const struct hist *h, double p)
{
	uint64_t rank, seen = 0, lo, hi;

	if (h->total == 0 || !(p > 0) || p > 100)
		return 0;
	rank = (uint64_t)ceil(p / 100 * (double)h->total);
	if (rank < 1)
		rank = 1;
	for (size_t b = 0; b < HIST_BUCKETS; b++) {
		seen += h->count[b];
		if (seen >= rank) {
			hist_bounds(b, &lo, &hi);
			return hi == UINT64_MAX ? lo : hi - 1;
		}
	}
	return 0;
}

static int hist_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double hist_rank_sort(double *v, size_t n, double p)
{
	size_t rank;

	if (n == 0 || !(p > 0) || p > 100)
		return (double)NAN;
	qsort(v, n, sizeof(*v), hist_cmp);
	/* The rank's product is rounded first: 99.9% of 1000 is 999, not 999.0000001. */
	rank = (size_t)ceil(round(p / 100 * (double)n * 1e6) / 1e6);
	if (rank < 1)
		rank = 1;
	return v[rank > n ? n - 1 : rank - 1];
}
