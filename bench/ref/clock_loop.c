/*
 * Plain reference for kbench's rate.clock_gettime: clock_gettime
 * (CLOCK_MONOTONIC) through the C library (the vDSO where the clock source
 * allows it) in a loop of N calls, timed with the same clock, repeated R
 * times; prints the median of the R figures in calls per second, and
 * nothing else.  The results are summed into a sink so no call is dropped.
 *
 * usage: clock_loop [N [R]]     (defaults N=1000000, R=21)
 * build: cc -O2 -o clock_loop clock_loop.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000, r = argc > 2 ? atol(argv[2]) : 21;
	double *fig = malloc(sizeof(double) * (size_t)r);
	volatile long sink = 0;

	if (!fig || n < 1 || r < 1)
		return 1;
	for (long k = -1; k < r; k++) {
		struct timespec ts;
		double t0 = now_ns(), t1;

		for (long i = 0; i < n; i++) {
			clock_gettime(CLOCK_MONOTONIC, &ts);
			sink += ts.tv_nsec;
		}
		t1 = now_ns();
		if (k >= 0)
			fig[k] = (double)n / ((t1 - t0) / 1e9);
	}
	qsort(fig, (size_t)r, sizeof(double), cmp);
	printf("%.0f\n", fig[r / 2]);
	return 0;
}
