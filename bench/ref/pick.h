/*
 * Which of its repetitions a reference in this directory prints, shared so
 * that every reference reads its repetitions alike.  T holds R figures sorted
 * from the fastest (times ascending).  By default the median, lmbench's way;
 * with REF_BEST in the environment the fastest; with REF_P5 the 5th
 * percentile, the estimator kbench's level applies to its samples of about
 * 10 ms: fidelity.sh gives the references repetitions of about that length
 * when it sets REF_P5, so that both sides read alike the share of a run that
 * fell in the machine's fast state.
 */
#include <stdlib.h>

static double ref_pick(const double *t, int r)
{
	if (getenv("REF_P5"))
		return t[r / 20];
	if (getenv("REF_BEST"))
		return t[0];
	return r % 2 ? t[r / 2] : (t[r / 2 - 1] + t[r / 2]) / 2;
}
