/*
 * A figure's history as text, JSON and a page (report/series.c), of the
 * series judge/series.h builds.
 */
#ifndef KB_REPORT_SERIES_H
#define KB_REPORT_SERIES_H

#include <stdio.h>

#include "judge/series.h"

/* The noticed lines, then each figure that stepped point by point; host named when given. */
void report_series_text(FILE *out, const struct judge_series *s, const char *host);
/* One document for n hosts' series: "hosts", and "figures" too when n is 1.  0 or -1. */
int report_series_json(FILE *out, const struct judge_series *s, const char *const *hosts,
		       size_t n);
/* The page: the noticed lines, each figure that stepped drawn with its steps, the JSON. */
int report_series_html(FILE *out, const struct judge_series *s, const char *const *hosts,
		       size_t n);

#endif
