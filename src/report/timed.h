/*
 * The timed jobs' tables and chart (src/report/timed.c), a section of the
 * summary (report/sections.c) and `kbench time`'s report.
 */
#ifndef KB_REPORT_TIMED_H
#define KB_REPORT_TIMED_H

#include <stddef.h>
#include <stdio.h>

#include "core/result.h"

struct rm_doc;

/*
 * The tables of the time.* results of runs: "Timed jobs" (a row per label
 * and configuration: real, user, sys and CPU% with their intervals over
 * the runs), the scaling of a -j sweep, each copy of a run of copies, and
 * with longfmt BSD time -l's rusage figures.  Nothing when there are none;
 * -1 without memory.
 */
int report_timed_text(FILE *out, const struct run_info *runs, size_t nruns, int longfmt);
/*
 * BSD time's line for one job, right-aligned as in the threads kbench grew
 * from: "     9611.42 real      6149.87 user      2613.20 sys"; below a second
 * with four decimals ("      0.0012 real ...").
 */
void report_time_line(char *buf, size_t len, double real, double user, double sys);
/* Whether the runs hold any timed job's result. */
int report_timed_has(const struct run_info *runs, size_t nruns);
/* report_timed_text's tables as a model (report/model.h), for the text and the HTML.  0 or -1. */
int report_timed_model(struct rm_doc *doc, const struct run_info *runs, size_t nruns,
		       int longfmt);
/* The timed jobs' real time per configuration, grouped by job and label, as SVG.  0 or -1. */
int report_timed_chart(FILE *out, const struct run_info *runs, size_t nruns);

#endif
