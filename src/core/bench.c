/*
 * Small helpers around the benchmark contract and its results: filling the
 * error buffer, unit and status names, freeing.  Names here are the ones the
 * JSON, the database and the reports use, so they are part of the contract.
 */
#include "core/bench.h"
#include "core/result.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	switch (b->metric) {
	case METRIC_US: return "us";
	case METRIC_NS: return "ns";
	case METRIC_MBPS: return "MB/s";
	}
	BUG("bad metric %d", (int)b->metric);
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
}

int result_busy(const struct result *r)
{
	return r->interference > RESULT_BUSY_THRESHOLD;
}

void result_free(struct result *r)
{
	free(r->samples);
	r->samples = NULL;
}

void run_info_free(struct run_info *run)
{
	for (size_t i = 0; i < run->nresults; i++)
		result_free(&run->results[i]);
	free(run->results);
	free(run->sysinfo_json);
	run->results = NULL;
	run->sysinfo_json = NULL;
	run->nresults = 0;
}
