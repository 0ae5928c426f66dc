/*
 * `kbench compare`'s tables, page and JSON (src/report/compare_out.c), of
 * the comparison judge/compare.h builds.
 */
#ifndef KB_REPORT_COMPARE_H
#define KB_REPORT_COMPARE_H

#include <stddef.h>
#include <stdio.h>

#include "judge/compare.h"
#include "report/svg.h"

/*
 * The mark the text puts after other side s's change in a row: '*'
 * significant, '=' unchanged (its interval inside the threshold), '?' not
 * compared (cache levels found apart), ' ' cannot tell.  The one verdict
 * every writer shows: the text's column, the compare page's and the
 * summary page's charts (report_compare_verdict).
 */
char report_compare_mark(const struct judge_cmp_row *row, size_t side);
/* That mark as a chart draws it: '*' better or worse by the cell's direction. */
enum svg_verdict report_compare_verdict(const struct judge_cmp_row *row, size_t side);
/* A row's instance in full, as the text names it: "ctx.2p.0k none", "time.make -j4". */
void report_compare_row_name(const struct judge_cmp_row *row, char *buf, size_t size);
/* report_compare_forest's pick of what changed: the rows marked * against side s. */
int report_compare_pick_marked(const struct judge_cmp_row *row, size_t s, const void *arg);
/*
 * The forest plot of side s against the base: a row per compared row that
 * pick takes (of its arg), its point the text's change and its interval
 * the test's, drawn by its verdict; foot under it (svg_forest).  For the
 * summary page too, which draws its tables' rows by compare's judgement.
 * 0, or -1 without memory or on a write error.
 */
int report_compare_forest(FILE *out, const struct judge_cmp_row *rows, size_t nrows, size_t s,
			  int (*pick)(const struct judge_cmp_row *, size_t, const void *),
			  const void *arg, const struct svg_chart *c, const char *const *foot,
			  size_t nfoot);

/*
 * `compare --curves`: each curve the base and another side measured
 * (mem.lat.curve), point by point: the median of the runs' y at each size
 * and series, the change against the base, and * where Welch on the runs'
 * logarithms (3 runs a side or more), corrected with Benjamini-Hochberg
 * over the curve's points, finds it significant (as for the rows: at least
 * the threshold, neither side noisy, marked !).  0, or -1 without memory.
 */
int report_compare_curves(FILE *out, const struct judge_cmp_side *sides, size_t nsides,
			  double threshold);
/*
 * The comparison's tables (one model, compare_out.c's cmp_model, which the
 * text, the page and the JSON's "tables" render): the legend, then a
 * section at a time, a row per instance.  0, or -1 without memory.
 */
int report_compare_text(FILE *out, const struct judge_cmp_side *sides, size_t nsides,
			const struct judge_cmp_row *rows, size_t nrows, double threshold,
			unsigned flags);
/*
 * The same table as one JSON document, rows in the text's order and only
 * the rows the text prints (instances the base shares with some other):
 *   {header (jsonw.h), "base": name, "sides": [{"name", "nruns", "sentinel_sys_ns",
 *    "sentinel_user_ns", "sentinel_sys_shift", "sentinel_user_shift"}],
 *    "threshold": 0.02, "as_measured": false, "correction": "benjamini-hochberg", "alpha": 0.05,
 *    "rows": [{"id", "placement" (null: none), "parallel", "unit", "better",
 *              "section": title, "cells": [cell, base's first]}],
 *    "sections": [{"title", "side", "ncompared", "geomean", "nbetter",
 *                  "nworse", "nunchanged", "ncannot_tell"}],
 *    "tables": the tables the text prints, as summary --json's, with curves
 *              (--curves) report_compare_curves' after them}
 * A cell is {"side", "present", "nruns", "level", "level_low",
 * "level_high", "noisy"}, and for an other also "change", "ratio",
 * "ratio_ci_low", "ratio_ci_high", "test" ("welch-log-runs",
 * "welch-log-replicas", "mann-whitney-samples" or null), "p", "p_adj",
 * "significant", "verdict", "improved" (doc/json.md).  "sections" has one entry
 * per printed section and other side: the text's closing line, which
 * speaks of the first other only, for each.  A figure that does not exist
 * is null.  0, or -1 when the document cannot be built or written.
 */
/*
 * `compare --html`: the page of the same tables, a forest plot per
 * section, with curves the curves' tables after them (report/html.h).  0, or -1.
 */
int report_compare_html(FILE *out, const struct judge_cmp_side *sides, size_t nsides,
			const struct judge_cmp_row *rows, size_t nrows, double threshold,
			unsigned flags, int curves);
int report_compare_json(FILE *out, const struct judge_cmp_side *sides, size_t nsides,
			const struct judge_cmp_row *rows, size_t nrows, double threshold,
			unsigned flags, int curves);

#endif
