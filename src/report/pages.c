/*
 * The pages of `kbench summary --html` and `kbench show --html`, each a
 * sequence of html.c's pieces: the runs' systems, the tables of the
 * summary's sections (report/sections.h) with the charts drawn for them,
 * the memory-latency curves, one result's samples and the run's sentinel,
 * and the data shown as JSON.  compare's page is compare.c's; html.c's
 * pieces never call back into a page.
 */
#include "report/html.h"
#include "report/lmpage.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/model.h"
#include "report/report.h"
#include "report/sections.h"
#include "report/svg.h"

struct summary_data {
	const struct run_info *runs;
	size_t nruns;
	const struct rm_doc *tables;
};

static int summary_json(FILE *out, const void *arg)
{
	const struct summary_data *d = arg;

	return report_summary_json(out, NULL, d->runs, d->nruns, d->tables);
}

int report_html_summary(FILE *out, const struct run_info *rows, size_t nrows,
			const struct run_info *runs, size_t nruns, int verbose)
{
	struct rm_doc doc = { .verbose = verbose };
	struct summary_data d = { runs, nruns, &doc };

	report_html_begin(out, "kbench summary");
	for (size_t k = 0; k < nrows; k++)
		report_html_system(out, &rows[k]);
	/*
	 * Each section the runs hold, as sections.c's table says: its heading
	 * and chart, its tables (each with its chart of the rows side by side),
	 * what it draws after them.  Every section's tables go on the one
	 * model, so that the JSON embedded holds every table shown.
	 */
	for (const struct report_section *s = report_sections; s->id; s++) {
		size_t from = doc.ntables;

		if (!s->has(runs, nruns))
			continue;
		if (s->heading)
			fprintf(out, "%s\n", s->heading);
		if (s->chart && s->chart(out, runs, nruns) < 0)
			fputs("<p class=\"nochart\">No chart: out of memory.</p>\n", out);
		if (s->model(&doc, rows, nrows, runs, nruns) < 0) {
			fputs("<p class=\"warn\">", out);
			report_html_text(out, s->what);
			fputs(" are not shown: out of memory.</p>\n", out);
		}
		for (size_t t = from; t < doc.ntables; t++) {
			struct report_table_chart tc = { rows, nrows, doc.tables[t].id };

			report_html_table(out, &doc, t, s->table_chart, &tc);
		}
		if (s->after)
			s->after(out, rows, nrows);
	}
	report_html_data(out, summary_json, &d);
	report_html_end(out);
	rm_doc_free(&doc);
	return ferror(out) ? -1 : 0;
}

/* What a text writer printed, as the page shows it: preformatted, escaped. */
static void html_pre(FILE *out, void (*write)(FILE *, const void *), const void *arg)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	if (!mem)
		return;
	write(mem, arg);
	if (fclose(mem) == 0 && text && text[0]) {
		fputs("<pre class=\"text\">", out);
		/* Line by line: a newline would be escaped like any control character. */
		for (char *line = text, *nl; line && *line; line = nl ? nl + 1 : NULL) {
			if ((nl = strchr(line, '\n')) != NULL)
				*nl = '\0';
			report_html_text(out, line);
			fputc('\n', out);
		}
		fputs("</pre>\n", out);
	}
	free(text);
}

struct show_data {
	const struct run_info *run;
	const char *id;
};

static void show_text(FILE *out, const void *arg)
{
	const struct show_data *d = arg;

	if (strcmp(d->id, "sentinel") == 0)
		report_show_sentinel_text(out, d->run);
	else
		report_show_text(out, d->run, d->id);
}

static int show_json(FILE *out, const void *arg)
{
	const struct show_data *d = arg;

	return report_show_json(out, d->run, d->id);
}

/* The samples of r as a strip: each at its time, the median and its interval across. */
static void html_strip(FILE *out, const struct result *r)
{
	double *x = r->n ? calloc(r->n, sizeof(double)) : NULL;
	struct svg_samples sm = { r->n, NULL, r->samples, r->median, r->ci_low, r->ci_high };
	struct svg_chart c = { 0 };
	char title[160];

	if (x && r->where) {
		for (size_t i = 0; i < r->n; i++)
			x[i] = r->where[i].t;
		sm.x = x;
	}
	snprintf(title, sizeof(title), "%s: %zu samples, the median and its 95%% interval", r->id,
		 r->n);
	c.title = title;
	c.xlabel = sm.x ? "time in the run (s)" : "sample";
	c.ylabel = r->unit;
	c.empty = r->reason[0] ? r->reason : "no samples stored";
	if (svg_strip(out, &c, &sm) < 0)
		fputs("<p class=\"nochart\">No chart: out of memory.</p>\n", out);
	free(x);
}

/* The run's sentinel: one getppid through the run, where each was timed. */
static void html_sentinel(FILE *out, const struct run_info *run)
{
	double *x = run->nsentinel ? calloc(2 * run->nsentinel, sizeof(double)) : NULL;
	struct svg_samples sm = { run->nsentinel, x, x ? x + run->nsentinel : NULL, NAN, NAN, NAN };
	struct svg_chart c = { 0 };

	if (!run->nsentinel)
		return;
	if (!x) {
		fputs("<p class=\"nochart\">No chart: out of memory.</p>\n", out);
		return;
	}
	for (size_t i = 0; i < run->nsentinel; i++) {
		x[i] = run->sentinel[i].t;
		x[run->nsentinel + i] = run->sentinel[i].sys_ns;
	}
	c.title = "The sentinel: one getppid() around each replica, the machine's speed";
	c.xlabel = "time in the run (s)";
	c.ylabel = "ns";
	c.empty = "no sentinel point to draw";
	if (svg_strip(out, &c, &sm) < 0)
		fputs("<p class=\"nochart\">No chart: out of memory.</p>\n", out);
	free(x);
}

int report_html_show(FILE *out, const struct run_info *run, const char *id)
{
	struct show_data d = { run, id };
	const struct result *r = NULL;
	char title[160];

	for (size_t i = 0; i < run->nresults && !r; i++)
		if (strcmp(run->results[i].id, id) == 0)
			r = &run->results[i];
	snprintf(title, sizeof(title), "kbench show %s", id);
	report_html_begin(out, title);
	report_html_system(out, run);
	if (r && r->npoints)
		lm_page_curve(out, run, r);
	else if (r)
		html_strip(out, r);
	html_sentinel(out, run);
	html_pre(out, show_text, &d);
	report_html_data(out, show_json, &d);
	report_html_end(out);
	return ferror(out) ? -1 : 0;
}
