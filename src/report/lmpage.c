/*
 * What the summary page draws for lmbench's section (sections.c's first
 * row): each table, when labels stand side by side, as a forest plot of
 * every label against the first; then each row's memory-latency curve and
 * the system call rates.  The show page draws a curve with the same
 * function.  It calls html.c's and svg.c's pieces, never a page.
 */
#include "report/lmpage.h"
#include "report/fmt.h"
#include "report/html.h"
#include "judge/loose.h"
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
void lm_page_forest(FILE *out, const void *arg)
{
	const struct report_table_chart *lc = arg;
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
			if (j == nids || !(a->status == RES_OK || a->status == RES_NOISY) || !(result_figure(a) > 0))
				continue;
			for (size_t k = 0; k < other->nresults && !b; k++)
				if (result_same_instance(&other->results[k], a))
					b = &other->results[k];
			if (!b || !(b->status == RES_OK || b->status == RES_NOISY) || !(result_figure(b) > 0))
				continue;
			snprintf(names[n], sizeof(names[n]), "%s%s", a->id,
				 a->placement == PLACE_SAME ? " same" : a->placement == PLACE_SPREAD ? " spread" :
				 a->placement == PLACE_NONE ? " none" : "");
			double ha = log1p(judge_rel_halfwidth(a)), hb = log1p(judge_rel_halfwidth(b));
			double h = sqrt(ha * ha + hb * hb);

			*r = (struct svg_row){ names[n], result_figure(b) / result_figure(a), NAN, NAN, 0, 0, NULL };
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
		c.flags = SVG_UNTESTED;
		if (n && svg_forest(out, &c, fr, n, NULL) < 0)
			fputs("<p class=\"nochart\">No chart: out of memory.</p>\n", out);
	}
	free(fr);
	free(names);
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
	lm_page_rates(out, rows, nrows);
}
