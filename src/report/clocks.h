/*
 * The clock sources' tables (src/report/clocks.c), a section of the
 * summary (report/sections.c) and `kbench clocks`' report.
 */
#ifndef KB_REPORT_CLOCKS_H
#define KB_REPORT_CLOCKS_H

#include <stddef.h>
#include <stdio.h>

#include "core/result.h"

struct rm_doc;

/*
 * The tables of the clock.<source>.<call> results of runs (kbench clocks):
 * per label, one row per clock source and one column per call, the ns per
 * call with its interval and whether the vDSO answered it (v) or the
 * kernel (k); a source with no figure gets its reason instead, a call
 * without one a line below; then each call's resolution, clock_getres's
 * and the smallest step seen.  Nothing when there are none; 0, or -1
 * without memory.
 */
int report_clocks_text(FILE *out, const struct run_info *runs, size_t nruns);
/* The same tables appended to doc (the table model, for the page and the JSON).  0 or -1. */
int report_clocks_model(struct rm_doc *doc, const struct run_info *runs, size_t nruns);
/* Whether the runs hold any clock source's result. */
int report_clocks_has(const struct run_info *runs, size_t nruns);

#endif
