/*
 * The page's drawings of lmbench's section of a summary (report/lmpage.c),
 * which sections.c's table names for the page to call.
 */
#ifndef KB_REPORT_LMPAGE_H
#define KB_REPORT_LMPAGE_H

#include <stddef.h>
#include <stdio.h>

#include "core/result.h"

/* A row's memory-latency curve: r its mem.lat.curve, with its points. */
void lm_page_curve(FILE *out, const struct run_info *run, const struct result *r);
/* One of lmbench's tables for several labels: each against the first (arg a report_table_chart). */
void lm_page_forest(FILE *out, const void *arg);
/* What the page draws after lmbench's tables: each row's curve, then the rates. */
void lm_page_after(FILE *out, const struct run_info *rows, size_t nrows);

#endif
