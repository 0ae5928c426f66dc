/*
 * The harness's calibration, warm-up, stop rules and unit conversion, with
 * a fake clock: each fake benchmark advances the clock by exactly what an
 * iteration "costs", so every figure the harness reports has a known answer.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/harness.h"

#define assert_near(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

/* The fake world: a clock and a cost model for the next calls. */
static struct fake {
	uint64_t clock_ns;
	double cost_ns;		/* per iteration */
	int calls;		/* run() calls so far */
	int slow_calls;		/* the first calls are slower, less so each time (cold start) */
	int bimodal;		/* alternate 1x and 2x cost per call */
	int fail_at;		/* this call fails (1-based); 0 never */
	enum bench_status setup_status;
	uint64_t read_cost_ns;	/* each clock read advances the clock this much */
} fake;

static uint64_t fake_now(void *arg)
{
	uint64_t t = fake.clock_ns;

	(void)arg;
	fake.clock_ns += fake.read_cost_ns;
	return t;
}

static enum bench_status fake_setup(struct bench_ctx *ctx)
{
	ctx->bytes_per_iter = 1e6;
	if (fake.setup_status == BENCH_SKIP)
		return bench_skip(ctx, "fake skip");
	if (fake.setup_status == BENCH_FAIL)
		return bench_fail(ctx, 0, "fake setup failure");
	return BENCH_OK;
}

static enum bench_status fake_run(struct bench_ctx *ctx, uint64_t n)
{
	double cost = fake.cost_ns;

	fake.calls++;
	if (fake.fail_at && fake.calls == fake.fail_at)
		return bench_fail(ctx, 0, "lost a message at call %d", fake.calls);
	if (fake.calls <= fake.slow_calls)
		cost *= 1 + fake.slow_calls - fake.calls + 1;
	if (fake.bimodal && (fake.calls & 1))
		cost *= 2;
	fake.clock_ns += (uint64_t)llround(cost * (double)n);
	return BENCH_OK;
}

static const char *never(void)
{
	return "no such facility here";
}

static struct bench fake_bench = {
	.id = "test.fake", .metric = METRIC_US, .better = BETTER_LOWER, .suites = SUITE_QUICK,
	.summary = "fake", .setup = fake_setup, .run = fake_run,
};

static struct harness_cfg cfg;

/*
 * A ring-like benchmark: an iteration is 4 operations, each costing 300 ns
 * of overhead (summing, pipe calls) plus 200 ns of the thing measured; the
 * overhead loop costs only the 300 ns.  The figure must be 0.2 us per
 * operation, and the raw figure 0.5 us.
 */
static enum bench_status ring_setup(struct bench_ctx *ctx)
{
	ctx->ops_per_iter = 4;
	bench_value(ctx, "procs", 4);
	return BENCH_OK;
}

static enum bench_status ring_run(struct bench_ctx *ctx, uint64_t n)
{
	(void)ctx;
	fake.calls++;
	fake.clock_ns += 4 * (300 + 200) * n;
	return BENCH_OK;
}

static enum bench_status ring_overhead(struct bench_ctx *ctx, uint64_t n)
{
	(void)ctx;
	fake.clock_ns += 4 * 300 * n;
	return BENCH_OK;
}

static const struct bench ring_bench = {
	.id = "test.ring", .metric = METRIC_US, .better = BETTER_LOWER, .suites = SUITE_QUICK,
	.summary = "fake ring", .setup = ring_setup, .run = ring_run, .overhead = ring_overhead,
};

static int reset(void **state)
{
	(void)state;
	fake = (struct fake){ .clock_ns = 1000, .cost_ns = 250 };
	fake_bench.flags = 0;
	fake_bench.metric = METRIC_US;
	fake_bench.better = BETTER_LOWER;
	fake_bench.unsupported = NULL;
	fake_bench.points = NULL;
	harness_defaults(&cfg);
	cfg.clock = (struct timer_clock){ fake_now, NULL };
	cfg.max_time_ns = 1e9;
	cfg.interference = 0;
	return 0;
}

static void test_constant_cost(void **state)
{
	struct result r;
	(void)state;
	assert_int_equal(harness_run(&fake_bench, &cfg, &r), 0);
	assert_int_equal(r.status, RES_OK);
	assert_int_equal(r.stop, STOP_PRECISION);
	/* All samples agree, so the minimum sample count suffices. */
	assert_int_equal(r.n, cfg.min_samples);
	assert_near(r.median, 0.25, 1e-9);
	assert_near(r.ci_low, 0.25, 1e-9);
	assert_near(r.ci_high, 0.25, 1e-9);
	/* Calibrated: one sample lasts at least the 10 ms target, and not absurdly more. */
	assert_true((double)r.iterations * 250 >= 10e6);
	assert_true((double)r.iterations * 250 < 30e6);
	assert_string_equal(r.unit, "us");
	result_free(&r);
}

static void test_overhead_loop_subtracted(void **state)
{
	struct result r;
	const struct bench_value *raw, *ovh, *procs;
	(void)state;
	assert_int_equal(harness_run(&ring_bench, &cfg, &r), 0);
	assert_int_equal(r.status, RES_OK);
	assert_near(r.median, 0.2, 1e-9);
	raw = result_value(&r, "raw");
	ovh = result_value(&r, "overhead_op");
	procs = result_value(&r, "procs");
	assert_non_null(raw);
	assert_non_null(ovh);
	assert_non_null(procs);
	assert_near(raw->num, 0.5, 1e-9);
	assert_near(ovh->num, 0.3, 1e-9);
	assert_near(procs->num, 4, 0);
	assert_near(r.overhead, 0.3, 1e-6);
	assert_int_equal(r.parallel, 1);
	assert_true(isnan(r.aggregate));
	result_free(&r);
}

/* A placement on a single-process benchmark is not applied, nor recorded. */
static void test_placement_only_between_processes(void **state)
{
	struct result r;
	(void)state;
	cfg.placement = PLACE_SAME;
	assert_int_equal(harness_run(&fake_bench, &cfg, &r), 0);
	assert_int_equal(r.placement, PLACE_NA);
	result_free(&r);
}

static void test_warmup_discarded(void **state)
{
	struct result r;
	(void)state;
	/* Calibration takes the first 3 calls; the cold start outlasts it
	 * (7x, 6x, ... 2x), so warm-up must discard the rest of it. */
	fake.slow_calls = 6;
	assert_int_equal(harness_run(&fake_bench, &cfg, &r), 0);
	assert_int_equal(r.status, RES_OK);
	assert_near(r.max, 0.25, 1e-9);
	assert_near(r.min, 0.25, 1e-9);
	result_free(&r);
}

static void test_noisy_stops_at_max_time(void **state)
{
	struct result r;
	(void)state;
	fake.bimodal = 1;
	assert_int_equal(harness_run(&fake_bench, &cfg, &r), 0);
	assert_int_equal(r.status, RES_NOISY);
	assert_int_equal(r.stop, STOP_MAX_TIME);
	/* About 1 s of 10-15 ms samples. */
	assert_true(r.n >= 50 && r.n <= 120);
	assert_true(r.ci_high > r.ci_low);
	result_free(&r);
}

static void test_max_samples(void **state)
{
	struct result r;
	(void)state;
	fake.bimodal = 1;
	cfg.max_samples = 15;
	assert_int_equal(harness_run(&fake_bench, &cfg, &r), 0);
	assert_int_equal(r.status, RES_NOISY);
	assert_int_equal(r.stop, STOP_MAX_SAMPLES);
	assert_int_equal(r.n, 15);
	result_free(&r);
}

static void test_loose_precision_reached(void **state)
{
	struct result r;
	(void)state;
	/* Two modes 2x apart: a 100% precision is met at once. */
	fake.bimodal = 1;
	cfg.precision = 1.0;
	assert_int_equal(harness_run(&fake_bench, &cfg, &r), 0);
	assert_int_equal(r.status, RES_OK);
	assert_int_equal(r.stop, STOP_PRECISION);
	assert_int_equal(r.n, cfg.min_samples);
	result_free(&r);
}

static void test_overhead_subtracted(void **state)
{
	struct result r;
	(void)state;
	fake.cost_ns = 105;
	fake_bench.flags = BENCH_CHEAP;
	cfg.loop_ns = 5;
	assert_int_equal(harness_run(&fake_bench, &cfg, &r), 0);
	assert_near(r.median, 0.100, 1e-6);
	assert_near(r.overhead, 0.005, 1e-12);	/* the clock read is free here */
	result_free(&r);
}

static void test_clock_cost_subtracted(void **state)
{
	struct result r;
	(void)state;
	/* A clock read of 1 ms inside every interval would add 1e6/n ns per
	 * iteration; subtracting the measured read cost removes it exactly. */
	fake.read_cost_ns = 1000000;
	cfg.clock_cost_ns = 1000000;
	assert_int_equal(harness_run(&fake_bench, &cfg, &r), 0);
	assert_near(r.median, 0.25, 1e-9);
	assert_near(r.overhead, 1e6 / (double)r.iterations / 1e3, 1e-12);
	result_free(&r);

	/* Without it, the figure is off by the read cost spread over n. */
	cfg.clock_cost_ns = 0;
	assert_int_equal(harness_run(&fake_bench, &cfg, &r), 0);
	assert_true(r.median > 0.25 + 1e-6);
	result_free(&r);
}

static void test_bandwidth_units(void **state)
{
	struct result r;
	(void)state;
	/* 1e6 bytes per iteration at 1 ms per iteration = 1000 MB/s. */
	fake.cost_ns = 1e6;
	fake_bench.metric = METRIC_MBPS;
	fake_bench.better = BETTER_HIGHER;
	assert_int_equal(harness_run(&fake_bench, &cfg, &r), 0);
	assert_near(r.median, 1000, 1e-6);
	assert_string_equal(r.unit, "MB/s");
	result_free(&r);
}

static void test_granularity_sets_target(void **state)
{
	struct result r;
	(void)state;
	/* A coarse 100 us clock forces samples of at least 100 ms. */
	cfg.granularity_ns = 100000;
	assert_int_equal(harness_run(&fake_bench, &cfg, &r), 0);
	assert_true((double)r.iterations * 250 >= 100e6);
	result_free(&r);
}

/* One point, so that the result's samples are its own. */
static size_t fake_one_point(struct bench_ctx *ctx, struct bench_point *pts, size_t max)
{
	(void)ctx;
	if (max < 1)
		return 0;
	snprintf(pts[0].series, sizeof(pts[0].series), "%s", "s");
	pts[0].x = 4096;
	return 1;
}

/*
 * A curve's point samples half as long as an instance: 6 ms here (the
 * instance's 12 ms of test_constant_cost), calibrated from a 5 ms target.
 * And it discards at most two samples warming up: with the cold start of
 * test_warmup_discarded (calibration takes calls 1-3, warm-up 4 and 5),
 * call 6, at twice the cost, is the point's first sample; an instance
 * would have gone on to two that agree.
 */
static void test_curve_point_samples(void **state)
{
	struct result r;
	(void)state;
	fake_bench.points = fake_one_point;
	assert_int_equal(harness_run(&fake_bench, &cfg, &r), 0);
	assert_int_equal(r.status, RES_OK);
	assert_int_equal(r.npoints, 1);
	assert_true((double)r.iterations * 250 >= 5e6);
	assert_true((double)r.iterations * 250 < 7.5e6);
	result_free(&r);

	fake.calls = 0;
	fake.slow_calls = 6;
	assert_int_equal(harness_run(&fake_bench, &cfg, &r), 0);
	assert_int_equal(r.status, RES_OK);
	assert_near(r.max, 0.5, 1e-9);
	assert_near(r.min, 0.25, 1e-9);
	assert_near(r.points[0].y, 0.25, 1e-9);
	result_free(&r);
}

static void test_failure_reported(void **state)
{
	struct result r;
	(void)state;
	fake.fail_at = 12;
	assert_int_equal(harness_run(&fake_bench, &cfg, &r), 0);
	assert_int_equal(r.status, RES_FAIL);
	assert_int_equal(r.stop, STOP_NONE);
	assert_null(r.samples);
	assert_int_equal(r.n, 0);
	assert_string_equal(r.reason, "lost a message at call 12");
	result_free(&r);
}

static void test_skip_and_unsupported(void **state)
{
	struct result r;
	(void)state;
	fake.setup_status = BENCH_SKIP;
	assert_int_equal(harness_run(&fake_bench, &cfg, &r), 0);
	assert_int_equal(r.status, RES_SKIP);
	assert_string_equal(r.reason, "fake skip");
	assert_int_equal(fake.calls, 0);
	result_free(&r);

	fake.setup_status = BENCH_OK;
	fake_bench.unsupported = never;
	assert_int_equal(harness_run(&fake_bench, &cfg, &r), 0);
	assert_int_equal(r.status, RES_SKIP);
	assert_string_equal(r.reason, "no such facility here");
	result_free(&r);
}

static void test_setup_failure(void **state)
{
	struct result r;
	(void)state;
	fake.setup_status = BENCH_FAIL;
	assert_int_equal(harness_run(&fake_bench, &cfg, &r), 0);
	assert_int_equal(r.status, RES_FAIL);
	assert_string_equal(r.reason, "fake setup failure");
	result_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_constant_cost, reset),
		cmocka_unit_test_setup(test_warmup_discarded, reset),
		cmocka_unit_test_setup(test_noisy_stops_at_max_time, reset),
		cmocka_unit_test_setup(test_max_samples, reset),
		cmocka_unit_test_setup(test_loose_precision_reached, reset),
		cmocka_unit_test_setup(test_overhead_subtracted, reset),
		cmocka_unit_test_setup(test_clock_cost_subtracted, reset),
		cmocka_unit_test_setup(test_bandwidth_units, reset),
		cmocka_unit_test_setup(test_granularity_sets_target, reset),
		cmocka_unit_test_setup(test_failure_reported, reset),
		cmocka_unit_test_setup(test_curve_point_samples, reset),
		cmocka_unit_test_setup(test_skip_and_unsupported, reset),
		cmocka_unit_test_setup(test_setup_failure, reset),
		cmocka_unit_test_setup(test_overhead_loop_subtracted, reset),
		cmocka_unit_test_setup(test_placement_only_between_processes, reset),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
