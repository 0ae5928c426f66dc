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

#include "report/compare.h"
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

/* A side's name: a label, or with --each "run 7 (label)". */
#define SUMMARY_NAME (sizeof(((struct run_info *)0)->label) + 32)

/*
 * The rows compared as `kbench compare ROW1 ROW2 ...` compares them: each
 * row a side, of the runs behind it (of sampled: a label's, or with
 * --each, where rows are the runs, the run of its id), the first eight rows
 * (compare's most).  sides[k].runs point into *bufp, which holds shallow
 * copies of the runs (nothing in them is freed twice).  0, or -1 without
 * memory.
 */
static int summary_compare(const struct run_info *rows, size_t nrows, int each,
			   const struct run_info *runs, size_t nruns,
			   const struct judge_cmp_side *history, struct judge_cmp_side *sides,
			   char (*names)[SUMMARY_NAME], size_t *nsides, struct run_info **bufp,
			   struct judge_cmp_row **cmp, size_t *ncmp)
{
	size_t n = nrows < JUDGE_CMP_MAX_SIDES ? nrows : JUDGE_CMP_MAX_SIDES, used = 0;
	struct run_info *buf = malloc((nruns ? nruns : 1) * sizeof(*buf));

	*bufp = buf;
	*nsides = 0;
	if (!buf)
		return -1;
	for (size_t k = 0; k < n; k++) {
		size_t from = used;

		for (size_t i = 0; i < nruns; i++)
			if (each ? runs[i].id == rows[k].id : strcmp(runs[i].label, rows[k].label) == 0)
				buf[used++] = runs[i];
		/* With --each, runs of one label are told apart by their ids, as compare names them. */
		if (each)
			snprintf(names[k], SUMMARY_NAME, "run %lld (%s)", (long long)rows[k].id,
				 rows[k].label);
		else
			snprintf(names[k], SUMMARY_NAME, "%s", rows[k].label);
		sides[k] = (struct judge_cmp_side){ names[k], buf + from, used - from };
	}
	*nsides = n;
	return judge_compare_build_history(sides, n, JUDGE_CMP_THRESHOLD, 0, history, cmp, ncmp);
}

/*
 * What differs between the rows, first: for each row after the first,
 * what compare marks against it (report_compare_pick_marked) as a forest
 * plot, after a line counting its verdicts over every figure.
 */
static void summary_differs(FILE *out, const struct judge_cmp_side *sides, size_t nsides,
			    const struct judge_cmp_row *cmp, size_t ncmp)
{
	fputs("<h2 id=\"differs\">What differs</h2>\n<p class=\"legend\">Each label against the "
	      "first, as <code>kbench compare</code> judges it (a change of at least ", out);
	fprintf(out, "%.0f%%, significant after Benjamini-Hochberg): the changes it marks; the "
		"tables below draw every figure.</p>\n", JUDGE_CMP_THRESHOLD * 100);
	for (size_t s = 1; s < nsides; s++) {
		size_t better = 0, worse = 0, same = 0, untold = 0, not = 0;
		char title[2 * SUMMARY_NAME + 32];
		struct svg_chart c = { 0 };

		for (size_t k = 0; k < ncmp; k++) {
			if (!cmp[k].common || !cmp[k].cell[s].present)
				continue;
			switch (report_compare_verdict(&cmp[k], s)) {
			case SVG_BETTER: better++; break;
			case SVG_WORSE: worse++; break;
			case SVG_UNCHANGED: same++; break;
			case SVG_NOT_COMPARED: not++; break;
			default: untold++; break;
			}
		}
		fputs("<p class=\"differs\"><b>", out);
		report_html_text(out, sides[s].name);
		fputs("</b> against <b>", out);
		report_html_text(out, sides[0].name);
		fprintf(out, "</b>: %zu better, %zu worse, %zu unchanged, %zu cannot tell", better, worse,
			same, untold);
		if (not)
			fprintf(out, ", %zu not compared", not);
		fputs("</p>\n", out);
		snprintf(title, sizeof(title), "marked changes: %s against %s", sides[s].name,
			 sides[0].name);
		c.title = title;
		c.xlabel = "label / first label (log scale)";
		c.empty = "no change marked";
		if (report_compare_forest(out, cmp, ncmp, s, report_compare_pick_marked, NULL, &c,
					  NULL, 0) < 0)
			fputs("<p class=\"nochart\">No chart: out of memory.</p>\n", out);
	}
}

int report_html_summary(FILE *out, const struct run_info *rows, size_t nrows,
			const struct run_info *runs, size_t nruns, int verbose,
			const struct run_info *sampled, size_t nsampled,
			const struct judge_cmp_side *history)
{
	struct rm_doc doc = { .verbose = verbose };
	struct summary_data d = { runs, nruns, &doc };
	struct judge_cmp_side sides[JUDGE_CMP_MAX_SIDES];
	char names[JUDGE_CMP_MAX_SIDES][SUMMARY_NAME];
	struct judge_cmp_row *cmp = NULL;
	struct run_info *buf = NULL;
	size_t nsides = 0, ncmp = 0;
	int compared = 0;

	report_html_begin(out, "kbench summary");
	if (nrows > 1) {
		if (!sampled) {
			sampled = runs;
			nsampled = nruns;
		}
		compared = summary_compare(rows, nrows, rows == runs, sampled, nsampled, history, sides,
					   names, &nsides, &buf, &cmp, &ncmp) == 0;
		if (compared)
			summary_differs(out, sides, nsides, cmp, ncmp);
		else
			fputs("<p class=\"warn\">The labels could not be compared.</p>\n", out);
	}
	report_html_systems(out, rows, nrows);
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
			struct report_table_chart tc = { rows, nrows, doc.tables[t].id, sides, nsides,
							 compared ? cmp : NULL, ncmp };

			report_html_table(out, &doc, t, s->table_chart, &tc);
		}
		if (s->after)
			s->after(out, rows, nrows);
	}
	report_html_data(out, summary_json, &d);
	report_html_end(out);
	rm_doc_free(&doc);
	free(cmp);
	free(buf);
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

/*
 * The samples of r as a strip: a column per replica, in the order taken,
 * each replica's samples in theirs across it (where the run kept which
 * replica took each; else each sample at its index), the median and its
 * interval across, on an axis of the samples' typical range (svg_strip).
 */
static void html_strip(FILE *out, const struct result *r)
{
	int *group = r->n && r->where ? calloc(r->n, sizeof(int)) : NULL;
	struct svg_samples sm = { r->n, NULL, r->samples, r->median, r->ci_low, r->ci_high, NULL };
	struct svg_chart c = { 0 };
	char title[160];
	int nrep = 0;

	if (group) {
		for (size_t i = 0; i < r->n; i++) {
			group[i] = r->where[i].replica;
			nrep = group[i] + 1 > nrep ? group[i] + 1 : nrep;
		}
		sm.group = group;
	}
	if (group)
		snprintf(title, sizeof(title), "%s: %zu samples in %d replica%s, the median and its 95%% "
			 "interval", r->id, r->n, nrep, nrep == 1 ? "" : "s");
	else
		snprintf(title, sizeof(title), "%s: %zu samples, the median and its 95%% interval", r->id,
			 r->n);
	c.title = title;
	c.xlabel = group ? "replica, its samples in the order taken" : "sample";
	c.ylabel = r->unit;
	c.empty = r->reason[0] ? r->reason : "no samples stored";
	if (svg_strip(out, &c, &sm) < 0)
		fputs("<p class=\"nochart\">No chart: out of memory.</p>\n", out);
	free(group);
}

/* The run's sentinel: one getppid through the run, where each was timed. */
static void html_sentinel(FILE *out, const struct run_info *run)
{
	double *x = run->nsentinel ? calloc(2 * run->nsentinel, sizeof(double)) : NULL;
	struct svg_samples sm = { run->nsentinel, x, x ? x + run->nsentinel : NULL, NAN, NAN, NAN,
				  NULL };
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
