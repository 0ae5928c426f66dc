/*
 * "Other results": the figures no table of the summary has a column for,
 * a row a figure, so that nothing measured goes unshown; a curve is named
 * with the command that shows it.  Which figures have a table is asked of
 * the tables themselves (lm_has_id, rates_is, aim9_is, the catalog).
 */
#include "report/curve.h"
#include "report/lmbench.h"
#include "judge/loose.h"
#include "report/model.h"
#include "report/notes.h"
#include "report/fmt.h"
#include "report/text.h"
#include "core/catalog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static int in_a_table(const char *id)
{
	const struct catalog_kind *k = catalog_prefixed(id);

	if (rates_is(id) || aim9_is(id) || probes_is(id) || curve_is(id))
		return 1;

	/* contest's results have tables of their own (report_contest_text). */
	if (k && k->own_tables)
		return 1;
	return lm_has_id(id);
}

/*
 * " LABEL" as an argument to type after `kbench show ID`: quoted when the
 * shell would split or expand it ("Linux 6.18.44").
 */
static void show_label(const char *label, char *buf, size_t size)
{
	static const char plain[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				    "0123456789._+-/:=@,%";

	char text[4 * 128];

	if (label[0] && strspn(label, plain) == strlen(label))
		snprintf(buf, size, " %s", label);
	else
		snprintf(buf, size, " '%s'", text_esc(text, sizeof(text), label));
}

/* Other results' columns after Host and OS: wide enough for any id with its placement. */
#define OTHER_FIG_W 23
#define OTHER_MED_W 12
#define OTHER_CI_W 18

/* Whether r is listed among Other results: a figure no table has a column for. */
static int other_result(const struct result *r)
{
	return !in_a_table(r->id);
}

/* Other results' header: Host, OS, the figure's id, its level, its interval. */
static void other_header(struct rm_doc *doc, int osw)
{
	char dash[LM_LABEL_CELL];
	const int widths[] = { LM_HOST_W, osw, OTHER_FIG_W, OTHER_MED_W, OTHER_CI_W };

	memset(dash, '-', sizeof(dash) - 1);
	dash[sizeof(dash) - 1] = '\0';
	rm_table(doc, "other", "Other results - levels, each in its unit");
	rm_line(doc, RM_HEAD);
	rm_cell(doc, LM_HOST_W, 0, "Host");
	rm_cell(doc, osw, 1, "OS");
	rm_cell(doc, OTHER_FIG_W, 0, "Figure");
	rm_cell(doc, OTHER_MED_W, 1, "Level");
	rm_cell(doc, OTHER_CI_W, 0, "95% CI");
	rm_line(doc, RM_RULE);
	for (size_t i = 0; i < NELEM(widths); i++)
		rm_cell(doc, widths[i], 0, dash);
}

/* One figure's row: its run's Host and OS, the id, the level with its unit, the interval. */
static void other_row(struct rm_doc *doc, const struct run_info *run, const struct result *r,
		      const struct judge_spread *sp, int osw)
{
	char cell[LM_LABEL_CELL], fig[64], lo[64], hi[64];
	double flo, fhi;

	rm_line(doc, RM_ROW);
	rm_cell(doc, LM_HOST_W, 0, run->host);
	lm_label_cell(run, osw, cell, sizeof(cell));
	rm_cell(doc, osw, 1, cell);
	snprintf(cell, sizeof(cell), "%s%s", r->id, text_place_tag(r));
	rm_cell(doc, OTHER_FIG_W, 0, cell);
	report_fig(fig, sizeof(fig), result_figure(r));
	snprintf(cell, sizeof(cell), "%s%s %s", fig,
		 judge_loose(r, sp) ? NOTE_LOOSE_MARK : note_slow_marked(r) ? NOTE_SLOW_MARK : "", r->unit);
	rm_cell(doc, OTHER_MED_W, 1, cell);
	if (judge_loose(r, sp))
		rm_flags(doc, RM_NOISY);
	result_figure_ci(r, &flo, &fhi);
	report_fig(lo, sizeof(lo), flo);
	report_fig(hi, sizeof(hi), fhi);
	snprintf(cell, sizeof(cell), "%s to %s", lo, hi);
	rm_cell(doc, OTHER_CI_W, 0, cell);
}

/*
 * Results that no table has a column for (sys.fstat, the page fault with
 * fault-around off) are a table of their own after the others, a row a
 * figure, so that nothing measured goes unshown and a figure is not a
 * note.  A curve (mem.lat.curve) has no single figure worth a row: a line
 * under the table says how to see it, with the notes of every figure.
 */
void other_model(struct rm_doc *doc, const struct run_info *runs, size_t nruns)
{
	int header = 0, osw = lm_os_width(runs, nruns);
	char name[160], line[1024];

	for (size_t k = 0; k < nruns; k++) {
		struct judge_spread sp = judge_run_spread(&runs[k]);

		for (size_t i = 0; i < runs[k].nresults; i++) {
			const struct result *r = &runs[k].results[i];

			if (!other_result(r))
				continue;
			if (!header++)
				other_header(doc, osw);
			if (text_usable(r) && r->npoints == 0)
				other_row(doc, &runs[k], r, &sp, osw);
		}
	}
	for (size_t k = 0; k < nruns; k++) {
		const struct result **rs = calloc(runs[k].nresults + 1, sizeof(*rs));
		size_t n = 0;

		if (!rs) {
			doc->oom = 1;
			return;
		}
		for (size_t i = 0; i < runs[k].nresults; i++) {
			const struct result *r = &runs[k].results[i];

			if (!other_result(r))
				continue;
			rs[n++] = r;
			text_run_name(&runs[k], name, sizeof(name));
			if (text_usable(r) && r->npoints > 0) {
				char show[160] = "";

				/* A merged row's points are one of its runs': name that run. */
				if (runs[k].nmerged > 1 && r->from_run > 0)
					snprintf(show, sizeof(show), " %lld", (long long)r->from_run);
				else if (runs[k].nmerged > 1)
					show_label(runs[k].label, show, sizeof(show));
				else if (runs[k].id > 0)
					snprintf(show, sizeof(show), " %lld", (long long)runs[k].id);
				snprintf(line, sizeof(line), "  %s %s%s: %zu points (kbench show %s%s)",
					 name, r->id, text_place_tag(r), r->npoints, r->id, show);
				rm_text(doc, RM_NOTE, line);
			}
		}
		note_model(doc, &runs[k], rs, n, 1);
		free(rs);
	}
}
