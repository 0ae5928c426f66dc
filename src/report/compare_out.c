/*
 * kbench compare's tables, page and JSON, written from the table
 * judge_compare_build made (compare.c), and the curves compared point by
 * point (--curves).  The text and the JSON take a section's closing
 * figures from cmp_tally, so the two can never disagree.  Nothing here
 * reads the database or measures, and nothing here decides what is
 * significant in the table: only the curves' points are tested here, as
 * they are not rows of it.
 */
#include "report/compare.h"
#include "judge/pct.h"
#include "report/fmt.h"
#include "report/jsonw.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "core/catalog.h"
#include "core/utf8.h"
#include "report/curve.h"
#include "report/html.h"
#include "report/model.h"
#include "report/svg.h"
#include "stats/stats.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/*
 * What a section's closing line says of one other side against the base,
 * over the section's rows both have: the geometric mean of the gain (base /
 * other for a time, other / base for a rate, so that above 1 is better
 * either way and a 2x gain and a 2x loss cancel) and how many changes are
 * significant each way.  The text says it of the first other, the JSON of
 * each.
 */
struct cmp_tally {
	size_t compared;		/* rows with a figure on both sides */
	double geomean;			/* NaN when compared is 0 */
	size_t better, worse;		/* marked, each way */
	size_t unchanged, untold;	/* not marked: unchanged within the threshold, or
					   cannot tell (judge_cmp_cell's verdict) */
};

static void cmp_tally(const struct judge_cmp_row *rows, size_t nrows, size_t sec, size_t side,
		      struct cmp_tally *t)
{
	double logsum = 0;

	*t = (struct cmp_tally){ .geomean = (double)NAN };
	for (size_t k = 0; k < nrows; k++) {
		const struct judge_cmp_row *row = &rows[k];
		const struct judge_cmp_cell *o = &row->cell[side];

		if (row->section != sec || !row->common || !o->present)
			continue;
		logsum += log(row->key->better == BETTER_LOWER ? 1 / (1 + o->change) : 1 + o->change);
		t->compared++;
		if (!o->significant && o->verdict == CMP_UNCHANGED)
			t->unchanged++;
		else if (!o->significant)
			t->untold++;
		else if (o->better)
			t->better++;
		else
			t->worse++;
	}
	if (t->compared)
		t->geomean = exp(logsum / (double)t->compared);
}

/* Whether some row of section sec is printed: one the base shares with another side. */
static int cmp_section_used(const struct judge_cmp_row *rows, size_t nrows, size_t sec)
{
	for (size_t k = 0; k < nrows; k++)
		if (rows[k].section == sec && rows[k].common)
			return 1;
	return 0;
}

char report_compare_mark(const struct judge_cmp_row *row, size_t side)
{
	const struct judge_cmp_cell *o = &row->cell[side];

	return row->levels_differ ? '?' : o->significant ? '*' : o->verdict == CMP_UNCHANGED ? '=' : ' ';
}

enum svg_verdict report_compare_verdict(const struct judge_cmp_row *row, size_t side)
{
	switch (report_compare_mark(row, side)) {
	case '?': return SVG_NOT_COMPARED;
	case '*': return row->cell[side].better ? SVG_BETTER : SVG_WORSE;
	case '=': return SVG_UNCHANGED;
	default: return SVG_UNTOLD;
	}
}

/*
 * A section's closing lines for other side s, as the text and the page
 * both print them: the gain ("X against BASE: gain 0.891x (geometric mean,
 * above 1 is better)") and the verdicts counted, each into a buffer of
 * size bytes, names escaped as the text escapes them.  The rows compared
 * (0: nothing to say, and nothing written).
 */
static size_t cmp_closing(char *gain, char *counts, size_t size, const struct judge_cmp_side *sides,
			  const struct judge_cmp_row *rows, size_t nrows, size_t sec, size_t s)
{
	char base[512], other[512];
	struct cmp_tally t;

	cmp_tally(rows, nrows, sec, s, &t);
	if (!t.compared)
		return 0;
	snprintf(gain, size, "%s against %s: gain %.3fx (geometric mean, above 1 is better)",
		 report_cell(other, sizeof(other), sides[s].name, -1, 0),
		 report_cell(base, sizeof(base), sides[0].name, -1, 0), t.geomean);
	snprintf(counts, size, "%zu better, %zu worse, %zu unchanged, %zu cannot tell", t.better,
		 t.worse, t.unchanged, t.untold);
	return t.compared;
}

/*
 * A change in percent as the change column has it, 7 wide: "+259.5%"; one
 * of a thousandfold or more in powers of ten ("+5e+17%"), not 20 digits.
 */
static void cmp_change_text(char *buf, size_t size, double change)
{
	if (!isfinite(change))
		snprintf(buf, size, "%s", "?");
	else if (fabs(change * 100) >= 99999.5)
		snprintf(buf, size, "%+.0e%%", change * 100);
	else
		snprintf(buf, size, "%+.1f%%", change * 100);
}

/* "2.060 +-0.5%": the figure and its CI half-width in percent. */
static void cmp_cell_text(char *buf, size_t size, const struct judge_cmp_cell *c)
{
	char fig[32];
	double hw = fmax(c->median - c->lo, c->hi - c->median) / c->median * 100;

	report_fig(fig, sizeof(fig), c->median);
	if (isfinite(hw))
		snprintf(buf, size, "%s %s%.1f%%", fig, "+-", hw);
	else
		snprintf(buf, size, "%s", fig);
}

/*
 * What the sentinel says of the machines: for each other side whose runs
 * and the base's have a timeline, how much slower (+) its machine ran, the
 * system call and the adds apart.  A shift of the adds is the machine's
 * alone and raises the bar for *; one of the system call alone may be the
 * kernel's (the sentinel's call is sys.null), so it is only said.  Each a
 * note line of the legend.
 */
static void cmp_machine_notes(struct rm_doc *doc, const struct judge_cmp_side *sides,
			      size_t nsides, const struct judge_cmp_machine *m, double threshold,
			      unsigned flags)
{
	const char *why = flags & JUDGE_CMP_AS_MEASURED ?
		":\nthe machine itself moved, and as measured (--as-measured) its move is "
		"counted\nin every figure's change" :
		":\nthe machine itself moved, and only at equal adds can a change of that size "
		"be\ntold from it";

	for (size_t s = 1; s < nsides; s++) {
		char a[512], b[512], line[1280], sys[32] = "?", user[32] = "?";
		int moved;

		if (!isfinite(m[s].user_shift) && !isfinite(m[s].sys_shift))
			continue;
		/* A side measured without one of the operations (an import): unknown, not nan. */
		if (isfinite(m[s].sys_shift))
			snprintf(sys, sizeof(sys), "%+.1f%%", 100 * m[s].sys_shift);
		if (isfinite(m[s].user_shift))
			snprintf(user, sizeof(user), "%+.1f%%", 100 * m[s].user_shift);
		moved = fabs(m[s].user_shift) > threshold || fabs(m[s].sys_shift) > threshold;
		snprintf(line, sizeof(line), "sentinel: %s against %s: getppid %s, adds %s%s",
			 report_cell(a, sizeof(a), sides[s].name, -1, 0),
			 report_cell(b, sizeof(b), sides[0].name, -1, 0), sys, user, moved ? why : "");
		rm_text(doc, RM_NOTE, line);
	}
}

/*
 * What the tests knew of sittings: how many figures took the spread the
 * host's history shows between them, or, for sides from different
 * sittings and no history, that it is not known.  A note line each.
 */
static void cmp_sitting_notes(struct rm_doc *doc, const struct judge_cmp_row *rows,
			      size_t nrows, size_t nsides)
{
	size_t added = 0, most = 0, unknown = 0;
	char line[512];

	for (size_t k = 0; k < nrows; k++)
		for (size_t s = 1; s < nsides; s++) {
			const struct judge_cmp_cell *o = &rows[k].cell[s];

			if (!o->present || !o->apart || o->test == CMP_TEST_NONE ||
			    o->test == CMP_TEST_MW_SAMPLES)
				continue;
			added += o->sitting_var > 0;
			unknown += o->sittings == 0;
			most = o->sittings > most ? o->sittings : most;
		}
	if (added) {
		snprintf(line, sizeof(line), "between sittings: %zu figure%s tested with the spread "
			 "this host's history\nshows between sittings of one label (from up to %zu "
			 "sittings), which a side's\nown runs cannot show", added,
			 added == 1 ? "" : "s", most);
		rm_text(doc, RM_NOTE, line);
	}
	if (unknown)
		rm_text(doc, RM_NOTE, "between sittings: how far two sittings differ is not in the "
			"tests, as no label\non this host was measured in two (or --no-history): "
			"measure the base again,\nlater, to learn it");
}

/*
 * A distribution compared at a percentile: what was tested, and for each
 * other side the smallest change of that percentile the comparison would
 * have marked, since a tail's spread between replicas is often far wider
 * than the threshold and a quiet row says little without it.
 */
static void cmp_pct_notes(struct rm_doc *doc, const struct judge_cmp_side *sides,
			  const struct judge_cmp_row *rows, size_t nrows, size_t nsides)
{
	char name[128], line[512];
	int head = 0;

	for (size_t k = 0; k < nrows; k++) {
		double p = judge_pct_of(rows[k].key);

		if (!(p > 0))
			continue;
		if (!head++)
			rm_text(doc, RM_NOTE, "pNN: the distribution's NNth percentile of every "
				"wakeup is the figure tested,\n"
				"each replica's own the spread");
		report_compare_row_name(&rows[k], name, sizeof(name));
		for (size_t s = 1; s < nsides; s++) {
			const struct judge_cmp_cell *o = &rows[k].cell[s];

			if (!o->present)
				continue;
			if (isfinite(o->detectable))
				snprintf(line, sizeof(line), "%s, %s: detectable change %.1f%% (marked 4 "
					 "times in 5)", name, sides[s].name, o->detectable * 100);
			else
				snprintf(line, sizeof(line), "%s, %s: no detectable change known (no "
					 "interval was measured)", name, sides[s].name);
			rm_text(doc, RM_NOTE, line);
		}
	}
}

/*
 * The unmarked figures the comparison could not tell unchanged (their
 * intervals reach past the threshold): how many, and what would tell them,
 * the runs (rounds, for pairs) a side its spread asks for (the cells'
 * needed), or more sittings where the spread between them alone is too
 * wide (floor_bound).  One note line, none when every cell could tell.
 */
static void cmp_untold_note(struct rm_doc *doc, const struct judge_cmp_row *rows, size_t nrows,
			    size_t nsides, double threshold)
{
	size_t untold = 0, lo = (size_t)-1, hi = 0, counted = 0, sittings = 0;
	char line[512], runs[160] = "", sit[96] = "";

	for (size_t k = 0; k < nrows; k++)
		for (size_t s = 1; s < nsides; s++) {
			const struct judge_cmp_cell *o = &rows[k].cell[s];

			if (!o->present || o->significant || o->verdict != CMP_CANNOT_TELL ||
			    !isfinite(o->detectable))
				continue;
			untold++;
			sittings += o->floor_bound;
			if (o->needed) {
				counted++;
				lo = o->needed < lo ? o->needed : lo;
				hi = o->needed > hi ? o->needed : hi;
			}
		}
	if (!untold)
		return;
	if (counted)
		snprintf(runs, sizeof(runs), "\nfor %zu, %zu to %zu runs a side would tell (rounds, in "
			 "pairs; JSON: needed)", counted, lo, hi);
	if (sittings)
		snprintf(sit, sizeof(sit), "%sfor %zu, only more sittings, as sittings differ by more",
			 counted ? "; " : "\n", sittings);
	snprintf(line, sizeof(line), "cannot tell: %zu unmarked figure%s may have moved %.0f%% or "
		 "more%s%s", untold, untold == 1 ? "" : "s", threshold * 100,
		 counted || sittings ? ":" : "", runs);
	snprintf(line + strlen(line), sizeof(line) - strlen(line), "%s", sit);
	rm_text(doc, RM_NOTE, line);
}

/* Whether a row's other sides were tested by `test` (CMP_TEST_*), any of them. */
static int cmp_row_tested(const struct judge_cmp_row *row, size_t nsides, int test)
{
	for (size_t s = 1; s < nsides; s++)
		if (row->cell[s].present && row->cell[s].test == test)
			return 1;
	return 0;
}

/* A row's instance in full: a placement, and a timed job's -j and copies, are part of it. */
void report_compare_row_name(const struct judge_cmp_row *row, char *buf, size_t size)
{
	char jobs[16] = "", copies[16] = "";

	if (row->key->jobs)
		snprintf(jobs, sizeof(jobs), " -j%d", row->key->jobs);
	if (row->key->parallel > 1 && catalog_prefixed(row->key->id))
		snprintf(copies, sizeof(copies), " x%d", row->key->parallel);
	char pct[24] = "";

	/* A distribution compared at a percentile (compare --percentile) is named with it. */
	if (judge_pct_of(row->key) > 0)
		snprintf(pct, sizeof(pct), " p%g", judge_pct_of(row->key));
	snprintf(buf, size, "%s%s%s%s%s%s", row->key->id, pct,
		 row->key->placement == PLACE_NA ? "" : " ", place_name(row->key->placement), jobs,
		 copies);
}

/*
 * The columns a side's name needs beyond its column's width, at most room
 * (the blank header cell before it): 0 when it fits.
 */
static int cmp_borrow(const char *name, int width, int room)
{
	int over = utf8_width(name) - width;

	return over <= 0 ? 0 : over < room ? over : room;
}

/*
 * The name column: 21 wide, so that a row of two sides is 80 columns, wider
 * for a longer name ("rate.clock_gettime_coarse").
 */
#define CMP_NAME_W 21
#define CMP_NAME_MAX_W 40

static int cmp_name_width(const struct judge_cmp_row *rows, size_t nrows)
{
	int w = CMP_NAME_W;
	char name[96];

	for (size_t k = 0; k < nrows; k++) {
		if (!rows[k].common)
			continue;
		report_compare_row_name(&rows[k], name, sizeof(name));
		if ((int)strlen(name) > w)
			w = (int)strlen(name) < CMP_NAME_MAX_W ? (int)strlen(name) : CMP_NAME_MAX_W;
	}
	return w;
}

/*
 * The change's 95% interval, from the test's ratio ("+3.1..+7.6"): what the
 * runs allow the change to be, so that "unchanged" says how closely (a
 * change outside it would have been seen) and a reader can tell a row that
 * cannot see 5% from one that saw nothing.  "" where the test gives no
 * ratio (Mann-Whitney says which side is larger, not by how much) or the
 * row is not compared (?: judge_compare_build leaves it no ratio).
 */
static void cmp_change_ci(char *buf, size_t len, const struct judge_cmp_cell *o)
{
	buf[0] = '\0';
	if (isfinite(o->ratio_lo) && isfinite(o->ratio_hi))
		snprintf(buf, len, "%+.1f..%+.1f", (o->ratio_lo - 1) * 100, (o->ratio_hi - 1) * 100);
}

/* The cells' widths: the base's 15, the others' 14, the interval's 11, more for a wider one. */
#define CMP_BASE_W 15
#define CMP_OTHER_W 14
#define CMP_CI_W 11
#define CMP_CELL_MAX_W 40

/*
 * The widest figure cell of the base (side 0), of the others and of the
 * change's interval, at least the usual widths: a rate of hundreds of
 * millions with its interval ("168170891 +-27.9%") is wider than the times
 * the table was laid out for, and so is a change of +260%'s.
 */
static void cmp_cell_widths(const struct judge_cmp_row *rows, size_t nrows, size_t nsides,
			    int *basew, int *otherw, int *ciw)
{
	char cell[64];

	*basew = CMP_BASE_W;
	*otherw = CMP_OTHER_W;
	*ciw = CMP_CI_W;
	for (size_t k = 0; k < nrows; k++) {
		if (!rows[k].common)
			continue;
		for (size_t s = 0; s < nsides; s++) {
			int *w = s == 0 ? basew : otherw;
			int len;

			if (s > 0 && !rows[k].cell[s].present)
				continue;
			cmp_cell_text(cell, sizeof(cell), &rows[k].cell[s]);
			len = (int)strlen(cell);
			if (len > *w)
				*w = len < CMP_CELL_MAX_W ? len : CMP_CELL_MAX_W;
			if (s > 0) {
				cmp_change_ci(cell, sizeof(cell), &rows[k].cell[s]);
				len = (int)strlen(cell);
				if (len > *ciw)
					*ciw = len < CMP_CELL_MAX_W ? len : CMP_CELL_MAX_W;
			}
		}
	}
}

/*
 * How a table lays out the other sides, so that a row stays within 80
 * columns: two sides, each figure with its interval and the change's
 * interval (CMP_FULL); more, the others' figures without intervals and no
 * change's interval (CMP_NO_CI: in the JSON, and in a compare of two); more
 * still, the others' changes alone (CMP_CHANGES).  Where a side's name is
 * wider than its columns, the header names the others by key (B, C, ...)
 * on lines of their own above it.
 */
enum cmp_layout { CMP_FULL, CMP_NO_CI, CMP_CHANGES };

/* A change and its marks: "+259.5% *~". */
#define CMP_CHANGE_W 7
#define CMP_MARKS_W 2

static enum cmp_layout cmp_layout_of(const struct judge_cmp_row *rows, size_t nrows,
				     size_t nsides, int namew, int basew, int *otherw, int *ciw)
{
	char fig[32];
	int fw = 6;

	if (nsides <= 2)
		return CMP_FULL;
	for (size_t k = 0; k < nrows; k++)
		for (size_t s = 1; rows[k].common && s < nsides; s++)
			if (rows[k].cell[s].present) {
				report_fig(fig, sizeof(fig), rows[k].cell[s].median);
				fw = (int)strlen(fig) > fw ? (int)strlen(fig) : fw;
			}
	*ciw = 0;
	/* The name, the base with its mark, then each other: figure, mark, change, marks. */
	if (namew + 1 + basew + 1 + (int)(nsides - 1) * (1 + fw + 1 + 1 + CMP_CHANGE_W + 1 +
							 CMP_MARKS_W) <= REPORT_COLS) {
		*otherw = fw;
		return CMP_NO_CI;
	}
	*otherw = 0;
	return CMP_CHANGES;
}

/* The cells an other side's row takes in a layout (one "-" spans them when it lacks the figure). */
static size_t cmp_side_cells(enum cmp_layout lay)
{
	return lay == CMP_FULL ? 5 : lay == CMP_NO_CI ? 4 : 2;
}

/* A side's columns' width in a layout, from its figure's to its marks'. */
static int cmp_side_width(enum cmp_layout lay, int otherw, int ciw)
{
	return lay == CMP_CHANGES ? CMP_CHANGE_W + 1 + CMP_MARKS_W
				  : otherw + 1 + 1 + CMP_CHANGE_W + 1 + CMP_MARKS_W +
					    (lay == CMP_FULL ? 1 + ciw : 0);
}

/*
 * Under a row with a significant change, LKP's word for it ("regression",
 * "improvement") ending under each side's mark, on a line of its own: the
 * row itself has no room left in 80 columns.
 */
static void cmp_words(struct rm_doc *doc, const struct judge_cmp_row *row, size_t nsides,
		      const int *mark_end)
{
	char line[512];
	int len = 0, any = 0;

	memset(line, ' ', sizeof(line));
	for (size_t s = 1; s < nsides; s++) {
		const char *w = row->cell[s].better ? "improvement" : "regression";
		int at = mark_end[s] - (int)strlen(w);

		if (!mark_end[s] || at < len + 1 || mark_end[s] >= (int)sizeof(line) - 1)
			continue;
		memcpy(line + at, w, strlen(w));
		len = mark_end[s];
		any = 1;
	}
	line[len] = '\0';
	if (any)
		rm_text(doc, RM_CONT, line);
}

/*
 * Under a changed figure, the events that moved with it (run --events on
 * both sides, judge_compare_events), a line each, as LKP prints
 * perf-stat's rows: the event per operation on each side and the change.
 */
static void cmp_events_text(struct rm_doc *doc, const struct judge_cmp_side *sides,
			    const struct judge_cmp_row *row, size_t nsides)
{
	struct judge_cmp_event ev[16];
	char line[256], a[32], b[32], c[32], nm[40];

	for (size_t s = 1; s < nsides; s++) {
		size_t n;

		if (!row->cell[s].present || !row->cell[s].significant || row->levels_differ)
			continue;
		n = judge_compare_events(sides, s, row->key, ev, NELEM(ev));
		for (size_t i = 0; i < n; i++) {
			report_fig(a, sizeof(a), ev[i].base);
			report_fig(b, sizeof(b), ev[i].other);
			if (isfinite(ev[i].change))
				cmp_change_text(c, sizeof(c), ev[i].change);
			else
				snprintf(c, sizeof(c), "from 0");
			snprintf(nm, sizeof(nm), "%s/op", ev[i].key + 3);
			snprintf(line, sizeof(line), "  %-22s %10s %10s %9s%s%s", nm, a, b, c,
				 nsides > 2 ? "  " : "", nsides > 2 ? sides[s].name : "");
			rm_text(doc, RM_CONT, line);
		}
	}
}

/*
 * The comparison as the table model (report/model.h), which the text, the
 * page and the JSON render: first an untitled table of the legend's notes
 * (and what the sentinel says of the machines), then a table per section
 * used, its title after a blank line and no rule, a row per figure, the
 * section's line for the first other side as its note.  A row's cells: the
 * name; the base's figure and its noisy mark glued to it; for each other
 * side its figure, mark, change, the marks of the test (* ? ~) and the
 * change's interval, or one "-" for a side that did not measure it; the
 * unit where the section has one.  secs[t] is table t's section (secs holds judge_section_other() + 2).
 */
/*
 * Under a scalability curve's last row (scale.<op>.<shape>.<n>), a line an
 * other side: the fewest tasks at which its figure differs from the
 * base's with compare's mark, where the two curves part, or that they do
 * not part over the points both have.
 */
static void cmp_curve_part(struct rm_doc *doc, const struct judge_cmp_side *sides, size_t nsides,
			   const struct judge_cmp_row *rows, size_t nrows, size_t k)
{
	const struct judge_cmp_row *row = &rows[k];
	char line[640], other[512], change[32];
	size_t len, l;
	int tasks, t;

	if (curve_id(row->key->id, &len, &tasks) < 0)
		return;
	for (size_t j = k + 1; j < nrows; j++)
		if (rows[j].section == row->section && rows[j].common &&
		    curve_id(rows[j].key->id, &l, &t) == 0 && l == len &&
		    strncmp(rows[j].key->id, row->key->id, len) == 0 &&
		    rows[j].key->placement == row->key->placement)
			return;
	for (size_t s = 1; s < nsides; s++) {
		int first = 0, most = 0;
		const struct judge_cmp_cell *at = NULL;

		for (size_t j = 0; j < nrows; j++) {
			const struct judge_cmp_cell *o = &rows[j].cell[s];

			if (rows[j].section != row->section || !rows[j].common || !o->present ||
			    curve_id(rows[j].key->id, &l, &t) < 0 || l != len ||
			    strncmp(rows[j].key->id, row->key->id, len) != 0)
				continue;
			most = t > most ? t : most;
			if (o->significant && !rows[j].levels_differ && (!first || t < first)) {
				first = t;
				at = o;
			}
		}
		report_cell(other, sizeof(other), sides[s].name, -1, 0);
		if (at) {
			cmp_change_text(change, sizeof(change), at->change);
			snprintf(line, sizeof(line), "  %.*s: %s parts from the base at %d task%s (%s *)",
				 (int)(len - strlen("scale.")), row->key->id + strlen("scale."), other,
				 first, first == 1 ? "" : "s", change);
		} else {
			snprintf(line, sizeof(line), "  %.*s: %s does not part from the base up to %d "
				 "task%s", (int)(len - strlen("scale.")), row->key->id + strlen("scale."),
				 other, most, most == 1 ? "" : "s");
		}
		rm_text(doc, RM_NOTE, line);
	}
}

static void cmp_model(struct rm_doc *doc, size_t *secs, const struct judge_cmp_side *sides,
		      size_t nsides, const struct judge_cmp_row *rows, size_t nrows,
		      double threshold, unsigned flags)
{
	/* Side names escaped by the writers (report_cell): a label may hold anything. */
	char cell[64], change[32], legend[1024], base[512], other[512], id[32], name[96];
	char gain[1200], counts[128];
	struct judge_cmp_machine m[JUDGE_CMP_MAX_SIDES];
	int namew = cmp_name_width(rows, nrows), basew, otherw, ciw, sidew, keyed = 0;
	enum cmp_layout lay;
	size_t nstate;

	cmp_cell_widths(rows, nrows, nsides, &basew, &otherw, &ciw);
	lay = cmp_layout_of(rows, nrows, nsides, namew, basew, &otherw, &ciw);
	sidew = cmp_side_width(lay, otherw, ciw);
	/* Narrowed, the others are named by key where one's name is wider than its columns. */
	for (size_t s = 1; lay != CMP_FULL && s < nsides; s++)
		keyed |= utf8_width(sides[s].name) > sidew;
	report_cell(base, sizeof(base), sides[0].name, -1, 0);
	for (size_t sec = 0; sec <= judge_section_other(); sec++) {
		int unit = judge_section_units(sec);

		if (!cmp_section_used(rows, nrows, sec))
			continue;
		judge_section_id(sec, id, sizeof(id));
		secs[doc->ntables] = sec;
		rm_table(doc, id, judge_section_title(sec));
		rm_plain(doc);
		if (doc->ntables > 1)
			rm_lead(doc);
		for (size_t s = 1; keyed && s < nsides; s++) {
			char key[600];

			report_cell(other, sizeof(other), sides[s].name, -1, 0);
			snprintf(key, sizeof(key), "%c  %s", (char)('A' + s % 26), other);
			rm_text(doc, RM_GROUP, key);
		}
		rm_line(doc, RM_HEAD);
		/*
		 * Each side's name whole: one longer than its column reaches left
		 * into the blank cell before it (the figures' names, a side's
		 * interval), so that kernels named alike to their last characters
		 * are told apart.
		 */
		int lend = cmp_borrow(sides[0].name, basew + 1, namew);

		rm_cell(doc, namew - lend, 0, "");
		for (size_t s = 0; s < nsides; s++) {
			char key[2] = { (char)('A' + s % 26), '\0' };

			rm_cell(doc, (s == 0 ? basew + 1 : sidew - (lay == CMP_FULL ? 1 + ciw : 0)) + lend,
				1, s > 0 && keyed ? key : sides[s].name);
			lend = 0;
			if (s > 0) {
				/* The name over the figure and its change; the interval's column unnamed. */
				rm_span(doc, (int)cmp_side_cells(lay) - 1 - (lay == CMP_FULL));
				if (lay != CMP_FULL)
					continue;
				if (s + 1 < nsides)
					lend = cmp_borrow(sides[s + 1].name, otherw + 12, ciw);
				rm_cell(doc, ciw - lend, 0, "");
			}
		}
		if (unit) {
			rm_cell(doc, -1, 0, "");
			rm_gap(doc, 2);
		}
		/*
		 * What each column is: the level (with its interval), the change,
		 * the change's interval; words no wider than the figures under
		 * them, so that the page's columns stay the figures' width.
		 */
		rm_line(doc, RM_HEAD);
		rm_cell(doc, namew, 0, "");
		rm_cell(doc, basew + 1, 1, "level");
		for (size_t s = 1; s < nsides; s++) {
			int ci = 0;

			/* A side whose changes have no interval here (one run) has none to name. */
			for (size_t k = 0; k < nrows && !ci; k++)
				ci = rows[k].section == sec && rows[k].common && rows[k].cell[s].present &&
				     isfinite(rows[k].cell[s].ratio_lo) && isfinite(rows[k].cell[s].ratio_hi);
			if (lay != CMP_CHANGES)
				rm_cell(doc, otherw + 1, 1, "level");
			rm_cell(doc, CMP_CHANGE_W, 1, "change");
			rm_cell(doc, CMP_MARKS_W, 0, "");
			if (lay == CMP_FULL)
				rm_cell(doc, ciw, 1, ci ? "interval" : "");
		}
		for (size_t k = 0; k < nrows; k++) {
			const struct judge_cmp_row *row = &rows[k];

			if (row->section != sec || !row->common)
				continue;
			/* Where each side's mark ends on the row (0: none), for LKP's words below it. */
			int mark_end[JUDGE_CMP_MAX_SIDES] = { 0 };
			size_t ncell = 3;

			rm_line(doc, RM_ROW);
			report_compare_row_name(row, name, sizeof(name));
			rm_cell(doc, namew, 0, name);
			cmp_cell_text(cell, sizeof(cell), &row->cell[0]);
			rm_cell(doc, basew, 1, cell);
			rm_cell(doc, 1, 0, row->cell[0].noisy ? "!" : "");
			rm_gap(doc, 0);
			for (size_t s = 1; s < nsides; s++) {
				const struct judge_cmp_cell *o = &row->cell[s];
				char marks[3] = { report_compare_mark(row, s),
						  o->test == CMP_TEST_MW_SAMPLES ||
							  o->test == CMP_TEST_WELCH_REPLICAS ? '~' : ' ',
						  '\0' };

				if (!o->present) {
					rm_cell(doc, sidew, 1, "-");
					rm_span(doc, (int)cmp_side_cells(lay) - 1);
					ncell++;
					continue;
				}
				if (lay != CMP_CHANGES) {
					if (lay == CMP_FULL)
						cmp_cell_text(cell, sizeof(cell), o);
					else
						report_fig(cell, sizeof(cell), o->median);
					rm_cell(doc, otherw, 1, cell);
					rm_cell(doc, 1, 0, o->noisy ? "!" : "");
					rm_gap(doc, 0);
				}
				cmp_change_text(change, sizeof(change), o->change);
				rm_cell(doc, CMP_CHANGE_W, 1, change);
				if (o->significant && !row->levels_differ)
					rm_flags(doc, RM_SIGNIF);
				rm_cell(doc, CMP_MARKS_W, 0, marks);
				if (o->significant && !row->levels_differ)
					mark_end[s] = rm_cell_end(doc, ncell + cmp_side_cells(lay) -
								    (lay == CMP_FULL ? 2 : 1)) - 1;
				if (lay == CMP_FULL) {
					cmp_change_ci(change, sizeof(change), o);
					rm_cell(doc, ciw, 1, change);
				}
				ncell += cmp_side_cells(lay);
			}
			if (unit) {
				rm_cell(doc, -1, 0, row->key->unit);
				rm_gap(doc, 2);
			}
			cmp_words(doc, row, nsides, mark_end);
			cmp_events_text(doc, sides, row, nsides);
			cmp_curve_part(doc, sides, nsides, rows, nrows, k);
		}
		/* The section's line speaks of the first other. */
		if (cmp_closing(gain, counts, sizeof(gain), sides, rows, nrows, sec, 1)) {
			char line[1400];

			char *at = strstr(gain, ": gain ");

			snprintf(line, sizeof(line), "  %s", gain);
			/* Long labels: the gain on a line of its own rather than past 80 columns. */
			if (utf8_width(line) > REPORT_COLS && at) {
				snprintf(line, sizeof(line), "  %.*s:", (int)(at - gain), gain);
				rm_text(doc, RM_NOTE, line);
				snprintf(line, sizeof(line), "  %s", at + 2);
			}
			rm_text(doc, RM_NOTE, line);
			snprintf(line, sizeof(line), "  %s", counts);
			rm_text(doc, RM_NOTE, line);
		}
	}
	/* After the tables, as a mail reader meets them: the figures first. */
	secs[doc->ntables] = (size_t)-1;
	rm_table(doc, "legend", "");
	rm_plain(doc);
	if (doc->ntables > 1)
		rm_lead(doc);
	/* The base's name alone on the first line where it would push that line past 80. */
	snprintf(legend, sizeof(legend), "Base %s;%schange = other / base - 1, then its 95%% "
		 "interval (a..b, in %%);\n* = significant: Benjamini-Hochberg adjusted p < 0.05, "
		 "at least %.0f%%%s\nunder a *, regression or improvement: which way it went, in LKP's "
		 "words;\n= = unchanged: its interval inside +-%.0f%%; ~ = fewer than 3 "
		 "runs a side, their\nreplicas compared (samples, for runs without); ! = loose in a run "
		 "of the side\n(its interval over twice its run's typical one)",
		 base, utf8_width(base) > 10 ? "\n" : " ", threshold * 100,
		 flags & JUDGE_CMP_AS_MEASURED ? ";" : " and what\nthe machine itself moved;",
		 threshold * 100);
	rm_text(doc, RM_PARA, legend);
	if (lay != CMP_FULL)
		rm_text(doc, RM_NOTE, lay == CMP_NO_CI ?
			"more than two sides, to fit 80 columns: the others' levels without their"
			"\nintervals, the changes without theirs (both in --json, and in a compare of two)" :
			"more than three sides, to fit 80 columns: the others' changes alone (their\n"
			"levels and intervals in --json, and in a compare of two)");
	judge_compare_machine(sides, nsides, m);
	cmp_machine_notes(doc, sides, nsides, m, threshold, flags);
	for (size_t k = 0; k < nrows; k++)
		if (cmp_row_tested(&rows[k], nsides, CMP_TEST_WELCH_ADJUSTED)) {
			rm_text(doc, RM_NOTE, "replicas compared at equal machine speed: each moved "
				"along how its figure\nfollows the sentinel adds within runs, to the adds "
				"of all; the change at equal\nadds");
			break;
		}
	for (size_t k = 0; k < nrows; k++)
		if (cmp_row_tested(&rows[k], nsides, CMP_TEST_PAIRED)) {
			size_t pairs = 0, out = 0;

			for (size_t j = 0; j < nrows; j++)
				for (size_t s = 1; s < nsides; s++)
					if (rows[j].cell[s].test == CMP_TEST_PAIRED) {
						pairs = rows[j].cell[s].pairs_all > pairs ?
							rows[j].cell[s].pairs_all : pairs;
						out += rows[j].cell[s].pairs_all - rows[j].cell[s].pairs;
					}
			snprintf(legend, sizeof(legend), "paired: the sides were measured round by round "
				 "in one session (kbench ab),\nup to %zu rounds; each round's ratio tested "
				 "(paired t on the logarithms),\nthe change their geometric mean", pairs);
			rm_text(doc, RM_NOTE, legend);
			if (out) {
				snprintf(legend, sizeof(legend), "%zu pair%s of rounds left out over the table: %s ratio beyond "
					 "%.0f%% of the\nothers' median (a jump of the machine between "
					 "the two halves of a pair)", out, out == 1 ? "" : "s",
					 out == 1 ? "its" : "their", JUDGE_CMP_STATE_WIDTH * 100);
				rm_text(doc, RM_NOTE, legend);
			}
			break;
		}
	cmp_sitting_notes(doc, rows, nrows, nsides);
	cmp_pct_notes(doc, sides, rows, nrows, nsides);
	cmp_untold_note(doc, rows, nrows, nsides, threshold);
	for (size_t k = 0; k < nrows; k++)
		if (cmp_row_tested(&rows[k], nsides, CMP_TEST_ANCOVA_RUNS)) {
			rm_text(doc, RM_NOTE, "runs compared at equal machine speed: their figures "
				"against each run's sentinel\nadds, the change at equal adds");
			break;
		}
	nstate = 0;
	for (size_t k = 0; k < nrows; k++)
		for (size_t s = 1; s < nsides; s++)
			if (rows[k].cell[s].present && rows[k].cell[s].state_all) {
				nstate++;
				break;
			}
	if (nstate) {
		snprintf(legend, sizeof(legend), "%zu figure%s with replicas beyond %.0f%% of a level both "
			 "sides share (the\nmachine's states, outliers): runs compared on their replicas "
			 "within it, the\nchange that level's", nstate, nstate == 1 ? "" : "s",
			 JUDGE_CMP_STATE_WIDTH * 100);
		rm_notes(doc, legend);
	}
	for (size_t k = 0; k < nrows; k++)
		if (rows[k].levels_differ && rows[k].common) {
			rm_text(doc, RM_NOTE, "? = the runs found this cache level at sizes more than "
				"2x apart: not compared");
			break;
		}
}

/* The most curves compared (--curves): a table each. */
#define CMP_MAX_CURVES 32

static int cmp_curves_model(struct rm_doc *doc, size_t *secs, size_t nsecs,
			    const struct judge_cmp_side *sides, size_t nsides, double threshold);

/*
 * The model of a comparison into doc, and with curves the curves' tables
 * after it; each table's section into *secs when secs is not NULL.
 */
static int cmp_model_new(struct rm_doc *doc, size_t **secs, const struct judge_cmp_side *sides,
			 size_t nsides, const struct judge_cmp_row *rows, size_t nrows,
			 double threshold, unsigned flags, int curves)
{
	size_t nsec = judge_section_other() + 2 + CMP_MAX_CURVES;
	size_t *sec = malloc(nsec * sizeof(*sec));

	memset(doc, 0, sizeof(*doc));
	if (!sec)
		return -1;
	cmp_model(doc, sec, sides, nsides, rows, nrows, threshold, flags);
	if (doc->oom || (curves && cmp_curves_model(doc, sec, nsec, sides, nsides, threshold) < 0)) {
		rm_doc_free(doc);
		free(sec);
		return -1;
	}
	if (secs)
		*secs = sec;
	else
		free(sec);
	return 0;
}

int report_compare_text(FILE *out, const struct judge_cmp_side *sides, size_t nsides,
			const struct judge_cmp_row *rows, size_t nrows, double threshold,
			unsigned flags)
{
	struct rm_doc doc;

	if (cmp_model_new(&doc, NULL, sides, nsides, rows, nrows, threshold, flags, 0) < 0)
		return -1;
	rm_write_text(out, &doc);
	rm_doc_free(&doc);
	return 0;
}

/*
 * `compare --html`: the comparison's model (cmp_model, the text's own)
 * rendered as the page's tables, each section's change against the base
 * drawn as a forest plot between its heading and its table; the
 * comparison embedded as its JSON.
 */
struct cmp_html_data {
	const struct judge_cmp_side *sides;
	size_t nsides;
	const struct judge_cmp_row *rows;
	size_t nrows;
	double threshold;
	unsigned flags;
	int curves;
	size_t sec;		/* the section whose chart is drawn next, or CMP_SEC_MARKED */
};

/* The chart at the head of the page: every marked change, of every section. */
#define CMP_SEC_MARKED ((size_t)-2)

static int cmp_html_json(FILE *out, const void *arg)
{
	const struct cmp_html_data *d = arg;

	return report_compare_json(out, d->sides, d->nsides, d->rows, d->nrows, d->threshold, d->flags,
				   d->curves);
}

int report_compare_pick_marked(const struct judge_cmp_row *row, size_t s, const void *arg)
{
	(void)arg;
	return report_compare_mark(row, s) == '*';
}

/* Whether a row is of section *arg. */
static int cmp_pick_section(const struct judge_cmp_row *row, size_t s, const void *arg)
{
	(void)s;
	return row->section == *(const size_t *)arg;
}

int report_compare_forest(FILE *out, const struct judge_cmp_row *rows, size_t nrows, size_t s,
			  int (*pick)(const struct judge_cmp_row *, size_t, const void *),
			  const void *arg, const struct svg_chart *c, const char *const *foot,
			  size_t nfoot)
{
	struct svg_row *fr = calloc(nrows ? nrows : 1, sizeof(*fr));
	char (*names)[96] = calloc(nrows ? nrows : 1, sizeof(*names));
	size_t n = 0;
	int rc;

	if (!fr || !names) {
		free(fr);
		free(names);
		return -1;
	}
	for (size_t k = 0; k < nrows; k++) {
		const struct judge_cmp_row *row = &rows[k];
		const struct judge_cmp_cell *o = &row->cell[s];
		struct svg_row *r = &fr[n];

		if (!row->common || !pick(row, s, arg))
			continue;
		report_compare_row_name(row, names[n], sizeof(names[n]));
		*r = (struct svg_row){ names[n], NAN, NAN, NAN, report_compare_verdict(row, s), NULL };
		if (!o->present) {
			r->note = "not measured";
		} else {
			/* The table's change, with the test's interval of the ratio. */
			r->ratio = 1 + o->change;
			if (isfinite(o->ratio_lo) && isfinite(o->ratio_hi)) {
				r->lo = o->ratio_lo;
				r->hi = o->ratio_hi;
			}
		}
		n++;
	}
	rc = svg_forest(out, c, fr, n, foot, nfoot);
	free(fr);
	free(names);
	return rc;
}

/*
 * The section's forest plot for each other side: a row per figure, its
 * point the table's other / base, its interval the 95% interval of the
 * ratio where the test gave one (Welch's on the logarithms; none for
 * Mann-Whitney), drawn as the text marks it; under it the section's
 * closing lines, the text's own (cmp_closing).  For CMP_SEC_MARKED, the
 * marked rows of every section, and no closing line: what changed, first,
 * at a glance.
 */
static void cmp_html_forest(FILE *out, const void *arg)
{
	const struct cmp_html_data *d = arg;
	const struct judge_cmp_side *sides = d->sides;
	size_t sec = d->sec;
	char title[1100], gain[1200], counts[128];

	for (size_t s = 1; s < d->nsides; s++) {
		struct svg_chart c = { 0 };
		const char *foot[2] = { gain, counts };
		size_t nfoot = 0;
		char base[512], other[512];

		if (sec != CMP_SEC_MARKED)
			nfoot = cmp_closing(gain, counts, sizeof(gain), sides, d->rows, d->nrows, sec, s) ? 2 : 0;
		snprintf(title, sizeof(title), "%s%s against %s", sec == CMP_SEC_MARKED ?
			 "marked changes: " : "", report_cell(other, sizeof(other), sides[s].name, -1, 0),
			 report_cell(base, sizeof(base), sides[0].name, -1, 0));
		c.title = title;
		c.xlabel = "other / base (log scale)";
		c.empty = sec == CMP_SEC_MARKED ? "no change marked" : "no figure to compare";
		if (report_compare_forest(out, d->rows, d->nrows, s,
					  sec == CMP_SEC_MARKED ? report_compare_pick_marked : cmp_pick_section,
					  &sec, &c, foot, nfoot) < 0)
			fputs("<p class=\"nochart\">No chart: out of memory.</p>\n", out);
	}
}

int report_compare_html(FILE *out, const struct judge_cmp_side *sides, size_t nsides,
			const struct judge_cmp_row *rows, size_t nrows, double threshold,
			unsigned flags, int curves)
{
	struct cmp_html_data d = { sides, nsides, rows, nrows, threshold, flags, curves, 0 };
	struct rm_doc doc;
	size_t *secs;
	char title[512];

	if (cmp_model_new(&doc, &secs, sides, nsides, rows, nrows, threshold, flags, curves) < 0)
		return -1;
	snprintf(title, sizeof(title), "kbench compare: base %s", sides[0].name);
	report_html_begin(out, title);
	/* What changed leads; the legend and the sections' tables and charts follow. */
	fputs("<h2 id=\"marked\">What changed</h2>\n", out);
	d.sec = CMP_SEC_MARKED;
	cmp_html_forest(out, &d);
	for (size_t t = 0; t < doc.ntables; t++) {
		d.sec = secs[t];
		report_html_table(out, &doc, t, secs[t] != (size_t)-1 ? cmp_html_forest : NULL, &d);
	}
	report_html_data(out, cmp_html_json, &d);
	report_html_end(out);
	rm_doc_free(&doc);
	free(secs);
	return ferror(out) ? -1 : 0;
}

/* The "verdict" key's values, by CMP_CHANGED etc. */
static const char *const cmp_verdict_names[] = {
	[CMP_CANNOT_TELL] = "cannot tell",
	[CMP_CHANGED] = "changed",
	[CMP_UNCHANGED] = "unchanged",
};

/* The "test" key's values, by CMP_TEST_*; none is null. */
static const char *const cmp_test_names[] = {
	[CMP_TEST_NONE] = NULL,
	[CMP_TEST_WELCH_RUNS] = "welch-log-runs",
	[CMP_TEST_MW_SAMPLES] = "mann-whitney-samples",
	[CMP_TEST_WELCH_REPLICAS] = "welch-log-replicas",
	[CMP_TEST_ANCOVA_RUNS] = "ancova-log-runs",
	[CMP_TEST_WELCH_ADJUSTED] = "welch-log-runs-adjusted",
	[CMP_TEST_PAIRED] = "paired-log-rounds",
};

/* One cell; the keys after "noisy" only for an other side (other = 1). */
static json_t *cmp_cell_json(const char *name, const struct judge_cmp_cell *c, int other,
			     int *bad)
{
	json_t *o = json_object();
	const char *test = c->test >= 0 && (size_t)c->test < NELEM(cmp_test_names) ?
			   cmp_test_names[c->test] : NULL;

	report_jset(o, "side", report_jstr(name), bad);
	report_jset(o, "present", json_boolean(c->present), bad);
	report_jset(o, "nruns", json_integer((json_int_t)c->nruns), bad);
	report_jset(o, "level", report_jreal(c->median), bad);
	report_jset(o, "level_low", report_jreal(c->lo), bad);
	report_jset(o, "level_high", report_jreal(c->hi), bad);
	report_jset(o, "noisy", json_boolean(c->noisy), bad);
	if (!other)
		return o;
	report_jset(o, "change", report_jreal(c->change), bad);
	report_jset(o, "ratio", report_jreal(c->ratio), bad);
	report_jset(o, "ratio_ci_low", report_jreal(c->ratio_lo), bad);
	report_jset(o, "ratio_ci_high", report_jreal(c->ratio_hi), bad);
	report_jset(o, "test", test ? json_string(test) : json_null(), bad);
	/* The runs compared in the machine's common state: how many replicas it held. */
	if (c->state_all) {
		json_t *st = json_object();

		report_jset(st, "replicas_in", json_integer((json_int_t)c->state_in), bad);
		report_jset(st, "replicas", json_integer((json_int_t)c->state_all), bad);
		report_jset(st, "width", json_real(JUDGE_CMP_STATE_WIDTH), bad);
		report_jset(o, "state", st, bad);
	} else {
		report_jset(o, "state", json_null(), bad);
	}
	/* Replicas taken at equal adds: the slope they were moved along. */
	report_jset(o, "slope", report_jreal(c->slope), bad);
	/* Measured in pairs (kbench ab): the rounds tested, of those paired. */
	if (c->test == CMP_TEST_PAIRED) {
		json_t *pr = json_object();

		report_jset(pr, "tested", json_integer((json_int_t)c->pairs), bad);
		report_jset(pr, "rounds", json_integer((json_int_t)c->pairs_all), bad);
		report_jset(pr, "width", json_real(JUDGE_CMP_STATE_WIDTH), bad);
		report_jset(o, "pairs", pr, bad);
	} else {
		report_jset(o, "pairs", json_null(), bad);
	}
	report_jset(o, "p", report_jreal(c->p), bad);
	report_jset(o, "p_adj", report_jreal(c->p_adj), bad);
	report_jset(o, "significant", json_boolean(c->significant), bad);
	/* The smallest change this comparison could see, and what it says of this one. */
	report_jset(o, "detectable", report_jreal(c->detectable), bad);
	report_jset(o, "verdict", report_jstr(cmp_verdict_names[c->verdict]), bad);
	/* How many a side would see the threshold (runs; rounds for pairs), where it can be said. */
	report_jset(o, "needed", c->needed ? json_integer((json_int_t)c->needed) : json_null(), bad);
	/*
	 * What the host's history said of sittings: their spread (a fraction,
	 * as change), how many it was learnt from, and whether the test took
	 * it; more_sittings: no count of runs a side gets to the threshold.
	 */
	if (c->sittings) {
		json_t *si = json_object();

		report_jset(si, "spread", report_jreal(expm1(c->sitting_sd)), bad);
		report_jset(si, "spread_hi", report_jreal(expm1(c->sitting_sd_hi)), bad);
		report_jset(si, "sittings", json_integer((json_int_t)c->sittings), bad);
		report_jset(si, "added", json_boolean(c->sitting_var > 0), bad);
		report_jset(si, "more_sittings", json_boolean(c->floor_bound), bad);
		report_jset(o, "between_sittings", si, bad);
	} else {
		report_jset(o, "between_sittings", json_null(), bad);
	}
	report_jset(o, "sets", json_integer((json_int_t)c->sets), bad);
	/* Whether the change goes the better way; a side without the instance has no direction. */
	report_jset(o, "improved", c->present ? json_boolean(c->better) : json_null(), bad);
	return o;
}

static json_t *cmp_row_json(const struct judge_cmp_side *sides, size_t nsides,
			    const struct judge_cmp_row *row, int *bad)
{
	const struct result *key = row->key;
	json_t *o = json_object(), *cells = json_array();

	report_jset(o, "id", json_string(key->id), bad);
	/* null, not "", for a benchmark that takes no placement, as in run --json. */
	report_jset(o, "placement", key->placement == PLACE_NA ? json_null()
							  : json_string(place_name(key->placement)), bad);
	report_jset(o, "parallel", json_integer(key->parallel), bad);
	/* null, not 0, for an instance without a {jobs} value, as in run --json. */
	report_jset(o, "jobs", key->jobs ? json_integer(key->jobs) : json_null(), bad);
	report_jset(o, "unit", json_string(key->unit), bad);
	report_jset(o, "better", json_string(bench_better_name(key->better)), bad);
	report_jset(o, "section", json_string(judge_section_title(row->section)), bad);
	report_jset(o, "levels_differ", json_boolean(row->levels_differ), bad);
	/* A distribution tested at a percentile (--percentile): which one; absent otherwise. */
	if (judge_pct_of(key) > 0)
		report_jset(o, "percentile", report_jreal(judge_pct_of(key)), bad);
	for (size_t s = 0; s < nsides; s++)
		report_jpush(cells, cmp_cell_json(sides[s].name, &row->cell[s], s > 0, bad), bad);
	report_jset(o, "cells", cells, bad);
	/* The events that moved with a changed figure (run --events), as the text's rows under it. */
	for (size_t s = 1; s < nsides; s++) {
		struct judge_cmp_event ev[16];
		size_t n;
		json_t *a;

		if (!row->cell[s].present || !row->cell[s].significant || row->levels_differ ||
		    !(n = judge_compare_events(sides, s, key, ev, NELEM(ev))))
			continue;
		if (!json_object_get(o, "events"))
			report_jset(o, "events", json_array(), bad);
		a = json_object_get(o, "events");
		for (size_t i = 0; a && i < n; i++) {
			json_t *e = json_object();

			report_jset(e, "side", report_jstr(sides[s].name), bad);
			report_jset(e, "event", json_string(ev[i].key), bad);
			report_jset(e, "base", report_jreal(ev[i].base), bad);
			report_jset(e, "value", report_jreal(ev[i].other), bad);
			report_jset(e, "change", report_jreal(ev[i].change), bad);
			report_jpush(a, e, bad);
		}
	}
	return o;
}

/* A section's closing figures for one other side: cmp_tally's, as the text's line. */
static json_t *cmp_section_json(const struct judge_cmp_side *side,
				const struct judge_cmp_row *rows, size_t nrows, size_t sec,
				size_t s, int *bad)
{
	json_t *o = json_object();
	struct cmp_tally t;

	cmp_tally(rows, nrows, sec, s, &t);
	report_jset(o, "title", json_string(judge_section_title(sec)), bad);
	report_jset(o, "side", report_jstr(side->name), bad);
	report_jset(o, "ncompared", json_integer((json_int_t)t.compared), bad);
	report_jset(o, "geomean", report_jreal(t.geomean), bad);
	report_jset(o, "nbetter", json_integer((json_int_t)t.better), bad);
	report_jset(o, "nworse", json_integer((json_int_t)t.worse), bad);
	report_jset(o, "nunchanged", json_integer((json_int_t)t.unchanged), bad);
	report_jset(o, "ncannot_tell", json_integer((json_int_t)t.untold), bad);
	return o;
}

int report_compare_json(FILE *out, const struct judge_cmp_side *sides, size_t nsides,
			const struct judge_cmp_row *rows, size_t nrows, double threshold,
			unsigned flags, int curves)
{
	int bad = 0, rc = -1;
	json_t *root = report_jdoc("compare", &bad), *jsides = json_array(), *jrows = json_array();
	json_t *jsecs = json_array();
	struct judge_cmp_machine m[JUDGE_CMP_MAX_SIDES];
	struct rm_doc doc;

	judge_compare_machine(sides, nsides, m);
	report_jset(root, "base", report_jstr(sides[0].name), &bad);
	for (size_t s = 0; s < nsides; s++) {
		json_t *o = json_object();

		report_jset(o, "name", report_jstr(sides[s].name), &bad);
		report_jset(o, "nruns", json_integer((json_int_t)sides[s].nruns), &bad);
		report_jset(o, "sentinel_sys_ns", report_jreal(m[s].sys_ns), &bad);
		report_jset(o, "sentinel_user_ns", report_jreal(m[s].user_ns), &bad);
		report_jset(o, "sentinel_sys_shift", report_jreal(m[s].sys_shift), &bad);
		report_jset(o, "sentinel_user_shift", report_jreal(m[s].user_shift), &bad);
		report_jpush(jsides, o, &bad);
	}
	report_jset(root, "sides", jsides, &bad);
	report_jset(root, "threshold", json_real(threshold), &bad);
	report_jset(root, "as_measured", json_boolean(flags & JUDGE_CMP_AS_MEASURED), &bad);
	report_jset(root, "correction", json_string("benjamini-hochberg"), &bad);
	report_jset(root, "alpha", json_real(JUDGE_CMP_ALPHA), &bad);
	/* The text's rows in the text's order: section by section, as the base measured them. */
	for (size_t sec = 0; sec <= judge_section_other() && !bad; sec++) {
		if (!cmp_section_used(rows, nrows, sec))
			continue;
		for (size_t k = 0; k < nrows; k++)
			if (rows[k].section == sec && rows[k].common)
				report_jpush(jrows, cmp_row_json(sides, nsides, &rows[k], &bad), &bad);
		for (size_t s = 1; s < nsides; s++)
			report_jpush(jsecs, cmp_section_json(&sides[s], rows, nrows, sec, s, &bad), &bad);
	}
	report_jset(root, "rows", jrows, &bad);
	report_jset(root, "sections", jsecs, &bad);
	if (!bad && cmp_model_new(&doc, NULL, sides, nsides, rows, nrows, threshold, flags,
				  curves) == 0) {
		report_jset(root, "tables", report_model_json(&doc, &bad), &bad);
		rm_doc_free(&doc);
	} else {
		bad = 1;
	}
	/* 15 digits: nothing reads these figures back (report_jdump). */
	if (!bad)
		rc = report_jdump(out, root, 15);
	json_decref(root);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Curves, point by point (--curves)                                   */
/* ------------------------------------------------------------------ */

/*
 * One side's runs at one point of a curve: the y of each usable run whose
 * curve has a point of that series at exactly that x (the sizes are the
 * same doubles wherever the same grid was measured), and whether any of
 * them missed its precision.  The count; vals holds max.
 */
static size_t cmp_point_runs(const struct judge_cmp_side *side, const struct result *key,
			     const struct result_point *at, double *vals, size_t max, int *noisy)
{
	size_t n = 0;

	for (size_t i = 0; i < side->nruns; i++)
		for (size_t j = 0; j < side->runs[i].nresults; j++) {
			const struct result *r = &side->runs[i].results[j];

			if (!result_same_instance(r, key) || r->npoints == 0 || !r->points)
				continue;
			for (size_t k = 0; k < r->npoints && n < max; k++) {
				const struct result_point *p = &r->points[k];

				if (p->x == at->x && strcmp(p->series, at->series) == 0 &&
				    isfinite(p->y) && p->y > 0) {
					vals[n++] = p->y;
					*noisy |= p->noisy;
				}
			}
		}
	return n;
}

/* One point of one side: its median over the runs and the test against the base. */
struct cmp_pt {
	int present, noisy;
	double median, change, p, p_adj;
	int significant;
};

static int cmp_curve(struct rm_doc *doc, const struct judge_cmp_side *sides, size_t nsides,
		     const struct result *key, double threshold)
{
	char title[256];
	size_t np = key->npoints, nt = 0;
	struct cmp_pt *pt = calloc(np * nsides + 1, sizeof(*pt));
	double *p = calloc(np * nsides + 1, sizeof(*p)), *adj = calloc(np * nsides + 1, sizeof(*adj));
	double bv[256], ov[256];
	char size[16], fig[32];
	int rc = -1;

	if (!pt || !p || !adj)
		goto out;
	for (size_t k = 0; k < np; k++) {
		struct cmp_pt *b = &pt[k * nsides];
		size_t nb = cmp_point_runs(&sides[0], key, &key->points[k], bv, 256, &b->noisy);
		struct stats_summary ss;

		if (nb == 0 || stats_summarize(bv, nb, &ss) < 0)
			continue;
		b->present = 1;
		b->median = ss.median;
		for (size_t s = 1; s < nsides; s++) {
			struct cmp_pt *o = &pt[k * nsides + s];
			size_t no = cmp_point_runs(&sides[s], key, &key->points[k], ov, 256, &o->noisy);
			struct stats_welch w;

			o->p = NAN;
			if (no == 0 || stats_summarize(ov, no, &ss) < 0)
				continue;
			o->present = 1;
			o->median = ss.median;
			o->change = o->median / b->median - 1;
			/* Runs are the repetitions, as for the other rows: 3 a side or no test. */
			if (nb >= 3 && no >= 3 && stats_welch_log(bv, nb, ov, no, &w) == 0)
				p[nt++] = o->p = w.p;
		}
	}
	/* One correction over the curve's points, as over a table's rows. */
	if (stats_bh(p, nt, adj) < 0)
		goto out;
	nt = 0;
	for (size_t k = 0; k < np; k++)
		for (size_t s = 1; s < nsides; s++) {
			struct cmp_pt *o = &pt[k * nsides + s];

			if (!o->present || !isfinite(o->p))
				continue;
			o->p_adj = adj[nt++];
			o->significant = o->p_adj < JUDGE_CMP_ALPHA && fabs(o->change) >= threshold &&
					 !o->noisy && !pt[k * nsides].noisy;
		}
	snprintf(title, sizeof(title), "%s (%s): each point's median over the runs", key->id,
		 key->unit);
	rm_table(doc, "curve", title);
	rm_plain(doc);
	rm_lead(doc);
	rm_line(doc, RM_HEAD);
	rm_cell(doc, 8, 1, "size");
	rm_cell(doc, 8, 0, "series");
	for (size_t s = 0; s < nsides; s++) {
		rm_cell(doc, s == 0 ? 10 : 18, 1, sides[s].name);
		/* A side's columns in the page: its figure and its change (marks glued). */
		if (s > 0)
			rm_span(doc, 2);
	}
	for (size_t k = 0; k < np; k++) {
		const struct cmp_pt *b = &pt[k * nsides];

		if (!b->present)
			continue;
		rm_line(doc, RM_ROW);
		report_size(size, sizeof(size), key->points[k].x, 8);
		rm_cell(doc, 8, 1, size);
		rm_cell(doc, 8, 0, key->points[k].series);
		report_fig(fig, sizeof(fig), b->median);
		rm_cell(doc, 9, 1, fig);
		rm_cell(doc, 1, 0, b->noisy ? "!" : "");
		rm_gap(doc, 0);
		for (size_t s = 1; s < nsides; s++) {
			const struct cmp_pt *o = &pt[k * nsides + s];
			char change[16];

			if (!o->present) {
				rm_cell(doc, 18, 1, "-");
				rm_span(doc, 2);
				continue;
			}
			report_fig(fig, sizeof(fig), o->median);
			rm_cell(doc, 8, 1, fig);
			rm_cell(doc, 1, 0, o->noisy ? "!" : "");
			rm_gap(doc, 0);
			cmp_change_text(change, sizeof(change), o->change);
			rm_cell(doc, 7, 1, change);
			if (o->significant)
				rm_flags(doc, RM_SIGNIF);
			rm_cell(doc, 1, 0, o->significant ? "*" : "");
			rm_gap(doc, 0);
		}
	}
	rc = 0;
out:
	free(pt);
	free(p);
	free(adj);
	return rc;
}

/* The curves' tables at the end of doc; the section of each in secs (none). */
static int cmp_curves_model(struct rm_doc *doc, size_t *secs, size_t nsecs,
			    const struct judge_cmp_side *sides, size_t nsides, double threshold)
{
	const struct result *done[CMP_MAX_CURVES];
	size_t ndone = 0;

	for (size_t i = 0; i < sides[0].nruns; i++)
		for (size_t j = 0; j < sides[0].runs[i].nresults; j++) {
			const struct result *key = &sides[0].runs[i].results[j];
			int seen = 0, other = 0;

			if (key->npoints == 0 || !key->points || key->npoints > 256)
				continue;
			for (size_t d = 0; d < ndone && !seen; d++)
				seen = result_same_instance(done[d], key);
			if (seen || ndone == sizeof(done) / sizeof(done[0]))
				continue;
			done[ndone++] = key;
			for (size_t s = 1; s < nsides && !other; s++)
				for (size_t r = 0; r < sides[s].nruns && !other; r++)
					for (size_t q = 0; q < sides[s].runs[r].nresults && !other; q++)
						other = result_same_instance(&sides[s].runs[r].results[q], key) &&
							sides[s].runs[r].results[q].npoints > 0;
			if (other && cmp_curve(doc, sides, nsides, key, threshold) < 0)
				return -1;
			/* No forest plot for a curve's table. */
			for (size_t t = 0; t < doc->ntables && t < nsecs; t++)
				if (strcmp(doc->tables[t].id, "curve") == 0)
					secs[t] = (size_t)-1;
		}
	return doc->oom ? -1 : 0;
}

int report_compare_curves(FILE *out, const struct judge_cmp_side *sides, size_t nsides,
			  double threshold)
{
	struct rm_doc doc = { 0 };
	size_t secs[CMP_MAX_CURVES];
	int rc = cmp_curves_model(&doc, secs, CMP_MAX_CURVES, sides, nsides, threshold);

	if (rc == 0)
		rm_write_text(out, &doc);
	rm_doc_free(&doc);
	return rc;
}
