/*
 * What every reference in this directory shares: its clock, and which of
 * its repetitions it prints, so that every reference reads its repetitions
 * alike.  ref_pick sorts the R times in T from the fastest (ascending) and
 * returns by default the median, lmbench's way; with REF_BEST in the
 * environment the fastest; with REF_P5 the 5th percentile, the estimator
 * kbench's level applies to its samples of about 10 ms: fidelity.sh gives
 * the references repetitions of about that length when it sets REF_P5, so
 * that both sides read alike the share of a run that fell in the machine's
 * fast state.  A rate is picked as the reciprocal of its time's pick.
 */
#include <stdlib.h>
#include <time.h>

static inline double ref_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static inline int ref_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static inline double ref_pick(double *t, int r)
{
	qsort(t, (size_t)r, sizeof(*t), ref_cmp);
	if (getenv("REF_P5"))
		return t[r / 20];
	if (getenv("REF_BEST"))
		return t[0];
	return r % 2 ? t[r / 2] : (t[r / 2 - 1] + t[r / 2]) / 2;
}
