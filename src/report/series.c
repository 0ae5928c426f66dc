/*
 * A figure's history (kbench history) as text, JSON and a page: the
 * noticed lines first ("kbench noticed a +12.0% regression of proc.fork
 * (+9.1..+14.8%) between 6.18.40 and 6.18.44"), then each figure that
 * stepped, point by point.  The series and its steps are judge/series.c's.
 */
#include "report/compare.h"
#include "report/fmt.h"
#include "report/text.h"
#include "report/series.h"
#include "report/html.h"
#include "report/jsonw.h"
#include "report/svg.h"
#include "core/parse.h"
#include "judge/pct.h"
#include "core/utf8.h"
#include "stats/stats.h"

#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* "fast" or "median", as --level takes it and the JSON says it. */
static const char *series_level_name(enum result_level level)
{
	return level == LEVEL_FAST ? "fast" : "median";
}

/* "proc.fork", "ipc.pipe.lat [same]", "wake.timer p99" (history --percentile). */
static void series_name(const struct result *r, char *buf, size_t size)
{
	char pct[24] = "";

	if (judge_pct_of(r) > 0)
		snprintf(pct, sizeof(pct), " p%g", judge_pct_of(r));
	snprintf(buf, size, "%s%s%s", r->id, pct,
		 r->placement == PLACE_SAME ? " [same]" : r->placement == PLACE_SPREAD ? " [spread]" :
		 r->placement == PLACE_NONE ? " [none]" : "");
}

/*
 * The run ids of a step's two labels a and b, side 0 or 1 into buf: one
 * range "31-36" on side 0 (side 1 empty) where b's runs follow a's, else
 * each label's own, "37-39" and "31-33": labels measured out of version
 * order would read as a range backwards.
 */
static void series_ids(char *buf, size_t size, const struct judge_series_point *a,
		       const struct judge_series_point *b, int side)
{
	int64_t alo = a->first_run < a->last_run ? a->first_run : a->last_run,
		ahi = a->first_run < a->last_run ? a->last_run : a->first_run,
		blo = b->first_run < b->last_run ? b->first_run : b->last_run,
		bhi = b->first_run < b->last_run ? b->last_run : b->first_run;
	int64_t lo = side ? blo : alo, hi = side ? bhi : ahi;

	if (ahi < blo) {
		if (side)
			*buf = 0;
		else
			snprintf(buf, size, "%lld-%lld", (long long)alo, (long long)bhi);
		return;
	}
	if (lo == hi)
		snprintf(buf, size, "%lld", (long long)lo);
	else
		snprintf(buf, size, "%lld-%lld", (long long)lo, (long long)hi);
}

/* "between 6.18.40 and 6.18.44 (runs 31-36, 5 and 5 runs)", or by time "between runs 31 and 32". */
static void series_where(const struct judge_series *s, const struct judge_series_figure *f,
			 size_t at, char *buf, size_t size)
{
	const struct judge_series_point *a = &f->points[at - 1], *b = &f->points[at];
	char la[4 * sizeof(a->label)], lb[4 * sizeof(b->label)], ra[48], rb[48];

	if (!s->by_label) {
		snprintf(buf, size, "between runs %lld and %lld", (long long)a->first_run,
			 (long long)b->first_run);
		return;
	}
	utf8_escape(la, sizeof(la), a->label, -1);
	utf8_escape(lb, sizeof(lb), b->label, -1);
	series_ids(ra, sizeof(ra), a, b, 0);
	series_ids(rb, sizeof(rb), a, b, 1);
	snprintf(buf, size, "between %s and %s (runs %s%s%s, %zu and %zu run%s)", la, lb, ra,
		 *rb ? " and " : "", rb, a->nruns, b->nruns, b->nruns == 1 ? "" : "s");
}

/*
 * "kbench cannot tell whether mem.read.bw stepped between 6.18.14 and
 * 6.18.15: ...", of f's untold place i: the text's line and the page's.
 */
static void series_untold_line(const struct judge_series *s, const struct judge_series_figure *f,
			       size_t i, char *buf, size_t size)
{
	const struct judge_series_untold *u = &f->untold[i];
	char name[160], where[1200];

	series_name(f->key, name, sizeof(name));
	series_where(s, f, u->at, where, sizeof(where));
	if (u->alone)
		snprintf(buf, size, "kbench cannot tell whether %s stepped %s: the later alone reads "
			 "%+.1f%% (%+.1f..%+.1f%%) against its neighbours, one sitting's word; "
			 "measured again it tells", name, where, 100 * u->change, 100 * u->lo,
			 100 * u->hi);
	else
		snprintf(buf, size, "kbench cannot tell whether %s stepped %s: those two alone differ "
			 "by %+.1f%% (%+.1f..%+.1f%%, p %s%.3f), which the series' steps do not "
			 "explain", name, where, 100 * u->change, 100 * u->lo, 100 * u->hi,
			 u->p < 0.001 ? "< " : "", fmax(u->p, 0.001));
}

/* What a fast level is, a line break or a space where %s is. */
static const char series_fast_text[] =
	"levels: each run's fast level (its samples' 5th percentile, 95th where bigger is "
	"better),%swhich the machine's slow spells leave alone; --level median for the tables' "
	"medians\n";

/*
 * What the levels were read against, with --control, a line break or a
 * space where each %s is: the control, its sittings, and the figures it
 * did not measure in two of them (as measured).
 */
static void series_text_control(FILE *out, const struct judge_series *s, const char *sep)
{
	size_t as_measured = 0;
	char c[4 * 128];

	if (!s->control)
		return;
	for (size_t k = 0; k < s->nfigures; k++)
		as_measured += !s->figures[k].controlled;
	utf8_escape(c, sizeof(c), s->control, -1);
	fprintf(out, "levels against the control %s (%zu sittings): each label's over the control's "
		"at its time,%sdrawn between the control's sittings either side", c,
		s->control_sittings, sep);
	if (as_measured)
		fprintf(out, "; %zu figure%s as measured (the%s control's in fewer than two sittings)",
			as_measured, as_measured == 1 ? "" : "s", as_measured == 1 ? "" : "ir");
	fputc('\n', out);
}

/* Detectable steps at most these are counted (the line names two); those past the last named. */
static const double series_detect_bars[] = { 0.05, 0.10 };
#define SERIES_DETECT_BARS 2
/* Figures named that would not show the last bar; the JSON has every figure's. */
#define SERIES_DETECT_NAMES 6

/*
 * What the newest point could have shown, so that no step noticed is not
 * read as no step there: how many figures would show a step of 5% and of
 * 10% at it 4 times in 5, and those that would not show 10%, worst first,
 * within 80 columns a line when wrap (the page's is one line).
 */
static void series_text_detectable(FILE *out, const struct judge_series *s, int wrap)
{
	size_t known = 0, under[SERIES_DETECT_BARS] = { 0 }, nworse = 0, col;
	const struct judge_series_figure **worse = calloc(s->nfigures + 1, sizeof(*worse));
	char line[TEXT_MAX_COLS + 1], item[200], name[160];

	if (!worse)
		return;
	for (size_t k = 0; k < s->nfigures; k++) {
		const struct judge_series_figure *f = &s->figures[k];

		if (f->sentinel || !isfinite(f->detectable))
			continue;
		known++;
		for (size_t b = 0; b < SERIES_DETECT_BARS; b++)
			under[b] += f->detectable <= series_detect_bars[b];
		if (f->detectable > series_detect_bars[SERIES_DETECT_BARS - 1])
			worse[nworse++] = f;
	}
	if (known) {
		/* Worst first: insertion, a few figures. */
		for (size_t i = 1; i < nworse; i++)
			for (size_t j = i; j > 0 && worse[j]->detectable > worse[j - 1]->detectable; j--) {
				const struct judge_series_figure *t = worse[j];

				worse[j] = worse[j - 1];
				worse[j - 1] = t;
			}
		fprintf(out, "the newest %s would show a step (4 times in 5) of %.0f%% in %zu of %zu "
			"figures,%s", s->by_label ? "label" : "run", 100 * series_detect_bars[0],
			under[0], known, wrap ? "\n" : " ");
		col = (size_t)snprintf(line, sizeof(line), "%.0f%% in %zu", 100 * series_detect_bars[1],
				       under[1]);
		if (nworse)
			col += (size_t)snprintf(line + col, sizeof(line) - col, "; not %.0f%%:",
						100 * series_detect_bars[1]);
		fputs(line, out);
		for (size_t i = 0; i < nworse; i++) {
			series_name(worse[i]->key, name, sizeof(name));
			if (i == SERIES_DETECT_NAMES && nworse > i + 1)
				snprintf(item, sizeof(item), " and %zu more (--json has each)", nworse - i);
			else
				snprintf(item, sizeof(item), " %s (%+.0f%%)%s", name,
					 100 * worse[i]->detectable, i + 1 < nworse ? "," : "");
			if (wrap && col + strlen(item) > TEXT_MAX_COLS) {
				fputc('\n', out);
				col = 0;
			}
			fputs(item, out);
			col += strlen(item);
			if (i == SERIES_DETECT_NAMES && nworse > i + 1)
				break;
		}
		fputc('\n', out);
	}
	free(worse);
}

void report_series_text(FILE *out, const struct judge_series *s, const char *host)
{
	size_t noticed = 0, figures = 0;
	char name[160], where[1200], h[4 * 128], line[1600];

	if (host) {
		utf8_escape(h, sizeof(h), host, -1);
		fprintf(out, "host %s\n", h);
	}
	for (size_t k = 0; k < s->nfigures; k++) {
		const struct judge_series_figure *f = &s->figures[k];

		figures += !f->sentinel;
		for (size_t i = 0; i < f->nsteps; i++) {
			const struct stats_step *st = &f->steps[i];

			series_name(f->key, name, sizeof(name));
			series_where(s, f, st->at, where, sizeof(where));
			/* What, how much and which figure on its first line, to grep, as LKP's. */
			snprintf(line, sizeof(line), "kbench noticed a %+.1f%% %s of %s (%+.1f..%+.1f%%) "
				 "%s%s", 100 * st->change, f->sentinel ?
				 "move of the machine (the sentinel)" : judge_series_worse(f, i) ?
				 "regression" : "improvement", name, 100 * st->lo, 100 * st->hi, where,
				 f->machine[i] ? "; the machine stepped there too" : "");
			report_wrap_at(out, 0, 2, line);
			noticed++;
		}
	}
	/* No step noticed is not no step where labels differ beyond what the steps explain. */
	size_t untold = 0;
	for (size_t k = 0; k < s->nfigures; k++) {
		const struct judge_series_figure *f = &s->figures[k];

		if (f->sentinel || !f->nuntold)
			continue;
		untold++;
		for (size_t i = 0; i < f->nuntold; i++) {
			series_untold_line(s, f, i, line, sizeof(line));
			report_wrap_at(out, 0, 2, line);
		}
	}
	if (!noticed && figures > untold)
		fprintf(out, "kbench noticed no step in %s%zu figure%s over %zu %s\n",
			untold ? "the other " : "", figures - untold, figures - untold == 1 ? "" : "s",
			s->npoints, s->by_label ? "labels" : "runs");
	series_text_detectable(out, s, 1);
	/* What a step was held against: a sitting's own move, known or not. */
	size_t from[3] = { 0, 0, 0 };
	for (size_t k = 0; k < s->nfigures; k++)
		from[s->figures[k].noise]++;
	if (from[JUDGE_NOISE_RUNS]) {
		size_t named = 0;

		size_t len;

		snprintf(line, sizeof(line), "the spread between sittings: unknown for %zu figure%s "
			 "(fewer than %d points, and no label measured twice on this host): their "
			 "steps may be a sitting's own move:", from[JUDGE_NOISE_RUNS],
			 from[JUDGE_NOISE_RUNS] == 1 ? "" : "s", JUDGE_SERIES_OWN_NOISE);
		report_wrap_at(out, 0, 0, line);
		/* Which, the first few: "unknown for 2 figures" alone says nothing to act on. */
		line[0] = '\0';
		for (size_t k = 0; k < s->nfigures && named < 8; k++)
			if (s->figures[k].noise == JUDGE_NOISE_RUNS) {
				series_name(s->figures[k].key, name, sizeof(name));
				len = strlen(line);
				snprintf(line + len, sizeof(line) - len, "%s%s", named++ ? ", " : "", name);
			}
		len = strlen(line);
		snprintf(line + len, sizeof(line) - len, "%s",
			 from[JUDGE_NOISE_RUNS] > named ? ", ..." : "");
		fputs("  ", out);
		report_wrap_at(out, 2, 2, line);
	}
	/* What a level is: the fast one is not the figure the tables quote. */
	if (s->level == LEVEL_FAST) {
		snprintf(line, sizeof(line), series_fast_text, " ");
		line[strcspn(line, "\n")] = '\0';
		report_wrap_at(out, 0, 0, line);
	}
	series_text_control(out, s, "\n");
	size_t wild = 0, wild_figs = 0;
	for (size_t k = 0; k < s->nfigures; k++) {
		wild += s->figures[k].clipped;
		wild_figs += s->figures[k].clipped > 0;
	}
	if (wild)
		fprintf(out, "wild runs: %zu in %zu figure%s, each taken at %.0f standard deviations "
			"of the runs from\nits label's median\n", wild, wild_figs,
			wild_figs == 1 ? "" : "s", JUDGE_SERIES_CLIP);
	/* Each figure that stepped, point by point. */
	for (size_t k = 0; k < s->nfigures; k++) {
		const struct judge_series_figure *f = &s->figures[k];
		size_t next = 0;

		if (!f->nsteps)
			continue;
		series_name(f->key, name, sizeof(name));
		fprintf(out, "\n%s (%s, %s is better)\n", name, f->key->unit,
			f->key->better == BETTER_LOWER ? "smaller" : "bigger");
		/* The label column as wide as the longest label: kernels differ at their names' ends. */
		int labw = 24;

		for (size_t p = 0; s->by_label && p < f->npoints; p++)
			if (utf8_width(f->points[p].label) > labw)
				labw = utf8_width(f->points[p].label);
		fprintf(out, "  %-*s %5s %12s  %s\n", labw, s->by_label ? "label" : "run", "runs",
			f->level == LEVEL_FAST ? "fast level" : "median", "95% interval");
		for (size_t p = 0; p < f->npoints; p++) {
			const struct judge_series_point *pt = &f->points[p];
			char lab[4 * 128 + 1], fig[32], lo[32], hi[32];

			if (next < f->nsteps && f->steps[next].at == p) {
				fprintf(out, "  ---- %+.1f%% (%+.1f..%+.1f%%), p %s%.3f\n",
					100 * f->steps[next].change, 100 * f->steps[next].lo,
					100 * f->steps[next].hi, f->steps[next].p < 0.001 ? "< " : "",
					fmax(f->steps[next].p, 0.001));
				next++;
			}
			if (s->by_label)
				report_cell(lab, sizeof(lab), pt->label, labw, -1);
			else
				snprintf(lab, sizeof(lab), "%-*lld", labw, (long long)pt->first_run);
			report_fig(fig, sizeof(fig), pt->level);
			report_fig(lo, sizeof(lo), pt->lo);
			report_fig(hi, sizeof(hi), pt->hi);
			fprintf(out, "  %s %5zu %12s  %s..%s\n", lab, pt->nruns, fig, lo, hi);
		}
		if (f->clipped)
			fprintf(out, "  (%zu wild run%s taken at the bound)\n", f->clipped,
				f->clipped == 1 ? "" : "s");
	}
}

static json_t *series_figure_json(const struct judge_series *s,
				  const struct judge_series_figure *f, int *bad)
{
	json_t *o = json_object(), *pts = json_array(), *ch = json_array();

	report_jset(o, "id", report_jstr(f->key->id), bad);
	report_jset(o, "placement", f->key->placement == PLACE_NA ? json_null() :
		    report_jstr(f->key->placement == PLACE_SAME ? "same" :
				f->key->placement == PLACE_SPREAD ? "spread" : "none"), bad);
	report_jset(o, "unit", report_jstr(f->key->unit), bad);
	report_jset(o, "better", report_jstr(f->key->better == BETTER_LOWER ? "lower" : "higher"),
		    bad);
	/* The machine's own figure (the sentinel's), not a benchmark's. */
	report_jset(o, "is_sentinel", json_boolean(f->sentinel), bad);
	report_jset(o, "estimator", report_jstr(series_level_name(f->level)), bad);
	report_jset(o, "controlled", json_boolean(f->controlled), bad);
	report_jset(o, "clipped_runs", json_integer((json_int_t)f->clipped), bad);
	report_jset(o, "sitting_spread", report_jreal(expm1(sqrt(f->sitting_var))), bad);
	report_jset(o, "detectable", report_jreal(f->detectable), bad);
	json_t *ct = json_array();

	for (size_t i = 0; i < f->nuntold && !f->sentinel; i++) {
		const struct judge_series_untold *un = &f->untold[i];
		const struct judge_series_point *a = &f->points[un->at - 1], *b = &f->points[un->at];
		json_t *u = json_object();

		report_jset(u, "from_run", json_integer(a->first_run), bad);
		report_jset(u, "to_run", json_integer(b->first_run), bad);
		report_jset(u, "from_label", s->by_label ? report_jstr(a->label) : json_null(), bad);
		report_jset(u, "to_label", s->by_label ? report_jstr(b->label) : json_null(), bad);
		report_jset(u, "alone", json_boolean(un->alone), bad);
		report_jset(u, "change", report_jreal(un->change), bad);
		report_jset(u, "ci_low", report_jreal(un->lo), bad);
		report_jset(u, "ci_high", report_jreal(un->hi), bad);
		report_jset(u, "p", report_jreal(un->p), bad);
		report_jpush(ct, u, bad);
	}
	report_jset(o, "cannot_tell", ct, bad);
	report_jset(o, "noise_from", report_jstr(f->noise == JUDGE_NOISE_SERIES ? "series" :
						 f->noise == JUDGE_NOISE_HISTORY ? "history" : "runs"),
		    bad);
	for (size_t p = 0; p < f->npoints; p++) {
		const struct judge_series_point *pt = &f->points[p];
		json_t *j = json_object();

		report_jset(j, s->by_label ? "label" : "run", s->by_label ? report_jstr(pt->label) :
			    json_integer(pt->first_run), bad);
		report_jset(j, "first_run", json_integer(pt->first_run), bad);
		report_jset(j, "last_run", json_integer(pt->last_run), bad);
		report_jset(j, "nruns", json_integer((json_int_t)pt->nruns), bad);
		report_jset(j, "level", report_jreal(pt->level), bad);
		report_jset(j, "ci_low", report_jreal(pt->lo), bad);
		report_jset(j, "ci_high", report_jreal(pt->hi), bad);
		report_jpush(pts, j, bad);
	}
	for (size_t i = 0; i < f->nsteps; i++) {
		const struct stats_step *st = &f->steps[i];
		const struct judge_series_point *a = &f->points[st->at - 1], *b = &f->points[st->at];
		json_t *j = json_object();

		/* The points either side by their first runs, and by label when by label. */
		report_jset(j, "from_run", json_integer(a->first_run), bad);
		report_jset(j, "to_run", json_integer(b->first_run), bad);
		report_jset(j, "from_label", s->by_label ? report_jstr(a->label) : json_null(), bad);
		report_jset(j, "to_label", s->by_label ? report_jstr(b->label) : json_null(), bad);
		report_jset(j, "change", report_jreal(st->change), bad);
		report_jset(j, "ci_low", report_jreal(st->lo), bad);
		report_jset(j, "ci_high", report_jreal(st->hi), bad);
		report_jset(j, "p", report_jreal(st->p), bad);
		report_jset(j, "regression", json_boolean(!f->sentinel && judge_series_worse(f, i)), bad);
		report_jset(j, "machine", json_boolean(f->machine[i]), bad);
		report_jpush(ch, j, bad);
	}
	report_jset(o, "points", pts, bad);
	report_jset(o, "changes", ch, bad);
	return o;
}

/* One host's series: its figures, each with its points and changes. */
static json_t *series_json(const struct judge_series *s, const char *host, int *bad)
{
	json_t *o = json_object(), *figs = json_array();

	report_jset(o, "host", host ? report_jstr(host) : json_null(), bad);
	report_jset(o, "by", report_jstr(s->by_label ? "label" : "time"), bad);
	report_jset(o, "estimator", report_jstr(series_level_name(s->level)), bad);
	report_jset(o, "control", s->control ? report_jstr(s->control) : json_null(), bad);
	report_jset(o, "control_sittings", json_integer((json_int_t)s->control_sittings), bad);
	report_jset(o, "npoints", json_integer((json_int_t)s->npoints), bad);
	for (size_t k = 0; k < s->nfigures; k++)
		report_jpush(figs, series_figure_json(s, &s->figures[k], bad), bad);
	report_jset(o, "figures", figs, bad);
	return o;
}

int report_series_json(FILE *out, const struct judge_series *s, const char *const *hosts,
		       size_t n)
{
	int bad = 0, rc;
	json_t *root = report_jdoc("history", &bad), *all = json_array();

	for (size_t h = 0; h < n; h++)
		report_jpush(all, series_json(&s[h], hosts[h], &bad), &bad);
	/* One host's figures at the top too, as a script reading one history wants them. */
	if (n == 1 && !bad)
		report_jset(root, "figures",
			    json_incref(json_object_get(json_array_get(all, 0), "figures")), &bad);
	report_jset(root, "hosts", all, &bad);
	rc = bad ? -1 : report_jdump(out, root, 17);
	json_decref(root);
	return rc;
}

/* The page's embedded data: the JSON document of the same series. */
struct series_page {
	const struct judge_series *s;
	const char *const *hosts;
	size_t n;
};

static int series_page_json(FILE *out, const void *arg)
{
	const struct series_page *p = arg;

	return report_series_json(out, p->s, p->hosts, p->n);
}

/* One figure's chart: its points with their intervals, its steps marked. */
static int series_chart(FILE *out, const struct judge_series *s,
			const struct judge_series_figure *f)
{
	struct svg_point *pts = calloc(f->npoints ? f->npoints : 1, sizeof(*pts));
	struct svg_step st[JUDGE_SERIES_MAX_STEPS];
	char names[JUDGE_SERIES_MAX_STEPS][32], title[200], (*runs)[24] = NULL;
	struct svg_chart c = { 0 };
	int rc;

	if (!pts)
		return -1;
	if (!s->by_label && !(runs = calloc(f->npoints ? f->npoints : 1, sizeof(*runs)))) {
		free(pts);
		return -1;
	}
	for (size_t p = 0; p < f->npoints; p++) {
		const struct judge_series_point *pt = &f->points[p];

		if (runs)
			snprintf(runs[p], sizeof(runs[p]), "%lld", (long long)pt->first_run);
		pts[p] = (struct svg_point){ runs ? runs[p] : pt->label, pt->level, pt->lo, pt->hi };
	}
	for (size_t i = 0; i < f->nsteps; i++) {
		snprintf(names[i], sizeof(names[i]), "%+.1f%%", 100 * f->steps[i].change);
		st[i] = (struct svg_step){ f->steps[i].at, names[i], !f->sentinel && judge_series_worse(f, i) };
	}
	series_name(f->key, title, sizeof(title));
	c.title = title;
	c.xlabel = s->by_label ? "label" : "run";
	c.ylabel = f->key->unit;
	c.empty = "no point to draw";
	rc = svg_history(out, &c, pts, f->npoints, st, f->nsteps);
	free(pts);
	free(runs);
	return rc;
}

/* The text's lines on what the newest point would show and what a level is, as items. */
static void series_html_about(FILE *out, const struct judge_series *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);

	if (!mem)
		return;
	series_text_detectable(mem, s, 0);
	if (s->level == LEVEL_FAST)
		fprintf(mem, series_fast_text, " ");
	series_text_control(mem, s, " ");
	if (fclose(mem) == 0 && buf)
		for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
			fputs("<li>", out);
			report_html_text(out, line);
			fputs("</li>\n", out);
		}
	free(buf);
}

int report_series_html(FILE *out, const struct judge_series *s, const char *const *hosts,
		       size_t n)
{
	struct series_page pg = { s, hosts, n };
	char name[160], where[1200];

	report_html_begin(out, "kbench history");
	for (size_t h = 0; h < n; h++) {
		size_t noticed = 0;

		if (n > 1) {
			fputs("<h2>host ", out);
			report_html_text(out, hosts[h]);
			fputs("</h2>\n", out);
		}
		/* What a kernel developer mails, first; then each figure that stepped, drawn. */
		fputs("<ul class=\"notes\">\n", out);
		for (size_t k = 0; k < s[h].nfigures; k++) {
			const struct judge_series_figure *f = &s[h].figures[k];

			for (size_t i = 0; i < f->nsteps; i++) {
				char line[1600];

				series_name(f->key, name, sizeof(name));
				series_where(&s[h], f, f->steps[i].at, where, sizeof(where));
				snprintf(line, sizeof(line), "kbench noticed a %+.1f%% %s of %s (%+.1f..%+.1f%%) %s",
					 100 * f->steps[i].change, f->sentinel ? "move of the machine" :
					 judge_series_worse(f, i) ? "regression" : "improvement", name,
					 100 * f->steps[i].lo, 100 * f->steps[i].hi, where);
				fputs("<li>", out);
				report_html_text(out, line);
				fputs("</li>\n", out);
				noticed++;
			}
		}
		for (size_t k = 0; k < s[h].nfigures; k++)
			for (size_t i = 0; i < s[h].figures[k].nuntold && !s[h].figures[k].sentinel; i++) {
				char line[1600];

				series_untold_line(&s[h], &s[h].figures[k], i, line, sizeof(line));
				fputs("<li>", out);
				report_html_text(out, line);
				fputs("</li>\n", out);
				noticed++;
			}
		if (!noticed)
			fputs("<li>kbench noticed no step</li>\n", out);
		series_html_about(out, &s[h]);
		fputs("</ul>\n", out);
		for (size_t k = 0; k < s[h].nfigures; k++)
			if (s[h].figures[k].nsteps && series_chart(out, &s[h], &s[h].figures[k]) < 0)
				fputs("<p class=\"nochart\">No chart: out of memory.</p>\n", out);
	}
	report_html_data(out, series_page_json, &pg);
	report_html_end(out);
	return ferror(out) ? -1 : 0;
}
