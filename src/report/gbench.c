/*
 * Google Benchmark's JSON, `--format gbench` of run, ab and time, so that
 * the tools made for Google Benchmark's output (its compare.py, bencher,
 * github-action-benchmark) read kbench's figures.  The shape is the one
 * Google Benchmark writes with --benchmark_repetitions: {"context": {...},
 * "benchmarks": [...]}, an entry a repetition ("run_type": "iteration")
 * and, after an instance's repetitions, its aggregates ("mean", "median",
 * "stddev", and kbench's "level", the figure its tables print).  An
 * instance's repetitions are its replicas (a timed job's runs, where it
 * has none), over every run of the document.
 *
 * Google Benchmark's figures are times, lower better, and the tools read
 * them so.  A kbench time (ns, us, ms, s) goes as it is.  A rate (MB/s,
 * calls/s, AIM9's ".../second", MHz) goes as its inverse, the time one of
 * its things takes, in ns (5000 MB/s: 200000 ns a MB), so that lower is
 * better there too and a tool's change has the right sign; the rate
 * itself is kept beside it as the counter "rate".  Elapsed time is all
 * kbench measures of an operation, so "cpu_time" repeats "real_time".  A
 * figure of neither kind, and a result that measured nothing (skip,
 * fail), is left out and named in the context's "kbench_left_out".
 */
#include "report/report.h"
#include "report/jsonw.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "core/result.h"
#include "core/sysinfo.h"
#include "stats/stats.h"

/* How a unit goes out: a time as it is, or a rate inverted into ns. */
struct gb_unit {
	const char *time_unit;		/* "ns", "us", "ms", "s"; NULL: not a time */
	double per_s;			/* a rate: its things a second at 1 (MHz: 1e6); 0 none */
};

/* The units of time Google Benchmark has, kbench's spelled the same. */
static const char *const gb_times[] = { "ns", "us", "ms", "s" };

/* A rate's unit: its suffix and what 1 of it is a second. */
static const struct {
	const char *suffix;
	double per_s;
} gb_rates[] = {
	{ "/s", 1 },
	{ "/second", 1 },
	{ "MHz", 1e6 },
};

static struct gb_unit gb_unit_of(const char *unit)
{
	struct gb_unit u = { NULL, 0 };
	size_t len = strlen(unit);

	for (size_t i = 0; i < sizeof(gb_times) / sizeof(gb_times[0]); i++)
		if (strcmp(unit, gb_times[i]) == 0)
			u.time_unit = gb_times[i];
	for (size_t i = 0; !u.time_unit && i < sizeof(gb_rates) / sizeof(gb_rates[0]); i++) {
		size_t sl = strlen(gb_rates[i].suffix);

		if (len >= sl && strcmp(unit + len - sl, gb_rates[i].suffix) == 0) {
			u.time_unit = "ns";
			u.per_s = gb_rates[i].per_s;
		}
	}
	return u;
}

/* x in the unit's time: itself, or a rate's inverse in ns; NaN for none. */
static double gb_time(struct gb_unit u, double x)
{
	if (!(x > 0) || !isfinite(x))
		return NAN;
	return u.per_s > 0 ? 1e9 / (x * u.per_s) : x;
}

/* An instance's name: its id, then its placement, jobs and copies as Google Benchmark's args. */
static void gb_name(char *buf, size_t size, const char *side, const struct result *r)
{
	size_t n = (size_t)snprintf(buf, size, "%s%s%s", side, side[0] ? "/" : "", r->id);

	if (n < size && r->placement != PLACE_NA)
		n += (size_t)snprintf(buf + n, size - n, "/%s", place_name(r->placement));
	if (n < size && r->jobs > 0)
		n += (size_t)snprintf(buf + n, size - n, "/j:%d", r->jobs);
	if (n < size && r->parallel > 1)
		snprintf(buf + n, size - n, "/copies:%d", r->parallel);
}

/* r's repetitions' figures into v (room for gb_nrep(r)): its replicas', or its samples. */
static size_t gb_reps(const struct result *r, double *v)
{
	size_t n = 0;

	if (r->nreplicas)
		for (size_t i = 0; i < r->nreplicas; i++)
			v[n++] = result_replica_figure(&r->replicas[i]);
	else if (r->samples)
		for (size_t i = 0; i < r->n; i++)
			v[n++] = r->samples[i];
	return n;
}

static size_t gb_nrep(const struct result *r)
{
	return r->nreplicas ? r->nreplicas : r->samples ? r->n : 0;
}

/* One entry of "benchmarks": x is in the unit's own terms (a rate as a rate). */
static json_t *gb_entry(const char *name, const char *run_name, size_t family, const char *agg,
			size_t reps, size_t index, uint64_t iterations, struct gb_unit u, double x,
			const char *unit, int *bad)
{
	json_t *o = json_object();
	double t = gb_time(u, x);

	report_jset(o, "name", report_jstr(name), bad);
	report_jset(o, "family_index", json_integer((json_int_t)family), bad);
	report_jset(o, "per_family_instance_index", json_integer(0), bad);
	report_jset(o, "run_name", report_jstr(run_name), bad);
	report_jset(o, "run_type", report_jstr(agg ? "aggregate" : "iteration"), bad);
	report_jset(o, "repetitions", json_integer((json_int_t)reps), bad);
	if (agg) {
		report_jset(o, "threads", json_integer(1), bad);
		report_jset(o, "aggregate_name", report_jstr(agg), bad);
		report_jset(o, "aggregate_unit", report_jstr("time"), bad);
	} else {
		report_jset(o, "repetition_index", json_integer((json_int_t)index), bad);
		report_jset(o, "threads", json_integer(1), bad);
	}
	report_jset(o, "iterations", json_integer(iterations > INT64_MAX ? INT64_MAX :
						  (json_int_t)iterations), bad);
	report_jset(o, "real_time", report_jreal(t), bad);
	report_jset(o, "cpu_time", report_jreal(t), bad);
	report_jset(o, "time_unit", report_jstr(u.time_unit), bad);
	if (u.per_s > 0) {
		char label[96];

		report_jset(o, "rate", report_jreal(x), bad);
		snprintf(label, sizeof(label), "%.6g %s", x, unit);
		report_jset(o, "label", report_jstr(label), bad);
	}
	return o;
}

/* Whether r goes out: measured, in a unit that is a time or a rate. */
static int gb_takes(const struct result *r)
{
	return (r->status == RES_OK || r->status == RES_NOISY) && gb_unit_of(r->unit).time_unit &&
	       gb_nrep(r) > 0;
}

/*
 * Every instance of the runs, once, in the order first met: its
 * repetitions (over every run whose side is the same), then its
 * aggregates.  sides: run i is side 'A' + i (ab's), named so in front.
 */
static void gb_benchmarks(json_t *arr, const struct run_info *runs, size_t nruns, int sides,
			  int *bad)
{
	size_t family = 0, total = 0;

	for (size_t i = 0; i < nruns; i++)
		for (size_t k = 0; k < runs[i].nresults; k++)
			total += gb_nrep(&runs[i].results[k]);
	double *v = malloc((total + 1) * sizeof(*v)), *lv = malloc((nruns + 1) * sizeof(*lv));

	if (!v || !lv) {
		*bad = 1;
		free(v);
		free(lv);
		return;
	}
	for (size_t i = 0; i < nruns && !*bad; i++)
		for (size_t k = 0; k < runs[i].nresults && !*bad; k++) {
			const struct result *r = &runs[i].results[k];
			char side[2] = { sides ? (char)('A' + i) : 0, 0 }, name[256], agg[300];
			struct gb_unit u = gb_unit_of(r->unit);
			size_t n = 0, nl = 0, seen = 0;
			struct stats_summary ss;

			if (!gb_takes(r))
				continue;
			/* Met before, in an earlier run of the same side: already written. */
			for (size_t j = sides ? i : 0; j < i; j++)
				for (size_t q = 0; q < runs[j].nresults; q++)
					seen |= gb_takes(&runs[j].results[q]) &&
						result_same_instance(&runs[j].results[q], r);
			if (seen)
				continue;
			gb_name(name, sizeof(name), side, r);
			for (size_t j = i; j < (sides ? i + 1 : nruns); j++)
				for (size_t q = 0; q < runs[j].nresults; q++) {
					const struct result *x = &runs[j].results[q];

					if (!gb_takes(x) || !result_same_instance(x, r))
						continue;
					size_t from = n;

					n += gb_reps(x, v + n);
					for (size_t m = from; m < n; m++)
						report_jpush(arr, gb_entry(name, name, family, NULL, 0, m,
									   x->iterations, u, v[m],
									   x->unit, bad), bad);
					lv[nl++] = result_figure(x);
				}
			/* Each repetition's count of all, known once they are all met. */
			for (size_t m = json_array_size(arr) - n; m < json_array_size(arr); m++)
				report_jset(json_array_get(arr, m), "repetitions",
					    json_integer((json_int_t)n), bad);
			/* The aggregates of the times, as Google Benchmark's are (a rate's inverted). */
			for (size_t m = 0; m < n; m++)
				v[m] = gb_time(u, v[m]);
			if (stats_summarize(v, n, &ss) < 0) {
				*bad = 1;
				break;
			}
			const struct {
				const char *name;
				double t;
			} aggs[] = {
				{ "mean", ss.mean },
				{ "median", ss.median },
				{ "stddev", n > 1 ? ss.stddev : 0 },
				/* The figure the tables print; over runs, their median. */
				{ "level", gb_time(u, stats_median_sort(lv, nl)) },
			};
			struct gb_unit as_time = { u.time_unit, 0 };

			for (size_t a = 0; a < sizeof(aggs) / sizeof(aggs[0]); a++) {
				snprintf(agg, sizeof(agg), "%s_%s", name, aggs[a].name);
				report_jpush(arr, gb_entry(agg, name, family, aggs[a].name, n, 0,
							   n, as_time, aggs[a].t, r->unit, bad),
					     bad);
			}
			family++;
		}
	free(v);
	free(lv);
}

/* The results left out, "id: why", for the context. */
static json_t *gb_left_out(const struct run_info *runs, size_t nruns, int *bad)
{
	json_t *a = json_array();

	for (size_t i = 0; i < nruns; i++)
		for (size_t k = 0; k < runs[i].nresults; k++) {
			const struct result *r = &runs[i].results[k];
			char line[320];

			if (gb_takes(r))
				continue;
			snprintf(line, sizeof(line), "%s: %s", r->id,
				 r->status != RES_OK && r->status != RES_NOISY ?
				 result_status_name(r->status) :
				 gb_nrep(r) == 0 ? "no repetitions" : "neither a time nor a rate");
			report_jpush(a, report_jstr(line), bad);
		}
	return a;
}

/* Google Benchmark's "context": the machine, as its library describes it, and kbench's own. */
static json_t *gb_context(const char *sysinfo_json, const struct run_info *runs, size_t nruns,
			  int sides, int *bad)
{
	json_t *o = json_object(), *caches = json_array(), *load = json_array(), *labels = json_array();
	struct sysinfo si;
	int known = report_sysinfo_parse(sysinfo_json, &si) == 0;

	report_jset(o, "date", report_jstr(nruns ? runs[0].started : ""), bad);
	report_jset(o, "host_name", report_jstr(known ? si.host : ""), bad);
	report_jset(o, "executable", report_jstr("kbench"), bad);
	report_jset(o, "num_cpus", json_integer(known ? si.ncpu_online : 0), bad);
	report_jset(o, "mhz_per_cpu", json_integer(known && si.mhz > 0 ? (json_int_t)lround(si.mhz) : 0),
		    bad);
	for (int i = 0; known && i < si.ncaches; i++) {
		json_t *c = json_object();

		report_jset(c, "type", report_jstr(si.caches[i].type), bad);
		report_jset(c, "level", json_integer(si.caches[i].level), bad);
		report_jset(c, "size", json_integer((json_int_t)si.caches[i].size), bad);
		report_jset(c, "num_sharing", json_integer(0), bad);
		report_jpush(caches, c, bad);
	}
	report_jset(o, "caches", caches, bad);
	for (int i = 0; known && i < 3; i++)
		report_jpush(load, report_jreal(si.loadavg[i]), bad);
	report_jset(o, "load_avg", load, bad);
	report_jset(o, "library_build_type", report_jstr(known && si.build_type[0] ? si.build_type :
							 "release"), bad);
	report_jset(o, "kbench", report_jstr(KB_VERSION), bad);
	/* What each side's prefix stands for (ab), or the runs' labels. */
	for (size_t i = 0; i < nruns; i++) {
		char line[160];

		snprintf(line, sizeof(line), "%s%s%s", sides ? (char[]){ (char)('A' + i), 0 } : "",
			 sides ? ": " : "", runs[i].label);
		report_jpush(labels, report_jstr(line), bad);
	}
	report_jset(o, "kbench_labels", labels, bad);
	report_jset(o, "kbench_left_out", gb_left_out(runs, nruns, bad), bad);
	return o;
}

int report_gbench(FILE *out, const char *sysinfo_json, const struct run_info *runs, size_t nruns,
		  int sides)
{
	int bad = 0, rc;
	json_t *root = json_object(), *arr = json_array();

	bad |= !root || !arr;
	report_jset(root, "context", gb_context(sysinfo_json, runs, nruns, sides, &bad), &bad);
	if (!bad)
		gb_benchmarks(arr, runs, nruns, sides, &bad);
	report_jset(root, "benchmarks", arr, &bad);
	rc = bad ? -1 : report_jdump(out, root, 17);
	json_decref(root);
	return rc;
}
