/*
 * Statistics of one instance's samples (stats.c, on libm alone: the
 * measuring process summarises with it) and of comparisons (signif.c, on
 * GSL).  src/stats/ is the only module that includes GSL.
 *
 * A replica's samples are summarised by their median and its 95% interval
 * from order statistics (no shape assumed), and by their percentiles; the
 * figure quoted is not that median but the level (stats_fast_level): on a
 * shared machine the samples mix the fast state with slow spells (a
 * neighbour, the host's moves), the mean and the median chase the spells,
 * and the single minimum rewards luck, so the level is the fast stretch of
 * every replica, their median over those in the fast state, and the slow
 * spells' share and depth beside it.
 */
#ifndef KB_STATS_H
#define KB_STATS_H

#include <stddef.h>

struct stats_summary {
	size_t n;
	double median;
	double ci_low, ci_high;	/* 95% CI of the median; min to max when n < 6 */
	double min, max, mean;
	double stddev;		/* sample standard deviation (n - 1) */
	double cv;		/* stddev / mean */
	double p5, p95;		/* percentiles, linear interpolation */
};

/*
 * 0-based ranks (lo, hi) into the sorted samples such that
 * P(x[lo] <= median <= x[hi]) >= conf, from the binomial(n, 1/2)
 * distribution, as tight as possible and symmetric.  Returns -1 when n is
 * too small for any interval to reach conf.
 */
int stats_median_ci_ranks(size_t n, double conf, size_t *lo, size_t *hi);

/*
 * The confidence of the interval stats_summarize gives n values: 0.95 or
 * a little more, or below 0.95 where n < 6 and it is their whole range
 * (1 - 2/2^n: 0.875 for 4).  0 for n < 2.
 */
double stats_median_ci_level(size_t n);

/* Summarise n >= 1 samples (the input is not modified).  -1 when n is 0. */
int stats_summarize(const double *x, size_t n, struct stats_summary *out);

/*
 * A figure's level in the machine's fast state, from its replicas.  Each
 * replica's cost in its own fastest stretch (its samples' 5th percentile,
 * or the reciprocal of the 95th where bigger is better: cost[] is lower
 * when faster, all positive) is either the fast state's, or a slow
 * spell's when the whole replica fell in one (a replica lasts a fraction
 * of a second to a few; the spells of a shared machine, seconds to
 * minutes).  The replicas within STATS_SLOW_STEP of the fastest are the
 * fast state's; the level is their median, its interval the order
 * statistics' 95% one over them; the others are the slow spells, named by
 * their share of the replicas and how much slower they were (the median
 * of theirs over the level, less 1).  Delays on deterministic work are
 * positive and add up (Chen and Revels, 2016), so the fastest stretch is
 * the cost and the rest is the machine.
 */
#define STATS_SLOW_STEP 0.08
struct stats_fast {
	double level, lo, hi;	/* in cost: the fast replicas' median and its 95% interval */
	size_t nfast, nslow;	/* replicas of the fast state, of slow spells */
	double slow_depth;	/* the slow ones' median over the level, less 1; 0 with none */
};
/* n >= 1 positive costs; 0, or -1 (n 0, a cost not positive finite, no memory). */
int stats_fast_level(const double *cost, size_t n, struct stats_fast *out);

/*
 * The q-quantile of n samples (q in (0, 1)) and its distribution-free 95%
 * interval from order statistics (the ranks n q -+ 1.96 sqrt(n q (1 - q)),
 * the sample's ends beyond them): 0, or -1 when n is 0 or no memory.
 */
int stats_quantile_ci(const double *x, size_t n, double q, double *value, double *lo, double *hi);

/* Largest distance from the median to a CI end, relative to the median. */
double stats_rel_halfwidth(const struct stats_summary *s);

/* Percentile q in [0,1] of sorted data, linear interpolation. */
double stats_quantile_sorted(const double *sorted, size_t n, double q);
/* Percentile q of v[0..n), n > 0, sorting v in place. */
double stats_quantile_sort(double *v, size_t n, double q);
/* The median of v[0..n), n > 0, sorting v in place. */
double stats_median_sort(double *v, size_t n);

/*
 * Comparing two sets of measurements (src/stats/signif.c).  Welch's t:
 * diff is mean(b) - mean(a) with its 95% CI; on logarithms (stats_welch_log)
 * exp(diff) is the ratio of b to a, geometric means.  p is two-sided.
 */
struct stats_welch {
	double t, df, p;
	double diff, diff_lo, diff_hi;
};
/* Both need 2 values a side; the log form, positive finite ones.  0 or -1. */
int stats_welch(const double *a, size_t na, const double *b, size_t nb, struct stats_welch *w);
int stats_welch_log(const double *a, size_t na, const double *b, size_t nb,
		    struct stats_welch *w);
/*
 * Sittings: the runs of one condition measured in one invocation share the
 * machine's state of those minutes, so their spread says nothing of how far
 * two invocations of the same condition differ (a reboot's memory layout,
 * another tenant's hour).  From sittings of conditions measured more than
 * once (x holds sitting 0's nper[0] figures, then sitting 1's...; cond[j]
 * names sitting j's condition), the variance of a sitting's mean log beyond
 * what its runs' own spread explains (one-way random effects: the spread of
 * the sittings' means about their condition's, less the runs' pooled
 * variance over each sitting's count; where no sitting has 2 runs, the
 * whole spread of the means).  tau2 in squared logarithms, never below 0;
 * df its degrees of freedom (sittings less conditions), 0 when no
 * condition has 2 sittings; tau2_hi its upper 80% confidence bound (the
 * means' spread over the chi-square's 20% point), which says how wide the
 * spread may well be where a few sittings happened to agree: with 3
 * sittings of one condition, 4.5 times their spread.  0, or -1 with a
 * figure not positive finite.
 */
struct stats_sittings {
	double tau2, tau2_hi, df;
	size_t sittings;		/* in the conditions measured more than once */
};
int stats_sittings(const double *x, const size_t *nper, const size_t *cond, size_t nsit,
		   struct stats_sittings *out);
/*
 * Widen a test's estimate by an independent variance var (squared logs)
 * known with var_df degrees of freedom: the spread between sittings each
 * side did not see.  The interval, t, p and df (Welch-Satterthwaite) are
 * taken again; var 0 leaves w as it is.
 */
void stats_widen(struct stats_welch *w, double var, double var_df);
/* t on df degrees of freedom's 97.5th percentile: a 95% interval's half width in standard errors. */
double stats_t975(double df);
/*
 * The smallest true difference a t test of standard error se on df degrees
 * of freedom finds at the 5% level (two-sided) 80% of the time:
 * (t.975 + t.80) se.
 */
double stats_detectable(double se, double df);
/*
 * The same for a test that marks an estimate only where it clears both
 * its interval at the level alpha (two-sided, an adjusted one's share of
 * a table) and a bar (a least size, logs): the estimate, whose spread may
 * be as wide as se_true, lands past the larger of the two 4 times in 5
 * once the difference is max(t(1 - alpha/2) se, bar) + t.80 se_true.
 */
double stats_detectable_at(double se, double se_true, double df, double alpha, double bar);
/*
 * What a side of n figures x (n >= 2) would see against another measured
 * the same way, in another sitting: the detectable difference (logs,
 * stats_detectable_at at 5% without a bar) of Welch's test on the two,
 * both with x's spread, widened by the spread between sittings st (its
 * estimate in the test, its upper bound as the spread the estimate may
 * have; NULL or st->df 0: none).  floor: what no count of runs takes away,
 * the same with the sittings' spread alone (0 without).  NaN when x is not
 * positive finite.
 */
double stats_detectable_side(const double *x, size_t n, const struct stats_sittings *st,
			     double *floor);

/*
 * Pairs (a[i], b[i]), each measured next to the other (kbench ab's rounds):
 * the mean of log(b[i] / a[i]) and its 95% CI, by Student's t on the n - 1
 * degrees of freedom of the differences, and the two-sided p of its being
 * 0.  Needs 2 pairs of positive finite values.  0 or -1.
 */
int stats_paired_log(const double *a, const double *b, size_t n, struct stats_welch *w);
/*
 * Keep the pairs whose log ratio lies within log(1 + width) of the pairs'
 * median one, moved to the front of a and b in their order: a pair split
 * by a jump of the machine between two states (35-45% apart here) is not
 * a measure of the change, and one such pair costs a rank test of 10
 * pairs its significance.  Symmetric about the median, so with nothing
 * changed it keeps the test's level.  The count kept; n when a value is
 * not positive (stats_paired_log refuses them).
 */
size_t stats_pairs_within(double *a, double *b, size_t n, double width);
/*
 * The difference of the logs' means adjusted for a covariate measured with
 * each value (ca[i] with a[i], cb with b; positive): analysis of
 * covariance on the logarithms, one slope for both sides, the sides'
 * difference taken at equal covariates, the residuals' pooled variance on
 * na + nb - 3 degrees of freedom.  3 values a side, the covariate varying;
 * 0 or -1.
 */
int stats_ancova_log(const double *a, const double *ca, size_t na, const double *b,
		     const double *cb, size_t nb, struct stats_welch *w);

/*
 * The machine's states (issue 12): where a figure's replicas fall in states
 * far apart (on this VM every figure between two processes runs ~40% slower
 * for tens of seconds at a time), a run's median depends on how many fell
 * in each.  This finds, for two sides' replica values grouped by run (a[]
 * holds run 0's ka[0] values, then run 1's...), the window of +-width
 * (0.15: 15%) around a common level, halfway (logarithms) between the
 * sides' better quartiles of replicas (lower: the 25th percentile, else
 * the 75th: the state every run visits), and each run's level there: the
 * median of its replicas inside, NaN with none.  Values positive.  0 or -1;
 * free with stats_state_free.
 */
struct stats_state {
	double center;			/* the window's centre, a logarithm */
	double *la, *lb;		/* each run's level, NaN where it had none inside */
	size_t ha, hb;			/* runs a side with a level */
	size_t in, all;			/* replicas inside, of all, both sides */
};
int stats_common_state(const double *a, const size_t *ka, size_t nra, const double *b,
		       const size_t *kb, size_t nrb, int lower, double width,
		       struct stats_state *out);
void stats_state_free(struct stats_state *s);

/*
 * The slope of y on x within groups (issue 12): each group's points (y[]
 * holds group 0's k[0] values, then group 1's...; x[] beside them) taken
 * as deviations from their group's medians, pooled, and the Theil-Sen
 * slope of those (the median of the pairwise slopes), so that a replica
 * hit by another program or a state flip does not pull it.  Within
 * groups, because what differs between groups (a kernel's change, a run's
 * own level) must not be mistaken for the relation.  Over 1000 points
 * every so many is taken (the pairs grow with the square).  0, or -1 with
 * fewer than 10 pairs whose x differ or without memory.
 */
int stats_within_slope(const double *y, const double *x, const size_t *k, size_t ngroups,
		       double *slope);

/*
 * Mann-Whitney U: u counts the (a, b) pairs with a above b (ties a half);
 * p is two-sided, exact without ties up to 20 values a side (exact = 1),
 * else from the normal approximation with the tie correction.  0 or -1.
 */
struct stats_mw {
	double u, p;
	int exact;
};
int stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
		       struct stats_mw *out);

/*
 * p-values adjusted for n comparisons at once, into adj (may not be p):
 * Holm's step-down (the family-wise error) and Benjamini-Hochberg's
 * step-up (the false discovery rate).  0, or -1 without memory.
 */
int stats_holm(const double *p, size_t n, double *adj);
int stats_bh(const double *p, size_t n, double *adj);

/*
 * Steps in a series (src/stats/steps.c, kbench history): x[i] a point's
 * mean log level, u[i] the variance of that mean its runs' spread says
 * (their spread over their count), known on df degrees of freedom (0:
 * exactly); tau2 the spread between sittings, which no count of runs takes
 * away: known (the host's history), or NaN to estimate it from the series
 * about each candidate's two levels.  Circular binary segmentation: each
 * segment's largest split, and its largest stretch inside against the
 * rest, each tested at its share of alpha as the largest of its kind (a
 * stretch's two edges both steps): the steps found, at
 * most max, into out in order of position; how many, or -1 with a point not
 * finite or a variance not positive.  at is the first point after the
 * step; change the next segment's level over the one before, less 1, with
 * its 95% interval; p the split's, from series drawn without a step.  The
 * spread between sittings the steps were sized with into *tau2_out (may
 * be NULL).
 */
struct stats_step {
	size_t at;
	double change, lo, hi;
	double p;
};
int stats_steps(const double *x, const double *u, size_t n, double tau2, double df, double alpha,
		struct stats_step *out, size_t max, double *tau2_out);
/*
 * The smallest step between points at - 1 and at (at n - 1: the newest
 * point alone after it) that stats_steps's first test finds 4 times in 5
 * in a series of variances u[0..n) known on df degrees of freedom, tau2
 * the spread between sittings (estimated: the one stats_steps returned,
 * which its test estimates again): the test's critical value (the 1 -
 * alpha quantile of the largest z of series drawn without a step) plus
 * 0.84, in standard errors of the two sides' difference at that split.
 * A change (new level over old, less 1); NaN for no such split.
 */
double stats_steps_detectable(const double *u, size_t n, double tau2, int estimated, double df,
			      double alpha, size_t at);
/*
 * The variance of a point of a series about its neighbours' level, robust
 * to a few steps: from the median absolute difference of successive
 * points.  NaN below 3 points.
 */
double stats_steps_noise(const double *x, size_t n);
/*
 * The spread between sittings of a series x[0..n) beyond its points' own
 * variances u[i] (their runs'), robust to a few steps: from the median of
 * the successive differences' squares, each over the variance its two
 * points' runs give it (a steps_noise that knows the runs).  Worth about
 * 0.4 (n - 1) degrees of freedom.  NaN below 3 points or without memory.
 */
double stats_steps_spread(const double *x, const double *u, size_t n);

#endif
