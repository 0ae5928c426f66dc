/*
 * The monotonic clock and what it costs.  Nothing else in kbench reads a
 * clock for timing; benchmarks never do, save that a row observing a
 * wakeup (BENCH_OBSERVED) reads it to see how late the wakeup came.
 */
#include "core/timer.h"

#include <stdlib.h>
#include <time.h>

volatile uint64_t timer_sink;

uint64_t timer_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t monotonic_now(void *arg)
{
	(void)arg;
	return timer_now();
}

const struct timer_clock timer_monotonic = { monotonic_now, NULL };

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Median of `rounds` timings of `reads` back-to-back clock reads. */
static double clock_cost(void)
{
	enum { ROUNDS = 21, READS = 2000 };
	double per[ROUNDS];

	for (int r = 0; r < ROUNDS; r++) {
		uint64_t t0 = timer_now(), t = 0;
		for (int i = 0; i < READS; i++)
			t += timer_now();
		timer_sink = t;
		per[r] = (double)(timer_now() - t0) / (READS + 1);
	}
	qsort(per, ROUNDS, sizeof(per[0]), cmp_double);
	return per[ROUNDS / 2];
}

/* The smallest nonzero step between consecutive reads. */
static double clock_granularity(void)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < 10000; i++) {
		uint64_t a = timer_now(), b;
		while ((b = timer_now()) == a)
			;
		if (b - a < best)
			best = b - a;
	}
	return (double)best;
}

/*
 * Per-iteration cost of a counted loop with an empty body, the shape every
 * benchmark's run function has.  The barrier keeps the compiler from
 * deleting or vectorising the loop, as it cannot in a real benchmark.
 */
static double loop_cost(void)
{
	enum { ROUNDS = 11 };
	const uint64_t n = 2000000;
	double per[ROUNDS];

	for (int r = 0; r < ROUNDS; r++) {
		uint64_t t0 = timer_now();
		for (uint64_t i = 0; i < n; i++)
			__asm__ volatile("" ::: "memory");
		per[r] = (double)(timer_now() - t0) / (double)n;
	}
	qsort(per, ROUNDS, sizeof(per[0]), cmp_double);
	return per[ROUNDS / 2];
}

void timer_measure(struct timer_info *ti)
{
	ti->cost_ns = clock_cost();
	ti->granularity_ns = clock_granularity();
	ti->loop_ns = loop_cost();
}
