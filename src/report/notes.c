/*
 * The notes under the summary's tables, which say which figures to
 * distrust and why: failed or skipped, interrupted, busy, loose (its
 * interval over twice its run's typical one), noisy and drifting with -v,
 * split between two modes, run as copies; and under every kind of table,
 * the runs held to fewer CPUs than the machine has.  A note is a line of
 * text within 80 columns, printed where the table's notes are gathered.
 */
#include "report/notes.h"
#include "report/report.h"
#include "report/fmt.h"
#include "judge/loose.h"
#include "report/model.h"
#include "report/text.h"
#include "core/replica.h"
#include "stats/stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
/* One item of a note line: an id, its placement and a figure or two. */
#define NOTE_ITEM_LEN 200

/*
 * One note line for a figure that should not be taken at face value:
 * failed or skipped, interrupted, busy (other work competed), and with
 * verbose noisy (the CI missed the precision) and drift, which on a
 * machine like ours every figure is: by default a loose figure is named
 * in its table's one line of them instead (note_loose).  Returns 1 when a
 * line was printed.
 */
int note_result(FILE *out, const struct run_info *run, const struct result *r,
		       int verbose)
{
	char name[160], why[4 * sizeof(r->reason)];
	int lines = 0, drift;

	text_run_name(run, name, sizeof(name));
	if (r->status == RES_SKIP || r->status == RES_FAIL) {
		fprintf(out, "  %s %s%s: %s: %s\n", name, r->id, text_place_tag(r),
			result_status_name(r->status),
			r->reason[0] ? text_esc(why, sizeof(why), r->reason) : "no reason given");
		return 1;
	}
	/* A figure that says more of itself (partial: the run was interrupted) says it first. */
	if (r->reason[0]) {
		fprintf(out, "  %s %s%s: %s\n", name, r->id, text_place_tag(r), text_esc(why, sizeof(why), r->reason));
		lines++;
	}
	/*
	 * Noisy and busy each get a line, so that a line stays within 80
	 * columns; drift shares noisy's when both are there.
	 */
	drift = verbose && r->drifted && isfinite(r->drift);
	if (verbose && r->status == RES_NOISY) {
		double hw = fmax(r->median - r->ci_low, r->ci_high - r->median);
		double level = stats_median_ci_level(r->nreplicas);

		/* A merged row's interval is the spread of its runs, not of one run's samples. */
		if (run->nmerged > 1 && r->median > 0 && isfinite(hw / r->median))
			fprintf(out, "  %s %s%s: noisy in a run; runs' CI +-%.1f%%\n", name, r->id,
				text_place_tag(r), 100.0 * hw / r->median);
		else if (r->nreplicas > 1 && r->median > 0 && isfinite(hw / r->median) && drift)
			/* One line for both: the machine moving is why the replicas disagree. */
			fprintf(out, "  %s %s%s: noisy: +-%.1f%% over %zu replicas; drift %.1f%%\n", name,
				r->id, text_place_tag(r), 100.0 * hw / r->median, r->nreplicas, 100.0 * r->drift);
		else if (r->nreplicas > 1 && r->median > 0 && isfinite(hw / r->median) &&
			 text_floored(r, hw))
			/* The machine's spread set it: no confidence level to claim. */
			fprintf(out, "  %s %s%s: noisy: +-%.1f%%, the machine's spread (%zu replicas)\n",
				name, r->id, text_place_tag(r), 100.0 * hw / r->median, r->nreplicas);
		else if (r->nreplicas > 1 && r->median > 0 && isfinite(hw / r->median))
			/* Below six replicas the interval is their range: say what it holds. */
			fprintf(out, "  %s %s%s: noisy: %.*f%% CI +-%.1f%% over %zu replicas\n", name,
				r->id, text_place_tag(r), level < 0.95 ? 1 : 0, 100.0 * (level < 0.95 ? level : 0.95),
				100.0 * hw / r->median, r->nreplicas);
		else if (r->median > 0 && isfinite(hw / r->median))
			fprintf(out, "  %s %s%s: noisy: 95%% CI +-%.1f%% (stopped at %s)\n", name,
				r->id, text_place_tag(r), 100.0 * hw / r->median, result_stop_name(r->stop));
		else
			fprintf(out, "  %s %s%s: noisy: (stopped at %s)\n", name, r->id, text_place_tag(r),
				result_stop_name(r->stop));
		lines++;
		drift = 0;
	}
	if (drift) {
		/* Short enough for 80 columns with the longest ids and two digits of drift. */
		fprintf(out, "  %s %s%s: drift: the machine moved %.1f%% over its replicas\n", name,
			r->id, text_place_tag(r), 100.0 * r->drift);
		lines++;
	}
	/* Busy is the machine's state, said once for the run (basic_notes) but with -v. */
	if (verbose && result_busy(r)) {
		fprintf(out, "  %s %s%s: busy: other work used %.0f%% of the other CPUs\n", name,
			r->id, text_place_tag(r), 100.0 * r->interference);
		lines++;
	}
	return lines > 0;
}

/*
 * A figure whose replicas split between ends on one CPU and on several
 * (its cell marked NOTE_MODES_MARK): both modes, each with its level and its
 * replicas, the figure's first.
 */
void note_modes(FILE *out, const struct run_info *run, const struct result *r)
{
	struct replica_mode m[2];
	char name[160], a[32], b[32], head[320], modes[160];

	if (!text_usable(r) || replica_modes(r, m) != 2)
		return;
	text_run_name(run, name, sizeof(name));
	report_fig(a, sizeof(a), m[0].level);
	report_fig(b, sizeof(b), m[1].level);
	snprintf(head, sizeof(head), "  %s %s%s" NOTE_MODES_MARK ": two modes:", name, r->id,
		 text_place_tag(r));
	snprintf(modes, sizeof(modes), "ends on %s %s (%zu of %zu replicas), %s %s (%zu)",
		 replica_ends_name(m[0].ends), a, m[0].n, r->nreplicas, replica_ends_name(m[1].ends),
		 b, m[1].n);
	/* One line where it fits in 80 columns, else the modes on a line of their own. */
	if (strlen(head) + 1 + strlen(modes) <= TEXT_MAX_COLS)
		fprintf(out, "%s %s\n", head, modes);
	else
		fprintf(out, "%s\n    %s\n", head, modes);
}

/*
 * With --parallel the table shows the figure per copy; the note gives all
 * copies together, so contention between copies can be read off.
 */
void note_parallel(FILE *out, const struct run_info *run, const struct result *r)
{
	char name[160], per[32], all[32];

	if (r->parallel <= 1 || !text_usable(r) || !isfinite(r->aggregate))
		return;
	text_run_name(run, name, sizeof(name));
	report_fig(per, sizeof(per), r->median);
	report_fig(all, sizeof(all), r->aggregate);
	/* Together: the copies' total rate, or the time per operation of all of them. */
	fprintf(out, "  %s %s%s: %d copies: %s %s each, together %s %s%s\n", name, r->id,
		text_place_tag(r), r->parallel, per, r->unit, all, r->unit,
		metric_unit_is_time(r->unit, r->better) ? "/op" : "");
}

/*
 * One note line within 80 columns: head, then each of the n items (an
 * item "proc.fork +-30%", a comma before it after the first) while they
 * fit, and how many more did not (", 3 more"), at least one item shown.
 */
static void note_items(FILE *out, const char *head, const char (*items)[NOTE_ITEM_LEN], size_t n)
{
	char line[512], more[32], item[NOTE_ITEM_LEN + 2];
	size_t len = (size_t)snprintf(line, sizeof(line), "%s", head), shown = 0;

	for (size_t i = 0; i < n; i++) {
		size_t room = TEXT_MAX_COLS - len;

		snprintf(item, sizeof(item), "%s %s", i ? "," : "", items[i]);
		/* What is left must still fit: ", 3 more". */
		snprintf(more, sizeof(more), ", %zu more", n - i);
		if (strlen(item) + (i + 1 < n ? strlen(more) : 0) > room && shown) {
			snprintf(line + len, sizeof(line) - len, "%s", more);
			len = strlen(line);
			break;
		}
		snprintf(line + len, sizeof(line) - len, "%s", item);
		len = strlen(line);
		shown++;
	}
	fprintf(out, "%s\n", line);
}

/*
 * The loose figures of one run in one table (judge_loose), on one line
 * within 80 columns: each with its interval, widest first, and how many
 * more did not fit (-v and kbench show give each its own line).
 */
void note_loose(FILE *out, const struct run_info *run, const struct result **rs, size_t n)
{
	char name[160], head[200], (*items)[NOTE_ITEM_LEN];

	if (n == 0 || !(items = malloc(n * sizeof(*items))))
		return;
	/* Widest first: a table holds a few. */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0; j--) {
			const struct result *t = rs[j];

			if (judge_rel_halfwidth(t) <= judge_rel_halfwidth(rs[j - 1]))
				break;
			rs[j] = rs[j - 1];
			rs[j - 1] = t;
		}
	for (size_t i = 0; i < n; i++) {
		double h = judge_rel_halfwidth(rs[i]);

		if (isfinite(h))
			snprintf(items[i], sizeof(items[i]), "%s%s +-%.0f%%", rs[i]->id, text_place_tag(rs[i]),
				 fmin(100 * h, 9999));
		else
			snprintf(items[i], sizeof(items[i]), "%s%s", rs[i]->id, text_place_tag(rs[i]));
	}
	text_run_name(run, name, sizeof(name));
	snprintf(head, sizeof(head), "  %s " NOTE_LOOSE_MARK " over twice typical:", name);
	note_items(out, head, (const char (*)[NOTE_ITEM_LEN])items, n);
	free(items);
}

int note_slow_marked(const struct result *r)
{
	return text_usable(r) && isfinite(r->slow_share) && r->slow_share > 0 && isfinite(r->slow_depth) &&
	       r->slow_depth > 0;
}

/*
 * The figures of one run in one table whose replicas fell in slow spells,
 * on one line within 80 columns: each with the share of its replicas and
 * how much slower they were ("proc.fork 3/8 +24%"; a label's merged row,
 * its runs' mean share), deepest first, and how many more did not fit.
 */
void note_slow(FILE *out, const struct run_info *run, const struct result **rs, size_t n)
{
	char name[160], head[200], (*items)[NOTE_ITEM_LEN];

	if (n == 0 || !(items = malloc(n * sizeof(*items))))
		return;
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && rs[j]->slow_depth > rs[j - 1]->slow_depth; j--) {
			const struct result *t = rs[j];

			rs[j] = rs[j - 1];
			rs[j - 1] = t;
		}
	for (size_t i = 0; i < n; i++) {
		const struct result *r = rs[i];
		char share[32];

		if (r->nreplicas > 1)
			snprintf(share, sizeof(share), "%.0f/%zu", r->slow_share * (double)r->nreplicas,
				 r->nreplicas);
		else
			snprintf(share, sizeof(share), "%.0f%%", 100 * r->slow_share);
		snprintf(items[i], sizeof(items[i]), "%s%s %s +%.0f%%", r->id, text_place_tag(r), share,
			 fmin(100 * r->slow_depth, 9999));
	}
	text_run_name(run, name, sizeof(name));
	snprintf(head, sizeof(head), "  %s " NOTE_SLOW_MARK " slow spells left out:", name);
	note_items(out, head, (const char (*)[NOTE_ITEM_LEN])items, n);
	free(items);
}

/*
 * The notes on n figures of one run, as the table's notes (the text and
 * HTML share them): each figure's own, then one line naming the loose,
 * and one the figures with slow spells left out.
 */
void note_model(struct rm_doc *doc, const struct run_info *run,
			const struct result *const *rs, size_t n, int parallel)
{
	char *notes = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&notes, &len);
	struct judge_spread sp = judge_run_spread(run);
	const struct result *loose[64], *slow[64];
	size_t nloose = 0, nslow = 0;

	if (!mem) {
		doc->oom = 1;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		note_result(mem, run, rs[i], doc->verbose);
		if (parallel)
			note_parallel(mem, run, rs[i]);
		if (!doc->verbose && judge_loose(rs[i], &sp) && nloose < NELEM(loose))
			loose[nloose++] = rs[i];
		else if (note_slow_marked(rs[i]) && nslow < NELEM(slow))
			slow[nslow++] = rs[i];
	}
	note_loose(mem, run, loose, nloose);
	note_slow(mem, run, slow, nslow);
	if (fclose(mem) != 0)
		doc->oom = 1;
	else
		rm_notes(doc, notes);
	free(notes);
}

void report_cpus_notes(FILE *out, const struct run_info *runs, size_t nruns)
{
	for (size_t k = 0; k < nruns; k++) {
		struct sysinfo si;
		char lab[4 * 128 + 1], who[4 * 128 + 32];

		if (report_sysinfo_parse(runs[k].sysinfo_json, &si) < 0 || !si.cpus_mode[0] ||
		    strcmp(si.cpus_mode, "all") == 0)
			continue;
		report_cell(lab, sizeof(lab), runs[k].label, -1, 0);
		/* A label's merged row has no run id of its own: it is named by its label. */
		if (runs[k].id > 0)
			snprintf(who, sizeof(who), "run %lld (%s)", (long long)runs[k].id, lab);
		else
			snprintf(who, sizeof(who), "label %s", lab);
		if (strcmp(si.cpus_mode, "offline") == 0)
			fprintf(out, "note: %s ran on cpus %s with the others offline (online %s of %s): an "
				"SMP kernel on fewer CPUs, not a UP kernel\n", who, si.cpus, si.cpus_online,
				si.cpus_present);
		else
			fprintf(out, "note: %s ran on cpus %s only (affinity: the other CPUs of %s kept "
				"running, their interrupts and kernel threads too)\n", who, si.cpus,
				si.cpus_online);
	}
}
