/*
 * Cache-level detection on synthetic latency curves whose steps are known:
 * clean steps, the gradual climbs real caches give (a random chase over an
 * array of size s in a cache of size C hits with probability C/s), noise,
 * a curve that ends climbing, and curves with no clear step at all, which
 * must be reported as such rather than guessed at.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "stats/levels.h"

#define KIB 1024.0
#define MIB (1024.0 * 1024.0)

/* Sizes from 512 B up, `per_octave` points per doubling, up to max. */
static size_t sizes(double *x, double max, int per_octave)
{
	size_t n = 0;

	/* Whole bytes, so that 32 KiB is exactly 32768 and compares equal. */
	for (double s = 512; s <= max && n < 256; s = round(512 * pow(2, (double)n / per_octave)))
		x[n++] = s;
	return n;
}

/*
 * Latency of a random chase over s bytes with caches of sizes c[] and
 * latencies l[] (l[k] for cache k, l[nc] for memory): each level holds
 * min(1, C/s) of the array, the rest falls through to the next.
 */
static double model(double s, const double *c, const double *l, int nc)
{
	double left = 1, ns = 0;

	for (int k = 0; k < nc; k++) {
		double hit = fmin(1, c[k] / s);
		double here = left * hit;

		ns += here * l[k];
		left -= here;
	}
	return ns + left * l[nc];
}

/* A repeatable +-amp wobble, so "noise" is the same on every run. */
static double wobble(size_t i, double amp)
{
	static const double w[] = { 0.3, -0.8, 0.5, 1.0, -0.2, -1.0, 0.7, -0.4, 0.1, 0.9 };
	return 1 + amp * w[i % (sizeof(w) / sizeof(w[0]))];
}

/*
 * The development machine's three caches in the hit-rate model, half-octave
 * points up to 1 GiB, each point off by a wobble of +-amp.
 */
static const double zen3_c[] = { 32 * KIB, 512 * KIB, 32 * MIB };
static const double zen3_l[] = { 1.3, 4.4, 38, 110 };

static size_t three_levels(double *x, double *y, double amp)
{
	size_t n = sizes(x, 1024 * MIB, 2);

	for (size_t i = 0; i < n; i++)
		y[i] = model(x[i], zen3_c, zen3_l, 3) * wobble(i, amp);
	return n;
}

static void test_clean_steps(void **state)
{
	double x[256], y[256];
	struct levels lv;
	char why[256] = "";
	size_t n = sizes(x, 512 * MIB, 1);
	(void)state;

	for (size_t i = 0; i < n; i++)
		y[i] = x[i] <= 32 * KIB ? 1.2 : x[i] <= 512 * KIB ? 4.5 : x[i] <= 32 * MIB ? 40 : 100;
	assert_int_equal(levels_detect(x, y, n, &lv, why, sizeof(why)), 3);
	assert_true(lv.cache[0].size == 32 * KIB);
	assert_true(lv.cache[1].size == 512 * KIB);
	assert_true(lv.cache[2].size == 32 * MIB);
	assert_true(lv.cache[0].ns == 1.2 && lv.cache[1].ns == 4.5 && lv.cache[2].ns == 40);
	assert_true(lv.has_main);
	assert_true(lv.main.ns == 100);
	assert_true(lv.main.size == 512 * MIB);
}

/*
 * The hit-rate model with half-octave points: every level found, each
 * detected size within a factor of two of the true one (the climb starts
 * right after the cache is full), none above it.
 */
static void test_gradual_climbs(void **state)
{
	double x[256], y[256];
	struct levels lv;
	char why[256] = "";
	size_t n = three_levels(x, y, 0);
	(void)state;

	if (levels_detect(x, y, n, &lv, why, sizeof(why)) != 3)
		fail_msg("expected 3 levels: %s", why);
	for (int k = 0; k < 3; k++) {
		assert_true(lv.cache[k].size <= zen3_c[k]);
		assert_true(lv.cache[k].size >= zen3_c[k] / 2);
		assert_true(fabs(lv.cache[k].ns - zen3_l[k]) / zen3_l[k] < 0.25);
	}
}

/* Noise of +-4% on every point and one point 30% high: still three levels. */
static void test_noise_and_a_spike(void **state)
{
	double x[256], y[256];
	struct levels lv;
	char why[256] = "";
	size_t n = three_levels(x, y, 0.04);
	(void)state;

	y[5] *= 1.3;	/* 2 KiB, deep inside L1 */
	if (levels_detect(x, y, n, &lv, why, sizeof(why)) != 3)
		fail_msg("expected 3 levels: %s", why);
	assert_true(lv.cache[0].size >= 16 * KIB && lv.cache[0].size <= 32 * KIB);
}

/* Two caches and a curve that stops while still climbing: no main memory. */
static void test_ends_climbing(void **state)
{
	static const double c[] = { 32 * KIB, 1 * MIB };
	static const double l[] = { 1.0, 10, 200 };
	double x[256], y[256];
	struct levels lv;
	char why[256] = "";
	size_t n = sizes(x, 4 * MIB, 2);
	(void)state;

	for (size_t i = 0; i < n; i++)
		y[i] = model(x[i], c, l, 2);
	assert_int_equal(levels_detect(x, y, n, &lv, why, sizeof(why)), 2);
	assert_false(lv.has_main);
	assert_true(lv.cache[1].size <= 1 * MIB && lv.cache[1].size >= 512 * KIB);
}

/* Flat with noise: no step, and it says so. */
static void test_no_clear_step(void **state)
{
	double x[256], y[256];
	struct levels lv;
	char why[256] = "";
	size_t n = sizes(x, 64 * MIB, 2);
	(void)state;

	for (size_t i = 0; i < n; i++)
		y[i] = 5.0 * wobble(i, 0.05);
	assert_int_equal(levels_detect(x, y, n, &lv, why, sizeof(why)), 0);
	assert_non_null(strstr(why, "no clear step"));
	assert_int_equal(lv.ncache, 0);
}

/* A slow creep (10% per octave, never a step): also no clear step. */
static void test_creep_is_not_a_step(void **state)
{
	double x[256], y[256];
	struct levels lv;
	char why[256] = "";
	size_t n = sizes(x, 64 * MIB, 1);
	(void)state;

	for (size_t i = 0; i < n; i++)
		y[i] = 2.0 * pow(1.10, (double)i);
	assert_int_equal(levels_detect(x, y, n, &lv, why, sizeof(why)), 0);
	assert_true(why[0] != '\0');
}

/* Climbing all the way, every point 30% above the last: no flat stretch. */
static void test_all_climb(void **state)
{
	double x[256], y[256];
	struct levels lv;
	char why[256] = "";
	size_t n = sizes(x, 1 * MIB, 1);
	(void)state;

	for (size_t i = 0; i < n; i++)
		y[i] = pow(1.3, (double)i);
	assert_int_equal(levels_detect(x, y, n, &lv, why, sizeof(why)), 0);
	assert_non_null(strstr(why, "no flat stretch"));
}

static void test_bad_input(void **state)
{
	double x[] = { 512, 1024, 2048, 1024, 8192 }, y[] = { 1, 1, 1, 1, 1 };
	struct levels lv;
	char why[256] = "";
	(void)state;

	assert_int_equal(levels_detect(x, y, 3, &lv, why, sizeof(why)), 0);
	assert_non_null(strstr(why, "too few"));
	assert_int_equal(levels_detect(x, y, 5, &lv, why, sizeof(why)), 0);
	assert_non_null(strstr(why, "point 3"));
	x[3] = 4096;
	y[2] = NAN;
	assert_int_equal(levels_detect(x, y, 5, &lv, why, sizeof(why)), 0);
	assert_non_null(strstr(why, "point 2"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean_steps),
		cmocka_unit_test(test_gradual_climbs),
		cmocka_unit_test(test_noise_and_a_spike),
		cmocka_unit_test(test_ends_climbing),
		cmocka_unit_test(test_no_clear_step),
		cmocka_unit_test(test_creep_is_not_a_step),
		cmocka_unit_test(test_all_climb),
		cmocka_unit_test(test_bad_input),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
