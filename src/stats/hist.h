/*
 * A distribution of latencies: the percentiles a scheduler change is
 * judged by (cyclictest's Max, schbench's 50th to 99.9th) and a
 * log-linear histogram that keeps the whole shape in a few hundred
 * counts however many wakeups were seen.
 *
 * The histogram's buckets are exact below HIST_SUB nanoseconds; above,
 * each power of two is cut into HIST_SUB equal buckets, so a bucket is
 * never wider than 1/HIST_SUB of its values (6.25%): the resolution a
 * latency tail is read at, whether it is 3 us or 30 ms.  On libm alone,
 * like stats.c, so the measuring process may use it.
 */
#ifndef KB_HIST_H
#define KB_HIST_H

#include <stddef.h>
#include <stdint.h>

#define HIST_SUB_BITS 4
#define HIST_SUB (1u << HIST_SUB_BITS)
/* Values from 2^40 ns (18 minutes) on share the last bucket. */
#define HIST_MAX_BITS 40
#define HIST_BUCKETS (HIST_SUB + (HIST_MAX_BITS - HIST_SUB_BITS) * HIST_SUB)

struct hist {
	uint64_t count[HIST_BUCKETS];
	uint64_t total;
};

/* The bucket that holds v nanoseconds. */
size_t hist_bucket(uint64_t v);
/* Bucket b's values: lo <= v < hi, in nanoseconds. */
void hist_bounds(size_t b, uint64_t *lo, uint64_t *hi);
void hist_add(struct hist *h, uint64_t v);
/*
 * The value at percentile p (0 < p <= 100) of what h counted: the upper
 * end of the bucket holding the rank, less one, so that a percentile is
 * never read below the samples it stands for.  0 when h is empty.
 */
uint64_t hist_percentile(const struct hist *h, double p);

/*
 * The nearest-rank percentile p (0 < p <= 100) of n values: the smallest
 * value with at least p% of them at or below it (no interpolation, so
 * that p99.9 of a thousand wakeups is one that happened).  v is sorted in
 * place.  NaN when n is 0 or p is out of range.
 */
double hist_rank_sort(double *v, size_t n, double p);

/* The percentiles a distribution is reported by, and their keys. */
#define HIST_NPCT 4
extern const double hist_pcts[HIST_NPCT];	/* 50, 90, 99, 99.9 */
extern const char *const hist_pct_keys[HIST_NPCT];	/* "p50", "p90", "p99", "p999" */

#endif
