/*
 * Plain reference for kbench's sys.null: syscall(SYS_getppid) in a loop of
 * N iterations, timed with clock_gettime(CLOCK_MONOTONIC), repeated R
 * times; prints the median of the R figures in ns per call, and nothing
 * else, on stdout.  No calibration, no overhead subtraction, no warm-up
 * beyond one discarded repetition: the simplest honest loop.
 *
 * With REF_BEST in the environment it prints the fastest of the R
 * instead: the fast state's figure, what kbench's level reads.
 * With REF_P5 it prints their 5th percentile instead (pick.h says why).
 *
 * usage: getppid_loop [N [R]]     (defaults N=100000, R=21)
 * build: cc -O2 -o getppid_loop getppid_loop.c
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "pick.h"

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000;
	int r = argc > 2 ? atoi(argv[2]) : 21;
	long ppid = getppid();
	double *v;

	if (n < 1 || r < 1 || !(v = malloc(sizeof(*v) * r))) {
		fprintf(stderr, "usage: getppid_loop [N [R]]\n");
		return 2;
	}
	for (int k = -1; k < r; k++) {	/* k = -1: warm-up, discarded */
		double t0 = ref_now_ns();
		for (long i = 0; i < n; i++)
			if (syscall(SYS_getppid) != ppid) {
				fprintf(stderr, "getppid returned another process\n");
				return 1;
			}
		double t1 = ref_now_ns();
		if (k >= 0)
			v[k] = (t1 - t0) / n;
	}
	printf("%.1f\n", ref_pick(v, r));
	return 0;
}
