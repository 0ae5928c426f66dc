/*
 * jsoncheck: validates the JSON kbench prints, for the command-line tests
 * (a fresh Debian has no python or jq to do it).  Reads stdin.  Every
 * document starts with the header of schema 2 (kbench, schema, document);
 * doc/kbench.schema.json is the whole schema, which cli_schema checks.
 *   jsoncheck run      a `run --json` / `summary --json` document: every
 *                      field of every result present, typed and sane
 *                      (placement, parallel, jobs, aggregate, values, a
 *                      curve's points and a timed job's usage too); prints "runs R results N ok K"
 *                      and, for each curve, "curve ID points N series A,B
 *                      top X" on a line of its own (X: the last point's
 *                      size, whose median must be the result's); with
 *                      replicas, "replicas R sentinel S where W drifted D":
 *                      results measured as R replicas or more each, the
 *                      points of the first run's sentinel timeline, the
 *                      results that say where every sample ran (time
 *                      ordered, CPU, steal, replica), and how many drifted
 *   jsoncheck export   a `kbench export` document: as run, with the format
 *                      and version, and each run's uuid, set and sysinfo
 *   jsoncheck list     the `list --json` array; prints its length
 *   jsoncheck runs-list  the `runs --json` array, every run's fields typed
 *                      and in range; prints its length
 *   jsoncheck sysinfo  the `sysinfo --json` object; prints "ok"
 *   jsoncheck compare  a `compare --json` document: every row with one cell
 *                      per side, each cell's fields typed and consistent
 *                      (level_low <= level <= level_high, the ratio inside its
 *                      CI, p <= p_adj <= 1, significant only with a test),
 *                      a section entry per printed section and other side;
 *                      prints "base B sides S rows R significant K ancova A
 *                      adjusted J welch W replicas P mw M state C threshold X"
 *                      (covariance analysis, Welch on runs of replicas at
 *                      equal adds and on runs, Welch on replicas,
 *                      Mann-Whitney on samples; of the tests of runs,
 *                      those in the machine's common state)
 * Exits 1 with one line naming the first problem.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Noreturn void bad(const char *what, const char *id)
{
	fprintf(stderr, "jsoncheck: %s%s%s\n", what, id ? " in " : "", id ? id : "");
	exit(1);
}

static json_t *need(json_t *obj, const char *key, json_type type, const char *id)
{
	json_t *v = json_object_get(obj, key);
	static char msg[128];

	if (!v || json_typeof(v) != type) {
		snprintf(msg, sizeof(msg), "field '%s' missing or of the wrong type", key);
		bad(msg, id);
	}
	return v;
}

static double num(json_t *obj, const char *key, const char *id)
{
	json_t *v = json_object_get(obj, key);
	static char msg[128];

	if (!json_is_number(v)) {
		snprintf(msg, sizeof(msg), "field '%s' is not a number", key);
		bad(msg, id);
	}
	return json_number_value(v);
}

/*
 * The conditions a result was measured under, which every result has,
 * skipped and failed ones included: where its processes ran, how many
 * copies ran at once, the -j value of a timed job (null for none), all
 * copies' figure, and its parameters (values).
 */
static void check_conditions(json_t *r, const char *id)
{
	json_t *place = json_object_get(r, "placement"), *par = json_object_get(r, "parallel");
	json_t *agg = json_object_get(r, "aggregate"), *jobs = json_object_get(r, "jobs"), *values, *v;
	const char *key, *p;

	/* null is a benchmark that takes no placement; "" never appears. */
	if (!place || !(json_is_null(place) || json_is_string(place)))
		bad("placement missing, or neither a string nor null", id);
	p = json_string_value(place);
	if (p && strcmp(p, "none") && strcmp(p, "same") && strcmp(p, "spread"))
		bad("placement is not one of none, same, spread", id);
	if (!json_is_integer(par) || json_integer_value(par) < 1)
		bad("parallel missing, or not an integer >= 1", id);
	if (!jobs || !(json_is_null(jobs) || (json_is_integer(jobs) && json_integer_value(jobs) >= 1)))
		bad("jobs missing, or neither an integer >= 1 nor null", id);
	if (!agg || !(json_is_null(agg) || json_is_number(agg)))
		bad("aggregate missing, or neither a number nor null", id);
	values = need(r, "values", JSON_OBJECT, id);
	json_object_foreach(values, key, v)
		if (!json_is_number(v) && !json_is_string(v))
			bad("a member of values is neither a number nor a string", id);
}

/*
 * A curve's points: each in a named series, at a growing size within its
 * series, with ci_low <= y <= ci_high.  Prints the series in order of
 * first appearance, so a test can see which were measured.
 */
static void check_points(json_t *r, const char *id, int measured)
{
	json_t *pts = need(r, "points", JSON_ARRAY, id), *p;
	char series[256] = "", last[32] = "";
	double lastx = 0, lasty = 0;
	size_t i;

	if (json_array_size(pts) == 0)
		return;
	if (!measured)
		bad("a skipped or failed result has points", id);
	json_array_foreach(pts, i, p) {
		const char *s = json_string_value(need(p, "series", JSON_STRING, id));
		double x = num(p, "x", id), y = num(p, "y", id);
		double lo = num(p, "ci_low", id), hi = num(p, "ci_high", id);

		if (!json_is_boolean(json_object_get(p, "noisy")))
			bad("a point's noisy is not a boolean", id);
		if (!(y > 0) || !(lo <= y && y <= hi))
			bad("a point's ci_low <= y <= ci_high does not hold", id);
		if (strcmp(s, last) != 0) {
			if (strlen(series) + strlen(s) + 2 < sizeof(series))
				snprintf(series + strlen(series), sizeof(series) - strlen(series), "%s%s",
					 series[0] ? "," : "", s);
			snprintf(last, sizeof(last), "%s", s);
			lastx = 0;
		}
		if (!(x > lastx))
			bad("a point's size does not grow within its series", id);
		lastx = x;
		lasty = y;
	}
	/* The result's own figure is its last point's, from the same samples. */
	if (fabs(lasty - num(r, "median", id)) > 1e-9 * lasty)
		bad("the median is not the last point's", id);
	printf("curve %s points %zu series %s top %.0f\n", id, json_array_size(pts), series, lastx);
}

static double num_or_null(json_t *obj, const char *key, const char *id);

/* What issue 12 added, tallied for main's summary line. */
static size_t min_replicas = (size_t)-1, nwhere, ndrifted;

/*
 * The replicas behind a measured figure, each with its own median inside
 * its own CI; the figure is their median, and, from 2 on, inside their
 * range.  Where each sample ran: four arrays of n, times not decreasing
 * within a replica, CPUs -1 or more, steal null or >= 0, replicas in
 * range.  drift a number or null, drifted a boolean, true only with a drift.
 * apart (the result's and each replica's) a share from 0 to 1 or null;
 * modes null, or two modes, one CPU and several, each inside its own CI,
 * counting no more replicas than there are, the first the figure's.
 */
static void check_apart(json_t *o, const char *id)
{
	json_t *a = json_object_get(o, "apart");

	if (!a || !(json_is_null(a) || (json_is_number(a) && json_number_value(a) >= 0 &&
					 json_number_value(a) <= 1)))
		bad("apart missing, or not a share from 0 to 1 or null", id);
}

static void check_modes(json_t *r, const char *id, size_t nrep)
{
	json_t *m = json_object_get(r, "modes"), *p;
	double counted = 0;
	size_t i;

	if (!m || json_is_null(m))
		return;
	if (!json_is_array(m) || json_array_size(m) != 2)
		bad("modes is neither null nor two modes", id);
	json_array_foreach(m, i, p) {
		double med = num(p, "level", id);
		const char *ends = json_string_value(json_object_get(p, "ends"));

		if (!ends || (strcmp(ends, "one CPU") && strcmp(ends, "several CPUs")))
			bad("a mode's ends are neither one CPU nor several CPUs", id);
		if (!(num(p, "level_low", id) <= med && med <= num(p, "level_high", id)))
			bad("a mode's level is outside its interval", id);
		counted += num(p, "replicas", id);
	}
	if (counted > (double)nrep || num(json_array_get(m, 0), "replicas", id) < num(json_array_get(m, 1), "replicas", id))
		bad("the modes count more replicas than there are, or the figure's is not the larger", id);
	if (fabs(num(json_array_get(m, 0), "level", id) - num(r, "level", id)) >
	    1e-9 * fabs(num(r, "level", id)))
		bad("the figure is not its mode's level", id);
}

static void check_replicas(json_t *r, const char *id, int measured)
{
	json_t *reps = need(r, "replicas", JSON_ARRAY, id), *w = json_object_get(r, "where"), *p;
	json_t *drift = json_object_get(r, "drift"), *drifted = json_object_get(r, "drifted");
	double lo = INFINITY, hi = -INFINITY;
	size_t i, nrep = json_array_size(reps);

	if (!drift || !(json_is_null(drift) || json_number_value(drift) >= 0) ||
	    !json_is_boolean(drifted) || (json_is_true(drifted) && json_is_null(drift)))
		bad("drift or drifted missing or of the wrong type", id);
	ndrifted += json_is_true(drifted);
	if (!measured)
		return;
	json_array_foreach(reps, i, p) {
		double m = num(p, "median", id);

		if (!(num(p, "ci_low", id) <= m && m <= num(p, "ci_high", id)) || !(m > 0))
			bad("a replica's ci_low <= median <= ci_high does not hold", id);
		if (num(p, "n", id) < 1 || !json_is_string(json_object_get(p, "stop")))
			bad("a replica without samples or a stop", id);
		num_or_null(p, "t0", id);
		num_or_null(p, "t1", id);
		num_or_null(p, "sentinel_sys_ns", id);
		num_or_null(p, "sentinel_user_ns", id);
		check_apart(p, id);
		lo = fmin(lo, m);
		hi = fmax(hi, m);
	}
	if (nrep < min_replicas)
		min_replicas = nrep;
	if (nrep >= 2 && !(lo <= num(r, "median", id) && num(r, "median", id) <= hi))
		bad("the median is outside its replicas' range", id);
	check_apart(r, id);
	check_modes(r, id, nrep);
	if (!w || json_is_null(w))
		return;
	size_t n = json_array_size(need(r, "samples", JSON_ARRAY, id));
	double last = -INFINITY;
	json_int_t lastrep = -1;

	if (!json_is_array(w) || json_array_size(w) != n)
		bad("where is not an array of one entry a sample", id);
	for (i = 0; i < n; i++) {
		json_t *e = json_array_get(w, i);
		json_t *ti = json_object_get(e, "t"), *ci = json_object_get(e, "cpu");
		json_t *si = json_object_get(e, "steal_ns"), *ri = json_object_get(e, "replica");

		if (!json_is_number(ti) || !json_is_integer(ci) || json_integer_value(ci) < -1 ||
		    !(json_is_null(si) || json_number_value(si) >= 0) || !json_is_integer(ri) ||
		    json_integer_value(ri) < 0 || (nrep && (size_t)json_integer_value(ri) >= nrep))
			bad("a sample's time, CPU, steal or replica is out of range", id);
		if (json_integer_value(ri) == lastrep && json_number_value(ti) < last)
			bad("a replica's sample times go back", id);
		last = json_number_value(ti);
		lastrep = json_integer_value(ri);
	}
	nwhere++;
}

/* A run's sentinel timeline: points in time order, each operation positive or null. */
static size_t check_sentinel(json_t *run)
{
	json_t *sen = json_object_get(run, "sentinel"), *p;
	double last = -INFINITY;
	size_t i;

	if (!json_is_array(sen))
		bad("a run without a sentinel array", NULL);
	json_array_foreach(sen, i, p) {
		double t = num(p, "t", "sentinel"), sys = num_or_null(p, "sys_ns", "sentinel");
		double user = num_or_null(p, "user_ns", "sentinel");

		if (!(t >= last) || !json_is_integer(json_object_get(p, "cpu")) ||
		    (!isnan(sys) && !(sys > 0)) || (!isnan(user) && !(user > 0)))
			bad("a point out of order or out of range", "sentinel");
		last = t;
	}
	return json_array_size(sen);
}

/*
 * A timed job's usage (issue 14), when there is one: an object a sample,
 * its copy among the copies run at once, a wait status, and every figure
 * a number >= 0 or null (the start only a number or null).
 */
static void check_usage(json_t *r, const char *id)
{
	static const char *const figs[] = {
		"start", "user_s", "sys_s", "maxrss_kb", "minflt", "majflt", "nvcsw", "nivcsw",
		"inblock", "oublock", "orphans",
	};
	json_t *usage = json_object_get(r, "usage"), *u;
	size_t i;

	if (!usage)
		return;
	if (!json_is_array(usage) ||
	    json_array_size(usage) != json_array_size(need(r, "samples", JSON_ARRAY, id)))
		bad("usage is not an array of one entry a sample", id);
	json_array_foreach(usage, i, u) {
		json_t *copy = json_object_get(u, "copy");

		if (!json_is_integer(copy) || json_integer_value(copy) < 1 ||
		    json_integer_value(copy) > json_integer_value(json_object_get(r, "parallel")) ||
		    !json_is_integer(json_object_get(u, "wait_status")))
			bad("a usage entry's copy or wait_status is out of range", id);
		for (size_t k = 0; k < sizeof(figs) / sizeof(figs[0]); k++) {
			double x = num_or_null(u, figs[k], id);

			if (k > 0 && x < 0)
				bad("a usage figure is negative", id);
		}
	}
}

static int check_result(json_t *r)
{
	const char *id = json_string_value(need(r, "id", JSON_STRING, NULL));
	const char *status = json_string_value(need(r, "status", JSON_STRING, id));
	const char *better = json_string_value(need(r, "better", JSON_STRING, id));
	json_t *samples = need(r, "samples", JSON_ARRAY, id);

	need(r, "unit", JSON_STRING, id);
	need(r, "stop", JSON_STRING, id);
	check_conditions(r, id);
	if (strcmp(better, "lower") && strcmp(better, "higher"))
		bad("better is neither lower nor higher", id);
	check_points(r, id, strcmp(status, "skip") && strcmp(status, "fail"));
	check_replicas(r, id, strcmp(status, "skip") && strcmp(status, "fail"));
	check_usage(r, id);
	if (!strcmp(status, "skip") || !strcmp(status, "fail")) {
		if (!json_is_string(json_object_get(r, "reason")))
			bad("skip/fail without a reason", id);
		if (!json_is_null(json_object_get(r, "median")) || !json_is_null(json_object_get(r, "level")))
			bad("skip/fail with a median or a level", id);
		return 0;
	}
	if (strcmp(status, "ok") && strcmp(status, "noisy"))
		bad("unknown status", id);
	double med = num(r, "median", id), lo = num(r, "ci_low", id), hi = num(r, "ci_high", id);
	double mn = num(r, "min", id), mx = num(r, "max", id);
	double n = num(r, "n", id), it = num(r, "iterations", id);
	num(r, "mean", id);
	num(r, "stddev", id);
	num(r, "wall_s", id);
	/*
	 * The interval is where the next run's median falls, at least as wide
	 * as the machine moved (core/replica.h): it may reach past this run's
	 * samples, never past zero.
	 */
	if (!(med > 0) || !(0 <= lo && lo <= med && med <= hi) || !(mn <= med && med <= mx))
		bad("0 <= ci_low <= median <= ci_high or min <= median <= max does not hold", id);
	if (n < 1 || it < 1 || json_array_size(samples) != (size_t)n)
		bad("n, iterations or the samples are inconsistent", id);
	/*
	 * The level, the figure printed, is null only where it was never
	 * measured (a run stored before levels were); else inside its interval.
	 */
	double lev = num_or_null(r, "level", id), llo = num_or_null(r, "level_low", id);
	double lhi = num_or_null(r, "level_high", id), share = num_or_null(r, "slow_share", id);
	double depth = num_or_null(r, "slow_depth", id);
	if (!isnan(lev) && (!(lev > 0) || !(llo <= lev && lev <= lhi)))
		bad("0 < level_low <= level <= level_high does not hold", id);
	if (isnan(lev) && (!isnan(llo) || !isnan(lhi)))
		bad("an interval without a level", id);
	if (!isnan(share) && !(share >= 0 && share <= 1))
		bad("slow_share is not a share from 0 to 1", id);
	if (!isnan(depth) && !(depth >= 0))
		bad("slow_depth is negative", id);
	json_t *itf = json_object_get(r, "interference");
	if (!json_is_null(itf) && !(json_number_value(itf) >= 0 && json_number_value(itf) <= 1))
		bad("interference is not a fraction", id);
	return 1;
}

/* A number or null, the way every figure that may not exist is written. */
static double num_or_null(json_t *obj, const char *key, const char *id)
{
	json_t *v = json_object_get(obj, key);
	static char msg[128];

	if (json_is_null(v))
		return (double)NAN;
	if (!json_is_number(v)) {
		snprintf(msg, sizeof(msg), "field '%s' is neither a number nor null", key);
		bad(msg, id);
	}
	return json_number_value(v);
}

/*
 * One cell of a compare row; counts a significant change and the test
 * used into k[0..4] and k[6], and one in the common state into k[5].  A
 * side without the instance has no figure at all.
 */
static void check_cmp_cell(json_t *c, const char *side, int other, const char *id, size_t k[7])
{
	int present, sig, adjusted;
	double med, lo, hi, ratio, rlo, rhi, p, padj, change, slope;
	const char *test;
	json_t *t, *st;

	if (strcmp(json_string_value(need(c, "side", JSON_STRING, id)), side))
		bad("a cell's side is not the side in that place", id);
	if (!json_is_boolean(json_object_get(c, "present")) ||
	    !json_is_boolean(json_object_get(c, "noisy")))
		bad("present or noisy is not a boolean", id);
	present = json_is_true(json_object_get(c, "present"));
	need(c, "nruns", JSON_INTEGER, id);
	med = num_or_null(c, "level", id);
	lo = num_or_null(c, "level_low", id);
	hi = num_or_null(c, "level_high", id);
	if (!present) {
		if (!isnan(med) || (other && !isnan(num_or_null(c, "p", id))))
			bad("an absent cell has a figure", id);
	} else if (!(med > 0) || !(lo <= med && med <= hi)) {
		bad("level_low <= level <= level_high does not hold", id);
	}
	if (!other) {
		if (json_object_get(c, "p_adj"))
			bad("the base's cell has a test", id);
		return;
	}
	change = num_or_null(c, "change", id);
	ratio = num_or_null(c, "ratio", id);
	rlo = num_or_null(c, "ratio_ci_low", id);
	rhi = num_or_null(c, "ratio_ci_high", id);
	p = num_or_null(c, "p", id);
	padj = num_or_null(c, "p_adj", id);
	t = json_object_get(c, "test");
	if (!t || !(json_is_null(t) || json_is_string(t)))
		bad("test missing, or neither a string nor null", id);
	test = json_string_value(t);
	if (!json_is_boolean(json_object_get(c, "significant")))
		bad("significant is not a boolean", id);
	sig = json_is_true(json_object_get(c, "significant"));
	/* The three-way verdict agrees with the mark; what it could see is a fraction or null. */
	{
		const char *v = json_string_value(json_object_get(c, "verdict"));
		double det = num_or_null(c, "detectable", id);

		if (!v || (strcmp(v, "changed") && strcmp(v, "unchanged") && strcmp(v, "cannot tell")))
			bad("verdict is not changed, unchanged or cannot tell", id);
		else if ((strcmp(v, "changed") == 0) != sig)
			bad("verdict changed and significant disagree", id);
		if (!isnan(det) && !(det >= 0))
			bad("detectable is negative", id);
		if (v && !strcmp(v, "unchanged") && isnan(det))
			bad("unchanged without a detectable change", id);
	}
	if (present && !json_is_boolean(json_object_get(c, "improved")))
		bad("a present cell's improved is not a boolean", id);
	adjusted = test && !strcmp(test, "welch-log-runs-adjusted");
	if (test && (!strcmp(test, "welch-log-runs") || !strcmp(test, "welch-log-replicas") ||
		     !strcmp(test, "ancova-log-runs") || adjusted)) {
		if (!(rlo <= ratio && ratio <= rhi))
			bad("ratio_ci_low <= ratio <= ratio_ci_high does not hold", id);
		k[!strcmp(test, "welch-log-replicas") ? 3 : !strcmp(test, "ancova-log-runs") ? 4 :
		  adjusted ? 6 : 1]++;
	} else if (test && !strcmp(test, "mann-whitney-samples")) {
		if (!isnan(ratio))
			bad("a ratio without Welch", id);
		k[2]++;
	} else if (test) {
		bad("unknown test", id);
	}
	/* p * m / rank may come back an ulp under p when rank is m. */
	if (test && !(p >= 0 && p <= padj * (1 + 1e-12) && padj <= 1))
		bad("0 <= p <= p_adj <= 1 does not hold", id);
	if (!test && (sig || !isnan(p)))
		bad("a p or a significant change without a test", id);
	/* Replicas at equal adds: a slope, and the change the ratio's; else no slope. */
	slope = num_or_null(c, "slope", id);
	if (adjusted != isfinite(slope))
		bad("a slope without replicas at equal adds, or none with them", id);
	if (adjusted && !(fabs(change - (ratio - 1)) <= 1e-9 * fabs(ratio)))
		bad("at equal adds the change is not the ratio's", id);
	/* The common state: only for runs' tests, its replicas counted, its change the ratio's. */
	st = json_object_get(c, "state");
	if (!st || !(json_is_null(st) || json_is_object(st)))
		bad("state missing, or neither an object nor null", id);
	if (json_is_object(st)) {
		double in = num(st, "replicas_in", id), all = num(st, "replicas", id);

		if (!test || (strcmp(test, "welch-log-runs") && strcmp(test, "ancova-log-runs") &&
			      !adjusted))
			bad("a common state without a test of runs", id);
		if (!(in >= 6 && in < all) || !(num(st, "width", id) > 0))
			bad("the state's replicas are not 6 <= in < all, or its width is not positive", id);
		if (!(fabs(change - (ratio - 1)) <= 1e-9 * fabs(ratio)))
			bad("in the common state the change is not the ratio's", id);
		k[5]++;
	}
	k[0] += (size_t)sig;
}

/* `compare --json`: see the comment at the top. */
static void check_compare(json_t *doc)
{
	json_t *sides = need(doc, "sides", JSON_ARRAY, NULL), *row, *cell, *sec;
	const char *base = json_string_value(need(doc, "base", JSON_STRING, NULL));
	size_t nsides = json_array_size(sides), i, j, k[7] = { 0, 0, 0, 0, 0, 0, 0 };

	need(doc, "kbench", JSON_STRING, NULL);
	if (strcmp(json_string_value(need(doc, "correction", JSON_STRING, NULL)),
		   "benjamini-hochberg"))
		bad("the correction is not benjamini-hochberg", NULL);
	if (!(num(doc, "threshold", NULL) >= 0) || !(num(doc, "alpha", NULL) > 0))
		bad("threshold or alpha out of range", NULL);
	if (!json_is_boolean(json_object_get(doc, "as_measured")))
		bad("as_measured is not a boolean", NULL);
	if (nsides < 2 || strcmp(json_string_value(need(json_array_get(sides, 0), "name",
							JSON_STRING, NULL)), base))
		bad("fewer than 2 sides, or the first is not the base", NULL);
	json_array_foreach(sides, i, sec) {
		need(sec, "name", JSON_STRING, NULL);
		need(sec, "nruns", JSON_INTEGER, NULL);
		num_or_null(sec, "sentinel_sys_ns", NULL);
		num_or_null(sec, "sentinel_user_ns", NULL);
		num_or_null(sec, "sentinel_sys_shift", NULL);
		num_or_null(sec, "sentinel_user_shift", NULL);
	}
	json_array_foreach(need(doc, "rows", JSON_ARRAY, NULL), i, row) {
		const char *id = json_string_value(need(row, "id", JSON_STRING, NULL));
		json_t *cells = need(row, "cells", JSON_ARRAY, id);

		need(row, "unit", JSON_STRING, id);
		need(row, "section", JSON_STRING, id);
		need(row, "better", JSON_STRING, id);
		/* An instance is (id, placement, copies): the two must be there. */
		if (!json_is_null(json_object_get(row, "placement")))
			need(row, "placement", JSON_STRING, id);
		if (!(num(row, "parallel", id) >= 1))
			bad("parallel is not at least 1", id);
		if (json_array_size(cells) != nsides)
			bad("a row has not one cell per side", id);
		json_array_foreach(cells, j, cell) {
			const char *side = json_string_value(
				json_object_get(json_array_get(sides, j), "name"));

			check_cmp_cell(cell, side, j > 0, id, k);
		}
	}
	json_array_foreach(need(doc, "sections", JSON_ARRAY, NULL), i, sec) {
		const char *title = json_string_value(need(sec, "title", JSON_STRING, NULL));
		double n = num(sec, "ncompared", title), g = num_or_null(sec, "geomean", title);

		need(sec, "side", JSON_STRING, title);
		if (num(sec, "nbetter", title) + num(sec, "nworse", title) +
		    num(sec, "nunchanged", title) + num(sec, "ncannot_tell", title) != n ||
		    (n > 0) != (g > 0))
			bad("a section's counts do not add up, or its geometric mean is missing", title);
	}
	/* As measured, nothing is taken at equal adds, by either test. */
	if (json_is_true(json_object_get(doc, "as_measured")) && (k[4] || k[6]))
		bad("as measured, yet a row was taken at equal adds", NULL);
	printf("base %s sides %zu rows %zu significant %zu ancova %zu adjusted %zu welch %zu "
	       "replicas %zu mw %zu state %zu threshold %g as_measured %d\n", base, nsides,
	       json_array_size(json_object_get(doc, "rows")), k[0], k[4], k[6], k[1], k[3], k[2],
	       k[5], num(doc, "threshold", NULL), json_is_true(json_object_get(doc, "as_measured")));
}

int main(int argc, char **argv)
{
	json_error_t e;
	json_t *doc = json_loadf(stdin, 0, &e);
	size_t i, j, nres = 0, nok = 0, nsen = 0;
	json_t *run, *r;

	if (argc != 2)
		bad("usage: jsoncheck run|export|list|runs-list|sysinfo|compare", NULL);
	if (!doc) {
		fprintf(stderr, "jsoncheck: not JSON: %s at line %d\n", e.text, e.line);
		return 1;
	}
	if (!json_is_object(doc) || !json_is_string(json_object_get(doc, "kbench")) ||
	    num(doc, "schema", NULL) != 2 || !json_is_string(json_object_get(doc, "document")))
		bad("no header (kbench, schema 2, document)", NULL);
	if (!strcmp(argv[1], "list")) {
		json_t *all = need(doc, "benchmarks", JSON_ARRAY, NULL);

		if (json_array_size(all) == 0)
			bad("no benchmarks", NULL);
		json_array_foreach(all, i, r) {
			const char *id = json_string_value(need(r, "id", JSON_STRING, NULL));
			need(r, "unit", JSON_STRING, id);
			need(r, "better", JSON_STRING, id);
			need(r, "summary", JSON_STRING, id);
			need(r, "suites", JSON_ARRAY, id);
			if (!json_is_boolean(json_object_get(r, "supported")))
				bad("supported is not a boolean", id);
		}
		printf("%zu\n", json_array_size(all));
	} else if (!strcmp(argv[1], "runs-list")) {
		json_t *all = need(doc, "runs", JSON_ARRAY, NULL);

		json_array_foreach(all, i, r) {
			const char *u = json_string_value(need(r, "uuid", JSON_STRING, NULL));
			need(r, "label", JSON_STRING, u);
			need(r, "started", JSON_STRING, u);
			need(r, "host", JSON_STRING, u);
			if (!(num(r, "run_id", u) >= 1) || !(num(r, "set_id", u) >= 1) ||
			    num(r, "set_id", u) > num(r, "run_id", u) || !(num(r, "nresults", u) >= 0))
				bad("run_id, set_id or nresults out of range", u);
			if (strlen(u) != 32 || strspn(u, "0123456789abcdef") != 32)
				bad("uuid is not 32 hex digits", u);
		}
		printf("%zu\n", json_array_size(all));
	} else if (!strcmp(argv[1], "sysinfo")) {
		json_t *si = need(doc, "sysinfo", JSON_OBJECT, NULL);

		need(si, "os", JSON_STRING, NULL);
		need(si, "release", JSON_STRING, NULL);
		need(si, "clocksource", JSON_STRING, NULL);
		if (!(num(si, "mhz", NULL) > 0) || !(num(si, "ncpu_online", NULL) >= 1))
			bad("mhz or ncpu_online not positive", NULL);
		printf("ok\n");
	} else if (!strcmp(argv[1], "run") || !strcmp(argv[1], "export")) {
		int export = !strcmp(argv[1], "export");

		need(doc, "kbench", JSON_STRING, NULL);
		/* An export describes the machine per run: runs come from many machines. */
		if (export) {
			if (strcmp(json_string_value(need(doc, "document", JSON_STRING, NULL)), "export"))
				bad("the document is not an export", NULL);
		} else {
			need(doc, "sysinfo", JSON_OBJECT, NULL);
		}
		json_array_foreach(need(doc, "runs", JSON_ARRAY, NULL), i, run) {
			need(run, "label", JSON_STRING, NULL);
			need(run, "started", JSON_STRING, NULL);
			if (export) {
				const char *u = json_string_value(need(run, "uuid", JSON_STRING, NULL));
				need(run, "set", JSON_STRING, NULL);
				need(run, "sysinfo", JSON_OBJECT, u);
				if (strlen(u) != 32 || strspn(u, "0123456789abcdef") != 32)
					bad("uuid is not 32 hex digits", u);
				if (json_object_get(run, "run_id"))
					bad("an export carries a database id", u);
			}
			json_array_foreach(need(run, "results", JSON_ARRAY, NULL), j, r) {
				nres++;
				nok += (size_t)check_result(r);
			}
			j = check_sentinel(run);
			if (i == 0)
				nsen = j;
		}
		printf("runs %zu results %zu ok %zu\n", json_array_size(json_object_get(doc, "runs")),
		       nres, nok);
		printf("replicas %zu sentinel %zu where %zu drifted %zu\n",
		       min_replicas == (size_t)-1 ? 0 : min_replicas, nsen, nwhere, ndrifted);
	} else if (!strcmp(argv[1], "compare")) {
		check_compare(doc);
	} else {
		bad("unknown check", argv[1]);
	}
	json_decref(doc);
	return 0;
}
