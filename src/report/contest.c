/*
 * contest's tables: one block per load, one row per label, as contest
 * printed them in 2002,
 *
 *   io_load (Loads: MB written in the job's window)
 *   Kernel [runs]           Time    CPU%   Loads  LCPU%  Ratio
 *   2.5.47 [3]      474.1 +-1.2%      15      36     10   6.64
 *
 * with the median Time of the label's runs and its 95% CI, the medians of
 * the other columns, and Ratio = Time / the noload Time of the first label
 * shown (the reference), so the noload row of the reference reads 1.00.
 * With two labels or more, a Time that differs significantly from the
 * reference's is marked as compare marks it (the same test, correction and
 * threshold: the rows of the contest tables are compared together).
 *
 * Every label gets its row and every run its part in the figures, however
 * many there are; only the marks stop at compare's JUDGE_CMP_MAX_SIDES
 * sides (the reference and the next seven labels), and the header says so.
 */
#include "report/contest.h"
#include "report/compare.h"
#include "report/fmt.h"
#include "report/notes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/catalog.h"
#include "core/utf8.h"
#include "report/model.h"
#include "report/svg.h"
#include "stats/stats.h"

/* A label's runs, in the order first seen. */
struct ct_label {
	const char *name;
	struct run_info *runs;		/* shallow copies of the caller's runs */
	size_t nruns;
};

/*
 * The values of key (NULL: the Time, the result's median) in the ok results
 * of id over a label's runs, summarised into ss: their count, 0 when none.
 */
static size_t ct_summary(const struct ct_label *l, const char *id, const char *key,
			 struct stats_summary *ss)
{
	size_t n = 0, max = 0;
	double *v;
	int ok;

	for (size_t i = 0; i < l->nruns; i++)
		max += l->runs[i].nresults;
	v = malloc((max ? max : 1) * sizeof(*v));
	if (!v)
		return 0;
	for (size_t i = 0; i < l->nruns; i++)
		for (size_t j = 0; j < l->runs[i].nresults; j++) {
			const struct result *r = &l->runs[i].results[j];
			const struct bench_value *bv;

			if (strcmp(r->id, id) != 0 || r->status != RES_OK)
				continue;
			if (!key)
				v[n++] = r->median;
			else if ((bv = result_value(r, key)) && isfinite(bv->num))
				v[n++] = bv->num;
		}
	ok = n > 0 && stats_summarize(v, n, ss) == 0;
	free(v);
	return ok ? n : 0;
}

/* Their median, or NaN when there is none. */
static double ct_median(const struct ct_label *l, const char *id, const char *key)
{
	struct stats_summary ss;

	return ct_summary(l, id, key, &ss) ? ss.median : (double)NAN;
}

/* The first result of id in a label's runs, any status; NULL if none. */
static const struct result *ct_first(const struct ct_label *l, const char *id)
{
	for (size_t i = 0; i < l->nruns; i++)
		for (size_t j = 0; j < l->runs[i].nresults; j++)
			if (strcmp(l->runs[i].results[j].id, id) == 0)
				return &l->runs[i].results[j];
	return NULL;
}

/* Whether a run holds any of contest's results. */
static int ct_has(const struct run_info *run)
{
	for (size_t j = 0; j < run->nresults; j++)
		if (strncmp(run->results[j].id, CATALOG_CONTEST, strlen(CATALOG_CONTEST)) == 0)
			return 1;
	return 0;
}

/*
 * Group the runs that hold contest's results by label into labels (room
 * for nruns of them, zeroed): a label of other results alone (a timed job's,
 * shown beside) is none of contest's, and would be its reference with no
 * noload Time.  The count of labels, or -1 without memory.
 */
static int ct_group(const struct run_info *runs, size_t nruns, struct ct_label *labels)
{
	size_t n = 0;

	for (size_t i = 0; i < nruns; i++) {
		size_t k;

		if (!ct_has(&runs[i]))
			continue;

		for (k = 0; k < n && strcmp(labels[k].name, runs[i].label) != 0; k++)
			;
		if (k == n) {
			labels[n].name = runs[i].label;
			labels[n].runs = NULL;
			labels[n].nruns = 0;
			n++;
		}
		struct run_info *more = realloc(labels[k].runs, (labels[k].nruns + 1) * sizeof(*more));
		if (!more)
			return -1;
		labels[k].runs = more;
		labels[k].runs[labels[k].nruns++] = runs[i];
	}
	return (int)n;
}

/*
 * Every contest id in the runs, the loads' order of first appearance: by the
 * catalogue's prefix alone, so a load since removed still has its block.
 */
static size_t ct_ids(const struct run_info *runs, size_t nruns, const char **ids, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < nruns; i++)
		for (size_t j = 0; j < runs[i].nresults; j++) {
			const char *id = runs[i].results[j].id;
			size_t k;

			if (strncmp(id, CATALOG_CONTEST, strlen(CATALOG_CONTEST)) != 0)
				continue;
			for (k = 0; k < n && strcmp(ids[k], id) != 0; k++)
				;
			if (k == n && n < max)
				ids[n++] = id;
		}
	return n;
}

int report_contest_has(const struct run_info *runs, size_t nruns)
{
	const char *ids[1];

	return ct_ids(runs, nruns, ids, 1) > 0;
}

/* A label whole, escaped (report_cell), with " [N]" for N runs. */
static void ct_name(const struct ct_label *l, char *buf, size_t size)
{
	char whole[4 * 128 + 1];

	report_cell(whole, sizeof(whole), l->name, -1, 0);
	if (l->nruns > 1)
		snprintf(buf, size, "%s [%zu]", whole, l->nruns);
	else
		snprintf(buf, size, "%s", whole);
}

/* One row: the label in namew columns, then Time and its CI, CPU%, Loads, LCPU%, Ratio, the mark. */
static void ct_row(struct rm_doc *doc, const struct ct_label *l, const char *id, double ref_noload,
		   const struct judge_cmp_cell *cell, int namew)
{
	char name[4 * 128 + 32], fig[32], ci[32], loads[32], num[32];
	double t, lo = NAN, hi = NAN, cpu, ld, lcpu;
	struct stats_summary ts;
	size_t nok;
	const struct result *first = ct_first(l, id);

	ct_name(l, name, sizeof(name));
	rm_line(doc, RM_ROW);
	rm_cell(doc, namew, 0, name);
	nok = ct_summary(l, id, NULL, &ts);
	if (nok == 0) {
		char why[4 * sizeof(first->reason)], line[4 * sizeof(first->reason) + 32];

		snprintf(line, sizeof(line), "%s: %s", first ? result_status_name(first->status) : "-",
			 first && first->reason[0] ? report_cell(why, sizeof(why), first->reason, -1, 0)
						   : "no figure");
		rm_cell(doc, -1, 0, line);
		rm_flags(doc, RM_MISSING);
		return;
	}
	t = ts.median;
	/* The CI of the median Time over the runs; one run has none of its own. */
	if (nok > 1) {
		lo = ts.ci_low;
		hi = ts.ci_high;
	}
	/* Shares, printed in percent as contest's table has them. */
	cpu = 100 * ct_median(l, id, "cpu_share");
	ld = ct_median(l, id, "loads");
	lcpu = 100 * ct_median(l, id, "lcpu_share");
	report_fig(fig, sizeof(fig), t);
	if (isfinite(lo) && t > 0)
		snprintf(ci, sizeof(ci), "+-%.1f%%", fmax(t - lo, hi - t) / t * 100);
	else
		snprintf(ci, sizeof(ci), "%s", "");
	if (isfinite(ld))
		snprintf(loads, sizeof(loads), "%.0f", ld);
	else
		snprintf(loads, sizeof(loads), "-");
	rm_cell(doc, 8, 1, fig);
	rm_cell(doc, 7, 1, ci);
	snprintf(num, sizeof(num), "%.0f", cpu);
	rm_cell(doc, 5, 1, num);
	rm_cell(doc, 8, 1, loads);
	snprintf(num, sizeof(num), "%.0f", lcpu);
	rm_cell(doc, 6, 1, num);
	if (isfinite(ref_noload) && ref_noload > 0)
		snprintf(num, sizeof(num), "%.2f", t / ref_noload);
	else
		snprintf(num, sizeof(num), "-");
	rm_cell(doc, 6, 1, num);
	/* The marks, as compare prints them, without trailing blanks. */
	if (cell && cell->present && (cell->significant || cell->test == CMP_TEST_MW_SAMPLES)) {
		snprintf(num, sizeof(num), "%s%s", cell->significant ? "*" : " ",
			 cell->test == CMP_TEST_MW_SAMPLES ? "~" : "");
		rm_cell(doc, -1, 0, num);
	}
}

/*
 * A baseline (noload, cacherun) that other programs competed with is no
 * baseline: one note per label when a run's job shared the machine with
 * more than RESULT_BUSY_THRESHOLD of other work.  Under a load the kernel
 * threads working for it (writeback for io_load) count as other work too,
 * so those rows get no such note.
 */
static void ct_busy_note(struct rm_doc *doc, const struct ct_label *l, const char *id)
{
	double worst = -1;
	char name[4 * 128], line[4 * 128 + 96];

	if (strcmp(id, CATALOG_CONTEST "noload") != 0 && strcmp(id, CATALOG_CONTEST "cacherun") != 0)
		return;
	for (size_t i = 0; i < l->nruns; i++)
		for (size_t j = 0; j < l->runs[i].nresults; j++) {
			const struct result *r = &l->runs[i].results[j];

			if (strcmp(r->id, id) == 0 && r->status == RES_OK && result_busy(r))
				worst = fmax(worst, r->interference);
		}
	if (worst < 0)
		return;
	snprintf(line, sizeof(line), "  %s: busy: other work used up to %.0f%% of the CPUs during "
		 "the job", report_cell(name, sizeof(name), l->name, -1, 0), 100 * worst);
	rm_text(doc, RM_NOTE, line);
}

/* The cell of label s for id in the compared rows; NULL when not compared. */
static const struct judge_cmp_cell *ct_cell(const struct judge_cmp_row *rows, size_t nrows,
					     const char *id, size_t s)
{
	if (s == 0)
		return NULL;
	for (size_t k = 0; k < nrows; k++)
		if (strcmp(rows[k].key->id, id) == 0)
			return &rows[k].cell[s];
	return NULL;
}

int report_contest_model(struct rm_doc *doc, const struct run_info *runs, size_t nruns,
			 double threshold)
{
	struct ct_label *labels = calloc(nruns ? nruns : 1, sizeof(*labels));
	struct judge_cmp_side sides[JUDGE_CMP_MAX_SIDES];
	struct judge_cmp_row *rows = NULL;
	const char **ids = NULL;
	size_t nids, nrows = 0, maxids = 0, ncmp = 0;
	int nl = 0, rc = 0;
	char ref_id[96], base[4 * 128], first_unmarked[4 * 128], line[4 * 128 + 128];
	double ref_noload;
	char *cpus = NULL;
	size_t cpus_len = 0;
	FILE *mem;

	for (size_t i = 0; i < nruns; i++)
		maxids += runs[i].nresults;
	ids = malloc((maxids ? maxids : 1) * sizeof(*ids));
	if (!labels || !ids) {
		rc = -1;
		goto out;
	}
	nl = ct_group(runs, nruns, labels);
	if (nl < 0) {
		rc = -1;
		goto out;
	}
	nids = ct_ids(runs, nruns, ids, maxids);
	if (nids == 0)
		goto out;
	/* compare takes so many sides at once: the labels past them are shown unmarked. */
	if (nl > 1) {
		ncmp = (size_t)nl < JUDGE_CMP_MAX_SIDES ? (size_t)nl : JUDGE_CMP_MAX_SIDES;
		for (size_t i = 0; i < ncmp; i++)
			sides[i] = (struct judge_cmp_side){ labels[i].name, labels[i].runs,
							     labels[i].nruns };
		if (judge_compare_build(sides, ncmp, threshold, 0, &rows, &nrows) < 0) {
			rc = -1;
			goto out;
		}
	}
	snprintf(ref_id, sizeof(ref_id), "%snoload", CATALOG_CONTEST);
	ref_noload = ct_median(&labels[0], ref_id, NULL);
	/* The legend is the first table's title and notes, as the text prints it. */
	rm_table(doc, "contest-legend", "contest: Time is the job's elapsed seconds (median of the runs, "
		 "its 95% CI),");
	rm_plain(doc);
	rm_text(doc, RM_NOTE, "CPU% its CPU time over Time, Loads the load's work and LCPU% its "
		"CPU time,");
	snprintf(line, sizeof(line), "both counted only while the job ran; Ratio = Time / %s's "
		 "noload Time%s", report_cell(base, sizeof(base), labels[0].name, -1, 0),
		 nl > 1 ? ";" : "");
	rm_text(doc, RM_NOTE, line);
	if (nl > 1) {
		snprintf(line, sizeof(line), "* = Time significantly unlike %s's (as compare decides: "
			 "at least %.0f%%),", base, threshold * 100);
		rm_text(doc, RM_NOTE, line);
		snprintf(line, sizeof(line), "~ = fewer than 3 runs a side%s",
			 ncmp > 0 && (size_t)nl > ncmp ? ";" : "");
		rm_text(doc, RM_NOTE, line);
	}
	if (ncmp > 0 && (size_t)nl > ncmp) {
		snprintf(line, sizeof(line), "the last %zu labels, from %s on, are not marked: compare "
			 "takes %d labels at once", (size_t)nl - ncmp,
			 report_cell(first_unmarked, sizeof(first_unmarked), labels[ncmp].name, -1, 0),
			 JUDGE_CMP_MAX_SIDES);
		rm_text(doc, RM_NOTE, line);
	}
	for (size_t k = 0; k < nids; k++) {
		static const char *const head[] = { "Kernel [runs]", "Time", "", "CPU%", "Loads",
						    "LCPU%", "Ratio" };
		/* The label column as wide as the longest: kernels differ at their names' ends. */
		int width[] = { 20, 8, 7, 5, 8, 6, 6 };
		const struct result *first = NULL;
		const struct bench_value *unit;
		char name[4 * 128 + 32];

		for (int i = 0; i < nl; i++) {
			ct_name(&labels[i], name, sizeof(name));
			if (utf8_width(name) + 1 > width[0])
				width[0] = utf8_width(name) + 1;
		}
		for (int i = 0; i < nl && !first; i++)
			first = ct_first(&labels[i], ids[k]);
		unit = first ? result_value(first, "load_unit") : NULL;
		if (unit && unit->text[0] && strcmp(unit->text, "-") != 0)
			snprintf(line, sizeof(line), "%s (Loads: %s):", ids[k] + strlen(CATALOG_CONTEST),
				 unit->text);
		else
			snprintf(line, sizeof(line), "%s:", ids[k] + strlen(CATALOG_CONTEST));
		rm_table(doc, ids[k], line);
		rm_plain(doc);
		rm_lead(doc);
		rm_line(doc, RM_HEAD);
		for (size_t c = 0; c < sizeof(width) / sizeof(width[0]); c++)
			rm_cell(doc, width[c], c > 0, head[c]);
		for (int i = 0; i < nl; i++)
			if (ct_first(&labels[i], ids[k]))
				ct_row(doc, &labels[i], ids[k], ref_noload,
				       (size_t)i < ncmp ? ct_cell(rows, nrows, ids[k], (size_t)i) : NULL,
				       width[0]);
		for (int i = 0; i < nl; i++)
			ct_busy_note(doc, &labels[i], ids[k]);
	}
	/* The CPUs each label ran on, shared with the other reports: caught here. */
	if (nids && (mem = open_memstream(&cpus, &cpus_len)) != NULL) {
		report_cpus_notes(mem, runs, nruns);
		if (fclose(mem) == 0)
			rm_notes(doc, cpus);
		free(cpus);
	}
out:
	free(rows);
	for (int i = 0; labels && i < nl; i++)
		free(labels[i].runs);
	free(labels);
	free(ids);
	return rc;
}

int report_contest_text(FILE *out, const struct run_info *runs, size_t nruns, double threshold)
{
	struct rm_doc doc = { 0 };
	int rc = report_contest_model(&doc, runs, nruns, threshold);

	if (rc == 0)
		rm_write_text(out, &doc);
	rm_doc_free(&doc);
	return rc;
}

/*
 * contest's Ratio drawn (`summary --html`): a group per load, a bar per
 * label, each the label's median Time over the first label's noload Time,
 * its interval the Time's over the runs scaled alike.
 */
int report_contest_chart(FILE *out, const struct run_info *runs, size_t nruns)
{
	struct ct_label *labels = calloc(nruns ? nruns : 1, sizeof(*labels));
	const char **ids = NULL;
	struct svg_bar_group *groups = NULL;
	struct svg_bar *bars = NULL;
	size_t nids = 0, maxids = 0;
	int nl = 0, rc = 0;
	char ref_id[96], xlabel[4 * 128 + 64], base[4 * 128];
	double ref;
	struct svg_chart c = { "contest: Ratio per load (Time / noload Time)", NULL, NULL,
			       "no load's Time to draw", 0 };

	for (size_t i = 0; i < nruns; i++)
		maxids += runs[i].nresults;
	ids = malloc((maxids ? maxids : 1) * sizeof(*ids));
	if (!labels || !ids || (nl = ct_group(runs, nruns, labels)) < 0) {
		rc = -1;
		goto out;
	}
	nids = ct_ids(runs, nruns, ids, maxids);
	groups = calloc(nids ? nids : 1, sizeof(*groups));
	bars = calloc((nids ? nids : 1) * (size_t)(nl ? nl : 1), sizeof(*bars));
	if (!groups || !bars) {
		rc = -1;
		goto out;
	}
	snprintf(ref_id, sizeof(ref_id), "%snoload", CATALOG_CONTEST);
	ref = ct_median(&labels[0], ref_id, NULL);
	for (size_t k = 0; k < nids; k++) {
		groups[k] = (struct svg_bar_group){ ids[k] + strlen(CATALOG_CONTEST), 0,
						    bars + k * (size_t)nl };
		for (int i = 0; i < nl; i++) {
			struct svg_bar *b = &bars[k * (size_t)nl + groups[k].n];
			struct stats_summary ss;
			size_t n;

			if (!ct_first(&labels[i], ids[k]))
				continue;
			*b = (struct svg_bar){ labels[i].name, NAN, NAN, NAN, "no figure" };
			n = ct_summary(&labels[i], ids[k], NULL, &ss);
			if (n > 0 && isfinite(ref) && ref > 0) {
				b->value = ss.median / ref;
				if (n > 1) {
					b->lo = ss.ci_low / ref;
					b->hi = ss.ci_high / ref;
				}
			}
			groups[k].n++;
		}
	}
	snprintf(xlabel, sizeof(xlabel), "Ratio: Time / %s's noload Time",
		 report_cell(base, sizeof(base), nl ? labels[0].name : "", -1, 0));
	c.xlabel = xlabel;
	if (nids)
		rc = svg_bars(out, &c, groups, nids);
out:
	for (int i = 0; labels && i < nl; i++)
		free(labels[i].runs);
	free(labels);
	free(ids);
	free(groups);
	free(bars);
	return rc;
}
