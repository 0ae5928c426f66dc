/*
 * The tables of timed jobs (kbench time, and summary when runs hold
 * time.* results):
 *
 *   Timed jobs - seconds - smaller is better
 *   Label [runs]          Name   -j copies          real            user ...
 *   Linux 6.18 [5]        build   2      1  20.41 +-1.2%    38.20 +-0.4% ...
 *
 * one row per label and configuration (name, -j, copies) with the median
 * of its runs and their 95% interval, in seconds, or in milliseconds or
 * microseconds for jobs shorter than a second or a millisecond; how much
 * faster the fastest row of a job ran than each other ("-j4 ran 2.91 +-
 * 0.05 times faster than -j1", as hyperfine says it); then, where a label swept -j, the
 * scaling (speedup over the smallest -j, efficiency), and where it ran
 * copies, each copy's figures, the makespan, the spread of the ends and
 * the throughput against one copy.  With longfmt, BSD time -l's rusage
 * figures per configuration.
 *
 * A run's figure is the median over its copies (time.c stores them so);
 * the interval is the one of those run figures: the copies of one run are
 * not independent of each other, the runs are.
 */
#include "report/timed.h"
#include "report/fmt.h"
#include "report/notes.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/catalog.h"
#include "core/utf8.h"
#include "report/model.h"
#include "report/svg.h"
#include "stats/stats.h"

/* Whether id is a timed job's, by the catalogue's prefix (a name need not be known). */
static int tj_is_timed(const char *id)
{
	const struct catalog_kind *k = catalog_prefixed(id);

	return k && strcmp(k->prefix, CATALOG_TIME) == 0;
}

/* One configuration of one label: where its results are. */
struct tj_row {
	const char *label;
	const struct result *key;	/* its first result: id, jobs, copies */
	const struct result **res;	/* the label's results of it, one per stored run */
	size_t nres;
};

/* A figure of a usage entry, by number: 0 real (the sample), 1 user, 2 sys, 3 CPU%. */
static double tj_figure(const struct result *r, size_t i, int f)
{
	const struct result_usage *u = &r->usage[i];

	switch (f) {
	case 0: return r->samples[i];
	case 1: return u->user_s;
	case 2: return u->sys_s;
	default: return r->samples[i] > 0 ? 100 * (u->user_s + u->sys_s) / r->samples[i] : (double)NAN;
	}
}

/* Each figure's value, for a result without usage, and its scale to the table's unit. */
static const struct {
	const char *key;
	double scale;
} tj_values[] = { { NULL, 1 }, { "user_s", 1 }, { "sys_s", 1 }, { "cpu_share", 100 } };

/*
 * The run figures of f over a row's results into v (room for every
 * replica): per run, the median over its copies (copy == 0: over all;
 * else that copy's).  Without usage (older data), the result's own value.
 */
static size_t tj_runs(const struct tj_row *row, int f, int copy, double *v)
{
	size_t n = 0;

	for (size_t i = 0; i < row->nres; i++) {
		const struct result *r = row->res[i];

		if (r->status != RES_OK && r->status != RES_NOISY)
			continue;
		if (!r->usage || !r->where) {
			const struct bench_value *bv = f ? result_value(r, tj_values[f].key) : NULL;
			double x = f ? (bv ? bv->num * tj_values[f].scale : (double)NAN) : r->median;

			if (isfinite(x) && copy <= 1)
				v[n++] = x;
			continue;
		}
		for (size_t rep = 0; rep < r->nreplicas; rep++) {
			double c[64];
			size_t k = 0;
			struct stats_summary ss;

			for (size_t s = 0; s < r->n && k < 64; s++)
				if (r->where[s].replica == (int)rep && (!copy || r->usage[s].copy == copy) &&
				    isfinite(tj_figure(r, s, f)))
					c[k++] = tj_figure(r, s, f);
			if (k && stats_summarize(c, k, &ss) == 0)
				v[n++] = ss.median;
		}
	}
	return n;
}

/* How many run figures a row can have: the buffer tj_runs needs. */
static size_t tj_room(const struct tj_row *row)
{
	size_t n = 1;

	for (size_t i = 0; i < row->nres; i++)
		n += row->res[i]->nreplicas + 1;
	return n;
}

/* Median and interval of f; the count of runs behind them (0: none). */
static size_t tj_summary(const struct tj_row *row, int f, int copy, struct stats_summary *ss)
{
	double *v = malloc(tj_room(row) * sizeof(*v));
	size_t n = v ? tj_runs(row, f, copy, v) : 0;

	if (n && stats_summarize(v, n, ss) < 0)
		n = 0;
	free(v);
	return n;
}

static double tj_median(const struct tj_row *row, int f, int copy)
{
	struct stats_summary ss;

	return tj_summary(row, f, copy, &ss) ? ss.median : (double)NAN;
}

/* The median over the row's results of a value (makespan_s, spread_s). */
static double tj_value(const struct tj_row *row, const char *key)
{
	double v[64];
	size_t n = 0;
	struct stats_summary ss;

	for (size_t i = 0; i < row->nres && n < 64; i++) {
		const struct bench_value *bv = result_value(row->res[i], key);

		if (bv && isfinite(bv->num))
			v[n++] = bv->num;
	}
	return n && stats_summarize(v, n, &ss) == 0 ? ss.median : (double)NAN;
}

/*
 * The unit of the Timed jobs table: seconds, or milliseconds or
 * microseconds where every row's real time is below a second or a
 * millisecond (a 1 ms command reads 0.0009879 in seconds); its name and
 * how many of it a second holds.
 */
struct tj_unit {
	const char *name;
	double per_s;
};

static struct tj_unit tj_unit_of(const struct tj_row *rows, size_t n)
{
	double most = 0;

	for (size_t i = 0; i < n; i++) {
		double m = tj_median(&rows[i], 0, 0);

		if (isfinite(m) && m > most)
			most = m;
	}
	if (most > 0 && most < 1e-3)
		return (struct tj_unit){ "microseconds", 1e6 };
	if (most > 0 && most < 1)
		return (struct tj_unit){ "milliseconds", 1e3 };
	return (struct tj_unit){ "seconds", 1 };
}

/* "20.41 +-1.2%": the median and the larger distance to an end of its interval. */
static void tj_fig(char *buf, size_t len, const struct stats_summary *ss, size_t n, double scale)
{
	char fig[32];

	report_fig(fig, sizeof(fig), ss->median * scale);
	if (n > 1 && ss->median > 0)
		snprintf(buf, len, "%s +-%.*f%%", fig,
			 fmax(ss->median - ss->ci_low, ss->ci_high - ss->median) / ss->median >= 0.1 ? 0 : 1,
			 fmax(ss->median - ss->ci_low, ss->ci_high - ss->median) / ss->median * 100);
	else
		snprintf(buf, len, "%s", fig);
}

static int tj_same(const struct result *a, const struct result *b)
{
	return result_same_instance(a, b);
}

/* The rows: one per label and configuration, in the order first seen; their count or -1. */
static int tj_rows(const struct run_info *runs, size_t nruns, struct tj_row **out)
{
	struct tj_row *rows = NULL;
	size_t n = 0;

	for (size_t i = 0; i < nruns; i++)
		for (size_t j = 0; j < runs[i].nresults; j++) {
			const struct result *r = &runs[i].results[j];
			const struct result **more;
			size_t k;

			if (!tj_is_timed(r->id))
				continue;
			for (k = 0; k < n; k++)
				if (strcmp(rows[k].label, runs[i].label) == 0 && tj_same(rows[k].key, r))
					break;
			if (k == n) {
				struct tj_row *grow = realloc(rows, (n + 1) * sizeof(*grow));

				if (!grow)
					goto fail;
				rows = grow;
				rows[n++] = (struct tj_row){ runs[i].label, r, NULL, 0 };
			}
			more = realloc(rows[k].res, (rows[k].nres + 1) * sizeof(*more));
			if (!more)
				goto fail;
			rows[k].res = more;
			rows[k].res[rows[k].nres++] = r;
		}
	*out = rows;
	return (int)n;
fail:
	for (size_t k = 0; k < n; k++)
		free(rows[k].res);
	free(rows);
	return -1;
}

static void tj_rows_free(struct tj_row *rows, size_t n)
{
	for (size_t k = 0; k < n; k++)
		free(rows[k].res);
	free(rows);
}

int report_timed_has(const struct run_info *runs, size_t nruns)
{
	for (size_t i = 0; i < nruns; i++)
		for (size_t j = 0; j < runs[i].nresults; j++)
			if (tj_is_timed(runs[i].results[j].id))
				return 1;
	return 0;
}

/* "time.build -j2 x4, Linux 6.18": a configuration named in a heading. */
static void tj_title(char *buf, size_t len, const struct tj_row *row)
{
	char lab[4 * 128 + 1], j[24] = "", x[24] = "";

	if (row->key->jobs)
		snprintf(j, sizeof(j), " -j%d", row->key->jobs);
	if (row->key->parallel > 1)
		snprintf(x, sizeof(x), " x%d", row->key->parallel);
	snprintf(buf, len, "%s%s%s, %s", row->key->id, j, x,
		 report_cell(lab, sizeof(lab), row->label, -1, 0));
}

/*
 * A row's label and its count of runs, whole ("6.19.0-rc1-00042-gdeadbeef
 * [3]"); its real time's summary into ss, the count's source.
 */
static size_t tj_label(const struct tj_row *row, char *buf, size_t size, struct stats_summary *ss)
{
	char whole[4 * 128 + 1];
	size_t nruns = tj_summary(row, 0, 0, ss);

	snprintf(buf, size, "%s [%zu]", report_cell(whole, sizeof(whole), row->label, -1, 0), nruns);
	return nruns;
}

/*
 * The first row's table: one line per label and configuration, the label
 * column as wide as its longest label (26 at least): kernels that differ
 * at the end of their names must not read alike.
 */
static void tj_main(struct rm_doc *doc, const struct tj_row *rows, size_t n)
{
	static const char *const head[] = { "Label [runs]", "Name", "-j", "copies", "real", "user",
					    "sys", "CPU%" };
	int width[] = { 26, 12, 6, 6, 15, 15, 15, 11 };
	char count[4 * 128 + 32], title[64];
	struct tj_unit unit = tj_unit_of(rows, n);

	for (size_t i = 0; i < n; i++) {
		struct stats_summary ss;

		tj_label(&rows[i], count, sizeof(count), &ss);
		if (utf8_width(count) + 1 > width[0])
			width[0] = utf8_width(count) + 1;
	}
	snprintf(title, sizeof(title), "Timed jobs - %s - smaller is better", unit.name);
	rm_table(doc, "timed", title);
	rm_plain(doc);
	rm_line(doc, RM_HEAD);
	for (size_t c = 0; c < sizeof(width) / sizeof(width[0]); c++)
		rm_cell(doc, width[c], c > 1, head[c]);
	for (size_t i = 0; i < n; i++) {
		const struct tj_row *row = &rows[i];
		struct stats_summary ss[4];
		char name[4 * 12 + 1];
		char fig[3][48], cpu[32], jobs[16], copies[16];
		size_t nruns = tj_label(row, count, sizeof(count), &ss[0]);

		report_cell(name, sizeof(name), row->key->id + strlen("time."), 12, -1);
		snprintf(jobs, sizeof(jobs), row->key->jobs ? "%d" : "-", row->key->jobs);
		snprintf(copies, sizeof(copies), "%d", row->key->parallel);
		rm_line(doc, RM_ROW);
		rm_cell(doc, width[0], 0, count);
		rm_cell(doc, 12, 0, name);
		rm_cell(doc, 6, 1, jobs);
		rm_cell(doc, 6, 1, copies);
		if (nruns == 0) {
			const struct result *r = row->res[row->nres - 1];
			char why[4 * sizeof(r->reason)], line[4 * sizeof(r->reason) + 32];

			snprintf(line, sizeof(line), "%s: %s", result_status_name(r->status),
				 r->reason[0] ? report_cell(why, sizeof(why), r->reason, -1, 0) : "no figure");
			rm_cell(doc, -1, 0, line);
			rm_flags(doc, RM_MISSING);
			continue;
		}
		for (int f = 1; f < 4; f++)
			if (!tj_summary(row, f, 0, &ss[f]))
				ss[f].median = ss[f].ci_low = ss[f].ci_high = NAN;
		for (int f = 0; f < 3; f++) {
			tj_fig(fig[f], sizeof(fig[f]), &ss[f], nruns, unit.per_s);
			rm_cell(doc, 15, 1, fig[f]);
		}
		/* CPU% in whole percent, its interval too: "191 +-3%". */
		if (nruns > 1 && ss[3].median > 0)
			snprintf(cpu, sizeof(cpu), "%.0f +-%.0f%%", ss[3].median,
				 fmax(ss[3].median - ss[3].ci_low, ss[3].ci_high - ss[3].median) /
					 ss[3].median * 100);
		else
			snprintf(cpu, sizeof(cpu), "%.0f", ss[3].median);
		rm_cell(doc, 11, 1, cpu);
		for (size_t k = 0; k < row->nres; k++)
			if (result_busy(row->res[k])) {
				rm_cell(doc, -1, 0, "busy");
				rm_flags(doc, RM_BUSY);
				break;
			}
	}
}

/* A table of its own under the ones before, a blank line between, its labels right-aligned. */
static void tj_table(struct rm_doc *doc, const char *id, const char *title,
		     const char *const *head, const int *width, size_t ncols)
{
	rm_table(doc, id, title);
	rm_plain(doc);
	rm_lead(doc);
	rm_line(doc, RM_HEAD);
	for (size_t c = 0; c < ncols; c++)
		rm_cell(doc, width[c], 1, head[c]);
}

/* A row as the relative lines name it: its label where the job ran under several, its configuration where it ran several. */
static void tj_rel_name(const struct tj_row *row, int labels, int confs, char *buf, size_t size)
{
	char lab[4 * 128 + 1] = "", conf[48] = "";

	if (labels)
		report_cell(lab, sizeof(lab), row->label, -1, 0);
	if (confs && row->key->jobs)
		snprintf(conf, sizeof(conf), "-j%d", row->key->jobs);
	if (confs && (row->key->parallel > 1 || !row->key->jobs))
		snprintf(conf + strlen(conf), sizeof(conf) - strlen(conf), "%sx%d", conf[0] ? " " : "",
			 row->key->parallel);
	snprintf(buf, size, "%s%s%s", lab, lab[0] && conf[0] ? " " : "", conf);
}

/*
 * Under the Timed jobs table, for each job measured in more than one row
 * (labels, -j, copies): how many times faster its fastest row ran than
 * each other, the ratio of their real times' medians with its 95%
 * interval (the two medians' intervals combined on the logarithm), as
 * hyperfine reports commands against each other.
 */
static void tj_relative(struct rm_doc *doc, const struct tj_row *rows, size_t n)
{
	char line[2 * (4 * 128 + 64) + 256], a[4 * 128 + 64], b[4 * 128 + 64];
	int said = 0;

	for (size_t i = 0; i < n; i++) {
		size_t fast = i, members = 0, nf;
		int labels = 0, confs = 0, first = 1;
		struct stats_summary sf, so;

		/* The job's first row only: the others are its members. */
		for (size_t k = 0; k < i && first; k++)
			first = strcmp(rows[k].key->id, rows[i].key->id) != 0;
		if (!first)
			continue;
		for (size_t k = i; k < n; k++) {
			if (strcmp(rows[k].key->id, rows[i].key->id) != 0)
				continue;
			members++;
			labels |= strcmp(rows[k].label, rows[i].label) != 0;
			confs |= rows[k].key->jobs != rows[i].key->jobs ||
				 rows[k].key->parallel != rows[i].key->parallel;
			if (tj_median(&rows[k], 0, 0) < tj_median(&rows[fast], 0, 0))
				fast = k;
		}
		nf = members < 2 ? 0 : tj_summary(&rows[fast], 0, 0, &sf);
		if (!nf || !(sf.median > 0))
			continue;
		tj_rel_name(&rows[fast], labels, confs, a, sizeof(a));
		for (size_t k = i; k < n; k++) {
			size_t no;
			double r, hf, ho;

			if (k == fast || strcmp(rows[k].key->id, rows[i].key->id) != 0 ||
			    !(no = tj_summary(&rows[k], 0, 0, &so)) || !(so.median > 0))
				continue;
			if (!said++)
				rm_text(doc, RM_NOTE, "relative: real time, the medians' ratio +- its 95% "
					"interval");
			tj_rel_name(&rows[k], labels, confs, b, sizeof(b));
			r = so.median / sf.median;
			hf = nf > 1 ? log(fmax(sf.ci_high / sf.median, sf.median / sf.ci_low)) : (double)NAN;
			ho = no > 1 ? log(fmax(so.ci_high / so.median, so.median / so.ci_low)) : (double)NAN;
			if (isfinite(hf) && isfinite(ho))
				snprintf(line, sizeof(line), "  %s: %s ran %.2f +- %.2f times faster than %s",
					 rows[i].key->id, a, r, r * expm1(sqrt(hf * hf + ho * ho)), b);
			else
				snprintf(line, sizeof(line), "  %s: %s ran %.2f times faster than %s (one run: "
					 "no interval)", rows[i].key->id, a, r, b);
			rm_text(doc, RM_NOTE, line);
		}
	}
}

/* Where a label swept -j (at one number of copies): speedup and efficiency. */
static void tj_scaling(struct rm_doc *doc, const struct tj_row *rows, size_t n)
{
	static const char *const head[] = { "-j", "real", "speedup", "efficiency" };
	static const int width[] = { 8, 10, 9, 11 };

	for (size_t i = 0; i < n; i++) {
		const struct tj_row *base = &rows[i];
		size_t count = 0, first = 1;
		double t1;

		/* The group's first row (the smallest -j comes first as swept) heads it. */
		for (size_t k = 0; k < i; k++)
			if (strcmp(rows[k].label, base->label) == 0 &&
			    strcmp(rows[k].key->id, base->key->id) == 0 &&
			    rows[k].key->parallel == base->key->parallel && rows[k].key->jobs)
				first = 0;
		if (!first || !base->key->jobs)
			continue;
		for (size_t k = i; k < n; k++)
			count += strcmp(rows[k].label, base->label) == 0 &&
				 strcmp(rows[k].key->id, base->key->id) == 0 &&
				 rows[k].key->parallel == base->key->parallel && rows[k].key->jobs;
		if (count < 2)
			continue;
		/* Against the smallest -j of the group, wherever it was listed. */
		const struct tj_row *small = base;
		for (size_t k = i; k < n; k++)
			if (strcmp(rows[k].label, base->label) == 0 &&
			    strcmp(rows[k].key->id, base->key->id) == 0 &&
			    rows[k].key->parallel == base->key->parallel && rows[k].key->jobs &&
			    rows[k].key->jobs < small->key->jobs)
				small = &rows[k];
		t1 = tj_median(small, 0, 0);
		{
			char title[256], line[300];
			struct tj_row head1 = *base;

			head1.key = small->key;
			tj_title(title, sizeof(title), &head1);
			/* "time.build -j1, L": the -j of the heading is the reference's. */
			snprintf(line, sizeof(line), "Scaling of %s: real against -j", title);
			tj_table(doc, "timed-scaling", line, head, width, 4);
		}
		for (size_t k = i; k < n; k++) {
			const struct tj_row *r = &rows[k];
			char f[32], num[32];
			double t;

			if (strcmp(r->label, base->label) != 0 || strcmp(r->key->id, base->key->id) != 0 ||
			    r->key->parallel != base->key->parallel || !r->key->jobs)
				continue;
			t = tj_median(r, 0, 0);
			rm_line(doc, RM_ROW);
			snprintf(num, sizeof(num), "%d", r->key->jobs);
			rm_cell(doc, 8, 1, num);
			if (!isfinite(t) || !isfinite(t1) || t <= 0) {
				rm_cell(doc, 10, 1, "-");
				continue;
			}
			report_fig(f, sizeof(f), t);
			rm_cell(doc, 10, 1, f);
			snprintf(num, sizeof(num), "%.2fx", t1 / t);
			rm_cell(doc, 9, 1, num);
			snprintf(num, sizeof(num), "%.0f%%",
				 100 * t1 / t / ((double)r->key->jobs / small->key->jobs));
			rm_cell(doc, 11, 1, num);
		}
	}
}

/* Where copies ran at once: each copy, the makespan, the ends' spread, the throughput. */
static void tj_copies(struct rm_doc *doc, const struct tj_row *rows, size_t n)
{
	static const char *const head[] = { "copy", "real", "user", "sys", "CPU%" };
	static const int width[] = { 6, 10, 10, 10, 6 };

	for (size_t i = 0; i < n; i++) {
		const struct tj_row *row = &rows[i];
		const struct tj_row *one = NULL;
		char title[256], line[512];
		double makespan, spread, t1;

		if (row->key->parallel < 2 || tj_median(row, 0, 0) != tj_median(row, 0, 0))
			continue;
		for (size_t k = 0; k < n; k++)
			if (strcmp(rows[k].label, row->label) == 0 &&
			    strcmp(rows[k].key->id, row->key->id) == 0 && rows[k].key->parallel == 1 &&
			    rows[k].key->jobs == row->key->jobs)
				one = &rows[k];
		tj_title(title, sizeof(title), row);
		snprintf(line, sizeof(line), "Copies of %s: each copy, median of its runs", title);
		tj_table(doc, "timed-copies", line, head, width, 5);
		for (int c = 1; c <= row->key->parallel; c++) {
			char f[32];

			rm_line(doc, RM_ROW);
			snprintf(f, sizeof(f), "%d", c);
			rm_cell(doc, 6, 1, f);
			for (int k = 0; k < 3; k++) {
				report_fig(f, sizeof(f), tj_median(row, k, c));
				rm_cell(doc, 10, 1, f);
			}
			snprintf(f, sizeof(f), "%.0f", tj_median(row, 3, c));
			rm_cell(doc, 6, 1, f);
		}
		makespan = tj_value(row, "makespan_s");
		spread = tj_value(row, "spread_s");
		t1 = one ? tj_median(one, 0, 0) : (double)NAN;
		{
			char m[32], sp[32], a[32];
			int len;

			report_fig(m, sizeof(m), makespan);
			report_fig(sp, sizeof(sp), spread);
			report_fig(a, sizeof(a), t1);
			len = snprintf(line, sizeof(line), "makespan %s s (first start to last end), ends "
				       "spread over %s s", m, sp);
			if (isfinite(t1) && makespan > 0 && len > 0 && (size_t)len < sizeof(line))
				snprintf(line + len, sizeof(line) - (size_t)len,
					 ", throughput %.2fx one copy (%s s alone)",
					 row->key->parallel * t1 / makespan, a);
			rm_text(doc, RM_NOTE, line);
		}
	}
}

/* BSD time -l's figures: the median over every copy of every run. */
static void tj_long(struct rm_doc *doc, const struct tj_row *rows, size_t n)
{
	static const struct {
		size_t off;
		const char *what;
	} fields[] = {
		{ offsetof(struct result_usage, maxrss_kb), "maximum resident set size (KiB)" },
		{ offsetof(struct result_usage, minflt), "page reclaims (minor faults)" },
		{ offsetof(struct result_usage, majflt), "page faults (major)" },
		{ offsetof(struct result_usage, inblock), "block input operations" },
		{ offsetof(struct result_usage, oublock), "block output operations" },
		{ offsetof(struct result_usage, nvcsw), "voluntary context switches (sleeps)" },
		{ offsetof(struct result_usage, nivcsw), "involuntary context switches" },
		{ offsetof(struct result_usage, orphans), "descendants left running, killed" },
	};

	for (size_t i = 0; i < n; i++) {
		const struct tj_row *row = &rows[i];
		char title[256], line[320];
		size_t total = 0;

		for (size_t k = 0; k < row->nres; k++)
			total += row->res[k]->usage ? row->res[k]->n : 0;
		if (!total)
			continue;
		tj_title(title, sizeof(title), row);
		snprintf(line, sizeof(line), "%s: medians of %zu cop%s and runs", title, total,
			 total == 1 ? "y" : "ies");
		rm_table(doc, "timed-usage", line);
		rm_plain(doc);
		rm_lead(doc);
		for (size_t f = 0; f < sizeof(fields) / sizeof(fields[0]); f++) {
			double *v = malloc(total * sizeof(*v));
			size_t m = 0;
			struct stats_summary ss;

			if (!v) {
				doc->oom = 1;
				return;
			}
			for (size_t k = 0; k < row->nres; k++)
				for (size_t s = 0; row->res[k]->usage && s < row->res[k]->n; s++) {
					double x = *(const double *)((const char *)&row->res[k]->usage[s] +
								     fields[f].off);
					if (isfinite(x))
						v[m++] = x;
				}
			if (m && stats_summarize(v, m, &ss) == 0) {
				snprintf(line, sizeof(line), "%12.0f  %s", ss.median, fields[f].what);
				rm_text(doc, RM_NOTE, line);
			}
			free(v);
		}
	}
}

void report_time_line(char *buf, size_t len, double real, double user, double sys)
{
	/* Below a second, tenths of a millisecond: a 1 ms command is not "0.00 real". */
	int d = real < 1 ? 4 : 2;

	snprintf(buf, len, "%12.*f real %12.*f user %12.*f sys", d, real, d, user, d, sys);
}

int report_timed_model(struct rm_doc *doc, const struct run_info *runs, size_t nruns,
		       int longfmt)
{
	struct tj_row *rows;
	int n = tj_rows(runs, nruns, &rows);
	char *cpus = NULL;
	size_t len = 0;
	FILE *mem;

	if (n < 0)
		return -1;
	if (n == 0) {
		free(rows);
		return 0;
	}
	tj_main(doc, rows, (size_t)n);
	tj_relative(doc, rows, (size_t)n);
	tj_scaling(doc, rows, (size_t)n);
	tj_copies(doc, rows, (size_t)n);
	if (longfmt)
		tj_long(doc, rows, (size_t)n);
	/* The CPUs each label ran on, shared with the other reports: caught here. */
	if ((mem = open_memstream(&cpus, &len)) != NULL) {
		report_cpus_notes(mem, runs, nruns);
		if (fclose(mem) == 0)
			rm_notes(doc, cpus);
		free(cpus);
	}
	tj_rows_free(rows, (size_t)n);
	return doc->oom ? -1 : 0;
}

int report_timed_text(FILE *out, const struct run_info *runs, size_t nruns, int longfmt)
{
	struct rm_doc doc = { 0 };
	int rc = report_timed_model(&doc, runs, nruns, longfmt);

	if (rc == 0)
		rm_write_text(out, &doc);
	rm_doc_free(&doc);
	return rc;
}

/*
 * The timed jobs drawn (`summary --html`): a group per job and label, a
 * bar per configuration (-j, copies), its real time, the median over the
 * runs with its interval, as the first table gives it.  A label's
 * configurations are consecutive rows (tj_rows keeps the order first seen),
 * so a group is a run of rows with the same job and label.
 */
int report_timed_chart(FILE *out, const struct run_info *runs, size_t nruns)
{
	struct tj_row *rows = NULL;
	int n = tj_rows(runs, nruns, &rows), rc = 0;
	size_t m = n > 0 ? (size_t)n : 1;
	struct svg_bar_group *groups = calloc(m, sizeof(*groups));
	struct svg_bar *bars = calloc(m, sizeof(*bars));
	char (*names)[4 * 128 + 96] = calloc(m, sizeof(*names));
	char (*bnames)[32] = calloc(m, sizeof(*bnames));
	struct svg_chart c = { "Timed jobs: real time (s), the median of the runs", "real (s)", NULL,
			       "no real time to draw", 0 };
	size_t ng = 0;

	if (n < 0 || !groups || !bars || !names || !bnames) {
		rc = -1;
		goto out;
	}
	for (int k = 0; k < n; k++) {
		const struct tj_row *row = &rows[k];
		struct stats_summary ss;
		char lab[4 * 128 + 1];
		size_t nr;

		snprintf(names[k], sizeof(names[k]), "%s, %s", row->key->id,
			 report_cell(lab, sizeof(lab), row->label, -1, 0));
		if (ng == 0 || strcmp(groups[ng - 1].name, names[k]) != 0)
			groups[ng++] = (struct svg_bar_group){ names[k], 0, bars + k };
		if (row->key->jobs && row->key->parallel > 1)
			snprintf(bnames[k], sizeof(bnames[k]), "-j%d x%d", row->key->jobs,
				 row->key->parallel);
		else if (row->key->jobs)
			snprintf(bnames[k], sizeof(bnames[k]), "-j%d", row->key->jobs);
		else if (row->key->parallel > 1)
			snprintf(bnames[k], sizeof(bnames[k]), "x%d", row->key->parallel);
		else
			snprintf(bnames[k], sizeof(bnames[k]), "one copy");
		nr = tj_summary(row, 0, 0, &ss);
		bars[k] = (struct svg_bar){ bnames[k], nr ? ss.median : (double)NAN,
					    nr > 1 ? ss.ci_low : (double)NAN,
					    nr > 1 ? ss.ci_high : (double)NAN, "no real time" };
		groups[ng - 1].n++;
	}
	if (ng)
		rc = svg_bars(out, &c, groups, ng);
out:
	free(groups);
	free(bars);
	free(names);
	free(bnames);
	if (n > 0)
		tj_rows_free(rows, (size_t)n);
	return rc;
}
