/*
 * The sections of a summary, in one table: which parts `kbench summary`
 * shows (lmbench's tables with the rates, AIM9 and the other results;
 * contest's; the timed jobs'; the clock sources'), whether the runs hold
 * each, how each is built (its tables on the one model the text, the JSON
 * and the page are written from) and what the page draws before its
 * tables, with each and after them.  The text, the JSON and the page walk this table; a new part
 * of the summary is a row here, not a branch in each of them.
 */
#include "report/report.h"
#include "report/clocks.h"
#include "report/contest.h"
#include "report/notes.h"
#include "report/timed.h"
#include "report/sections.h"
#include "report/html.h"
#include "report/lmpage.h"
#include "report/model.h"

#include <stdio.h>

/* lmbench's part holds every figure that is not a section of its own. */
static int sec_lmbench_model(struct rm_doc *doc, const struct run_info *rows, size_t nrows,
			     const struct run_info *runs, size_t nruns)
{
	(void)runs;
	(void)nruns;
	report_summary_model(doc, rows, nrows);
	return doc->oom ? -1 : 0;
}

/* contest's, the timed jobs' and the clocks': their tables of the runs, by label themselves. */
static int sec_contest_model(struct rm_doc *doc, const struct run_info *rows, size_t nrows,
			     const struct run_info *runs, size_t nruns)
{
	(void)rows;
	(void)nrows;
	return report_contest_model(doc, runs, nruns, 0.02);
}

static int sec_timed_model(struct rm_doc *doc, const struct run_info *rows, size_t nrows,
			   const struct run_info *runs, size_t nruns)
{
	(void)rows;
	(void)nrows;
	return report_timed_model(doc, runs, nruns, 0);
}

static int sec_clocks_model(struct rm_doc *doc, const struct run_info *rows, size_t nrows,
			    const struct run_info *runs, size_t nruns)
{
	(void)rows;
	(void)nrows;
	return report_clocks_model(doc, runs, nruns);
}

const struct report_section report_sections[] = {
	{ "lmbench", report_summary_has, sec_lmbench_model, NULL, NULL, "Some tables",
	  lm_page_forest, lm_page_after },
	{ "contest", report_contest_has, sec_contest_model, "<h2 id=\"contest\">contest</h2>",
	  report_contest_chart, "contest's tables", NULL, NULL },
	{ "timed", report_timed_has, sec_timed_model, "<h2 id=\"timed-chart\">Timed jobs</h2>",
	  report_timed_chart, "The timed jobs' tables", NULL, NULL },
	{ "clocks", report_clocks_has, sec_clocks_model, NULL, NULL, "The clock sources' tables",
	  NULL, NULL },
	{ NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL },
};

int report_sections_model(struct rm_doc *doc, const struct run_info *rows, size_t nrows,
			  const struct run_info *runs, size_t nruns)
{
	int rc = 0;

	for (const struct report_section *s = report_sections; s->id; s++)
		if (s->has(runs, nruns))
			rc |= s->model(doc, rows, nrows, runs, nruns);
	return rc;
}

int report_sections_text(FILE *out, const struct run_info *rows, size_t nrows,
			 const struct run_info *runs, size_t nruns, int verbose)
{
	int shown = 0, rc = 0;

	for (const struct report_section *s = report_sections; s->id; s++) {
		struct rm_doc doc = { .verbose = verbose };

		if (!s->has(runs, nruns))
			continue;
		/* A blank line between sections, as between lmbench's tables. */
		if (shown++)
			fputc('\n', out);
		if (s->model(&doc, rows, nrows, runs, nruns) < 0)
			rc = -1;
		else
			rm_write_text(out, &doc);
		rm_doc_free(&doc);
		/* The runs' CPUs, under lmbench's tables as under run's. */
		if (s == report_sections)
			report_cpus_notes(out, rows, nrows);
	}
	return rc;
}
