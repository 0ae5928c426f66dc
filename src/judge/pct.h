/*
 * A distribution compared at a percentile the user names (compare, ab and
 * history --percentile 99): a wakeup latency's tail is what a scheduler
 * change is judged by, and its median says little of it.  The runs are
 * rewritten in place before the comparison is built, so that every test
 * compare.c and series.c make (runs, replicas, pairs, sittings) and every
 * detectable change they give is the percentile's, and no command judges
 * a percentile its own way.  A figure that is no distribution (a level)
 * is left as it is and compared as usual.
 */
#ifndef KB_JUDGE_PCT_H
#define KB_JUDGE_PCT_H

#include <stddef.h>

#include "core/result.h"

/* What judge_pct_apply did to the results it was given. */
struct judge_pct_count {
	size_t taken;		/* distributions now figured by the percentile */
	size_t levels;		/* no distribution: compared by their level, as usual */
	size_t unread;		/* distributions whose samples were not read (an export
				   without them): left out, as no percentile of theirs is known */
};

/* Whether p is a percentile: a number above 0, up to 100 (the largest sample). */
int judge_pct_valid(double p);

/*
 * Each distribution (a result with a p50 value) of runs[0..nruns-1],
 * figured at percentile p: its level and median the percentile p of all
 * its samples, its interval that over its replicas (result_percentile), a
 * replica's fast level and median its own percentile p, so that a test on
 * runs, replicas or pairs of rounds tests the percentile.  A distribution
 * without its samples and their replicas is marked skipped, with why.
 * The counts into c.  0, or -1 without memory.
 */
int judge_pct_apply(struct run_info *runs, size_t nruns, double p, struct judge_pct_count *c);

/* Whether r is figured by a percentile (judge_pct_apply took it): p, else 0. */
double judge_pct_of(const struct result *r);

#endif
