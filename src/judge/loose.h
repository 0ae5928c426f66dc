#ifndef KB_JUDGE_LOOSE_H
#define KB_JUDGE_LOOSE_H

#include <stddef.h>

#include "core/result.h"

/*
 * Loose figures (judge/loose.c): what a run's intervals are like, the
 * median half-width of its figures (typical, over n of them) and of the
 * machine's spread that floors each (machine, the results' machine_share),
 * fractions, NaN where none; and whether a figure is looser than its run
 * allows: it missed its precision and its interval is over
 * JUDGE_LOOSE_FACTOR times the typical one (marked so: report/notes.h).
 */
#define JUDGE_LOOSE_FACTOR 2.0
struct judge_spread {
	double typical, machine;
	size_t n;
};
struct judge_spread judge_run_spread(const struct run_info *run);
int judge_loose(const struct result *r, const struct judge_spread *sp);
/*
 * Whether sp has figures enough for a typical interval; with fewer, the
 * machine's spread is what judge_loose holds a figure against.
 */
int judge_loose_typical(const struct judge_spread *sp);
/* A result's interval's half-width as a fraction of its figure; NaN without one. */
double judge_rel_halfwidth(const struct result *r);

#endif
