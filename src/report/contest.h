/*
 * contest's tables and chart (src/report/contest.c), a section of the
 * summary (report/sections.c) and `kbench contest`'s report.
 */
#ifndef KB_REPORT_CONTEST_H
#define KB_REPORT_CONTEST_H

#include <stddef.h>
#include <stdio.h>

#include "core/result.h"

struct rm_doc;

/*
 * contest's tables for the contest.* results of runs: a block per load, a
 * row per label (the median over its runs, [N]), Time with its CI, CPU%,
 * Loads, LCPU% and Ratio against the first label's noload Time; with two
 * labels or more, significance marks as compare gives them (threshold as
 * there, 0.02).  Prints nothing when the runs hold no contest result.
 * 0, or -1 without memory.
 */
int report_contest_text(FILE *out, const struct run_info *runs, size_t nruns, double threshold);
/* Whether the runs hold any contest result. */
int report_contest_has(const struct run_info *runs, size_t nruns);
/* report_contest_text's tables as a model (report/model.h), for the text and the HTML.  0 or -1. */
int report_contest_model(struct rm_doc *doc, const struct run_info *runs, size_t nruns,
			 double threshold);
/* contest's Ratio per load, grouped by label, as an SVG chart (report/svg.h).  0 or -1. */
int report_contest_chart(FILE *out, const struct run_info *runs, size_t nruns);

#endif
