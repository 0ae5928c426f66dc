/*
 * Is a difference real: sides of runs compared figure by figure against
 * the first, each change tested (src/judge/compare.c), for `kbench
 * compare` and `kbench ab`, the spread between sittings that compare and
 * `run --runs auto` learn from the host's history, and the sections the
 * rows go to.  Nothing here writes: the tables, page and JSON of a
 * comparison are report/compare.h's.
 */
#ifndef KB_JUDGE_COMPARE_H
#define KB_JUDGE_COMPARE_H

#include <stddef.h>
#include <stdio.h>

#include "core/result.h"

#define JUDGE_CMP_MAX_SIDES 8
/*
 * The smallest change called significant unless told (compare
 * --threshold): the summary page judges its labels with it, as compare
 * would without the option.
 */
#define JUDGE_CMP_THRESHOLD 0.02

/* The false discovery rate a table is held to (the text's header spells it out). */
#define JUDGE_CMP_ALPHA 0.05
/*
 * The window of the machine's states (stats_common_state): 15%, because
 * here they are 35-45% apart and each a few % wide, and a 5-10% change
 * must stay inside it.  The rounds of a pair outside it are left out too.
 */
#define JUDGE_CMP_STATE_WIDTH 0.15

/* One side of a comparison: a label's runs, or one run. */
struct judge_cmp_side {
	const char *name;		/* as the user gave it */
	const struct run_info *runs;
	size_t nruns;
};

/*
 * A compared cell's three-way verdict: changed (marked *); unchanged, not
 * marked where a change of the threshold would have been (detectable at
 * most the threshold); or cannot tell, not marked by a comparison that
 * could not have seen that much.
 */
enum { CMP_CANNOT_TELL = 0, CMP_CHANGED, CMP_UNCHANGED };

enum { CMP_TEST_NONE = 0, CMP_TEST_WELCH_RUNS, CMP_TEST_MW_SAMPLES, CMP_TEST_WELCH_REPLICAS,
       CMP_TEST_ANCOVA_RUNS, CMP_TEST_WELCH_ADJUSTED, CMP_TEST_PAIRED };

/*
 * A side's machine as its sentinel saw it (issue 12): the median of each
 * operation over its runs' timelines, and against the base's (0.03: 3%
 * slower).  NaN where a side has no timeline.
 */
struct judge_cmp_machine {
	double sys_ns, user_ns;
	double sys_shift, user_shift;
};
void judge_compare_machine(const struct judge_cmp_side *sides, size_t nsides,
			    struct judge_cmp_machine *m);

/*
 * One side's figure for one instance, and against the base.  A figure that
 * does not exist (the side lacks the instance, no test could be made) is
 * NaN, never 0.
 */
struct judge_cmp_cell {
	int present;
	size_t nruns;			/* runs with a usable figure */
	double median, lo, hi;		/* median of run medians and its 95% CI */
	int noisy;			/* loose in a run (judge_loose): its interval over
					   twice its run's typical one */
	/* Others only: */
	double change;			/* median / base median - 1; ratio - 1 where
					   the test's level is not the medians' (the
					   common state, state_all > 0; ANCOVA; replicas
					   adjusted) */
	double ratio;			/* ratio of the geometric means of the run
					   (or replica) medians, Welch (with ANCOVA at
					   equal sentinel adds), else NaN */
	double ratio_lo, ratio_hi;	/* its 95% CI, else NaN */
	int test;			/* CMP_TEST_* */
	size_t pairs, pairs_all;	/* CMP_TEST_PAIRED: the rounds paired (kbench ab),
					   those within the machine's state (tested), of all */
	/* With states (compare.c): the runs compared in the state both sides
	   share, change then that state's; the replicas inside it, of all. 0: not. */
	size_t state_in, state_all;
	/* CMP_TEST_WELCH_ADJUSTED: how the figure's logarithm follows its replicas'
	   sentinel adds' within runs, each replica taken at the adds of all; else NaN */
	double slope;
	double df;			/* the test's degrees of freedom (t's; the pairs
					   tested less one), NaN without a t or pairs */
	/*
	 * The smallest change this comparison would mark 4 times in 5 with the
	 * spread it had: the estimate must clear the larger of its bar
	 * (threshold and the machine's shift) and its interval at the level
	 * this row had in the table's correction (Benjamini-Hochberg: 5% times
	 * the rows marked besides it, plus one, over the rows tested), and
	 * does so that often once the change is that much plus t.80 times
	 * the spread the estimate may have (the spread between sittings at
	 * its upper bound: stats_detectable_at).  Always above the threshold.
	 * NaN where no interval was measured (samples' Mann-Whitney, levels
	 * that differ).
	 */
	double detectable;
	/*
	 * How many a side of what the test compared (runs, replicas, or
	 * rounds for pairs) would bring the test's (t.975 + t.80) times its
	 * spread (the sittings' part at its upper bound) to the threshold, as
	 * the runs' part shrinks with their square root: with that many an
	 * unchanged figure is called unchanged, and a change of twice the
	 * threshold marked, most of the time; 0 where no interval was measured.
	 */
	size_t needed;
	/*
	 * The spread between sittings (stats_sittings) that the host's
	 * history showed for this figure, as a log standard deviation, and
	 * the variance it added to the test (squared logs; 0: none added, as
	 * between the two halves of one ab session or without a history);
	 * floor_bound: no count of runs a side would bring the detectable
	 * change to the threshold, only more sittings.
	 */
	double sitting_sd, sitting_var;
	double sitting_sd_hi;		/* the spread's upper 80% bound, as sitting_sd */
	double sitting_var_hi;		/* the same at the spread's upper 80% bound (stats_sittings'
					   tau2_hi): what the detectable change assumes */
	size_t sittings;		/* the history's sittings it was learnt from */
	int floor_bound;
	size_t sets;			/* this side's sittings (sets of runs) with the figure */
	int apart;			/* measured in other sittings than the base's */
	int verdict;			/* CMP_CHANGED (significant), CMP_UNCHANGED (not: the
					   change's 95% interval, the sittings' spread at its
					   upper bound, inside +-threshold), CMP_CANNOT_TELL */
	double p, p_adj;		/* two-sided; adjusted over the table */
	int significant;		/* p_adj < 0.05, |change| >= threshold + the machine's
					   shift; on samples also neither side noisy */
	int better;			/* the change is in the unit's good direction */
};

/* One instance, (id, placement, copies), in the order the base measured it. */
struct judge_cmp_row {
	const struct result *key;	/* the base's first result of it */
	size_t section;			/* lmbench's table order */
	int common;			/* some other side has it too */
	int levels_differ;		/* a cache-level figure (mem.lat.l2) whose runs found
					   that level at sizes more than 2x apart: the
					   runs measured different things, so no test */
	int sentinel;			/* the sentinel adds' own row (cpu.mhz): the
					   machine's speed is its figure, so it is never
					   taken at equal adds (its change there would be
					   nothing); its move is held to the bar as the
					   machine's */
	struct judge_cmp_cell cell[JUDGE_CMP_MAX_SIDES];
};

/*
 * Figures compared as measured (compare --as-measured): never moved to
 * equal sentinel adds, nor the machine's move added to the bar.  For a
 * machine whose clock the kernel sets (bare metal, a frequency governor):
 * there the adds' move may be the kernel's own doing, and at equal adds it
 * would be taken out with the machine.
 */
#define JUDGE_CMP_AS_MEASURED 1u
/*
 * Each round of the sides a sitting of its own (kbench kernels boots every
 * side once a round): replicas of one boot share its state, so a figure is
 * tested in pairs of rounds or not at all, never on replicas or samples,
 * whose spread leaves out how far boots differ (an A/A of one kernel under
 * two rounds marked both its figures, -24% and +28%).
 */
#define JUDGE_CMP_PAIRS_ONLY 2u

/*
 * The sections a row goes to (judge_cmp_row's section), lmbench's tables
 * in their order, then the catalogue's kinds, then "Other", whose index
 * judge_section_other() is: each's title, its short name in the
 * page and the JSON ("proc"; a kind's prefix without the dot), and
 * whether its rows end with their units (AIM9's differ row to row).
 */
size_t judge_section_other(void);
const char *judge_section_title(size_t sec);
void judge_section_id(size_t sec, char *buf, size_t size);
int judge_section_units(size_t sec);
/*
 * Compare sides[1..] against sides[0]: rows malloc'd.  threshold is the
 * smallest change called significant (0.02); flags JUDGE_CMP_* or 0.  0,
 * or -1 without memory or with a bad number of sides.
 */
int judge_compare_build(const struct judge_cmp_side *sides, size_t nsides, double threshold,
			 unsigned flags, struct judge_cmp_row **rows, size_t *nrows);
/*
 * The same with the host's history: runs of conditions (labels) measured
 * in more than one sitting (a set of runs, one invocation), from which
 * each instance's spread between sittings is learnt (stats_sittings) and
 * added to the test of two sides measured in different sittings, which
 * their own runs cannot show.  history NULL: none, as judge_compare_build.
 */
int judge_compare_build_history(const struct judge_cmp_side *sides, size_t nsides,
				 double threshold, unsigned flags,
				 const struct judge_cmp_side *history,
				 struct judge_cmp_row **rows, size_t *nrows);
/*
 * The spread between sittings of key's instance in the history's runs,
 * of the runs' levels of that kind (result_level): grouped into sittings
 * (a label's runs of one set), each sitting's condition its label
 * (stats_sittings); nothing learnt from a history NULL or without the
 * instance.  0, or -1 without memory.
 */
struct stats_sittings;
int judge_compare_sittings(const struct judge_cmp_side *history, const struct result *key,
			    enum result_level level, struct stats_sittings *st);

/*
 * A figure's level interval as this host measures the figure, not only as
 * one sitting did: a run's replicas all fall in one stretch of the
 * machine's hour, and another invocation's level moves by more than their
 * interval says (doc/performance.md, "Levels").  Each side of the
 * interval (in logs) becomes the root of the sum of its square and of
 * (t tau)^2, tau the spread between sittings st learnt for the figure
 * (judge_compare_sittings at LEVEL_FAST) moderated by the host's typical
 * one (prior, judge_sittings_prior) as JUDGE_PRIOR_DF sittings' worth, t
 * on the two's degrees of freedom: with two sittings of its own a
 * figure's tau has one, whose t (12.7) would make every interval a
 * doubling, while the host's figures together say how far its sittings
 * move.  A 95% interval of the figure's level on this host.  t tau is
 * kept in r's values under JUDGE_SITTINGS_VALUE, so that runs merged for
 * a table can add it again (judge_level_widen).  Nothing where neither
 * knew a spread.
 */
#define JUDGE_SITTINGS_VALUE "between_sittings"
#define JUDGE_PRIOR_DF 4.0
void judge_level_sittings(struct result *r, const struct stats_sittings *st,
			  const struct stats_sittings *prior);
/*
 * The host's typical spread between sittings: the median tau2 over the
 * instances of the history's largest run that have one (df the count of
 * them, tau2_hi unused).  0, or -1 without memory.
 */
int judge_sittings_prior(const struct judge_cmp_side *history, struct stats_sittings *prior);
/*
 * An event counted under a figure (run --events: a value "ev_..." per
 * operation) that moved with it: LKP prints perf-stat's rows under a
 * changed figure, so that a regression comes with what the kernel did
 * differently (twice the context switches, a page fault an operation).
 * An event moved when both sides counted it, the median of one side's
 * runs is at least JUDGE_CMP_EVENT_MOVE away from the base's, relatively,
 * and at least JUDGE_CMP_EVENT_FLOOR per operation absolutely: a count
 * of 0.001 faults an operation doubling is no explanation of anything.
 * Counts are not tested: a run counts each event once, over all its
 * replicas, so a side has as many counts as runs.
 */
#define JUDGE_CMP_EVENT_MOVE 0.10
#define JUDGE_CMP_EVENT_FLOOR 0.01
struct judge_cmp_event {
	char key[24];			/* the value's key: "ev_context_switches" */
	double base, other;		/* the medians of the sides' runs, per operation */
	double change;			/* other / base - 1; inf where base is 0 */
};
/*
 * The events that moved with key's instance between sides[0] and
 * sides[s], into out (at most max), in the order the base has them: how
 * many.
 */
size_t judge_compare_events(const struct judge_cmp_side *sides, size_t s, const struct result *key,
			    struct judge_cmp_event *out, size_t max);

/* r's level interval widened, each side in logs, by s added in quadrature. */
void judge_level_widen(struct result *r, double s);

#endif
