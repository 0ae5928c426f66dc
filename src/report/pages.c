/*
 * The pages of `kbench summary --html` and `kbench show --html`, each a
 * sequence of html.c's pieces: the runs' systems, the tables of the
 * summary's sections (report/sections.h) with the charts drawn for them,
 * the memory-latency curves, one result's samples and the run's sentinel,
 * and the data shown as JSON.  compare's page is compare.c's; html.c's
 * pieces never call back into a page.
 */
#include "report/html.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/model.h"
#include "report/report.h"
#include "report/fmt.h"
#include "report/loose.h"
#include "report/sections.h"
#include "report/svg.h"

/* The curve's series, in the order first met; at most this many are drawn. */
#define HTML_CURVE_SERIES 8

/*
 * A row's memory-latency curve (mem.lat.curve's points): a line per series,
 * the OS's data caches as dashed lines and the levels the curve showed as
 * dotted ones, points that missed their precision hollow.
 */
static void html_curve(FILE *out, const struct run_info *run, const struct result *r)
{
	struct svg_series ser[HTML_CURVE_SERIES];
	double *x = calloc(r->npoints ? r->npoints : 1, 4 * sizeof(double));
	unsigned char *missed = calloc(r->npoints ? r->npoints : 1, 1);
	struct svg_mark marks[16];
	char labels[16][48], title[256];
	struct svg_chart c = { 0 };
	size_t nser = 0, used = 0, nmarks = 0;
	struct sysinfo si;

	if (!x || !missed) {
		fputs("<p class=\"nochart\">No chart: out of memory.</p>\n", out);
		free(x);
		free(missed);
		return;
	}
	/* Each series' points together, in the stored (size) order. */
	for (size_t i = 0; i < r->npoints && nser < HTML_CURVE_SERIES; i++) {
		const char *name = r->points[i].series;
		size_t s = 0;

		while (s < nser && strcmp(ser[s].name, name) != 0)
			s++;
		if (s < nser)
			continue;
		/* The four arrays of x, each as long as all the points, hold the series one after another. */
		double *px = x + used, *py = px + r->npoints, *plo = py + r->npoints,
		       *phi = plo + r->npoints;
		unsigned char *pm = missed + used;
		size_t k = 0;

		for (size_t j = i; j < r->npoints; j++) {
			const struct result_point *p = &r->points[j];

			if (strcmp(p->series, name) != 0)
				continue;
			px[k] = p->x;
			py[k] = p->y;
			plo[k] = p->lo;
			phi[k] = p->hi;
			pm[k++] = (unsigned char)p->noisy;
		}
		ser[nser] = (struct svg_series){ name, k, px, py, plo, phi, pm };
		used += k;
		nser++;
	}
	if (report_sysinfo_parse(run->sysinfo_json, &si) == 0)
		for (int i = 0; i < si.ncaches && nmarks < 8; i++) {
			char size[16];

			if (strcmp(si.caches[i].type, "Instruction") == 0 || !si.caches[i].size)
				continue;
			report_size(size, sizeof(size), (double)si.caches[i].size, 6);
			snprintf(labels[nmarks], sizeof(labels[nmarks]), "L%d %s", si.caches[i].level,
				 size);
			marks[nmarks] = (struct svg_mark){ (double)si.caches[i].size, labels[nmarks],
							   SVG_MARK_OS };
			nmarks++;
		}
	for (int l = 1; l <= 3; l++) {
		char key[16], size[16];
		const struct bench_value *v;

		snprintf(key, sizeof(key), "l%d_detected", l);
		if (!(v = result_value(r, key)) || !(v->num > 0))
			continue;
		report_size(size, sizeof(size), v->num, 6);
		snprintf(labels[nmarks], sizeof(labels[nmarks]), "L%d found %s", l, size);
		marks[nmarks] = (struct svg_mark){ v->num, labels[nmarks], SVG_MARK_FOUND };
		nmarks++;
	}
	snprintf(title, sizeof(title), "Memory latency: %s", run->label);
	c.title = title;
	c.xlabel = "array size (bytes)";
	c.ylabel = r->unit;
	c.empty = "no points to draw";
	/* From 1 ns in L1 to hundreds in memory: by decades, or L1 is a flat line at 0. */
	c.flags = SVG_YLOG;
	if (svg_curve(out, &c, ser, nser, marks, nmarks) < 0)
		fputs("<p class=\"nochart\">No chart: out of memory.</p>\n", out);
	free(x);
	free(missed);
}

/* The charts of the summary: each row's memory-latency curve, when it has one. */
static void html_summary_charts(FILE *out, const struct run_info *rows, size_t nrows)
{
	int header = 0;

	for (size_t k = 0; k < nrows; k++)
		for (size_t i = 0; i < rows[k].nresults; i++) {
			const struct result *r = &rows[k].results[i];

			if (strcmp(r->id, "mem.lat.curve") != 0)
				continue;
			if (!header++)
				fputs("<h2 id=\"curves\">Memory latency curves</h2>\n", out);
			if (r->npoints == 0) {
				fputs("<p class=\"nochart\">", out);
				report_html_text(out, rows[k].label);
				fputs(": no curve: ", out);
				report_html_text(out, r->reason[0] ? r->reason : result_status_name(r->status));
				fputs("</p>\n", out);
				continue;
			}
			html_curve(out, &rows[k], r);
		}
}

static void html_pre(FILE *out, void (*write)(FILE *, const void *), const void *arg);

/* One summary table's chart: the labels (rows) and the table's model id. */
struct label_chart {
	const struct run_info *rows;
	size_t nrows;
	const char *table;
};

/*
 * A summary table drawn for labels side by side: a forest plot for each
 * label after the first, a row per figure of the table both measured (each
 * placement its own), its point that label's figure over the first's, its
 * interval from both figures' intervals (their half-widths in logarithms,
 * added in quadrature), filled where the interval leaves out 1, a circle
 * when better and a square when worse: which figures moved, and which way,
 * at a glance.  Nothing is tested here (compare does that); the fill says
 * only that the two intervals do not overlap by much.
 */
static void html_label_forest(FILE *out, const void *arg)
{
	const struct label_chart *lc = arg;
	const struct run_info *base = &lc->rows[0];
	const char *ids[64];
	size_t nids = report_table_ids(lc->table, ids, 64);
	struct svg_row *fr = calloc(base->nresults ? base->nresults : 1, sizeof(*fr));
	char (*names)[96] = calloc(base->nresults ? base->nresults : 1, sizeof(*names));
	char title[2 * sizeof(base->label) + 16];

	if (!fr || !names) {
		fputs("<p class=\"nochart\">No chart: out of memory.</p>\n", out);
		free(fr);
		free(names);
		return;
	}
	for (size_t s = 1; s < lc->nrows; s++) {
		const struct run_info *other = &lc->rows[s];
		struct svg_chart c = { 0 };
		size_t n = 0;

		for (size_t i = 0; i < base->nresults; i++) {
			const struct result *a = &base->results[i], *b = NULL;
			struct svg_row *r = &fr[n];
			size_t j = 0;

			while (j < nids && strcmp(ids[j], a->id) != 0)
				j++;
			if (j == nids || !(a->status == RES_OK || a->status == RES_NOISY) || !(a->median > 0))
				continue;
			for (size_t k = 0; k < other->nresults && !b; k++)
				if (result_same_instance(&other->results[k], a))
					b = &other->results[k];
			if (!b || !(b->status == RES_OK || b->status == RES_NOISY) || !(b->median > 0))
				continue;
			snprintf(names[n], sizeof(names[n]), "%s%s", a->id,
				 a->placement == PLACE_SAME ? " same" : a->placement == PLACE_SPREAD ? " spread" :
				 a->placement == PLACE_NONE ? " none" : "");
			double ha = log1p(report_rel_halfwidth(a)), hb = log1p(report_rel_halfwidth(b));
			double h = sqrt(ha * ha + hb * hb);

			*r = (struct svg_row){ names[n], b->median / a->median, NAN, NAN, 0, 0, NULL };
			if (isfinite(h)) {
				r->lo = r->ratio * exp(-h);
				r->hi = r->ratio * exp(h);
				r->signif = r->lo > 1 || r->hi < 1;
				r->better = !r->signif ? 0 : (r->ratio < 1) == (a->better == BETTER_LOWER) ? 1 : -1;
			}
			n++;
		}
		snprintf(title, sizeof(title), "%s against %s", other->label, base->label);
		c.title = title;
		c.xlabel = "label / first label (log scale)";
		c.empty = "no figure both measured";
		if (n && svg_forest(out, &c, fr, n, NULL) < 0)
			fputs("<p class=\"nochart\">No chart: out of memory.</p>\n", out);
	}
	free(fr);
	free(names);
}

struct summary_data {
	const struct run_info *runs;
	size_t nruns;
	const struct rm_doc *tables;
};

/*
 * The rates table drawn: a chart per call, a bar per label that measured
 * rates, each call on its own scale (getppid's millions and time()'s
 * hundreds of millions share no axis that shows both).
 */
static void html_rates_chart(FILE *out, const struct run_info *rows, size_t nrows)
{
	struct svg_bar *bars = calloc(nrows ? nrows : 1, sizeof(*bars));
	const char *ids[16];
	size_t nids = 0;

	if (!bars)
		return;
	for (size_t k = 0; k < nrows; k++)
		for (size_t i = 0; i < rows[k].nresults && nids < 16; i++) {
			const char *id = rows[k].results[i].id;
			size_t j = 0;

			if (strncmp(id, "rate.", 5) != 0)
				continue;
			while (j < nids && strcmp(ids[j], id) != 0)
				j++;
			if (j == nids)
				ids[nids++] = id;
		}
	if (nids)
		fputs("<h2 id=\"rates-chart\">System call rates, calls per second</h2>\n", out);
	for (size_t j = 0; j < nids; j++) {
		struct svg_bar_group g = { NULL, 0, bars };
		struct svg_chart c = { ids[j] + 5, "calls per second", NULL, "no rate to draw", 0 };

		for (size_t k = 0; k < nrows; k++) {
			const struct result *r = NULL;

			for (size_t i = 0; i < rows[k].nresults && !r; i++)
				if (strcmp(rows[k].results[i].id, ids[j]) == 0)
					r = &rows[k].results[i];
			if (!r)
				continue;
			bars[g.n] = (struct svg_bar){ rows[k].label, NAN, NAN, NAN,
						     r->status == RES_SKIP ? "skipped" : "failed" };
			if (r->status == RES_OK || r->status == RES_NOISY) {
				bars[g.n].value = r->median;
				bars[g.n].lo = r->ci_low;
				bars[g.n].hi = r->ci_high;
			}
			g.n++;
		}
		if (svg_bars(out, &c, &g, 1) < 0)
			fputs("<p class=\"nochart\">No chart: out of memory.</p>\n", out);
	}
	free(bars);
}

/* The tables of doc from the one at from on. */
static void html_tables_from(FILE *out, const struct rm_doc *doc, size_t from)
{
	for (size_t t = from; t < doc->ntables; t++)
		report_html_table(out, doc, t, NULL, NULL);
}

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
	if (report_summary_has(runs, nruns))
		report_summary_model(&doc, rows, nrows);
	/* With several labels each table leads with its chart of them against the first. */
	for (size_t t = 0; t < doc.ntables; t++) {
		struct label_chart lc = { rows, nrows, doc.tables[t].id };
		const char *ids[1];
		int drawn = nrows >= 2 && doc.tables[t].id &&
			    report_table_ids(doc.tables[t].id, ids, 1) > 0;

		report_html_table(out, &doc, t, drawn ? html_label_forest : NULL, &lc);
	}
	if (doc.oom)
		fputs("<p class=\"warn\">Some tables are not shown: out of memory.</p>\n", out);
	html_summary_charts(out, rows, nrows);
	html_rates_chart(out, rows, nrows);
	/*
	 * The other sections' tables (lmbench's, the first row, is drawn above
	 * with its charts) go on the same model, so that the JSON embedded
	 * holds every table shown; each section's heading and chart, then its
	 * tables from where they began.
	 */
	for (const struct report_section *s = report_sections + 1; s->id; s++) {
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
		html_tables_from(out, &doc, from);
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
		html_curve(out, run, r);
	else if (r)
		html_strip(out, r);
	html_sentinel(out, run);
	html_pre(out, show_text, &d);
	report_html_data(out, show_json, &d);
	report_html_end(out);
	return ferror(out) ? -1 : 0;
}
