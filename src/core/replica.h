/*
 * An instance measured as several replicas spread over the run, merged
 * into the one result that is stored and printed (issue 12).
 *
 * Why replicas: a shared machine moves between states that last seconds to
 * minutes (doc/performance.md), and the samples of one block of a few
 * seconds all sit in one state, so their interval says nothing about the
 * next run.  Each replica is a fresh process measured at another moment of
 * the run; the figure is the median of the replicas' medians and its
 * interval comes from the variation between them, the level where the
 * variation is (Kalibera and Jones; pyperf's worker processes).
 *
 * Merging reads replicas and the run's sentinel timeline and writes one
 * result; it never measures, prints or stores.
 */
#ifndef KB_REPLICA_H
#define KB_REPLICA_H

#include <stddef.h>

#include "core/bench.h"
#include "core/result.h"

/*
 * Replicas a run takes of each instance unless told otherwise (--replicas).
 * Their interval is the order-statistic 95% CI of the median, which up to
 * 8 replicas is their range, with the machine's floor below.  8: the next
 * invocation's median falls in it 92% of the time here (doc/performance.md,
 * 2026-12-02; 78% without the floor), a standard run of about 4 minutes.
 * The quick suite's 4 give their range, an 87.5% interval before the floor.
 */
#define REPLICA_DEFAULT 8
#define REPLICA_QUICK 4
/* Most replicas of a curve (mem.lat.curve), which takes half as many as the
 * other rows: its 40 points each cost what ten instances do. */
#define REPLICA_CURVE 3

/*
 * A figure's interval is never narrower than the machine's own spread over
 * the run: 1.96 standard deviations of the run's sentinel timeline on each
 * side, the standard deviation taken from the interquartile range (/1.349)
 * so that a probe an interrupt hit does not count.  Why: on a shared
 * machine the next invocation sits at another level, which one run's
 * replicas cannot see, and here that level moves between invocations about
 * as much as the sentinel moves within one; the figures whose replicas
 * agreed more closely than that were the ones the next run's median missed
 * (doc/performance.md).  A steady machine's sentinel hardly moves, and its
 * intervals keep their width.
 */
#define REPLICA_MACHINE_Z (1.96 / 1.349)

struct replica_cfg {
	double precision;			/* wanted CI half-width / median */
	/* The run's sentinel so far (or none): how far the machine moves. */
	const struct sentinel_point *timeline;
	size_t ntimeline;
};

/*
 * Merge reps[0..n-1], the replicas of b in the order taken (each as
 * runner_run returned it), into out, which owns everything it points to.
 *
 * - A replica that failed fails the result, with its reason: the work did
 *   not happen once, and a figure made of the others would hide it.  A
 *   first replica that skipped makes the result a skip.
 * - Otherwise: the level, the fast state's (stats_fast_level over the
 *   replicas' own levels, their samples' 5th percentiles), its 95%
 *   interval at least the machine's spread in its fast state wide
 *   (REPLICA_MACHINE_Z over the sentinel's fast points, recorded as the
 *   value machine_share), noisy when that interval is wider than the
 *   precision, and the slow spells' share and depth; beside it the median
 *   of the replicas' medians, its 95% CI from order statistics over them
 *   (their whole range below 6 replicas), at least the machine's whole
 *   spread wide (slow spells and all); the spread fields (min to p95) and
 *   samples are every replica's samples; a curve's points are merged point
 *   by point the same way and its levels found again (b->curve_done); the
 *   values are those of the replica nearest the median.  One replica is
 *   kept as measured.
 * - When the replicas split between ends on one CPU and on several (a
 *   benchmark between processes left to the scheduler), everything above
 *   is of the replicas of the figure's mode alone (replica_modes).
 * - drift is how far the sentinel moved between the replicas, relative:
 *   the interquartile range over the median of the replicas' own
 *   sentinels, the larger of its two operations; drifted when above the
 *   precision.
 *
 * 0, or -1 without memory (out then owns nothing).
 */
int replica_merge(const struct bench *b, const struct result *reps, size_t n,
		  const struct replica_cfg *cfg, struct result *out);

/*
 * Where the ends of a benchmark between processes ran.  Left to the
 * scheduler (placement none), they run on one CPU or on several, and on a
 * VM those are two figures (a pipe round trip of 2.4 us or of 25 to 75 us,
 * depending on what else the machine did at that moment): a replica is in
 * the mode most of its samples were in (apart, REPLICA_APART), and when a
 * result's replicas fall in both, a median between the two would mean
 * neither.  Its figure is then the mode of most replicas (on a tie the
 * one-CPU mode, the scheduler's cheaper path), with its interval over
 * those replicas alone, and the reports give both modes, each with its
 * level and its share of the replicas.
 */
#define REPLICA_APART 0.5
enum replica_ends {
	REPLICA_ONE_CPU = 0,		/* every end on one CPU */
	REPLICA_SEVERAL_CPUS,		/* the ends on more than one */
};
struct replica_mode {
	enum replica_ends ends;
	double level, lo, hi;		/* the median of its replicas' levels (their medians
					   where a replica has no level), its 95% CI */
	size_t n;			/* its replicas */
};
/*
 * The modes of r's replicas (r->replicas): 2 when they split, out[0] the
 * mode of r's figure; 0 when they do not, when nothing is known of where
 * the ends ran, or when r is not between processes (placement PLACE_NA).
 */
size_t replica_modes(const struct result *r, struct replica_mode out[2]);
/* "one CPU", "several CPUs" */
const char *replica_ends_name(enum replica_ends e);

/*
 * The sentinel around a replica (its around points, before and after its
 * samples): the mean of the two, each operation apart, NaN where neither
 * was taken.
 */
void replica_sentinel(const struct result *rep, double *sys_ns, double *user_ns);

#endif
