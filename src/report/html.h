/*
 * The HTML page of summary, compare and show (`--html`): one
 * self-contained document, inline CSS and SVG, no script, nothing
 * fetched; see html.c.  The pieces are public so that each report's page
 * is its own sequence of them.
 */
#ifndef KB_REPORT_HTML_H
#define KB_REPORT_HTML_H

#include <stddef.h>
#include <stdio.h>

#include "core/result.h"

struct rm_doc;

/* s as HTML text: escaped as the text report escapes it, then &, <, >, " too. */
void report_html_text(FILE *out, const char *s);
/* The page's head, its CSS and its title as the first heading; then the end. */
void report_html_begin(FILE *out, const char *title);
void report_html_end(FILE *out);
/* Each table of the model as an HTML table, its notes in a list under it. */
void report_html_tables(FILE *out, const struct rm_doc *doc);
/* Table t of the model alone, chart(out, arg) (when not NULL) between its heading and it. */
void report_html_table(FILE *out, const struct rm_doc *doc, size_t t,
		       void (*chart)(FILE *, const void *), const void *arg);
/* A run's system table: host, OS, CPU, MHz, clock source, ..., and its warnings. */
void report_html_system(FILE *out, const struct run_info *run);
/*
 * The rows' systems as one table, a column per row (label), the fields the
 * rows differ in marked (tr.differs), then each row's warnings after its
 * name; one row alone is report_html_system's table.
 */
void report_html_systems(FILE *out, const struct run_info *rows, size_t nrows);
/* What write(mem, arg) prints, embedded as inert JSON (id "kbench-data"). */
void report_html_data(FILE *out, int (*write)(FILE *, const void *), const void *arg);

struct judge_cmp_side;
/*
 * `kbench summary --html`: first what differs between the rows (labels,
 * or runs with --each), each against the first as `kbench compare` judges
 * it, then one system table with a column per row, the summary's tables
 * and their charts, drawn by compare's verdicts; the runs themselves (rows
 * are made of them) embedded as JSON; verbose: every note on every figure,
 * as the text's -v.  The comparison takes the same runs loaded with their
 * samples (sampled; a row's by its label, or with --each, rows == runs, by
 * its id) and the hosts' other sittings (history; NULL: none), as compare
 * loads them.  0, or -1 on a write error.
 */
int report_html_summary(FILE *out, const struct run_info *rows, size_t nrows,
			const struct run_info *runs, size_t nruns, int verbose,
			const struct run_info *sampled, size_t nsampled,
			const struct judge_cmp_side *history);

/*
 * `kbench show ID --html`: the run's system table, the result's chart (a
 * curve's lines, else its samples as a strip plot with the median and its
 * interval), the run's sentinel timeline when it has one, the text show
 * prints, and the result as JSON.  ID "sentinel": the timeline alone.
 */
int report_html_show(FILE *out, const struct run_info *run, const char *id);

#endif
