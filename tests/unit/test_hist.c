/*
 * Unit tests of the latency distributions (stats/hist.c): the log-linear
 * buckets hold what they say and are never wider than a sixteenth of
 * their values; the nearest-rank percentiles of known samples (1..1000,
 * a tail of ten slow wakeups in a thousand) are the known answers; the
 * histogram's percentiles bound the samples' from above within a bucket;
 * and a distribution's result gets its percentiles as values
 * (harness_percentiles) with its histogram; each percentile's interval
 * over the replicas has its known answer (result_percentile).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/harness.h"
#include "core/result.h"
#include "stats/hist.h"

static void test_buckets(void **state)
{
	size_t last = 0;

	(void)state;
	for (uint64_t v = 0; v < ((uint64_t)1 << 39); v = v < 100 ? v + 1 : v + v / 7 + 1) {
		size_t b = hist_bucket(v);
		uint64_t lo, hi;

		hist_bounds(b, &lo, &hi);
		assert_true(lo <= v && v < hi);
		assert_int_equal(hist_bucket(lo), b);
		assert_int_equal(hist_bucket(hi - 1), b);
		/* Exact below HIST_SUB, a sixteenth of the value above. */
		if (v < HIST_SUB)
			assert_int_equal(hi - lo, 1);
		else
			assert_true((hi - lo) * HIST_SUB <= lo);
		assert_true(b >= last);
		last = b;
	}
	/* Everything from 2^40 ns on is in the last bucket. */
	assert_int_equal(hist_bucket(UINT64_MAX), HIST_BUCKETS - 1);
	assert_int_equal(hist_bucket((uint64_t)1 << 40), HIST_BUCKETS - 1);
	/* Neighbouring buckets meet. */
	for (size_t b = 0; b + 2 < HIST_BUCKETS; b++) {
		uint64_t lo1, hi1, lo2, hi2;

		hist_bounds(b, &lo1, &hi1);
		hist_bounds(b + 1, &lo2, &hi2);
		assert_true(hi1 == lo2);
	}
}

static void test_rank_known(void **state)
{
	double v[1000];

	(void)state;
	for (int i = 0; i < 1000; i++)
		v[i] = 1000 - i;	/* unsorted on purpose */
	assert_true(hist_rank_sort(v, 1000, 50) == 500);
	assert_true(hist_rank_sort(v, 1000, 90) == 900);
	assert_true(hist_rank_sort(v, 1000, 99) == 990);
	assert_true(hist_rank_sort(v, 1000, 99.9) == 999);
	assert_true(hist_rank_sort(v, 1000, 100) == 1000);
	assert_true(hist_rank_sort(v, 1000, 0.01) == 1);
	/* Out of range or nothing to rank: no figure. */
	assert_true(isnan(hist_rank_sort(v, 1000, 0)));
	assert_true(isnan(hist_rank_sort(v, 1000, 100.5)));
	assert_true(isnan(hist_rank_sort(v, 1000, -1)));
	assert_true(isnan(hist_rank_sort(v, 0, 50)));
	v[0] = 7;
	assert_true(hist_rank_sort(v, 1, 99.9) == 7);
}

/* Ten slow wakeups in a thousand: p99 is a fast one, p99.9 and max slow ones. */
static void test_rank_tail(void **state)
{
	double v[1000];

	(void)state;
	for (int i = 0; i < 1000; i++)
		v[i] = i % 100 == 0 ? 5000 : 10;
	assert_true(hist_rank_sort(v, 1000, 50) == 10);
	assert_true(hist_rank_sort(v, 1000, 99) == 10);
	assert_true(hist_rank_sort(v, 1000, 99.9) == 5000);
	assert_true(hist_rank_sort(v, 1000, 100) == 5000);
}

static void test_hist_percentiles(void **state)
{
	struct hist *h = calloc(1, sizeof(*h));

	(void)state;
	assert_non_null(h);
	assert_int_equal(hist_percentile(h, 50), 0);
	/* Exact buckets: 1..10 ns. */
	for (uint64_t v = 1; v <= 10; v++)
		hist_add(h, v);
	assert_int_equal(h->total, 10);
	assert_int_equal(hist_percentile(h, 50), 5);
	assert_int_equal(hist_percentile(h, 100), 10);
	memset(h, 0, sizeof(*h));
	/* 1..100000 ns: each percentile at or above the sample's, within a bucket. */
	for (uint64_t v = 1; v <= 100000; v++)
		hist_add(h, v);
	for (double p = 1; p <= 100; p += 0.7) {
		uint64_t exact = (uint64_t)ceil(p / 100 * 100000), got = hist_percentile(h, p);

		assert_true(got >= exact);
		assert_true((double)(got - exact) <= exact / (double)HIST_SUB + 1);
	}
	assert_int_equal(hist_percentile(h, 0), 0);
	assert_int_equal(hist_percentile(h, 101), 0);
	free(h);
}

static void test_result_percentiles(void **state)
{
	struct result r;
	double s[200];

	(void)state;
	memset(&r, 0, sizeof(r));
	for (int i = 0; i < 200; i++)
		s[i] = i + 1;
	r.samples = s;
	r.n = 200;
	harness_percentiles(&r);
	assert_non_null(result_value(&r, "p50"));
	assert_true(result_value(&r, "p50")->num == 100);
	assert_true(result_value(&r, "p90")->num == 180);
	assert_true(result_value(&r, "p99")->num == 198);
	assert_true(result_value(&r, "p999")->num == 200);
	/* The samples are left as they were, and a second call updates, not adds. */
	assert_true(s[0] == 1 && s[199] == 200);
	harness_percentiles(&r);
	assert_int_equal(r.nvalues, 4);
	/* And the histogram beside them: every sample counted once. */
	assert_non_null(r.buckets);
	uint64_t total = 0;
	for (size_t b = 0; b < r.nbuckets; b++)
		total += r.buckets[b].count;
	assert_int_equal(total, 200);
	free(r.buckets);
}

/*
 * A distribution's histogram in its unit: 1.0 us twice and 2.5 us once
 * fall in the buckets [992, 1024) and [2432, 2560) ns, the only two.
 */
static void test_buckets_fill(void **state)
{
	struct result r;
	double s[3] = { 1.0, 2.5, 1.0 };

	(void)state;
	memset(&r, 0, sizeof(r));
	strcpy(r.unit, "us");
	r.samples = s;
	r.n = 3;
	assert_int_equal(result_buckets_fill(&r), 0);
	assert_int_equal(r.nbuckets, 2);
	assert_true(r.buckets[0].lo == 0.992 && r.buckets[0].hi == 1.024 && r.buckets[0].count == 2);
	assert_true(r.buckets[1].lo == 2.432 && r.buckets[1].hi == 2.56 && r.buckets[1].count == 1);
	free(r.buckets);
}

/*
 * Percentiles with their intervals over replicas, known answers: replica
 * k's 100 samples are 1..100 times k + 1, so its p99 is 99 (k + 1) and
 * its p50 50 (k + 1); of all 400 the p99 is 384 and the p50 96.  With 4
 * replicas the interval of their median is their whole range, widened to
 * hold the pooled value where it falls outside.
 */
static void test_percentile_intervals(void **state)
{
	struct result r;
	struct result_sample where[400];
	double s[400], est, lo, hi, rep[6];

	(void)state;
	memset(&r, 0, sizeof(r));
	for (int k = 0; k < 4; k++)
		for (int i = 0; i < 100; i++) {
			s[k * 100 + i] = (i + 1) * (k + 1);
			where[k * 100 + i] = (struct result_sample){ .replica = k, .cpu = -1 };
		}
	r.samples = s;
	r.where = where;
	r.n = 400;
	r.nreplicas = 4;
	assert_int_equal(result_replica_percentiles(&r, 99, rep, 6), 4);
	assert_true(rep[0] == 99 && rep[1] == 198 && rep[2] == 297 && rep[3] == 396);
	assert_true(isnan(rep[4]) && isnan(rep[5]));
	assert_int_equal(result_percentile(&r, 99, &est, &lo, &hi), 0);
	assert_true(est == 384 && lo == 99 && hi == 396);
	assert_int_equal(result_percentile(&r, 50, &est, &lo, &hi), 0);
	assert_true(est == 96 && lo == 50 && hi == 200);
	/* Without the samples' places, no replica's percentile: no interval. */
	r.where = NULL;
	assert_int_equal(result_percentile(&r, 99, &est, &lo, &hi), 0);
	assert_true(est == 384 && isnan(lo) && isnan(hi));
	/* Out of range: nothing. */
	assert_int_equal(result_percentile(&r, 0, &est, &lo, &hi), -1);
	assert_int_equal(result_percentile(&r, 100.5, &est, &lo, &hi), -1);
	assert_true(isnan(est));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buckets),
		cmocka_unit_test(test_rank_known),
		cmocka_unit_test(test_rank_tail),
		cmocka_unit_test(test_hist_percentiles),
		cmocka_unit_test(test_result_percentiles),
		cmocka_unit_test(test_buckets_fill),
		cmocka_unit_test(test_percentile_intervals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
