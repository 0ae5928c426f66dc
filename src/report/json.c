/*
 * JSON for scripts: `kbench sysinfo --json`, `kbench list --json`,
 * `kbench run --json` and `kbench export`, built with jsonw.c's helpers.
 * (import.c reads exports; no file outside src/report/ includes
 * jansson.h.)  Key names
 * are the struct field names, so they are part of the contract with the
 * importer and with users' scripts: add keys, never rename them.
 *
 * What jansson will not take, NaN and strings that are not UTF-8 (host
 * names and uname text come from the OS, a label from a database an older
 * kbench wrote), jsonw.c's helpers make null and repair.
 */
#include "report/report.h"
#include "report/curve.h"
#include "report/export.h"
#include "core/fields.h"
#include "core/replica.h"
#include "report/model.h"
#include "report/jsonw.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "core/utf8.h"
#include "stats/hist.h"
#include "store/store.h"

/* A string, or null when empty. */
static json_t *jstr_or_null(const char *s)
{
	return s && s[0] ? report_jstr(s) : json_null();
}

/* "name: state" lines as {"name": "state"}; the states may hold ';' or ':'. */
static json_t *mitigations_object(const char *lines)
{
	json_t *o = json_object();
	const char *p = lines;

	while (o && *p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		const char *colon = memchr(p, ':', len);
		char name[128], state[512];

		if (colon) {
			snprintf(name, sizeof(name), "%.*s", (int)(colon - p), p);
			snprintf(state, sizeof(state), "%.*s", (int)(len - (size_t)(colon - p) - 1), colon + 1);
			json_t *v = report_jstr(state[0] == ' ' ? state + 1 : state);
			if (!v || json_object_set_new(o, name, v) < 0) {
				json_decref(o);
				return NULL;
			}
		}
		p += len + (nl != NULL);
	}
	return o;
}

static json_t *juint(uint64_t v)
{
	return json_integer(v > (uint64_t)INT64_MAX ? INT64_MAX : (json_int_t)v);
}

/* The CPU caches as the OS reports them: [{"level", "type", "size", "line"}]. */
static json_t *caches_array(const struct sysinfo *si, int *bad)
{
	json_t *a = json_array();

	if (!a) {
		*bad = 1;
		return NULL;
	}
	for (int i = 0; i < si->ncaches; i++) {
		json_t *o = json_object();

		if (!o) {
			*bad = 1;
			break;
		}
		report_jset(o, "level", json_integer(si->caches[i].level), bad);
		report_jset(o, "type", report_jstr(si->caches[i].type), bad);
		report_jset(o, "size", juint(si->caches[i].size), bad);
		report_jset(o, "line", json_integer(si->caches[i].line), bad);
		report_jpush(a, o, bad);
	}
	return a;
}

static json_t *sysinfo_object(const struct sysinfo *si)
{
	json_t *o = json_object(), *load = json_array();
	int bad = 0;

	if (!o || !load) {
		json_decref(o);
		json_decref(load);
		return NULL;
	}
	report_jset(o, "os", report_jstr(si->os), &bad);
	report_jset(o, "release", report_jstr(si->release), &bad);
	report_jset(o, "version", report_jstr(si->version), &bad);
	report_jset(o, "arch", report_jstr(si->arch), &bad);
	report_jset(o, "host", report_jstr(si->host), &bad);
	report_jset(o, "cpu_model", report_jstr(si->cpu_model), &bad);
	report_jset(o, "ncpu_online", json_integer(si->ncpu_online), &bad);
	report_jset(o, "cpus", report_jstr(si->cpus), &bad);
	report_jset(o, "cpus_mode", report_jstr(si->cpus_mode), &bad);
	report_jset(o, "cpus_online", report_jstr(si->cpus_online), &bad);
	report_jset(o, "cpus_present", report_jstr(si->cpus_present), &bad);
	report_jset(o, "cpus_possible", report_jstr(si->cpus_possible), &bad);
	report_jset(o, "cmdline", report_jstr(si->cmdline), &bad);
	report_jset(o, "mhz", report_jreal(si->mhz), &bad);
	report_jset(o, "clocksource", report_jstr(si->clocksource), &bad);
	report_jset(o, "clocksources", report_jstr(si->clocksources), &bad);
	report_jset(o, "clock_cost_ns", report_jreal(si->clock_cost_ns), &bad);
	report_jset(o, "clock_res_ns", report_jreal(si->clock_res_ns), &bad);
	report_jset(o, "loop_ns", report_jreal(si->loop_ns), &bad);
	report_jset(o, "governor", report_jstr(si->governor), &bad);
	report_jset(o, "smt", report_jstr(si->smt), &bad);
	report_jset(o, "mitigations", mitigations_object(si->mitigations), &bad);
	report_jset(o, "virt", report_jstr(si->virt), &bad);
	for (int i = 0; i < 3; i++)
		report_jpush(load, report_jreal(si->loadavg[i]), &bad);
	report_jset(o, "loadavg", load, &bad);
	report_jset(o, "mem_total", juint(si->mem_total), &bad);
	report_jset(o, "mem_available", juint(si->mem_available), &bad);
	report_jset(o, "caches", caches_array(si, &bad), &bad);
	report_jset(o, "compiler", report_jstr(si->compiler), &bad);
	report_jset(o, "cflags", report_jstr(si->cflags), &bad);
	report_jset(o, "build_type", report_jstr(si->build_type), &bad);
	report_jset(o, "kbench_version", report_jstr(si->kbench_version), &bad);
	report_jset(o, "libc_tunables", report_jstr(si->libc_tunables), &bad);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

char *report_sysinfo_json(const struct sysinfo *si)
{
	json_t *o = sysinfo_object(si);
	char *s;

	if (!o)
		return NULL;
	s = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	return s;
}

int report_sysinfo_doc(FILE *out, const struct sysinfo *si)
{
	int bad = 0, rc;
	json_t *root = report_jdoc("sysinfo", &bad);

	report_jset(root, "sysinfo", sysinfo_object(si), &bad);
	rc = bad ? -1 : report_jdump(out, root, 17);
	json_decref(root);
	return rc;
}

/* "quick,standard,lmbench" as ["quick", "standard", "lmbench"]. */
static json_t *suite_array(const char *suites, int *bad)
{
	json_t *arr = json_array();
	const char *p = suites ? suites : "";

	if (!arr) {
		*bad = 1;
		return NULL;
	}
	while (*p) {
		size_t len = strcspn(p, ",");

		if (len > 0)
			report_jpush(arr, json_stringn(p, len), bad);
		p += len;
		if (*p == ',')
			p++;
	}
	return arr;
}

int report_list_json(FILE *out, const struct report_list_row *rows, size_t n)
{
	int bad = 0, rc;
	json_t *root = report_jdoc("benchmarks", &bad), *arr = json_array();

	bad |= !arr;

	for (size_t i = 0; i < n && !bad; i++) {
		const struct bench *b = rows[i].bench;
		json_t *o = json_object();

		if (!o) {
			bad = 1;
			break;
		}
		report_jset(o, "id", report_jstr(b->id), &bad);
		report_jset(o, "unit", report_jstr(bench_unit(b)), &bad);
		report_jset(o, "better", report_jstr(bench_better_name(b->better)), &bad);
		if (b->ops > 0)
			report_jset(o, "ops", json_real(b->ops), &bad);
		report_jset(o, "summary", report_jstr(b->summary), &bad);
		report_jset(o, "suites", suite_array(rows[i].suites, &bad), &bad);
		report_jset(o, "supported", json_boolean(rows[i].reason == NULL), &bad);
		report_jset(o, "reason", report_jstr(rows[i].reason), &bad);
		report_jpush(arr, o, &bad);
	}
	report_jset(root, "benchmarks", arr, &bad);
	rc = bad ? -1 : report_jdump(out, root, 17);
	json_decref(root);
	return rc;
}

/*
 * A result's values as {"key": number or "text"}.  A number that is not one
 * jansson can write becomes null, like every other figure here.
 */
static json_t *values_object(const struct result *r, int *bad)
{
	json_t *o = json_object();

	if (!o) {
		*bad = 1;
		return NULL;
	}
	for (size_t i = 0; i < r->nvalues && i < BENCH_MAX_VALUES; i++) {
		const struct bench_value *v = &r->values[i];

		report_jset(o, v->key, v->text[0] ? report_jstr(v->text) : report_jreal(v->num), bad);
	}
	return o;
}

/*
 * One of r's fields as the export writes it: null where it says none, and
 * a figure of the measurement null when the result measured nothing.
 */
static json_t *field_json(const struct field *f, const void *obj, int measured)
{
	const char *p = (const char *)obj + f->off;
	double d;
	int i;
	enum placement place;

	switch (f->type) {
	case FIELD_TEXT:
		return (f->flags & FIELD_EMPTY_NONE) ? jstr_or_null(p) : report_jstr(p);
	case FIELD_REAL:
		d = *(const double *)(const void *)p;
		if (((f->flags & FIELD_MEASURED) && !measured) || ((f->flags & FIELD_NEG_NONE) && d < 0) ||
		    ((f->flags & FIELD_POSITIVE) && !(d > 0)))
			return json_null();
		return report_jreal(d);
	case FIELD_SIZE:
		return juint(*(const size_t *)(const void *)p);
	case FIELD_U64:
		return juint(*(const uint64_t *)(const void *)p);
	case FIELD_INT:
		i = *(const int *)(const void *)p;
		return (f->flags & FIELD_ZERO_NONE) && i == 0 ? json_null() : json_integer(i);
	case FIELD_BOOL:
		return json_boolean(*(const int *)(const void *)p);
	case FIELD_BETTER:
		return report_jstr(bench_better_name(*(const enum bench_better *)(const void *)p));
	case FIELD_STATUS:
		return report_jstr(result_status_name(*(const enum result_status *)(const void *)p));
	case FIELD_STOP:
		return report_jstr(result_stop_name(*(const enum stop_reason *)(const void *)p));
	case FIELD_PLACE:
		place = *(const enum placement *)(const void *)p;
		/* null, not "", for a benchmark that takes no placement at all. */
		return place == PLACE_NA ? json_null() : report_jstr(place_name(place));
	}
	return json_null();
}

/*
 * A list of records (core/fields.h): count of rec's kind from base, each
 * an object of its fields in the table's order.
 */
static json_t *record_array(const struct record *rec, const void *base, size_t count, int *bad)
{
	json_t *a = json_array();

	if (!a) {
		*bad = 1;
		return NULL;
	}
	for (size_t i = 0; base && i < count; i++) {
		json_t *o = json_object();

		if (!o) {
			*bad = 1;
			break;
		}
		for (size_t k = 0; k < rec->nfields; k++)
			report_jset(o, rec->fields[k].key,
				    field_json(&rec->fields[k], (const char *)base + i * rec->size, 1), bad);
		report_jpush(a, o, bad);
	}
	return a;
}

/*
 * The modes of a result whose replicas split between ends on one CPU and
 * on several (replica_modes), the figure's first; null when they do not.
 * Derived from the replicas, so an import needs none.
 */
static json_t *modes_array(const struct result *r, int *bad)
{
	struct replica_mode m[2];
	json_t *a;

	if (replica_modes(r, m) != 2)
		return json_null();
	if (!(a = json_array())) {
		*bad = 1;
		return NULL;
	}
	for (int k = 0; k < 2; k++) {
		json_t *o = json_object();

		if (!o) {
			*bad = 1;
			break;
		}
		report_jset(o, "ends", report_jstr(replica_ends_name(m[k].ends)), bad);
		report_jset(o, "level", report_jreal(m[k].level), bad);
		report_jset(o, "level_low", report_jreal(m[k].lo), bad);
		report_jset(o, "level_high", report_jreal(m[k].hi), bad);
		report_jset(o, "replicas", juint(m[k].n), bad);
		report_jpush(a, o, bad);
	}
	return a;
}

/*
 * A distribution's (a wakeup latency's) percentiles as keys of the result
 * beside its max; each one's interval over the replicas ("percentiles":
 * p, value, ci_low, ci_high, null where fewer than two replicas had
 * samples); and its log-linear histogram: a bucket an object, lo <= value
 * < hi in the result's unit, the empty ones left out, as stored, or made
 * from the samples where the store kept none (a run of an older kbench).
 * Only a result with a p50 value has them.
 */
static void distribution_keys(json_t *o, const struct result *r, int measured, int *bad)
{
	struct result tmp;
	const struct result *h = r;
	json_t *a, *pa;

	if (!measured || !result_value(r, hist_pct_keys[0]))
		return;
	for (size_t i = 0; i < HIST_NPCT; i++) {
		const struct bench_value *v = result_value(r, hist_pct_keys[i]);

		report_jset(o, hist_pct_keys[i], v && !v->text[0] ? report_jreal(v->num) : json_null(), bad);
	}
	if (r->samples && r->n && (pa = json_array())) {
		for (size_t i = 0; i < HIST_NPCT; i++) {
			json_t *po = json_object();
			double est, lo, hi;

			if (!po) {
				*bad = 1;
				break;
			}
			(void)result_percentile(r, hist_pcts[i], &est, &lo, &hi);
			report_jset(po, "p", report_jreal(hist_pcts[i]), bad);
			report_jset(po, "value", report_jreal(est), bad);
			report_jset(po, "ci_low", report_jreal(lo), bad);
			report_jset(po, "ci_high", report_jreal(hi), bad);
			report_jpush(pa, po, bad);
		}
		report_jset(o, "percentiles", pa, bad);
	}
	if (!r->buckets) {
		if (!r->samples || !r->n)
			return;
		/* A shallow copy that owns only the buckets it is given. */
		tmp = *r;
		tmp.buckets = NULL;
		tmp.nbuckets = 0;
		if (result_buckets_fill(&tmp) < 0) {
			*bad = 1;
			return;
		}
		h = &tmp;
	}
	if (!(a = json_array())) {
		*bad = 1;
	} else {
		for (size_t b = 0; b < h->nbuckets; b++) {
			json_t *bo = json_object();

			if (!bo) {
				*bad = 1;
				break;
			}
			report_jset(bo, "lo", report_jreal(h->buckets[b].lo), bad);
			report_jset(bo, "hi", report_jreal(h->buckets[b].hi), bad);
			report_jset(bo, "count", juint(h->buckets[b].count), bad);
			report_jpush(a, bo, bad);
		}
		report_jset(o, "histogram", a, bad);
	}
	if (h == &tmp)
		free(tmp.buckets);
}

/* A result's lists: values, points, replicas, samples, where each ran, a timed job's usage. */
static void result_lists(json_t *o, const struct result *r, int measured, json_t *samples, int *bad)
{
	distribution_keys(o, r, measured, bad);
	report_jset(o, "values", values_object(r, bad), bad);
	report_jset(o, record_point.key, record_array(&record_point, r->points, r->npoints, bad), bad);
	report_jset(o, record_replica.key,
		    record_array(&record_replica, r->replicas, r->nreplicas, bad), bad);
	report_jset(o, "modes", measured ? modes_array(r, bad) : json_null(), bad);
	if (measured && r->samples)
		for (size_t i = 0; i < r->n; i++)
			report_jpush(samples, report_jreal(r->samples[i]), bad);
	report_jset(o, "samples", samples, bad);
	/* null when not known or no samples are written. */
	report_jset(o, record_where.key, measured && r->where && r->samples && r->n ?
		    record_array(&record_where, r->where, r->n, bad) : json_null(), bad);
	/* Only a timed job has it, and only beside the samples written above. */
	if (measured && r->samples && r->usage)
		report_jset(o, record_usage.key, record_array(&record_usage, r->usage, r->n, bad), bad);
}

static json_t *result_object(const struct result *r, int *bad)
{
	/* Skipped and failed results measured nothing: null, not a zero. */
	int measured = r->status == RES_OK || r->status == RES_NOISY;
	json_t *o = json_object(), *samples = json_array();

	if (!o || !samples) {
		json_decref(o);
		json_decref(samples);
		*bad = 1;
		return NULL;
	}
	/* The fields, with the lists before the last (the reason), where they have always been. */
	for (size_t k = 0; k < field_nresult; k++) {
		if (k + 1 == field_nresult)
			result_lists(o, r, measured, samples, bad);
		if (!(field_result[k].flags & FIELD_DERIVED))
			report_jset(o, field_result[k].key, field_json(&field_result[k], r, measured),
				    bad);
	}
	return o;
}

/*
 * A run's stored machine description as an object; null when it has none
 * or the stored text no longer parses (unknown, not fatal).
 */
static json_t *run_sysinfo(const struct run_info *run)
{
	json_t *si = run->sysinfo_json ? json_loads(run->sysinfo_json, 0, NULL) : NULL;

	if (json_is_object(si))
		return si;
	json_decref(si);
	return json_null();
}

/*
 * A scalability point's place on its curve, from the run's other points:
 * its task count, the 1-task figure's linear extension to it and the
 * efficiency (a fraction); null where the run has no 1-task point.
 */
static void curve_keys(json_t *o, const struct run_info *run, const struct result *r, int *bad)
{
	struct curve_point pt;

	if (!o || curve_point_of(run, r, &pt) < 0)
		return;
	report_jset(o, "tasks", json_integer(pt.tasks), bad);
	report_jset(o, "linear", isfinite(pt.linear) ? report_jreal(pt.linear) : json_null(), bad);
	report_jset(o, "efficiency", isfinite(pt.efficiency) ? report_jreal(pt.efficiency) : json_null(), bad);
}

/*
 * A run and its results; only those of only_id unless it is NULL.  Each
 * run carries its own machine ("sysinfo"): the runs of a summary may come
 * from several hosts, and the document's top-level "sysinfo" is one of them.
 */
static json_t *run_object(const struct run_info *run, const char *only_id, int *bad)
{
	json_t *o = json_object(), *results = json_array();

	if (!o || !results) {
		json_decref(o);
		json_decref(results);
		*bad = 1;
		return NULL;
	}
	report_jset(o, "run_id", json_integer(run->id), bad);
	report_jset(o, "label", report_jstr(run->label), bad);
	report_jset(o, "started", report_jstr(run->started), bad);
	/* null while running and for an interrupted run, as in the export */
	report_jset(o, "finished", jstr_or_null(run->finished), bad);
	report_jset(o, "host", report_jstr(run->host), bad);
	report_jset(o, "os", report_jstr(run->os), bad);
	report_jset(o, "mhz", run->mhz > 0 ? report_jreal(run->mhz) : json_null(), bad);
	report_jset(o, "sysinfo", run_sysinfo(run), bad);
	for (size_t i = 0; i < run->nresults && !*bad; i++)
		if (!only_id || strcmp(run->results[i].id, only_id) == 0) {
			json_t *ro = result_object(&run->results[i], bad);

			curve_keys(ro, run, &run->results[i], bad);
			report_jpush(results, ro, bad);
		}
	report_jset(o, "results", results, bad);
	report_jset(o, record_sentinel.key,
		    record_array(&record_sentinel, run->sentinel, run->nsentinel, bad), bad);
	return o;
}

/* {header, "sysinfo", "runs"}: what run --json, summary --json and the page print. */
static json_t *runs_document(const char *document, const char *sysinfo_json, const struct run_info *runs, size_t nruns,
			     int *bad)
{
	json_t *root = report_jdoc(document, bad), *arr = json_array(), *si = NULL;

	if (!root || !arr) {
		*bad = 1;
		json_decref(root);
		json_decref(arr);
		return NULL;
	}
	/* Stored text that no longer parses is reported as unknown, not fatal. */
	if (sysinfo_json)
		si = json_loads(sysinfo_json, 0, NULL);
	report_jset(root, "sysinfo", si ? si : json_null(), bad);
	for (size_t i = 0; i < nruns && !*bad; i++)
		report_jpush(arr, run_object(&runs[i], NULL, bad), bad);
	report_jset(root, "runs", arr, bad);
	return root;
}

int report_runs_json(FILE *out, const char *sysinfo_json, const struct run_info *runs,
		     size_t nruns)
{
	int bad = 0, rc;
	json_t *root = runs_document("runs", sysinfo_json, runs, nruns, &bad);

	rc = bad ? -1 : report_jdump(out, root, 17);
	json_decref(root);
	return rc;
}

int report_summary_json(FILE *out, const char *sysinfo_json, const struct run_info *runs,
			size_t nruns, const struct rm_doc *tables)
{
	int bad = 0, rc;
	json_t *root = runs_document("summary", sysinfo_json, runs, nruns, &bad);

	if (!bad)
		report_jset(root, "tables", report_model_json(tables, &bad), &bad);
	rc = bad || tables->oom ? -1 : report_jdump(out, root, 17);
	json_decref(root);
	return rc;
}

int report_show_json(FILE *out, const struct run_info *run, const char *id)
{
	int bad = 0, rc, n = 0;
	json_t *root = report_jdoc("show", &bad), *arr = json_array(), *si = NULL;

	bad |= !root || !arr;
	for (size_t i = 0; i < run->nresults; i++)
		n += strcmp(run->results[i].id, id) == 0;
	if (run->sysinfo_json)
		si = json_loads(run->sysinfo_json, 0, NULL);
	report_jset(root, "sysinfo", si ? si : json_null(), &bad);
	if (!bad)
		report_jpush(arr, run_object(run, id, &bad), &bad);
	report_jset(root, "runs", arr, &bad);
	rc = bad ? -1 : report_jdump(out, root, 17);
	json_decref(root);
	return rc < 0 ? -1 : n;
}

/* An export's run: its identity and everything measured, no database id. */
static json_t *export_run_object(const struct run_info *run, int *bad)
{
	json_t *o = json_object(), *results = json_array();

	if (!o || !results) {
		json_decref(o);
		json_decref(results);
		*bad = 1;
		return NULL;
	}
	report_jset(o, "uuid", report_jstr(run->uuid), bad);
	report_jset(o, "set", report_jstr(run->set_uuid), bad);
	report_jset(o, "label", report_jstr(run->label), bad);
	report_jset(o, "host", report_jstr(run->host), bad);
	report_jset(o, "os", report_jstr(run->os), bad);
	report_jset(o, "started", report_jstr(run->started), bad);
	report_jset(o, "finished", jstr_or_null(run->finished), bad);
	report_jset(o, "mhz", run->mhz > 0 ? report_jreal(run->mhz) : json_null(), bad);
	report_jset(o, "sysinfo", run_sysinfo(run), bad);
	for (size_t i = 0; i < run->nresults && !*bad; i++)
		report_jpush(results, result_object(&run->results[i], bad), bad);
	report_jset(o, "results", results, bad);
	report_jset(o, record_sentinel.key,
		    record_array(&record_sentinel, run->sentinel, run->nsentinel, bad), bad);
	return o;
}

int report_export_json(FILE *out, const struct run_info *runs, size_t nruns)
{
	int bad = 0, rc;
	json_t *root = report_jdoc("export", &bad), *arr = json_array();

	bad |= !root || !arr;
	for (size_t i = 0; i < nruns && !bad; i++)
		report_jpush(arr, export_run_object(&runs[i], &bad), &bad);
	report_jset(root, "runs", arr, &bad);
	rc = bad ? -1 : report_jdump(out, root, 17);
	json_decref(root);
	return rc;
}

int report_runs_list_json(FILE *out, const struct store_run_row *rows, size_t n)
{
	int bad = 0, rc;
	json_t *root = report_jdoc("run-list", &bad), *arr = json_array();

	bad |= !root || !arr;

	for (size_t i = 0; i < n && !bad; i++) {
		json_t *o = json_object();

		report_jset(o, "run_id", json_integer(rows[i].id), &bad);
		report_jset(o, "set_id", json_integer(rows[i].set_id), &bad);
		report_jset(o, "uuid", report_jstr(rows[i].uuid), &bad);
		report_jset(o, "label", report_jstr(rows[i].label), &bad);
		report_jset(o, "started", report_jstr(rows[i].started), &bad);
		report_jset(o, "finished", jstr_or_null(rows[i].finished), &bad);
		/* What a null finish time means: the two read alike otherwise. */
		report_jset(o, "state", report_jstr(rows[i].finished[0] ? "finished" : rows[i].running ?
						    "being measured" : "interrupted"), &bad);
		report_jset(o, "host", report_jstr(rows[i].host), &bad);
		report_jset(o, "os", report_jstr(rows[i].os), &bad);
		report_jset(o, "nresults", json_integer((json_int_t)rows[i].nresults), &bad);
		report_jset(o, "skipped_or_failed", json_integer((json_int_t)rows[i].nmissing), &bad);
		report_jpush(arr, o, &bad);
	}
	report_jset(root, "runs", arr, &bad);
	rc = bad ? -1 : report_jdump(out, root, 17);
	json_decref(root);
	return rc;
}
