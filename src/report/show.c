/*
 * `kbench show`: every result of one id in a run, a curve as a table of
 * sizes by series with the cache levels found in it, any other result its
 * figure, interval, sampling and values a line each; and the run's
 * sentinel timeline.  Lines stay within 80 columns.
 */
#include "report/report.h"
#include "report/fmt.h"
#include "report/text.h"
#include "core/replica.h"
#include "stats/hist.h"
#include "stats/stats.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* Drop trailing blanks (empty last cells, short last labels) and print. */
static void put_line(FILE *out, char *line)
{
	size_t len = strlen(line);

	while (len > 0 && line[len - 1] == ' ')
		line[--len] = '\0';
	fprintf(out, "%s\n", line);
}

/* A curve's size column: "128M", "1.5K". */
#define SHOW_SIZE_W 7
/* A series column: a figure right-aligned in this many, then its noisy mark. */
#define SHOW_FIG_W 12
/*
 * Series side by side: 7 + 5 x (1 + 12 + 1) = 77 columns.  A curve with
 * more series is wrapped: the next five follow in a block of their own,
 * with the size column again.
 */
#define SHOW_SERIES 5
_Static_assert(SHOW_SIZE_W + SHOW_SERIES * (SHOW_FIG_W + 2) <= TEXT_MAX_COLS,
	       "show's curve table must fit 80 columns");

/* One "key: value" line of show; the values are aligned when printed. */
struct show_line {
	char key[32];
	char val[320];
};

/* Fixed lines of a figure, and one for each value. */
#define SHOW_LINES (16 + BENCH_MAX_VALUES)

__attribute__((format(printf, 4, 5)))
static void line_add(struct show_line *l, size_t *n, const char *key, const char *fmt, ...)
{
	va_list ap;

	if (*n >= SHOW_LINES)
		BUG("more show lines than SHOW_LINES");
	snprintf(l[*n].key, sizeof(l[*n].key), "%s", key);
	va_start(ap, fmt);
	vsnprintf(l[*n].val, sizeof(l[*n].val), fmt, ap);
	va_end(ap);
	(*n)++;
}

static void lines_print(FILE *out, const struct show_line *l, size_t n)
{
	size_t w = 0;

	for (size_t i = 0; i < n; i++)
		if (strlen(l[i].key) > w)
			w = strlen(l[i].key);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s:%*s%s\n", l[i].key, (int)(w - strlen(l[i].key) + 1), "", l[i].val);
}

/*
 * A value as text: a whole number without decimals, other numbers to four
 * digits, and a size in bytes (a key ending in "size" or "detected") also
 * the way people write it: "262144 (256K)".
 */
static void value_text(char *buf, size_t size, const struct bench_value *v)
{
	size_t klen = strlen(v->key), used;
	char sz[32];

	if (v->text[0]) {
		text_esc(buf, size, v->text);
		return;
	}
	if (!isfinite(v->num)) {
		snprintf(buf, size, "unknown");
		return;
	}
	if (v->num == floor(v->num) && fabs(v->num) < 1e15)
		snprintf(buf, size, "%.0f", v->num);
	else
		report_fig(buf, size, v->num);
	used = strlen(buf);
	if (v->num >= 1024 && used < size &&
	    ((klen >= 4 && strcmp(v->key + klen - 4, "size") == 0) ||
	     (klen >= 8 && strcmp(v->key + klen - 8, "detected") == 0))) {
		report_size(sz, sizeof(sz), v->num, 16);
		snprintf(buf + used, size - used, " (%s)", sz);
	}
}

/* The id, its unit and direction, and which run it is from. */
static void show_head(FILE *out, const struct run_info *run, const struct result *r)
{
	char name[160], label[4 * sizeof(run->label)], host[4 * sizeof(run->host)];
	char started[4 * sizeof(run->started)];

	text_run_name(run, name, sizeof(name));
	fprintf(out, "%s%s - %s - %s is better\n", r->id, text_place_tag(r), r->unit,
		r->better == BETTER_HIGHER ? "bigger" : "smaller");
	fprintf(out, "%s%s%s%s on %s, started %s\n", name, run->id > 0 ? " '" : "",
		run->id > 0 ? text_esc(label, sizeof(label), run->label) : "", run->id > 0 ? "'" : "",
		text_esc(host, sizeof(host), run->host), text_esc(started, sizeof(started), run->started));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The point of series s at size x, or NULL. */
static const struct result_point *curve_point(const struct result *r, size_t n, const char *s,
					      double x)
{
	for (size_t i = 0; i < n; i++)
		if (r->points[i].x == x &&
		    strncmp(r->points[i].series, s, sizeof(r->points[i].series)) == 0)
			return &r->points[i];
	return NULL;
}

/*
 * A curve as a table: a line per size, ascending, a column per series in
 * the order they were measured, each cell the median with '*' after it when
 * the point was noisy.  A series without a point at a size leaves a blank.
 */
static void show_curve(FILE *out, const struct result *r)
{
	const char *series[BENCH_MAX_POINTS];
	double xs[BENCH_MAX_POINTS];
	size_t n = r->npoints < BENCH_MAX_POINTS ? r->npoints : BENCH_MAX_POINTS;
	size_t nseries = 0, nx = 0;
	int noisy = 0;

	for (size_t i = 0; i < n; i++) {
		const struct result_point *p = &r->points[i];
		size_t j;

		for (j = 0; j < nseries; j++)
			if (strncmp(series[j], p->series, sizeof(p->series)) == 0)
				break;
		if (j == nseries)
			series[nseries++] = p->series;
		for (j = 0; j < nx; j++)
			if (xs[j] == p->x)
				break;
		if (j == nx)
			xs[nx++] = p->x;
	}
	qsort(xs, nx, sizeof(xs[0]), cmp_double);

	for (size_t b = 0; b < nseries; b += SHOW_SERIES) {
		size_t e = b + SHOW_SERIES < nseries ? b + SHOW_SERIES : nseries;
		/* A series name may take 4 bytes a column (UTF-8): room for five. */
		char line[512], dash[SHOW_FIG_W + 2];
		size_t pos;

		if (b)
			fputc('\n', out);
		pos = (size_t)snprintf(line, sizeof(line), "%*s", SHOW_SIZE_W, "size");
		for (size_t s = b; s < e; s++) {
			char cell[4 * SHOW_FIG_W + 1];

			pos += (size_t)snprintf(line + pos, sizeof(line) - pos, " %s ",
						report_cell(cell, sizeof(cell), series[s], SHOW_FIG_W, 1));
		}
		put_line(out, line);
		/* The dashes cover the noisy mark's place too. */
		memset(dash, '-', SHOW_FIG_W + 1);
		dash[SHOW_FIG_W + 1] = '\0';
		pos = (size_t)snprintf(line, sizeof(line), "%.*s", SHOW_SIZE_W, "-----------");
		for (size_t s = b; s < e; s++)
			pos += (size_t)snprintf(line + pos, sizeof(line) - pos, " %s", dash);
		put_line(out, line);
		for (size_t k = 0; k < nx; k++) {
			char sz[32];

			report_size(sz, sizeof(sz), xs[k], SHOW_SIZE_W);
			pos = (size_t)snprintf(line, sizeof(line), "%*s", SHOW_SIZE_W, sz);
			for (size_t s = b; s < e; s++) {
				const struct result_point *p = curve_point(r, n, series[s], xs[k]);
				char f[32] = "";

				if (p && isfinite(p->y))
					report_fig(f, sizeof(f), p->y);
				noisy |= p && p->noisy;
				pos += (size_t)snprintf(line + pos, sizeof(line) - pos, " %*.*s%c",
							SHOW_FIG_W, SHOW_FIG_W, f,
							p && p->noisy ? '*' : ' ');
			}
			put_line(out, line);
		}
	}
	if (noisy)
		fputs("* noisy: the point's 95% CI missed the precision asked for\n", out);
}

/* The value keys of the cache levels found in a curve, in bytes. */
static const char *const level_keys[] = { "l1_detected", "l2_detected", "l3_detected" };

static int is_level_key(const char *key)
{
	for (size_t i = 0; i < NELEM(level_keys); i++)
		if (strcmp(key, level_keys[i]) == 0)
			return 1;
	return 0;
}

/*
 * The cache levels found in the curve next to the sizes the OS reports:
 * "none" where the curve showed no such level (its value is 0 or absent),
 * or the OS lists caches without it; "unknown" where the OS did not say.
 */
static void show_levels(FILE *out, const struct result *r, const struct sysinfo *si)
{
	int any = 0;

	for (size_t i = 0; i < NELEM(level_keys); i++)
		any |= result_value(r, level_keys[i]) != NULL;
	if (!any)
		return;
	fputs("\ncache  detected  OS reports\n-----  --------  ----------\n", out);
	for (int i = 0; i < (int)NELEM(level_keys); i++) {
		double det = text_value_num(r, level_keys[i]), os = text_os_cache_bytes(si, i + 1);
		char d[32], o[32];

		if (!isfinite(det) && !(os > 0))
			continue;
		if (det > 0)
			report_size(d, sizeof(d), det, 8);
		else
			snprintf(d, sizeof(d), "none");
		if (os > 0)
			report_size(o, sizeof(o), os, 10);
		else
			snprintf(o, sizeof(o), si && si->ncaches > 0 ? "none" : "unknown");
		fprintf(out, "L%d     %8s  %s\n", i + 1, d, o);
	}
}

/* The values a curve's table and levels have not shown, one a line. */
static void show_curve_values(FILE *out, const struct result *r)
{
	struct show_line l[SHOW_LINES];
	size_t n = 0;
	char v[300];

	for (size_t i = 0; i < r->nvalues && i < BENCH_MAX_VALUES; i++) {
		if (is_level_key(r->values[i].key))
			continue;
		value_text(v, sizeof(v), &r->values[i]);
		line_add(l, &n, r->values[i].key, "%s", v);
	}
	if (n) {
		fputc('\n', out);
		lines_print(out, l, n);
	}
}

/*
 * A single figure: its level and interval, the slow spells left out of it,
 * the median and its CI, how it was sampled, its values.
 */
static void show_figure(FILE *out, const struct result *r)
{
	struct show_line l[SHOW_LINES];
	size_t n = 0;
	int usable = text_usable(r);
	/* why fits a show line's value whole, so it is never cut inside an escape. */
	char a[32], b[32], c[32], v[300], why[300];

	if (usable && result_level_known(r)) {
		double hw = fmax(r->level - r->level_low, r->level_high - r->level);

		report_fig(a, sizeof(a), r->level);
		line_add(l, &n, "level", "%s %s (the fast state's)", a, r->unit);
		report_fig(a, sizeof(a), r->level_low);
		report_fig(b, sizeof(b), r->level_high);
		if (isfinite(hw / r->level))
			line_add(l, &n, "its 95% CI", "%s to %s %s (+-%.1f%%)", a, b, r->unit,
				 100.0 * hw / r->level);
		if (isfinite(r->slow_share) && r->slow_share > 0 && isfinite(r->slow_depth))
			line_add(l, &n, "slow spells", "%.0f%% of the replicas, %.0f%% slower: left out",
				 100 * r->slow_share, 100 * r->slow_depth);
		else if (isfinite(r->slow_share))
			line_add(l, &n, "slow spells", "none seen");
	}
	if (usable) {
		double hw = fmax(r->median - r->ci_low, r->ci_high - r->median);

		report_fig(a, sizeof(a), r->median);
		line_add(l, &n, "median", "%s %s", a, r->unit);
		if (isfinite(r->ci_low) && isfinite(r->ci_high)) {
			report_fig(a, sizeof(a), r->ci_low);
			report_fig(b, sizeof(b), r->ci_high);
			if (r->median != 0 && isfinite(hw / r->median))
				line_add(l, &n, "95% CI", "%s to %s %s (+-%.1f%%)", a, b, r->unit,
					 100.0 * hw / fabs(r->median));
			else
				line_add(l, &n, "95% CI", "%s to %s %s", a, b, r->unit);
		}
		line_add(l, &n, "status", "%s, stopped at %s", result_status_name(r->status),
			 result_stop_name(r->stop));
	} else {
		line_add(l, &n, "status", "%s: %s", result_status_name(r->status),
			 r->reason[0] ? text_esc(why, sizeof(why), r->reason) : "no reason given");
	}
	if (r->n > 0)
		line_add(l, &n, "samples", "%zu, each of %" PRIu64 " iteration%s", r->n,
			 r->iterations, r->iterations == 1 ? "" : "s");
	if (usable && isfinite(r->min) && isfinite(r->max)) {
		report_fig(a, sizeof(a), r->min);
		report_fig(b, sizeof(b), r->max);
		line_add(l, &n, "min to max", "%s to %s %s", a, b, r->unit);
	}
	if (usable && isfinite(r->mean) && isfinite(r->stddev) && isfinite(r->cv)) {
		report_fig(a, sizeof(a), r->mean);
		report_fig(b, sizeof(b), r->stddev);
		line_add(l, &n, "mean", "%s %s, stddev %s (cv %.1f%%)", a, r->unit, b, 100.0 * r->cv);
	}
	if (usable && isfinite(r->p5) && isfinite(r->p95)) {
		report_fig(a, sizeof(a), r->p5);
		report_fig(b, sizeof(b), r->p95);
		line_add(l, &n, "p5 to p95", "%s to %s %s", a, b, r->unit);
	}
	if (usable && r->overhead > 0 && isfinite(r->overhead)) {
		report_fig(a, sizeof(a), r->overhead);
		line_add(l, &n, "overhead", "%s %s per iteration, subtracted", a, r->unit);
	}
	if (r->interference >= 0 && isfinite(r->interference))
		line_add(l, &n, "interference", "%.0f%% of the other CPUs%s", 100.0 * r->interference,
			 result_busy(r) ? " (busy)" : "");
	if (isfinite(r->drift))
		/* Past 10x the tenth is noise, and its digits would pass 80 columns. */
		line_add(l, &n, "drift", "%.*f%%, the sentinel across the replicas%s",
			 fabs(r->drift) < 1 ? 1 : 0, 100.0 * r->drift,
			 r->drifted ? " (more than the precision)" : "");
	if (r->placement != PLACE_NA)
		line_add(l, &n, "placement", "%s", place_name(r->placement));
	if (r->parallel > 1) {
		if (usable && isfinite(r->aggregate)) {
			report_fig(c, sizeof(c), r->aggregate);
			line_add(l, &n, "parallel", "%d copies, together %s %s%s", r->parallel, c,
				 r->unit, metric_unit_is_time(r->unit, r->better) ? "/op" : "");
		} else {
			line_add(l, &n, "parallel", "%d copies", r->parallel);
		}
	}
	if (r->wall_s > 0 && isfinite(r->wall_s)) {
		double sampling = 0;

		/* Where a row's time went: sampling, or what precedes it in every replica. */
		for (size_t i = 0; i < r->nreplicas; i++)
			if (isfinite(r->replicas[i].t0) && isfinite(r->replicas[i].t1) &&
			    r->replicas[i].t1 > r->replicas[i].t0)
				sampling += r->replicas[i].t1 - r->replicas[i].t0;
		if (sampling > 0 && sampling < r->wall_s)
			line_add(l, &n, "wall time", "%.1f s (%.1f s sampling, %.1f s set-up, warm-up, sentinel)",
				 r->wall_s, sampling, r->wall_s - sampling);
		else
			line_add(l, &n, "wall time", "%.1f s", r->wall_s);
	}
	for (size_t i = 0; i < r->nvalues && i < BENCH_MAX_VALUES; i++) {
		value_text(v, sizeof(v), &r->values[i]);
		line_add(l, &n, r->values[i].key, "%s", v);
	}
	lines_print(out, l, n);
}

/*
 * Where each replica's ends ran, for a figure between processes whose
 * replicas know: "ends on one CPU in replicas 1 2 5; on several CPUs in 3 4".
 */
static void show_ends(FILE *out, const struct result *r)
{
	const char *sep = "\nends";

	if (r->placement == PLACE_NA)
		return;
	for (int e = REPLICA_ONE_CPU; e <= REPLICA_SEVERAL_CPUS; e++) {
		int any = 0;

		for (size_t k = 0; k < r->nreplicas; k++) {
			double a = r->replicas[k].apart;

			if (!isfinite(a) || (a >= REPLICA_APART) != (e == REPLICA_SEVERAL_CPUS))
				continue;
			if (!any++)
				fprintf(out, "%s on %s in replicas", sep,
					replica_ends_name((enum replica_ends)e));
			fprintf(out, " %zu", k + 1);
			sep = ";";
		}
	}
	if (strcmp(sep, ";") == 0)
		fputc('\n', out);
}

/*
 * The replicas behind a figure, one a line, in the order taken: when each
 * ran, its fast level and median, its samples, and the sentinel around it, so a
 * replica that sat in a slow spell of the machine can be seen as one.
 */
static void show_replicas(FILE *out, const struct result *r)
{
	char m[32], f[32];

	if (r->nreplicas < 2 || !r->replicas)
		return;
	fprintf(out, "\nreplica  at (s)          fast     median  samples  getppid   adds (ns)\n");
	for (size_t k = 0; k < r->nreplicas; k++) {
		const struct result_replica *p = &r->replicas[k];
		char at[32], sys[16], user[16];

		report_fig(m, sizeof(m), p->median);
		if (isfinite(p->fast) && p->fast > 0)
			report_fig(f, sizeof(f), p->fast);
		else
			snprintf(f, sizeof(f), "-");
		if (isfinite(p->t0) && isfinite(p->t1))
			snprintf(at, sizeof(at), "%.1f-%.1f", p->t0, p->t1);
		else
			snprintf(at, sizeof(at), "-");
		if (isfinite(p->sentinel_sys))
			snprintf(sys, sizeof(sys), "%.1f", p->sentinel_sys);
		else
			snprintf(sys, sizeof(sys), "-");
		if (isfinite(p->sentinel_user))
			snprintf(user, sizeof(user), "%.3f", p->sentinel_user);
		else
			snprintf(user, sizeof(user), "-");
		fprintf(out, "%7zu  %-11s %9s  %9s  %7zu  %7s %10s\n", k + 1, at, f, m, p->n, sys, user);
	}
	show_ends(out, r);
}

/* Bins of the sentinel's timeline that `show sentinel` prints at most. */
#define SHOW_SENTINEL_ROWS 40

void report_show_sentinel_text(FILE *out, const struct run_info *run)
{
	size_t n = run->nsentinel, per = (n + SHOW_SENTINEL_ROWS - 1) / SHOW_SENTINEL_ROWS;
	double *sys = malloc((n ? n : 1) * sizeof(*sys)), *user = malloc((n ? n : 1) * sizeof(*user));
	struct stats_summary ssys, suser;
	char name[160], label[4 * sizeof(run->label)], host[4 * sizeof(run->host)];
	char started[4 * sizeof(run->started)];
	size_t ns = 0, nu = 0;

	if (!sys || !user)
		BUG("out of memory for %zu sentinel points", n);
	text_run_name(run, name, sizeof(name));
	fprintf(out, "sentinel - the machine's speed through the run: getppid and a dependent "
		"add, ns\n%s '%s' on %s, started %s\n", name, text_esc(label, sizeof(label), run->label),
		text_esc(host, sizeof(host), run->host), text_esc(started, sizeof(started), run->started));
	for (size_t i = 0; i < n; i++) {
		if (isfinite(run->sentinel[i].sys_ns))
			sys[ns++] = run->sentinel[i].sys_ns;
		if (isfinite(run->sentinel[i].user_ns))
			user[nu++] = run->sentinel[i].user_ns;
	}
	if (ns == 0 || nu == 0 || stats_summarize(sys, ns, &ssys) < 0 ||
	    stats_summarize(user, nu, &suser) < 0) {
		fprintf(out, "\nno timeline: the run was measured before kbench kept one\n");
		free(sys);
		free(user);
		return;
	}
	fprintf(out, "\n%zu points over %.0f s\ngetppid: median %.1f ns, p5 %.1f, p95 %.1f (%.2fx)\n"
		"adds:    median %.3f ns, p5 %.3f, p95 %.3f (%.2fx)\n", n, run->sentinel[n - 1].t,
		ssys.median, ssys.p5, ssys.p95, ssys.p95 / ssys.p5, suser.median, suser.p5, suser.p95,
		suser.p95 / suser.p5);
	fprintf(out, "\n    from      to  points cpus  getppid      adds  getppid against the median\n");
	for (size_t i = 0; i < n; i += per) {
		size_t m = i + per < n ? per : n - i, ks = 0, ku = 0;
		struct stats_summary a, b;
		char cpus[8] = "", bar[32];
		int c0 = run->sentinel[i].cpu, mixed = 0, len;

		for (size_t k = i; k < i + m; k++) {
			mixed |= run->sentinel[k].cpu != c0;
			if (isfinite(run->sentinel[k].sys_ns))
				sys[ks++] = run->sentinel[k].sys_ns;
			if (isfinite(run->sentinel[k].user_ns))
				user[ku++] = run->sentinel[k].user_ns;
		}
		snprintf(cpus, sizeof(cpus), mixed ? "both" : c0 < 0 ? "-" : "%d", c0);
		if (!ks || !ku || stats_summarize(sys, ks, &a) < 0 || stats_summarize(user, ku, &b) < 0)
			continue;
		/* One mark a percent away from the run's median, up to 20. */
		len = (int)fmin(20, fabs(a.median / ssys.median - 1) * 100 + 0.5);
		memset(bar, a.median >= ssys.median ? '+' : '-', (size_t)len);
		bar[len] = '\0';
		fprintf(out, "%8.1f %7.1f %7zu %4s %8.1f %9.3f  %+5.1f%%%s%s\n", run->sentinel[i].t,
			run->sentinel[i + m - 1].t, m, cpus, a.median, b.median,
			100 * (a.median / ssys.median - 1), len ? " " : "", bar);
	}
	free(sys);
	free(user);
}

/*
 * A distribution's percentiles with their intervals over the replicas
 * (where its samples were read) and its histogram, an octave a line, so
 * that a second mode or a long tail shows in a few lines: each line the
 * wakeups from lo to below hi, and the share at or below hi.
 */
static void show_histogram(FILE *out, const struct result *r);

static void show_distribution(FILE *out, const struct result *r)
{
	static const char *const names[HIST_NPCT] = { "p50", "p90", "p99", "p99.9" };
	char a[32], b[32], c[32];

	if (!result_value(r, hist_pct_keys[0]))
		return;
	if (r->samples && r->n) {
		fprintf(out, "\npercentile  %10s  over the replicas (95%%)\n", r->unit);
		for (size_t i = 0; i < HIST_NPCT; i++) {
			double est, lo, hi;

			(void)result_percentile(r, hist_pcts[i], &est, &lo, &hi);
			report_fig(a, sizeof(a), est);
			report_fig(b, sizeof(b), lo);
			report_fig(c, sizeof(c), hi);
			if (isfinite(lo))
				fprintf(out, "%-10s  %10s  %s to %s\n", names[i], a, b, c);
			else
				fprintf(out, "%-10s  %10s  -\n", names[i], a);
		}
	}
	/* Made from the samples where the store kept none (a run of an older kbench). */
	if (!r->buckets && r->samples && r->n) {
		struct result tmp = *r;

		tmp.buckets = NULL;
		tmp.nbuckets = 0;
		if (result_buckets_fill(&tmp) == 0)
			show_histogram(out, &tmp);
		free(tmp.buckets);
		return;
	}
	show_histogram(out, r);
}

/* A histogram an octave a line: its wakeups from lo to below hi, and the share at or below hi. */
static void show_histogram(FILE *out, const struct result *r)
{
	uint64_t total = 0, seen = 0;
	char a[32], b[32];

	for (size_t k = 0; r->buckets && k < r->nbuckets; k++)
		total += r->buckets[k].count;
	if (!total)
		return;
	fprintf(out, "\nhistogram (%s)        count   at or below\n", r->unit);
	for (size_t k = 0; k < r->nbuckets;) {
		double lo = r->buckets[k].lo, hi = r->buckets[k].hi;
		uint64_t n = 0;

		/* An octave: the buckets from lo to below twice lo (the one from 0 alone). */
		do {
			n += r->buckets[k].count;
			hi = r->buckets[k].hi;
			k++;
		} while (k < r->nbuckets && lo > 0 && r->buckets[k].lo < 2 * lo);
		seen += n;
		report_fig(a, sizeof(a), lo);
		if (isfinite(hi))
			report_fig(b, sizeof(b), hi);
		else
			snprintf(b, sizeof(b), "up");
		fprintf(out, "%9s to %-9s %9llu   %6.2f%%\n", a, b, (unsigned long long)n,
			100.0 * (double)seen / (double)total);
	}
}

int report_show_text(FILE *out, const struct run_info *run, const char *id)
{
	struct sysinfo si;
	int have_si = report_sysinfo_parse(run->sysinfo_json, &si) == 0, shown = 0;

	for (size_t i = 0; i < run->nresults; i++) {
		const struct result *r = &run->results[i];

		if (strcmp(r->id, id) != 0)
			continue;
		if (shown++)
			fputc('\n', out);
		show_head(out, run, r);
		fputc('\n', out);
		if (r->npoints > 0 && r->points) {
			show_curve(out, r);
			show_levels(out, r, have_si ? &si : NULL);
			show_curve_values(out, r);
		} else {
			show_figure(out, r);
		}
		show_distribution(out, r);
		show_replicas(out, r);
	}
	return shown;
}
