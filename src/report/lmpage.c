/*
 * What the summary page draws for lmbench's section (sections.c's first
 * row): each table, when labels stand side by side, as a forest plot of
 * every label against the first; then each row's memory-latency curve and
 * the system call rates.  The show page draws a curve with the same
 * function.  It calls html.c's and svg.c's pieces, never a page.
 */
#include "report/lmpage.h"
#include "report/curve.h"
#include "report/fmt.h"
#include "report/html.h"
#include "report/compare.h"
#include "report/report.h"
#include "report/sections.h"
#include "report/svg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The curve's series, in the order first met; at most this many are drawn. */
#define LM_PAGE_CURVE_SERIES 8

/*
 * A row's memory-latency curve (mem.lat.curve's points): a line per series,
 * the OS's data caches as dashed lines and the levels the curve showed as
 * dotted ones, points that missed their precision hollow.
 */
void lm_page_curve(FILE *out, const struct run_info *run, const struct result *r)
{
	struct svg_series ser[LM_PAGE_CURVE_SERIES];
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
	for (size_t i = 0; i < r->npoints && nser < LM_PAGE_CURVE_SERIES; i++) {
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

/* Each row's memory-latency curve, when it has one. */
static void lm_page_curves(FILE *out, const struct run_info *rows, size_t nrows)
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
			lm_page_curve(out, &rows[k], r);
		}
}

/* A table's figures: its ids (report_table_ids). */
struct lm_ids {
	const char **ids;
	size_t n;
};

/* Whether a compared row is one of the table's figures (arg a struct lm_ids). */
static int lm_page_pick(const struct judge_cmp_row *row, size_t s, const void *arg)
{
	const struct lm_ids *t = arg;

	(void)s;
	for (size_t i = 0; i < t->n; i++)
		if (strcmp(t->ids[i], row->key->id) == 0)
			return 1;
	return 0;
}

/*
 * A summary table drawn for labels side by side: a forest plot for each
 * label after the first, a row per figure of the table that compare
 * compared (each placement its own), drawn as `kbench compare FIRST ...`
 * draws it, its change, interval and verdict compare's own
 * (report_compare_forest): which figures moved, and which way, at a
 * glance, and never a judgement the text does not make.
 */
void lm_page_forest(FILE *out, const void *arg)
{
	const struct report_table_chart *lc = arg;
	const char *ids[64];
	struct lm_ids t = { ids, report_table_ids(lc->table, ids, 64) };
	char title[2 * sizeof(lc->rows->label) + 80];
	int any = 0;

	/*
	 * Without a comparison (the page said why at its top) nothing is
	 * drawn, as for a table compare has no row of (Basic system
	 * parameters): a chart of another judgement than compare's is what
	 * this must never draw.
	 */
	for (size_t k = 0; lc->cmp && k < lc->ncmp && !any; k++)
		any = lc->cmp[k].common && lm_page_pick(&lc->cmp[k], 0, &t);
	if (!any)
		return;
	for (size_t s = 1; s < lc->nrows; s++) {
		struct svg_chart c = { 0 };

		if (s >= lc->nsides) {
			snprintf(title, sizeof(title), "%s against %s", lc->rows[s].label,
				 lc->rows[0].label);
			fputs("<p class=\"nochart\">", out);
			report_html_text(out, title);
			fprintf(out, ": not compared (compare takes %d sides at most)</p>\n",
				JUDGE_CMP_MAX_SIDES);
			continue;
		}
		/* The sides' names: with --each, runs of one label told apart by their ids. */
		snprintf(title, sizeof(title), "%s against %s", lc->sides[s].name, lc->sides[0].name);
		c.title = title;
		c.xlabel = "label / first label (log scale)";
		c.empty = "no figure both measured";
		if (report_compare_forest(out, lc->cmp, lc->ncmp, s, lm_page_pick, &t, &c,
					  NULL, 0) < 0)
			fputs("<p class=\"nochart\">No chart: out of memory.</p>\n", out);
	}
}

/*
 * The rates table drawn: a chart per call, a bar per label that measured
 * rates, each call on its own scale (getppid's millions and time()'s
 * hundreds of millions share no axis that shows both).
 */
static void lm_page_rates(FILE *out, const struct run_info *rows, size_t nrows)
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
				bars[g.n].value = result_figure(r);
				result_figure_ci(r, &bars[g.n].lo, &bars[g.n].hi);
			}
			g.n++;
		}
		if (svg_bars(out, &c, &g, 1) < 0)
			fputs("<p class=\"nochart\">No chart: out of memory.</p>\n", out);
	}
	free(bars);
}

void lm_page_after(FILE *out, const struct run_info *rows, size_t nrows)
{
	lm_page_curves(out, rows, nrows);
	curve_page(out, rows, nrows);
	lm_page_rates(out, rows, nrows);
}
