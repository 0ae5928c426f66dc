/*
 * AIM Suite IX's table in the summary: a block per label of the aim9.*
 * results, in the shape and order AIM9 printed them (the comment below
 * says how its elapsed time and counts are made from the samples).
 */
#include "report/lmbench.h"
#include "judge/loose.h"
#include "report/model.h"
#include "report/notes.h"
#include "report/text.h"
#include "core/registry.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------ AIM Suite IX */

/*
 * AIM9's table, a block per label (each run with --each) in the shape
 * AIM9 printed: test number, name, elapsed time, iteration count, loops
 * and operations per second, the unit on a line of its own below, and
 * kbench's addition, the interval of the operation rate.  The test number
 * and factor come from the registry's aim9 rows, whose order is AIM9's.
 *
 * Elapsed and count are what the samples spanned: in each replica from the
 * end of its first sample to the end of its last, and the iterations timed
 * in between, so that count / elapsed is a throughput with the harness's
 * gaps in it, as AIM9's was.  The rates are kbench's figure, the median
 * of the samples (its interval over the replicas), which the gaps do not
 * touch; the two can differ by the gaps.
 */
#define AIM9_PREFIX "aim9."
#define AIM9_NUM_W 4
#define AIM9_NAME_W 13
#define AIM9_ELAPSED_W 10
#define AIM9_COUNT_W 10
#define AIM9_RATE_W 14
#define AIM9_CI_W 8
_Static_assert(AIM9_NUM_W + 1 + AIM9_NAME_W + 1 + AIM9_ELAPSED_W + 1 + AIM9_COUNT_W + 1 +
	       AIM9_RATE_W + 1 + AIM9_RATE_W + AIM9_CI_W + 2 <= TEXT_MAX_COLS,
	       "AIM9's table, its noisy mark too, must fit 80 columns");

int aim9_is(const char *id)
{
	return strncmp(id, AIM9_PREFIX, strlen(AIM9_PREFIX)) == 0;
}

static int aim9_has(const struct run_info *run)
{
	for (size_t i = 0; i < run->nresults; i++)
		if (aim9_is(run->results[i].id))
			return 1;
	return 0;
}

/* AIM9's number for row b (its place among the aim9 rows), or 0 for none. */
static int aim9_number(const struct bench *b)
{
	const struct bench *r;
	int num = 0;

	for (size_t i = 0; b && (r = registry_at(i)) != NULL; i++)
		if (r->suites & SUITE_AIM9) {
			num++;
			if (r == b)
				return num;
		}
	return 0;
}

/* What the replicas' samples spanned, and the iterations timed in it. */
static void aim9_span(const struct result *r, double *elapsed, double *count)
{
	*elapsed = 0;
	*count = 0;
	for (size_t k = 0; k < r->nreplicas; k++) {
		const struct result_replica *rep = &r->replicas[k];

		if (rep->n < 2 || !(rep->t1 > rep->t0))
			continue;
		*elapsed += rep->t1 - rep->t0;
		*count += (double)(rep->n - 1) * (double)r->iterations;
	}
}

static void aim9_row(struct rm_doc *doc, const struct run_info *run, const struct result *r,
		     const struct judge_spread *sp)
{
	const struct bench *b = registry_find(r->id);
	int num = aim9_number(b);
	double elapsed, count, hw;
	/* The unit's line: an indent and up to 63 characters. */
	char buf[96], ci[16] = "";

	snprintf(buf, sizeof(buf), num ? "%d" : "", num);
	rm_line(doc, RM_ROW);
	rm_cell(doc, AIM9_NUM_W, 1, buf);
	rm_cell(doc, AIM9_NAME_W, 0, r->id + strlen(AIM9_PREFIX));
	if (!text_usable(r)) {
		rm_cell(doc, -1, 0, r->status == RES_SKIP ? "skipped" : "failed");
		note_model(doc, run, &r, 1, 0);
		return;
	}
	aim9_span(r, &elapsed, &count);
	hw = 100.0 * judge_rel_halfwidth(r);
	if (isfinite(hw))
		snprintf(ci, sizeof(ci), hw < 99.95 ? "+-%.1f%%" : "+-%.0f%%", fmin(hw, 9999));
	snprintf(buf, sizeof(buf), elapsed > 0 ? "%.2f" : "-", elapsed);
	rm_cell(doc, AIM9_ELAPSED_W, 1, buf);
	snprintf(buf, sizeof(buf), elapsed > 0 ? "%.0f" : "-", count);
	rm_cell(doc, AIM9_COUNT_W, 1, buf);
	/* The loops from the factor of today's row; a row since removed has none. */
	snprintf(buf, sizeof(buf), b && b->ops > 0 ? "%.5f" : "-", b && b->ops > 0 ? result_figure(r) / b->ops : 0);
	rm_cell(doc, AIM9_RATE_W, 1, buf);
	snprintf(buf, sizeof(buf), "%.2f", result_figure(r));
	rm_cell(doc, AIM9_RATE_W, 1, buf);
	snprintf(buf, sizeof(buf), "%s%s", ci, judge_loose(r, sp) ? " " NOTE_LOOSE_MARK : "");
	rm_cell(doc, -1, 0, buf);
	snprintf(buf, sizeof(buf), "%*s %s", AIM9_NUM_W, "", r->unit);
	rm_text(doc, RM_CONT, buf);
}

/* AIM9's table for each run (or label) that has aim9 results, then the notes. */
void aim9_model(struct rm_doc *doc, const struct run_info *runs, size_t nruns)
{
	static const char *const head[2][6] = {
		{ "Test", "Test", "Elapsed", "Iteration", "Iteration", "Operation" },
		{ "Num", "Name", "Time (sec)", "Count", "Rate (loops/s)", "Rate (ops/s)" },
	};
	static const int width[6] = { AIM9_NUM_W, AIM9_NAME_W, AIM9_ELAPSED_W, AIM9_COUNT_W,
				      AIM9_RATE_W, AIM9_RATE_W };
	static const char rule[] = "-----------------------------------------------------------"
				   "-------------------";
	int noisy = 0;

	for (size_t k = 0; k < nruns; k++) {
		const struct run_info *run = &runs[k];
		char lab[LM_LABEL_CELL], title[LM_LABEL_CELL + 64];

		if (!aim9_has(run))
			continue;
		struct judge_spread sp = judge_run_spread(run);

		/* The title is a line of its own: the label whole. */
		lm_label_cell(run, -1, lab, sizeof(lab));
		snprintf(title, sizeof(title), "AIM Independent Resource Benchmark - Suite IX - %s", lab);
		rm_table(doc, "aim9", title);
		rm_rule(doc, (int)strlen(rule));
		for (int h = 0; h < 2; h++) {
			rm_line(doc, RM_HEAD);
			for (int c = 0; c < 6; c++)
				rm_cell(doc, width[c], c != 1, head[h][c]);
		}
		rm_line(doc, RM_RULE);
		rm_cell(doc, -1, 0, rule);
		/* In AIM9's order, whatever order the run stored them in. */
		for (size_t i = 0; registry_at(i); i++) {
			const struct bench *b = registry_at(i);

			if (!(b->suites & SUITE_AIM9))
				continue;
			for (size_t j = 0; j < run->nresults; j++)
				if (strcmp(run->results[j].id, b->id) == 0) {
					aim9_row(doc, run, &run->results[j], &sp);
					noisy |= judge_loose(&run->results[j], &sp);
				}
		}
		/* Results of rows this kbench no longer has, after the others. */
		for (size_t j = 0; j < run->nresults; j++)
			if (aim9_is(run->results[j].id) && !registry_find(run->results[j].id))
				aim9_row(doc, run, &run->results[j], &sp);
	}
	if (noisy)
		rm_text(doc, RM_NOTE, NOTE_LOOSE_MARK " = loose: its interval over twice its run's typical one");
}
