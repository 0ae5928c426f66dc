/*
 * Scalability curves (the scale.* figures): a run's points of one
 * operation and task shape in task order, each with the line the 1-task
 * figure extends to and the share of it reached, for the summary's table,
 * the JSON, the CSV, the page's chart and compare's line on where two
 * curves part.  Nothing here measures or reads the database.
 */
#ifndef KB_REPORT_CURVE_H
#define KB_REPORT_CURVE_H

#include <stddef.h>
#include <stdio.h>

#include "core/result.h"

struct rm_doc;

/* One point: a task count's figure, and what linear scaling would give there. */
struct curve_point {
	int tasks;
	double rate, lo, hi;		/* ops/s and its 95% interval */
	double linear;			/* tasks x the 1-task figure; NaN without one */
	double efficiency;		/* rate / linear, a fraction; NaN without one */
	const struct result *r;		/* the point's result */
};

/* The most points a curve has (SCALE_MAX_TASKS). */
#define CURVE_MAX_POINTS 64

/*
 * Take apart scale.<op>.<proc|thread>.<tasks>: 0 with the length of the
 * curve's name (the id up to the last dot) and the task count, or -1 for
 * any other id.
 */
int curve_id(const char *id, size_t *len, int *tasks);
/* Whether id is a point of a curve. */
int curve_is(const char *id);

/*
 * Linear and efficiency of n points in task order, from the point of 1
 * task among them (none: NaN for all).
 */
void curve_fill(struct curve_point *p, size_t n);

/*
 * The usable points of run whose curve is name (len bytes of it), in
 * task order, linear and efficiency filled: their count (at most max).
 */
size_t curve_points(const struct run_info *run, const char *name, size_t len,
		    struct curve_point *p, size_t max);

/* The point r is within run, filled as curve_points fills it: 0, or -1 when r is none. */
int curve_point_of(const struct run_info *run, const struct result *r, struct curve_point *pt);

/* The summary's table of every curve of the runs, a group a run and curve. */
void curve_model(struct rm_doc *doc, const struct run_info *runs, size_t nruns);

/* The page's charts: a curve's runs and the base run's linear line, a chart a curve. */
void curve_page(FILE *out, const struct run_info *rows, size_t nrows);

#endif
