/*
 * Small helpers around the benchmark contract and its results: filling the
 * error buffer, unit and status names, freeing.  Names here are the ones the
 * JSON, the database and the reports use, so they are part of the contract.
 */
#include "core/bench.h"
#include "core/result.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plat/plat.h"
#include "stats/hist.h"
#include "stats/stats.h"

enum bench_status bench_fail(struct bench_ctx *ctx, int errnum, const char *fmt, ...)
{
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(ctx->err, sizeof(ctx->err), fmt, ap);
	va_end(ap);
	if (errnum && len >= 0 && (size_t)len < sizeof(ctx->err))
		snprintf(ctx->err + len, sizeof(ctx->err) - (size_t)len, ": %s", strerror(errnum));
	return BENCH_FAIL;
}

enum bench_status bench_skip(struct bench_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ctx->err, sizeof(ctx->err), fmt, ap);
	va_end(ap);
	return BENCH_SKIP;
}

const char *bench_unit(const struct bench *b)
{
	const struct metric *m = metric_get(b->metric);

	if (b->unit)
		return b->unit;
	if (!m)
		BUG("%s: bad metric %d", b->id, (int)b->metric);
	return m->unit;
}

const char *bench_better_name(enum bench_better better)
{
	return better == BETTER_HIGHER ? "higher" : "lower";
}

static const char *const status_names[] = {
	[RES_OK] = "ok", [RES_NOISY] = "noisy", [RES_SKIP] = "skip", [RES_FAIL] = "fail",
};

static const char *const stop_names[] = {
	[STOP_NONE] = "none", [STOP_PRECISION] = "precision", [STOP_MAX_TIME] = "max-time",
	[STOP_MAX_SAMPLES] = "max-samples",
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

const char *result_status_name(enum result_status s)
{
	if ((size_t)s >= NELEM(status_names))
		BUG("bad result status %d", (int)s);
	return status_names[s];
}

const char *result_stop_name(enum stop_reason s)
{
	if ((size_t)s >= NELEM(stop_names))
		BUG("bad stop reason %d", (int)s);
	return stop_names[s];
}

static int lookup(const char *const *names, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(names[i], name) == 0)
			return (int)i;
	return -1;
}

int result_status_parse(const char *name, enum result_status *out)
{
	int i = lookup(status_names, NELEM(status_names), name);
	if (i < 0)
		return -1;
	*out = (enum result_status)i;
	return 0;
}

int result_stop_parse(const char *name, enum stop_reason *out)
{
	int i = lookup(stop_names, NELEM(stop_names), name);
	if (i < 0)
		return -1;
	*out = (enum stop_reason)i;
	return 0;
}

void result_init(struct result *r, const struct bench *b)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->id, sizeof(r->id), "%s", b->id);
	snprintf(r->unit, sizeof(r->unit), "%s", bench_unit(b));
	r->better = b->better;
	r->interference = -1;
	r->placement = b->flags & BENCH_PLACED ? PLACE_NONE : PLACE_NA;
	r->parallel = 1;
	r->aggregate = NAN;
	r->drift = NAN;
	r->apart = NAN;
	r->level = r->level_low = r->level_high = NAN;
	r->slow_share = r->slow_depth = NAN;
	for (int i = 0; i < 2; i++)
		r->around[i] = (struct sentinel_point){ .t = NAN, .cpu = -1, .sys_ns = NAN,
							.user_ns = NAN };
}

const struct bench_value *result_value(const struct result *r, const char *key)
{
	for (size_t i = 0; i < r->nvalues && i < BENCH_MAX_VALUES; i++)
		if (strcmp(r->values[i].key, key) == 0)
			return &r->values[i];
	return NULL;
}

/*
 * The values a kbench before JSON schema 2 stored in percent, each with the
 * share it is now stored as: every share of a result is a fraction, like
 * cv and slow_share beside it.
 */
static const struct {
	const char *was, *now;
} result_pct_values[] = {
	{ "machine_pct", "machine_share" },
	{ "cpu_pct", "cpu_share" },
	{ "lcpu_pct", "lcpu_share" },
};

void result_values_upgrade(struct result *r)
{
	for (size_t i = 0; i < r->nvalues && i < BENCH_MAX_VALUES; i++)
		for (size_t k = 0; k < sizeof(result_pct_values) / sizeof(result_pct_values[0]); k++)
			if (strcmp(r->values[i].key, result_pct_values[k].was) == 0 &&
			    !result_value(r, result_pct_values[k].now)) {
				snprintf(r->values[i].key, sizeof(r->values[i].key), "%s",
					 result_pct_values[k].now);
				r->values[i].num /= 100;
			}
}

size_t bench_buffer_size(const struct bench_ctx *ctx)
{
	/*
	 * At least 256 MiB: a C library chooses how to copy a large buffer from
	 * the cache sizes CPUID gives, which in a VM can be the host's (256 MiB
	 * of L3 here, against 32 MiB in sysfs): glibc streams past the cache only
	 * above 3/4 of that.  A buffer above both views is copied the way a
	 * truly large copy is, and measures memory, not the libc's guess.
	 */
	const uint64_t floor = 256ull << 20;
	uint64_t llc = plat_llc_size();

	if (ctx->point)
		return (size_t)ctx->point->x;
	if (ctx->size)
		return ctx->size;
	return (size_t)(4 * llc > floor ? 4 * llc : floor);
}

/* The first point of a size curve: one page. */
#define BENCH_CURVE_FIRST 4096.0

size_t bench_size_points(struct bench_ctx *ctx, struct bench_point *pts, size_t max)
{
	double end;
	size_t n = 0;

	if (ctx->suite != SUITE_FULL || max == 0)
		return 0;
	ctx->point = NULL;
	end = (double)bench_buffer_size(ctx);
	for (double x = BENCH_CURVE_FIRST; x < end && n + 1 < max; x *= 2) {
		snprintf(pts[n].series, sizeof(pts[n].series), "size");
		pts[n++].x = x;
	}
	snprintf(pts[n].series, sizeof(pts[n].series), "size");
	pts[n++].x = end;
	return n;
}

enum bench_status bench_check_memory(struct bench_ctx *ctx, double bytes, const char *what)
{
	uint64_t total = 0, avail = 0;

	if (plat_memory(&total, &avail) == 0 && avail > 0 && bytes > (double)avail / 2)
		return bench_skip(ctx, "%s: %.0f MiB is more than half of the %.0f MiB of memory "
				  "available", what, bytes / 1048576.0, (double)avail / 1048576.0);
	return BENCH_OK;
}

const struct result *bench_prior(const struct bench_ctx *ctx, const char *id)
{
	/* The latest, should a row have been measured twice. */
	for (size_t i = ctx->nprior; i-- > 0;)
		if (strcmp(ctx->prior[i].id, id) == 0)
			return &ctx->prior[i];
	return NULL;
}

static const char *const place_names[] = {
	[PLACE_NA] = "", [PLACE_NONE] = "none", [PLACE_SAME] = "same", [PLACE_SPREAD] = "spread",
};

const char *place_name(enum placement p)
{
	if ((size_t)p >= NELEM(place_names))
		BUG("bad placement %d", (int)p);
	return place_names[p];
}

int place_parse(const char *name, enum placement *out)
{
	int i = lookup(place_names, NELEM(place_names), name);
	if (i <= 0)
		return -1;
	*out = (enum placement)i;
	return 0;
}

/*
 * same: copy j entirely on one CPU, copies dealt round the CPUs.
 * spread: end k of copy j on CPU j + k, so neighbours in a pair or a ring
 * always differ (there are at least two CPUs, the harness checked).
 */
int bench_cpu_for(const struct bench_ctx *ctx, int end)
{
	if (ctx->ncpus <= 0)
		return -1;
	switch (ctx->placement) {
	case PLACE_SAME: return ctx->cpus[ctx->copy % ctx->ncpus];
	case PLACE_SPREAD: return ctx->cpus[(ctx->copy + end) % ctx->ncpus];
	case PLACE_NA:
	case PLACE_NONE: return -1;
	}
	BUG("bad placement %d", (int)ctx->placement);
}

int bench_place(struct bench_ctx *ctx, int end)
{
	int cpu = bench_cpu_for(ctx, end), got[2], n;

	if (cpu < 0)
		return 0;
	if (plat_pin_cpu(cpu) < 0) {
		bench_fail(ctx, errno, "cannot pin process %d to CPU %d", end, cpu);
		return -1;
	}
	/* Trust nothing: the affinity read back must be exactly that CPU. */
	n = plat_cpus_allowed(got, 2);
	if (n != 1 || got[0] != cpu) {
		bench_fail(ctx, n < 0 ? errno : 0, "process %d pinned to CPU %d, but its affinity "
			   "reads back as %d CPUs", end, cpu, n);
		return -1;
	}
	return 0;
}

static struct bench_value *value_slot(struct bench_ctx *ctx, const char *key)
{
	struct bench_value *v;

	for (size_t i = 0; i < ctx->nvalues; i++)
		if (strcmp(ctx->values[i].key, key) == 0)
			return &ctx->values[i];
	if (ctx->nvalues >= BENCH_MAX_VALUES)
		BUG("more than %d values for one result", BENCH_MAX_VALUES);
	if (strlen(key) >= sizeof(v->key))
		BUG("value key '%s' too long", key);
	v = &ctx->values[ctx->nvalues++];
	memset(v, 0, sizeof(*v));
	snprintf(v->key, sizeof(v->key), "%s", key);
	return v;
}

void bench_value(struct bench_ctx *ctx, const char *key, double num)
{
	struct bench_value *v = value_slot(ctx, key);

	v->num = num;
	v->text[0] = '\0';
}

void bench_value_text(struct bench_ctx *ctx, const char *key, const char *text)
{
	struct bench_value *v = value_slot(ctx, key);

	v->num = NAN;
	snprintf(v->text, sizeof(v->text), "%s", text);
}

void result_value_add(struct result *r, const char *key, double num, const char *text)
{
	struct bench_value *v;

	if (r->nvalues == BENCH_MAX_VALUES)
		BUG("%s: more than %d values", r->id, BENCH_MAX_VALUES);
	v = &r->values[r->nvalues++];
	snprintf(v->key, sizeof(v->key), "%s", key);
	v->num = num;
	if (!text)
		text = "";
	/* Too long (a timed job's command): cut at a character's start, marked "...". */
	if (strlen(text) >= sizeof(v->text)) {
		size_t n = sizeof(v->text) - 4;

		while (n > 0 && ((unsigned char)text[n] & 0xC0) == 0x80)
			n--;
		snprintf(v->text, sizeof(v->text), "%.*s...", (int)n, text);
		return;
	}
	snprintf(v->text, sizeof(v->text), "%s", text);
}

int result_same_instance(const struct result *a, const struct result *b)
{
	return strcmp(a->id, b->id) == 0 && a->placement == b->placement &&
	       a->parallel == b->parallel && a->jobs == b->jobs;
}

int result_level_known(const struct result *r)
{
	return isfinite(r->level) && r->level > 0;
}

/* The statistic behind a level, known or not. */
static double result_level_raw(const struct result *r, enum result_level which)
{
	if (which == LEVEL_MEDIAN)
		return r->median;
	if (result_level_known(r))
		return r->level;
	return r->better == BETTER_HIGHER ? r->p95 : r->p5;
}

int result_has_level(const struct result *r, enum result_level which)
{
	double v = result_level_raw(r, which);

	return isfinite(v) && v > 0;
}

double result_level(const struct result *r, enum result_level which)
{
	return result_has_level(r, which) ? result_level_raw(r, which) : r->median;
}

double result_figure(const struct result *r)
{
	return result_level_known(r) ? r->level : r->median;
}

void result_figure_ci(const struct result *r, double *lo, double *hi)
{
	if (result_level_known(r)) {
		*lo = r->level_low;
		*hi = r->level_high;
	} else {
		*lo = r->ci_low;
		*hi = r->ci_high;
	}
}

double result_replica_figure(const struct result_replica *rr)
{
	return isfinite(rr->fast) && rr->fast > 0 ? rr->fast : rr->median;
}

void result_level_is_median(struct result *r)
{
	r->level = r->median;
	r->level_low = r->ci_low;
	r->level_high = r->ci_high;
	r->slow_share = (double)NAN;
	r->slow_depth = (double)NAN;
}

int result_busy(const struct result *r)
{
	return r->interference > RESULT_BUSY_THRESHOLD;
}

void result_free(struct result *r)
{
	free(r->samples);
	r->samples = NULL;
	free(r->where);
	free(r->usage);
	r->where = NULL;
	r->usage = NULL;
	free(r->buckets);
	r->buckets = NULL;
	r->nbuckets = 0;
	free(r->points);
	r->points = NULL;
	r->npoints = 0;
	free(r->replicas);
	r->replicas = NULL;
	r->nreplicas = 0;
}

void run_info_free(struct run_info *run)
{
	for (size_t i = 0; i < run->nresults; i++)
		result_free(&run->results[i]);
	free(run->results);
	free(run->sysinfo_json);
	free(run->sentinel);
	run->results = NULL;
	run->sysinfo_json = NULL;
	run->sentinel = NULL;
	run->nresults = 0;
	run->nsentinel = 0;
}

int result_replica_percentiles(const struct result *r, double p, double *out, size_t max)
{
	size_t nrep = 0;
	double *v;
	int have = 0;

	if (!r->samples || !r->where || !r->n)
		return 0;
	for (size_t i = 0; i < r->n; i++)
		if (r->where[i].replica >= 0 && (size_t)r->where[i].replica + 1 > nrep)
			nrep = (size_t)r->where[i].replica + 1;
	if (nrep > max)
		nrep = max;
	for (size_t k = 0; k < max; k++)
		out[k] = (double)NAN;
	if (!(v = malloc(r->n * sizeof(*v))))
		return -1;
	/* A replica's samples are together (the merge appends them in order), but need not be. */
	for (size_t k = 0; k < nrep; k++) {
		size_t n = 0;

		for (size_t i = 0; i < r->n; i++)
			if (r->where[i].replica == (int)k && isfinite(r->samples[i]))
				v[n++] = r->samples[i];
		if (n) {
			out[k] = hist_rank_sort(v, n, p);
			have++;
		}
	}
	free(v);
	return have;
}

int result_percentile(const struct result *r, double p, double *est, double *lo, double *hi)
{
	size_t cap = r->nreplicas > 1 ? r->nreplicas : 64, n = 0;
	double *v, *rep;
	struct stats_summary ss;
	int have;

	*est = *lo = *hi = (double)NAN;
	if (!r->samples || !r->n || !(p > 0) || p > 100)
		return -1;
	if (!(v = malloc(r->n * sizeof(*v))) || !(rep = malloc(cap * sizeof(*rep)))) {
		free(v);
		return -1;
	}
	for (size_t i = 0; i < r->n; i++)
		if (isfinite(r->samples[i]))
			v[n++] = r->samples[i];
	*est = hist_rank_sort(v, n, p);
	have = result_replica_percentiles(r, p, rep, cap);
	n = 0;
	for (size_t k = 0; have > 1 && k < cap; k++)
		if (isfinite(rep[k]))
			rep[n++] = rep[k];
	if (n > 1 && stats_summarize(rep, n, &ss) == 0) {
		*lo = fmin(ss.ci_low, *est);
		*hi = fmax(ss.ci_high, *est);
	}
	free(v);
	free(rep);
	return have < 0 ? -1 : 0;
}

int result_buckets_fill(struct result *r)
{
	/* The unit's nanoseconds: the histogram counts whole ns. */
	double scale = strcmp(r->unit, "ms") == 0 ? 1e6 : strcmp(r->unit, "ns") == 0 ? 1 :
		       strcmp(r->unit, "s") == 0 ? 1e9 : 1e3;
	struct hist *h = calloc(1, sizeof(*h));
	size_t nb = 0;

	free(r->buckets);
	r->buckets = NULL;
	r->nbuckets = 0;
	if (!h)
		return -1;
	for (size_t i = 0; r->samples && i < r->n; i++)
		if (r->samples[i] >= 0 && isfinite(r->samples[i]))
			hist_add(h, (uint64_t)llround(r->samples[i] * scale));
	for (size_t b = 0; b < HIST_BUCKETS; b++)
		nb += h->count[b] != 0;
	if (nb && !(r->buckets = malloc(nb * sizeof(*r->buckets)))) {
		free(h);
		return -1;
	}
	for (size_t b = 0; b < HIST_BUCKETS; b++) {
		uint64_t lo, hi;

		if (!h->count[b])
			continue;
		hist_bounds(b, &lo, &hi);
		r->buckets[r->nbuckets++] = (struct result_bucket){
			.lo = (double)lo / scale,
			.hi = hi == UINT64_MAX ? (double)NAN : (double)hi / scale,
			.count = h->count[b],
		};
	}
	free(h);
	return 0;
}
