/*
 * "System call rates", the summary's table of the rate.* results: a row
 * per call and a column per label, turned around from lmbench's shape
 * (the comment below says why), each column's figures with their notes.
 */
#include "report/lmbench.h"
#include "judge/loose.h"
#include "report/model.h"
#include "report/notes.h"
#include "report/fmt.h"
#include "report/text.h"
#include "core/utf8.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------ System call rates */

/*
 * The rates table turns lmbench's shape around, as the FreeBSD thread it
 * comes from did: a row per call and a column per label (UP, SMP), so that
 * the kernels compared stand side by side and a row reads across.  Its
 * rows are the rate.* results in the order first measured; its columns the
 * runs that have any (a label's runs merged, or each run with --each), in
 * the order given.  A label of several runs gives each figure its interval
 * over the runs ("+-1.2%"); one run's figure is its median alone, as in
 * the other tables, its precision in the notes.
 */
#define RATE_PREFIX "rate."
/* The call column: "clock_gettime_coarse" whole. */
#define RATE_CALL_W 20
/* A figure: calls per second, whole, up to 9,999,999,999. */
#define RATE_FIG_W 10
/* Its interval: " +-0.8%", " +-12.3%", " +-123%". */
#define RATE_CI_W 8
#define RATE_COL_W (RATE_FIG_W + RATE_CI_W)
/* Labels side by side: 20 + 3 x (1 + 18) = 77 columns; more follow in a block below. */
#define RATE_LABELS 3
_Static_assert(RATE_CALL_W + RATE_LABELS * (1 + RATE_COL_W) <= TEXT_MAX_COLS,
	       "the rates table must fit 80 columns");
_Static_assert(RATE_CALL_W <= 30 && RATE_COL_W <= 30, "rate_block's dashes must cover a column");

int rates_is(const char *id)
{
	return strncmp(id, RATE_PREFIX, strlen(RATE_PREFIX)) == 0;
}

/* The run's result for id, or NULL; a rate is measured in one process, never placed. */
static const struct result *rate_find(const struct run_info *run, const char *id)
{
	for (size_t i = 0; i < run->nresults; i++)
		if (strcmp(run->results[i].id, id) == 0)
			return &run->results[i];
	return NULL;
}

static int rate_has(const struct run_info *run)
{
	for (size_t i = 0; i < run->nresults; i++)
		if (rates_is(run->results[i].id))
			return 1;
	return 0;
}

/*
 * One cell: the figure, whole (a rate of millions has no use for
 * decimals), right-aligned under the label; in a label of several runs
 * with its interval after it.  Blank when not measured: a note says why.
 */
static void rate_cell(const struct run_info *run, const struct result *r, char *buf,
		      size_t size)
{
	char fig[32], ci[16] = "";
	double hw;

	buf[0] = '\0';
	if (!text_usable(r))
		return;
	if (snprintf(fig, sizeof(fig), "%.0f", result_figure(r)) > RATE_FIG_W)
		report_num(fig, RATE_FIG_W, result_figure(r));
	if (run->nmerged <= 1) {
		snprintf(buf, size, "%*s", RATE_COL_W, fig);
		return;
	}
	hw = 100.0 * judge_rel_halfwidth(r);
	if (isfinite(hw))
		snprintf(ci, sizeof(ci), hw < 99.95 ? " +-%.1f%%" : " +-%.0f%%", fmin(hw, 9999));
	snprintf(buf, size, "%*s%*s", RATE_FIG_W, fig, RATE_CI_W, ci);
}

/*
 * The header, its dashes and the rows of one block of at most RATE_LABELS
 * columns, the first of them the table's column first.  A label the
 * column cannot hold whole heads it as a key, the table's letter of the
 * column (A, B, ...), each key's label on a line above: two kernels whose
 * names differ at the end must not head their columns alike.
 */
static void rate_block(struct rm_doc *doc, const struct run_info *const *cols, size_t ncols,
		       size_t first, const char *const *ids, size_t nids)
{
	char cell[LM_LABEL_CELL], key[LM_LABEL_CELL + 8];
	/* Dashes enough for either column; the cell is cut to its width. */
	static const char dash[] = "------------------------------";
	int keyed = 0;

	for (size_t c = 0; c < ncols; c++) {
		lm_label_cell(cols[c], -1, cell, sizeof(cell));
		keyed |= utf8_width(cell) > RATE_COL_W;
	}
	for (size_t c = 0; keyed && c < ncols; c++) {
		lm_label_cell(cols[c], -1, cell, sizeof(cell));
		snprintf(key, sizeof(key), "%c  %s", (char)('A' + (first + c) % 26), cell);
		rm_text(doc, RM_GROUP, key);
	}
	rm_line(doc, RM_HEAD);
	rm_cell(doc, RATE_CALL_W, 0, "Call");
	for (size_t c = 0; c < ncols; c++) {
		if (keyed)
			snprintf(cell, sizeof(cell), "%c", (char)('A' + (first + c) % 26));
		else
			lm_label_cell(cols[c], RATE_COL_W, cell, sizeof(cell));
		rm_cell(doc, RATE_COL_W, 1, cell);
	}
	rm_line(doc, RM_RULE);
	rm_cell(doc, RATE_CALL_W, 0, dash);
	for (size_t c = 0; c < ncols; c++)
		rm_cell(doc, RATE_COL_W, 0, dash);
	for (size_t i = 0; i < nids; i++) {
		rm_line(doc, RM_ROW);
		rm_cell(doc, RATE_CALL_W, 0, ids[i] + strlen(RATE_PREFIX));
		for (size_t c = 0; c < ncols; c++) {
			const struct result *r = rate_find(cols[c], ids[i]);
			struct judge_spread sp = judge_run_spread(cols[c]);

			rate_cell(cols[c], r, cell, sizeof(cell));
			rm_cell(doc, RATE_COL_W, 1, cell);
			if (r)
				rm_flags(doc, (judge_loose(r, &sp) ? RM_NOISY : 0) |
					      (result_busy(r) ? RM_BUSY : 0) |
					      (!text_usable(r) ? RM_MISSING : 0));
		}
	}
}

/* "System call rates", when any run has a rate; then its notes, as every table's. */
void rates_model(struct rm_doc *doc, const struct run_info *runs, size_t nruns)
{
	static const char title[] = "System call rates - calls per second - bigger is better";
	const struct run_info **cols = calloc(nruns ? nruns : 1, sizeof(*cols));
	const char **ids = NULL;
	size_t ncols = 0, nids = 0, total = 0;

	for (size_t k = 0; cols && k < nruns; k++)
		if (rate_has(&runs[k])) {
			cols[ncols++] = &runs[k];
			total += runs[k].nresults;
		}
	if (cols && ncols == 0) {
		free(cols);
		return;
	}
	ids = calloc(total ? total : 1, sizeof(*ids));
	if (!cols || !ids) {
		doc->oom = 1;
		free(cols);
		free(ids);
		return;
	}
	for (size_t c = 0; c < ncols; c++)
		for (size_t i = 0; i < cols[c]->nresults; i++) {
			const char *id = cols[c]->results[i].id;
			size_t j = 0;

			while (j < nids && strcmp(ids[j], id) != 0)
				j++;
			if (j == nids && rates_is(id))
				ids[nids++] = id;
		}
	rm_table(doc, "rates", title);
	for (size_t c = 0; c < ncols; c += RATE_LABELS) {
		if (c)
			rm_text(doc, RM_GROUP, "");
		rate_block(doc, cols + c, ncols - c < RATE_LABELS ? ncols - c : RATE_LABELS, c, ids,
			   nids);
	}
	for (size_t c = 0; c < ncols; c++)
		for (size_t i = 0; i < nids; i++) {
			const struct result *r = rate_find(cols[c], ids[i]);

			if (r)
				note_model(doc, cols[c], &r, 1, 1);
		}
	free(ids);
	free(cols);
}
