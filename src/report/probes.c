/*
 * The probes' tables in the summary: what locking costs (lock.*), in ns
 * and in cycles derived from the run's measured clock rate, and the
 * wakeup latency distributions (wake.*) by their percentiles.  Neither
 * is a level lmbench's tables have a column for, and a distribution's
 * tail is its point, so they are tables of their own, not Other results.
 */
#include "report/lmbench.h"
#include "report/fmt.h"
#include "report/model.h"
#include "report/text.h"
#include "stats/hist.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define PROBE_FIG_W 22
#define PROBE_NUM_W 9
#define PROBE_CI_W 18
#define PROBE_PCT_W 8
#define PROBE_WAKE_W 11

static int probes_lock(const char *id)
{
	return strncmp(id, "lock.", 5) == 0;
}

static int probes_wake(const char *id)
{
	return strncmp(id, "wake.", 5) == 0;
}

int probes_is(const char *id)
{
	return probes_lock(id) || probes_wake(id);
}

static int probes_any(const struct run_info *runs, size_t nruns, int (*is)(const char *))
{
	for (size_t k = 0; k < nruns; k++)
		for (size_t i = 0; i < runs[k].nresults; i++)
			if (is(runs[k].results[i].id) && text_usable(&runs[k].results[i]))
				return 1;
	return 0;
}

static void probes_locks(struct rm_doc *doc, const struct run_info *runs, size_t nruns, int osw)
{
	char cell[LM_LABEL_CELL], lo[64], hi[64], name[160], line[1024];
	double flo, fhi;

	rm_table(doc, "locks", "Locking - ns per operation - smaller is better");
	rm_line(doc, RM_HEAD);
	rm_cell(doc, osw, 0, "OS");
	rm_cell(doc, PROBE_FIG_W, 0, "Operation");
	rm_cell(doc, PROBE_NUM_W, 1, "ns");
	rm_cell(doc, PROBE_CI_W, 0, "95% CI");
	rm_cell(doc, PROBE_PCT_W, 1, "cycles");
	for (size_t k = 0; k < nruns; k++)
		for (size_t i = 0; i < runs[k].nresults; i++) {
			const struct result *r = &runs[k].results[i];

			if (!probes_lock(r->id) || !text_usable(r))
				continue;
			rm_line(doc, RM_ROW);
			lm_label_cell(&runs[k], osw, cell, sizeof(cell));
			rm_cell(doc, osw, 0, cell);
			snprintf(cell, sizeof(cell), "%s%s", r->id + 5, text_place_tag(r));
			rm_cell(doc, PROBE_FIG_W, 0, cell);
			rm_num(doc, PROBE_NUM_W, result_figure(r));
			result_figure_ci(r, &flo, &fhi);
			report_fig(lo, sizeof(lo), flo);
			report_fig(hi, sizeof(hi), fhi);
			snprintf(cell, sizeof(cell), "%s to %s", lo, hi);
			rm_cell(doc, PROBE_CI_W, 0, cell);
			rm_num(doc, PROBE_PCT_W, runs[k].mhz > 0 ? result_figure(r) * runs[k].mhz / 1000
								  : (double)NAN);
		}
	for (size_t k = 0; k < nruns; k++) {
		text_run_name(&runs[k], name, sizeof(name));
		if (runs[k].mhz > 0 && probes_any(&runs[k], 1, probes_lock)) {
			snprintf(line, sizeof(line), "  %s: cycles derived from the measured %.0f MHz, "
				 "not counted", name, runs[k].mhz);
			rm_text(doc, RM_NOTE, line);
		}
	}
}

/*
 * A distribution's percentiles' intervals over its replicas, a note under
 * its row: the table's columns have no room for them, and a tail's
 * interval is as wide as the tail is rare.  Only where they were made
 * (a fresh run) or its samples read (a stored one's summary reads none).
 */
static void probes_intervals(struct rm_doc *doc, const struct run_info *run, const struct result *r)
{
	static const char *const heads[HIST_NPCT] = { "p50", "p90", "p99", "p99.9" };
	char name[160], line[1024], lo[64], hi[64];
	size_t len;
	int any = 0;

	if (r->nreplicas < 2)
		return;
	text_run_name(run, name, sizeof(name));
	len = (size_t)snprintf(line, sizeof(line), "  %s %s, 95%% over its %zu replicas:\n   ", name,
			       r->id, r->nreplicas);
	for (size_t p = 0; p < HIST_NPCT && len < sizeof(line); p++) {
		double est, l = r->pct_low[p], h = r->pct_high[p];

		/* Made with the percentiles (a fresh run); from the samples where they were read. */
		if (!(h > 0) && r->samples &&
		    result_percentile(r, hist_pcts[p], &est, &l, &h) < 0)
			continue;
		if (!(h > 0) || !isfinite(l))
			continue;
		report_fig(lo, sizeof(lo), l);
		report_fig(hi, sizeof(hi), h);
		len += (size_t)snprintf(line + len, sizeof(line) - len, "%s %s %s..%s", any ? "," : "",
					heads[p], lo, hi);
		any = 1;
	}
	if (any)
		rm_text(doc, RM_NOTE, line);
}

static void probes_wakes(struct rm_doc *doc, const struct run_info *runs, size_t nruns, int osw)
{
	char cell[LM_LABEL_CELL], name[160], line[1024];
	static const char *const keys[] = { "p50", "p90", "p99", "p999" };
	static const char *const heads[] = { "p50", "p90", "p99", "p99.9" };

	rm_table(doc, "wake", "Wakeup latency - us - smaller is better");
	rm_line(doc, RM_HEAD);
	rm_cell(doc, osw, 0, "OS");
	rm_cell(doc, PROBE_WAKE_W, 0, "Figure");
	for (size_t p = 0; p < 4; p++)
		rm_cell(doc, PROBE_PCT_W, 1, heads[p]);
	rm_cell(doc, PROBE_PCT_W, 1, "max");
	rm_cell(doc, PROBE_WAKE_W, 0, "policy");
	for (size_t k = 0; k < nruns; k++)
		for (size_t i = 0; i < runs[k].nresults; i++) {
			const struct result *r = &runs[k].results[i];
			const struct bench_value *pol = result_value(r, "policy");
			const struct bench_value *why = result_value(r, "fifo_refused");
			const struct bench_value *ld;

			if (!probes_wake(r->id) || !text_usable(r))
				continue;
			rm_line(doc, RM_ROW);
			lm_label_cell(&runs[k], osw, cell, sizeof(cell));
			rm_cell(doc, osw, 0, cell);
			rm_cell(doc, PROBE_WAKE_W, 0, r->id);
			for (size_t p = 0; p < 4; p++)
				rm_num(doc, PROBE_PCT_W, text_value_num(r, keys[p]));
			rm_num(doc, PROBE_PCT_W, r->max);
			rm_cell(doc, PROBE_WAKE_W, 0, pol && pol->text[0] ? pol->text : "-");
			probes_intervals(doc, &runs[k], r);
			if ((ld = result_value(r, "load")) && ld->text[0]) {
				text_run_name(&runs[k], name, sizeof(name));
				snprintf(line, sizeof(line), "  %s %s: measured under %s (run --load)", name,
					 r->id, ld->text);
				rm_text(doc, RM_NOTE, line);
			}
			if (why && why->text[0]) {
				text_run_name(&runs[k], name, sizeof(name));
				snprintf(line, sizeof(line), "  %s %s: SCHED_FIFO refused (%s), measured "
					 "under SCHED_OTHER", name, r->id, why->text);
				rm_text(doc, RM_NOTE, line);
			}
		}
	rm_text(doc, RM_NOTE, "  percentiles of every wakeup over the replicas, nearest rank");
}

void probes_model(struct rm_doc *doc, const struct run_info *runs, size_t nruns)
{
	int osw = lm_os_width(runs, nruns);

	if (probes_any(runs, nruns, probes_lock))
		probes_locks(doc, runs, nruns, osw);
	if (probes_any(runs, nruns, probes_wake))
		probes_wakes(doc, runs, nruns, osw);
}
