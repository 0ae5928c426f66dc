/*
 * The clocks table (kbench clocks, and summary when runs hold clock.*
 * results): for each label a block with one row per clock source and one
 * column per call, ns per call with its interval and how the call was
 * answered, then the resolution of each, and a line for every figure that
 * is missing, with the reason:
 *
 *   Clock sources - ns per call - smaller is better
 *   ...
 *   Linux 6.18 [1]:
 *   Source              monotonic ...
 *   tsc              21.30 +-0.5% v ...
 *   hpet             skip: needs root
 *
 * The columns are the registry's clockcall.* rows, in their order; a
 * stored call this kbench does not know is left out.  A label's figure
 * for a call is its one run's median with that run's interval, or over
 * several runs the median of their medians and its interval.
 */
#include "report/clocks.h"
#include "report/fmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/catalog.h"
#include "report/model.h"
#include "core/registry.h"
#include "stats/stats.h"

/* The most calls a table has columns for. */
#define CK_MAX_CALLS 16
/* Width of a column: the longest call's name, "monotonic_coarse". */
#define CK_COL 16

/* One row: a label's results under one clock source, of every call. */
struct ck_row {
	const char *label;
	char source[CATALOG_CLOCK_SOURCE_MAX + 1];
	const struct result **res;
	size_t nres;
};

/* The calls, the columns: the clockcall.* rows' last words.  Their count. */
static size_t ck_calls(const char **names, size_t max)
{
	const struct bench *b;
	size_t n = 0;

	for (size_t i = 0; (b = registry_at(i)) != NULL && n < max; i++)
		if ((b->suites & SUITE_CLOCKS) &&
		    strncmp(b->id, CATALOG_CLOCK_CALL, strlen(CATALOG_CLOCK_CALL)) == 0)
			names[n++] = b->id + strlen(CATALOG_CLOCK_CALL);
	return n;
}

static int ck_is_clock(const char *id)
{
	const struct catalog_kind *k = catalog_prefixed(id);

	return k && strcmp(k->prefix, CATALOG_CLOCK) == 0;
}

/* The source of a clock.<source>.<call> id into buf ("" when it has no call). */
static void ck_source(const char *id, char *buf, size_t len)
{
	const char *s = id + strlen(CATALOG_CLOCK), *dot = strrchr(s, '.');
	size_t n = dot ? (size_t)(dot - s) : 0;

	if (n >= len)
		n = len - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
}

static const char *ck_call(const char *id)
{
	const char *dot = strrchr(id + strlen(CATALOG_CLOCK), '.');

	return dot ? dot + 1 : "";
}

int report_clocks_has(const struct run_info *runs, size_t nruns)
{
	for (size_t i = 0; i < nruns; i++)
		for (size_t j = 0; j < runs[i].nresults; j++)
			if (ck_is_clock(runs[i].results[j].id))
				return 1;
	return 0;
}

static void ck_rows_free(struct ck_row *rows, size_t n)
{
	for (size_t k = 0; k < n; k++)
		free(rows[k].res);
	free(rows);
}

/* The rows, one per label and source in the order first seen; their count, or -1. */
static int ck_rows(const struct run_info *runs, size_t nruns, struct ck_row **out)
{
	struct ck_row *rows = NULL;
	size_t n = 0;

	for (size_t i = 0; i < nruns; i++)
		for (size_t j = 0; j < runs[i].nresults; j++) {
			const struct result *r = &runs[i].results[j];
			char src[sizeof(rows->source)];
			const struct result **more;
			size_t k;

			if (!ck_is_clock(r->id))
				continue;
			ck_source(r->id, src, sizeof(src));
			for (k = 0; k < n; k++)
				if (strcmp(rows[k].label, runs[i].label) == 0 &&
				    strcmp(rows[k].source, src) == 0)
					break;
			if (k == n) {
				struct ck_row *grow = realloc(rows, (n + 1) * sizeof(*grow));

				if (!grow)
					goto fail;
				rows = grow;
				memset(&rows[n], 0, sizeof(rows[n]));
				rows[n].label = runs[i].label;
				memcpy(rows[n].source, src, sizeof(src));
				n++;
			}
			more = realloc(rows[k].res, (rows[k].nres + 1) * sizeof(*more));
			if (!more)
				goto fail;
			rows[k].res = more;
			rows[k].res[rows[k].nres++] = r;
		}
	/* A label's rows together, the labels in the order first seen. */
	for (size_t k = 0, at = 0; k < n; k = ++at) {
		for (size_t m = k + 1; m < n; m++)
			if (strcmp(rows[m].label, rows[k].label) == 0) {
				struct ck_row t = rows[m];

				memmove(&rows[at + 2], &rows[at + 1], (m - at - 1) * sizeof(*rows));
				rows[++at] = t;
			}
	}
	*out = rows;
	return (int)n;
fail:
	ck_rows_free(rows, n);
	return -1;
}

static int ck_usable(const struct result *r)
{
	return r->status == RES_OK || r->status == RES_NOISY;
}

/*
 * A row's figure for call: the median and its interval, the first usable
 * result (for its values) and the last result of the call at all (for a
 * reason); the count of usable results.  -1 without memory.
 */
static int ck_figure(const struct ck_row *row, const char *call, struct stats_summary *ss,
		     const struct result **first, const struct result **last)
{
	double *v = malloc((row->nres ? row->nres : 1) * sizeof(*v));
	size_t n = 0;

	*first = *last = NULL;
	if (!v)
		return -1;
	for (size_t i = 0; i < row->nres; i++) {
		const struct result *r = row->res[i];

		if (strcmp(ck_call(r->id), call) != 0)
			continue;
		*last = r;
		if (!ck_usable(r) || !isfinite(result_figure(r)))
			continue;
		if (!*first)
			*first = r;
		v[n++] = result_figure(r);
	}
	if (n == 1) {
		ss->median = result_figure(*first);
		result_figure_ci(*first, &ss->ci_low, &ss->ci_high);
	} else if (n > 1 && stats_summarize(v, n, ss) < 0) {
		n = 0;
	}
	free(v);
	return (int)n;
}

/* "21.30 +-0.5% v": the figure, the larger distance to an end of its interval, the mark. */
static void ck_cell(char *buf, size_t len, const struct stats_summary *ss, const struct result *r)
{
	const struct bench_value *how = result_value(r, "answered");
	const char *mark = !how ? "?" : strcmp(how->text, "vdso") == 0 ? "v"
				: strcmp(how->text, "kernel") == 0 ? "k" : "?";
	double half = fmax(ss->median - ss->ci_low, ss->ci_high - ss->median) / ss->median;
	char fig[32];

	report_fig(fig, sizeof(fig), ss->median);
	if (isfinite(half) && ss->median > 0)
		snprintf(buf, len, "%s +-%.*f%% %s", fig, half >= 0.1 ? 0 : 1, half * 100, mark);
	else
		snprintf(buf, len, "%s %s", fig, mark);
}

/* A duration as people write a resolution: "1ns", "21.3ns", "4ms", "1s". */
static void ck_duration(char *buf, size_t len, double ns)
{
	static const struct {
		double scale;
		const char *unit;
	} units[] = { { 1e9, "s" }, { 1e6, "ms" }, { 1e3, "us" }, { 1, "ns" } };
	size_t u = 0;

	if (!isfinite(ns) || ns <= 0) {
		snprintf(buf, len, "-");
		return;
	}
	while (u + 1 < sizeof(units) / sizeof(units[0]) && ns < units[u].scale)
		u++;
	snprintf(buf, len, "%.3g%s", ns / units[u].scale, units[u].unit);
}

/* The runs of label that hold clock results. */
static size_t ck_label_runs(const struct run_info *runs, size_t nruns, const char *label)
{
	size_t n = 0;

	for (size_t i = 0; i < nruns; i++) {
		if (strcmp(runs[i].label, label) != 0)
			continue;
		for (size_t j = 0; j < runs[i].nresults; j++)
			if (ck_is_clock(runs[i].results[j].id)) {
				n++;
				break;
			}
	}
	return n;
}

/* The columns' heading: Source, then each call. */
static void ck_header(struct rm_doc *doc, const char *const *calls, size_t ncalls)
{
	rm_line(doc, RM_HEAD);
	rm_cell(doc, CK_COL, 0, "Source");
	for (size_t c = 0; c < ncalls; c++)
		rm_cell(doc, CK_COL, 1, calls[c]);
}

/*
 * One label's block of the cost table (rows from..to share its label):
 * the figures, then a note for each call a measured source has no figure
 * for.  0, or -1 without memory.
 */
static int ck_cost_block(struct rm_doc *doc, const struct ck_row *rows, size_t from, size_t to,
			 const char *const *calls, size_t ncalls)
{
	char why[4 * sizeof(rows->res[0]->reason)], line[8 * sizeof(rows->res[0]->reason)];

	ck_header(doc, calls, ncalls);
	for (size_t k = from; k < to; k++) {
		const struct result *first, *last, *any = NULL;
		struct stats_summary ss;
		int measured = 0, n;

		for (size_t c = 0; c < ncalls; c++) {
			if ((n = ck_figure(&rows[k], calls[c], &ss, &first, &last)) < 0)
				return -1;
			measured |= n > 0;
			any = last ? last : any;
		}
		rm_line(doc, RM_ROW);
		rm_cell(doc, CK_COL, 0, rows[k].source);
		/* Nothing measured (a source that needs root): the reason, once. */
		if (!measured) {
			snprintf(line, sizeof(line), "%s: %s",
				 any ? result_status_name(any->status) : "none",
				 any && any->reason[0] ? report_cell(why, sizeof(why), any->reason, -1, 0)
						       : "no figure");
			rm_cell(doc, -1, 0, line);
			rm_flags(doc, RM_MISSING);
			rm_span(doc, (int)ncalls);
			continue;
		}
		for (size_t c = 0; c < ncalls; c++) {
			char cell[64];

			if ((n = ck_figure(&rows[k], calls[c], &ss, &first, &last)) < 0)
				return -1;
			if (n > 0)
				ck_cell(cell, sizeof(cell), &ss, first);
			else
				snprintf(cell, sizeof(cell), "%s",
					 last ? result_status_name(last->status) : "-");
			rm_cell(doc, CK_COL, 1, cell);
			if (n > 0 && first->status == RES_NOISY)
				rm_flags(doc, RM_NOISY);
			if (n == 0 && last)
				rm_flags(doc, RM_MISSING);
		}
	}
	/* The reasons of the cells that hold none, below the table as summary's notes. */
	for (size_t k = from; k < to; k++) {
		const struct result *first, *last;
		struct stats_summary ss;
		int measured = 0;

		for (size_t c = 0; c < ncalls && !measured; c++)
			measured = ck_figure(&rows[k], calls[c], &ss, &first, &last) > 0;
		for (size_t c = 0; c < ncalls && measured; c++)
			if (ck_figure(&rows[k], calls[c], &ss, &first, &last) == 0 && last) {
				char src[4 * CK_COL + 1];

				snprintf(line, sizeof(line), "  %s %s: %s: %s",
					 report_cell(src, sizeof(src), rows[k].source, -1, 0), calls[c],
					 result_status_name(last->status),
					 last->reason[0] ? report_cell(why, sizeof(why), last->reason, -1, 0)
							 : "no reason given");
				rm_text(doc, RM_NOTE, line);
			}
	}
	return 0;
}

/* The smallest step any usable result of the call saw, NaN none. */
static double ck_step(const struct ck_row *row, const char *call)
{
	double best = NAN;

	for (size_t i = 0; i < row->nres; i++) {
		const struct result *r = row->res[i];
		const struct bench_value *v = result_value(r, "step_ns");

		if (strcmp(ck_call(r->id), call) == 0 && ck_usable(r) && v && isfinite(v->num) &&
		    v->num > 0 && !(best <= v->num))
			best = v->num;
	}
	return best;
}

/* One label's block of the resolution table: the sources measured.  0 or -1. */
static int ck_res_block(struct rm_doc *doc, const struct ck_row *rows, size_t from, size_t to,
			const char *const *calls, size_t ncalls)
{
	ck_header(doc, calls, ncalls);
	for (size_t k = from; k < to; k++) {
		char cells[CK_MAX_CALLS][48];
		int measured = 0;

		for (size_t c = 0; c < ncalls; c++) {
			const struct result *first, *last;
			const struct bench_value *res;
			struct stats_summary ss;
			char a[16], b[16];
			int n = ck_figure(&rows[k], calls[c], &ss, &first, &last);

			if (n < 0)
				return -1;
			measured |= n > 0;
			res = n > 0 ? result_value(first, "res_ns") : NULL;
			ck_duration(a, sizeof(a), res ? res->num : (double)NAN);
			ck_duration(b, sizeof(b), ck_step(&rows[k], calls[c]));
			snprintf(cells[c], sizeof(cells[c]), n > 0 ? "%s / %s" : "-", a, b);
		}
		if (!measured)
			continue;
		rm_line(doc, RM_ROW);
		rm_cell(doc, CK_COL, 0, rows[k].source);
		for (size_t c = 0; c < ncalls; c++)
			rm_cell(doc, CK_COL, 1, cells[c]);
	}
	return 0;
}

/* A blank line, then "Linux 6.18 [2]:", a label's block's heading. */
static void ck_label(struct rm_doc *doc, const struct run_info *runs, size_t nruns,
		     const char *label)
{
	char lab[4 * 128 + 1], line[sizeof(lab) + 32];

	snprintf(line, sizeof(line), "%s [%zu]:", report_cell(lab, sizeof(lab), label, -1, 0),
		 ck_label_runs(runs, nruns, label));
	rm_text(doc, RM_GROUP, "");
	rm_text(doc, RM_GROUP, line);
}

/* Whether any of rows from..to has a figure: only those have a resolution. */
static int ck_any_measured(const struct ck_row *rows, size_t from, size_t to,
			   const char *const *calls, size_t ncalls)
{
	for (size_t k = from; k < to; k++)
		for (size_t i = 0; i < rows[k].nres; i++)
			for (size_t c = 0; c < ncalls; c++)
				if (ck_usable(rows[k].res[i]) &&
				    strcmp(ck_call(rows[k].res[i]->id), calls[c]) == 0)
					return 1;
	return 0;
}

int report_clocks_model(struct rm_doc *doc, const struct run_info *runs, size_t nruns)
{
	const char *calls[CK_MAX_CALLS];
	size_t ncalls = ck_calls(calls, CK_MAX_CALLS);
	struct ck_row *rows;
	int n = ck_rows(runs, nruns, &rows), rc = 0;

	if (n < 0)
		return -1;
	if (n > 0) {
		rm_table(doc, "clocks", "Clock sources - ns per call - smaller is better");
		rm_plain(doc);
		rm_text(doc, RM_PARA, "(level +- the larger distance to an end of its 95% interval; "
			"v: answered in\nuser space by the vDSO, k: entered the kernel)");
	}
	for (size_t from = 0, to; from < (size_t)n && rc == 0; from = to) {
		for (to = from + 1; to < (size_t)n && strcmp(rows[to].label, rows[from].label) == 0;)
			to++;
		ck_label(doc, runs, nruns, rows[from].label);
		rc = ck_cost_block(doc, rows, from, to, calls, ncalls);
	}
	if (n > 0 && ck_any_measured(rows, 0, (size_t)n, calls, ncalls)) {
		rm_table(doc, "clocks-res",
			 "Clock sources - resolution: clock_getres / the smallest step seen");
		rm_plain(doc);
		rm_lead(doc);
	}
	for (size_t from = 0, to; from < (size_t)n && rc == 0; from = to) {
		for (to = from + 1; to < (size_t)n && strcmp(rows[to].label, rows[from].label) == 0;)
			to++;
		if (!ck_any_measured(rows, from, to, calls, ncalls))
			continue;
		ck_label(doc, runs, nruns, rows[from].label);
		rc = ck_res_block(doc, rows, from, to, calls, ncalls);
	}
	ck_rows_free(rows, (size_t)n);
	return rc < 0 || doc->oom ? -1 : 0;
}

int report_clocks_text(FILE *out, const struct run_info *runs, size_t nruns)
{
	struct rm_doc doc = { 0 };
	int rc = report_clocks_model(&doc, runs, nruns);

	if (rc == 0)
		rm_write_text(out, &doc);
	rm_doc_free(&doc);
	return rc;
}
