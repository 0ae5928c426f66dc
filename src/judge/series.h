/*
 * A figure's history (judge/series.c, kbench history): each figure over
 * the stored runs, a point a run or a label's runs in version order, and
 * the steps in it.  Nothing here writes: report/series.h does.
 */
#ifndef KB_JUDGE_SERIES_H
#define KB_JUDGE_SERIES_H

#include <stddef.h>
#include <stdint.h>

#include "judge/compare.h"
#include "stats/stats.h"

/*
 * Every figure of the runs (those matching the globs only, when nonly >
 * 0; the sentinel's row always, to tell the machine's steps from the
 * kernel's) over points in order, a point a label's runs in version order
 * (parse_version_cmp) or, by time, a run; each point's level (the
 * geometric mean of its runs' levels of the kind asked: result_level)
 * with its 95% interval, and the steps found (stats_steps at
 * JUDGE_SERIES_ALPHA).
 */
#define JUDGE_SERIES_ALPHA 0.05
/* Below this many points a series cannot tell its own noise from a step in it. */
#define JUDGE_SERIES_OWN_NOISE 6
/* How far from its point's median a run may read before it is taken at that bound (robust SDs). */
#define JUDGE_SERIES_CLIP 8.0
#define JUDGE_SERIES_MAX_STEPS 8
struct judge_series_point {
	char label[128];
	char started[32];		/* its first run's */
	int64_t first_run, last_run;	/* run ids */
	size_t nruns;
	double level, lo, hi;
};
/*
 * A place the series cannot tell whether a figure stepped at: a label
 * alone off its neighbours (the steps' search found it up and back, or
 * down and back: one sitting's word, which a sitting's own move says as
 * well as a kernel's change), or two adjacent labels that differ by
 * compare's own test (Welch's on their runs, widened by the spread
 * between sittings) where no step was found within a label of them.  at
 * the later label's point (the lone label's); the change of it over the
 * one before with its 95% interval; p the steps' or Holm's, over the
 * pairs tested.
 */
struct judge_series_untold {
	size_t at;
	int alone;		/* a label alone off, not a pair */
	double change, lo, hi, p;
};
/* Where a series' spread between sittings came from. */
enum judge_noise { JUDGE_NOISE_SERIES, JUDGE_NOISE_HISTORY, JUDGE_NOISE_RUNS };
struct judge_series_figure {
	const struct result *key;	/* the instance, one of the runs' results */
	int sentinel;			/* the machine's row (cpu.mhz) */
	enum result_level level;	/* the series' kind, or the median where a run
					   has no fast level (stored by an older kbench) */
	enum judge_noise noise;	/* the series itself (6 points or more), the host's
					   history of labels measured twice, or none:
					   the runs' spread alone */
	size_t npoints;			/* points with a usable figure */
	struct judge_series_point *points;
	double sitting_var;		/* a point's spread beyond its runs', squared logs */
	double detectable;		/* the smallest step the newest point could show
					   4 times in 5 (stats_steps_detectable); NaN
					   where nothing could */
	int controlled;			/* read against the control (judge_series' control):
					   it measured the figure in two sittings or more */
	size_t clipped;			/* wild runs taken at a bound (series_clip) */
	size_t nuntold;
	struct judge_series_untold untold[JUDGE_SERIES_MAX_STEPS];	/* what the steps do not tell */
	size_t nsteps;
	struct stats_step steps[JUDGE_SERIES_MAX_STEPS];
	int machine[JUDGE_SERIES_MAX_STEPS];	/* the sentinel stepped at the same point */
};
struct judge_series {
	int by_label;
	enum result_level level;
	const char *control;		/* the control label (the caller's), or NULL */
	size_t control_sittings;	/* its sittings (sets of runs) among the runs */
	size_t npoints;
	struct judge_series_figure *figures;
	size_t nfigures;
};
/*
 * control (by label only; NULL: none): a label measured again every few
 * labels, whose sittings trace the machine's drift of each figure; the
 * other labels' levels are read against it, each over the control's level
 * at its time (drawn linearly between the control's sittings either side)
 * and the control's variance there added to its own.
 */
struct judge_cmp_side;
int judge_series_build(const struct run_info *runs, size_t nruns, int by_label,
			enum result_level level, const char *const *only, size_t nonly,
			const struct judge_cmp_side *history, const char *control,
			struct judge_series *s);
/*
 * The steps smaller than threshold (a fraction, 0.02: compare's
 * --threshold) left out of s's figures, the machine's too: compare calls
 * a change under its threshold unchanged, and history must not call it a
 * step; nor a pair of labels that cannot be told (judge_series_untold)
 * whose change is under it.  The count of steps left out.
 */
size_t judge_series_threshold(struct judge_series *s, double threshold);
void judge_series_free(struct judge_series *s);
/* Whether a figure of s is too short to show its own spread between sittings, and had none given. */
int judge_series_short(const struct judge_series *s);
/*
 * Whether the newest point brought a step of a figure (not the machine's):
 * any, or with regressions_only one in the unit's bad direction.
 */
int judge_series_newest(const struct judge_series *s, int regressions_only);
/* Whether step i of f is a regression: its change in the unit's bad direction. */
int judge_series_worse(const struct judge_series_figure *f, size_t i);

#endif
