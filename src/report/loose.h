#ifndef KB_REPORT_LOOSE_H
#define KB_REPORT_LOOSE_H

#include <stddef.h>

#include "core/result.h"

/*
 * Loose figures (report/loose.c): what a run's intervals are like, the
 * median half-width of its figures (typical, over n of them) and of the
 * machine's spread that floors each (machine, the results' machine_pct),
 * fractions, NaN where none; and whether a figure is looser than its run
 * allows: it missed its precision and its interval is over
 * REPORT_LOOSE_FACTOR times the typical one.  Marked REPORT_LOOSE_MARK.
 */
#define REPORT_LOOSE_FACTOR 2.0
#define REPORT_LOOSE_MARK "!"
struct report_spread {
	double typical, machine;
	size_t n;
};
struct report_spread report_run_spread(const struct run_info *run);
int report_loose(const struct result *r, const struct report_spread *sp);
/* A result's interval's half-width as a fraction of its figure; NaN without one. */
double report_rel_halfwidth(const struct result *r);

#endif
