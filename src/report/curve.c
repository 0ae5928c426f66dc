/*
 * The scalability curves: the scale.* points of a run gathered by curve
 * (operation and task shape) in task order, with the linear extension of
 * the 1-task figure (what n tasks would get if nothing were shared) and
 * the efficiency, the share of it reached, as will-it-scale's plots put
 * the measured line beside the linear one.  Efficiency is of the levels
 * themselves: the interval is the figure's, not the ratio's.
 */
#include "report/curve.h"
#include "report/fmt.h"
#include "report/html.h"
#include "report/lmbench.h"
#include "report/model.h"
#include "report/svg.h"
#include "report/text.h"
#include "bench/scale.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CURVE_TASKS_W 5
#define CURVE_RATE_W 11
#define CURVE_CI_W 21
#define CURVE_LINEAR_W 11
#define CURVE_EFF_W 11

int curve_id(const char *id, size_t *len, int *tasks)
{
	size_t plen = strlen(SCALE_PREFIX);
	const char *dot = strrchr(id, '.'), *mode;
	char *end;
	long n;

	if (strncmp(id, SCALE_PREFIX, plen) != 0 || !dot || dot[1] < '1' || dot[1] > '9')
		return -1;
	n = strtol(dot + 1, &end, 10);
	if (*end || n < 1 || n > SCALE_MAX_TASKS)
		return -1;
	/* The word before the count says processes or threads; the operation is before it. */
	for (mode = dot - 1; mode > id + plen && *mode != '.'; mode--)
		;
	if (mode <= id + plen || (strncmp(mode, ".proc.", 6) != 0 && strncmp(mode, ".thread.", 8) != 0))
		return -1;
	*len = (size_t)(dot - id);
	*tasks = (int)n;
	return 0;
}

int curve_is(const char *id)
{
	size_t len;
	int tasks;

	return curve_id(id, &len, &tasks) == 0;
}

void curve_fill(struct curve_point *p, size_t n)
{
	double one = NAN;

	for (size_t i = 0; i < n; i++)
		if (p[i].tasks == 1)
			one = p[i].rate;
	for (size_t i = 0; i < n; i++) {
		p[i].linear = isfinite(one) && one > 0 ? one * p[i].tasks : (double)NAN;
		p[i].efficiency = isfinite(p[i].linear) ? p[i].rate / p[i].linear : (double)NAN;
	}
}

static int curve_by_tasks(const void *a, const void *b)
{
	const struct curve_point *x = a, *y = b;

	return (x->tasks > y->tasks) - (x->tasks < y->tasks);
}

size_t curve_points(const struct run_info *run, const char *name, size_t len,
		    struct curve_point *p, size_t max)
{
	size_t n = 0, l;
	int tasks;

	for (size_t i = 0; i < run->nresults && n < max; i++) {
		const struct result *r = &run->results[i];

		if (!text_usable(r) || curve_id(r->id, &l, &tasks) < 0 || l != len ||
		    strncmp(r->id, name, len) != 0)
			continue;
		p[n] = (struct curve_point){ .tasks = tasks, .rate = result_figure(r), .r = r };
		result_figure_ci(r, &p[n].lo, &p[n].hi);
		n++;
	}
	qsort(p, n, sizeof(*p), curve_by_tasks);
	curve_fill(p, n);
	return n;
}

int curve_point_of(const struct run_info *run, const struct result *r, struct curve_point *pt)
{
	struct curve_point p[CURVE_MAX_POINTS];
	size_t len, n;
	int tasks;

	if (curve_id(r->id, &len, &tasks) < 0)
		return -1;
	n = curve_points(run, r->id, len, p, CURVE_MAX_POINTS);
	for (size_t i = 0; i < n; i++)
		if (p[i].r == r) {
			*pt = p[i];
			return 0;
		}
	return -1;
}

/* Whether r is the first usable point of its curve in run: where a group starts. */
static int curve_first(const struct run_info *run, size_t at, size_t *len)
{
	int tasks;
	size_t l;

	if (!text_usable(&run->results[at]) || curve_id(run->results[at].id, len, &tasks) < 0)
		return 0;
	for (size_t i = 0; i < at; i++)
		if (text_usable(&run->results[i]) && curve_id(run->results[i].id, &l, &tasks) == 0 &&
		    l == *len && strncmp(run->results[i].id, run->results[at].id, l) == 0)
			return 0;
	return 1;
}

/* "page_fault, processes" for the curve scale.page_fault.proc (len bytes of id). */
static void curve_name(const char *id, size_t len, char *buf, size_t size)
{
	const char *op = id + strlen(SCALE_PREFIX), *dot = memchr(op, '.', len - strlen(SCALE_PREFIX));

	if (!dot)
		dot = id + len;
	snprintf(buf, size, "%.*s, %s", (int)(dot - op), op,
		 strncmp(dot, ".thread", 7) == 0 ? "threads" : "processes");
}

void curve_model(struct rm_doc *doc, const struct run_info *runs, size_t nruns)
{
	struct curve_point p[CURVE_MAX_POINTS];
	char line[512], name[160], what[96], lo[32], hi[32], cell[96];
	int any = 0;
	size_t len;

	for (size_t k = 0; k < nruns; k++)
		for (size_t i = 0; i < runs[k].nresults; i++) {
			size_t n;

			if (!curve_first(&runs[k], i, &len))
				continue;
			if (!any++) {
				rm_table(doc, "scale", "Scalability - operations/s by tasks at once - "
					 "bigger is better");
				rm_line(doc, RM_HEAD);
				rm_cell(doc, CURVE_TASKS_W, 1, "tasks");
				rm_cell(doc, CURVE_RATE_W, 1, "ops/s");
				rm_cell(doc, CURVE_CI_W, 0, "  95% CI");
				rm_cell(doc, CURVE_LINEAR_W, 1, "linear");
				rm_cell(doc, CURVE_EFF_W, 1, "efficiency");
			}
			/* The run and the curve head their points: an OS column would pass 80. */
			text_run_name(&runs[k], name, sizeof(name));
			curve_name(runs[k].results[i].id, len, what, sizeof(what));
			snprintf(line, sizeof(line), "%.150s: %s", name, what);
			rm_text(doc, RM_GROUP, line);
			n = curve_points(&runs[k], runs[k].results[i].id, len, p, CURVE_MAX_POINTS);
			for (size_t j = 0; j < n; j++) {
				rm_line(doc, RM_ROW);
				snprintf(cell, sizeof(cell), "%d", p[j].tasks);
				rm_cell(doc, CURVE_TASKS_W, 1, cell);
				rm_num(doc, CURVE_RATE_W, p[j].rate);
				report_fig(lo, sizeof(lo), p[j].lo);
				report_fig(hi, sizeof(hi), p[j].hi);
				snprintf(cell, sizeof(cell), "  %s to %s", lo, hi);
				rm_cell(doc, CURVE_CI_W, 0, cell);
				rm_num(doc, CURVE_LINEAR_W, p[j].linear);
				if (isfinite(p[j].efficiency))
					snprintf(cell, sizeof(cell), "%.0f%%", 100 * p[j].efficiency);
				else
					snprintf(cell, sizeof(cell), "-");
				rm_cell(doc, CURVE_EFF_W, 1, cell);
			}
		}
	if (any)
		rm_text(doc, RM_NOTE, "  linear: the 1-task figure times the tasks; efficiency: "
			"ops/s over linear");
}

/* One curve's chart: each row's points, and the first row's linear line. */
static void curve_chart(FILE *out, const struct run_info *rows, size_t nrows, const char *id,
			size_t len)
{
	size_t nser = 0;
	struct svg_series *ser = calloc(nrows + 1, sizeof(*ser));
	double (*v)[5][CURVE_MAX_POINTS] = calloc(nrows + 1, sizeof(*v));
	char (*names)[96] = calloc(nrows + 1, sizeof(*names));
	char title[160], what[96];
	struct svg_chart c = { 0 };
	struct curve_point p[CURVE_MAX_POINTS];

	if (!ser || !v || !names) {
		fputs("<p class=\"nochart\">No chart: out of memory.</p>\n", out);
		goto out;
	}
	for (size_t k = 0; k < nrows; k++) {
		size_t n = curve_points(&rows[k], id, len, p, CURVE_MAX_POINTS);

		if (n == 0)
			continue;
		for (size_t j = 0; j < n; j++) {
			v[nser][0][j] = p[j].tasks;
			v[nser][1][j] = p[j].rate;
			v[nser][2][j] = p[j].lo;
			v[nser][3][j] = p[j].hi;
			v[nser][4][j] = p[j].linear;
		}
		snprintf(names[nser], sizeof(names[nser]), "%s", rows[k].label);
		ser[nser] = (struct svg_series){ names[nser], n, v[nser][0], v[nser][1], v[nser][2],
						 v[nser][3], NULL };
		nser++;
	}
	/* The base's linear extension: where a curve that scaled perfectly would lie. */
	if (nser) {
		snprintf(names[nser], sizeof(names[nser]), "linear (%s x tasks)",
			 nrows > 1 ? "first's 1 task" : "1 task");
		ser[nser] = (struct svg_series){ names[nser], ser[0].n, v[0][0], v[0][4], NULL, NULL,
						 NULL };
		nser++;
	}
	curve_name(id, len, what, sizeof(what));
	snprintf(title, sizeof(title), "Scalability: %s", what);
	c.title = title;
	c.xlabel = "tasks at once";
	c.ylabel = "ops/s";
	c.empty = "no points to draw";
	if (svg_curve(out, &c, ser, nser, NULL, 0) < 0)
		fputs("<p class=\"nochart\">No chart: out of memory.</p>\n", out);
out:
	free(ser);
	free(v);
	free(names);
}

void curve_page(FILE *out, const struct run_info *rows, size_t nrows)
{
	int header = 0;
	size_t len, l;
	int tasks;

	for (size_t k = 0; k < nrows; k++)
		for (size_t i = 0; i < rows[k].nresults; i++) {
			const char *id = rows[k].results[i].id;
			int seen = 0;

			if (!curve_first(&rows[k], i, &len))
				continue;
			/* A curve once, however many rows hold it: the first that does draws all. */
			for (size_t j = 0; j < k && !seen; j++)
				for (size_t q = 0; q < rows[j].nresults && !seen; q++)
					seen = text_usable(&rows[j].results[q]) &&
					       curve_id(rows[j].results[q].id, &l, &tasks) == 0 &&
					       l == len && strncmp(rows[j].results[q].id, id, l) == 0;
			if (seen)
				continue;
			if (!header++)
				fputs("<h2 id=\"scale\">Scalability curves</h2>\n", out);
			curve_chart(out, rows, nrows, id, len);
		}
}
