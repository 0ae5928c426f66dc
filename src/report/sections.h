#ifndef KB_REPORT_SECTIONS_H
#define KB_REPORT_SECTIONS_H

#include <stddef.h>
#include <stdio.h>

#include "core/result.h"

struct rm_doc;
/*
 * The sections of a summary (report/sections.c), in order, the table the
 * text, the JSON and the page of `kbench summary` walk: lmbench's part
 * (its seven tables, the rates, AIM9, the other results), contest's, the
 * timed jobs', the clock sources'.  Each: whether the runs hold it; its
 * tables on a model, lmbench's of the rows (a label's runs merged, or the
 * runs with --each) and the others' of the runs; the page's heading and
 * chart before its tables (NULL: none); what its tables are called when
 * the page cannot show them; the chart the page draws with each of its
 * tables (arg a report_table_chart; NULL: none) and what it draws after
 * them, of the rows (NULL: nothing).  The list ends with a NULL id.
 */
struct report_section {
	const char *id;
	int (*has)(const struct run_info *runs, size_t nruns);
	int (*model)(struct rm_doc *doc, const struct run_info *rows, size_t nrows,
		     const struct run_info *runs, size_t nruns);
	const char *heading;
	int (*chart)(FILE *out, const struct run_info *runs, size_t nruns);
	const char *what;
	void (*table_chart)(FILE *out, const void *arg);
	void (*after)(FILE *out, const struct run_info *rows, size_t nrows);
};

struct judge_cmp_side;
struct judge_cmp_row;
/*
 * A table's chart on the page: the rows (labels) side by side, the table's
 * model id, and the rows compared as `kbench compare` compares them (the
 * first nsides rows, each a side; cmp NULL: not compared), whose verdicts
 * the charts show.
 */
struct report_table_chart {
	const struct run_info *rows;
	size_t nrows;
	const char *table;
	const struct judge_cmp_side *sides;
	size_t nsides;
	const struct judge_cmp_row *cmp;
	size_t ncmp;
};
extern const struct report_section report_sections[];
/* Every section the runs hold, on doc.  0, or -1 without memory. */
int report_sections_model(struct rm_doc *doc, const struct run_info *rows, size_t nrows,
			  const struct run_info *runs, size_t nruns);
/* Every section the runs hold as text, a blank line between; the CPUs' notes under lmbench's. */
int report_sections_text(FILE *out, const struct run_info *rows, size_t nrows,
			 const struct run_info *runs, size_t nruns, int verbose);

#endif
