/*
 * The table of metrics (core/metric.h).  The units here are the ones the
 * JSON, the database and the reports use, so they are part of the
 * contract: a stored result is known by its unit's text.
 *
 * To add a metric: a value in enum bench_metric, and a row here with its
 * unit, its direction, and the form and constant that turn the nanoseconds
 * of one operation into the figure.  A time is lower-better and a rate or
 * bandwidth higher-better; the registry holds every benchmark row to its
 * metric's direction.
 */
#include "core/metric.h"

#include <stddef.h>
#include <string.h>

#include "core/err.h"

static const struct metric metrics[] = {
	[METRIC_US] = { "us", BETTER_LOWER, METRIC_FORM_TIME, 1e3 },
	[METRIC_NS] = { "ns", BETTER_LOWER, METRIC_FORM_TIME, 1 },
	/* Bytes per nanosecond are GB/s: 10^3 MB/s. */
	[METRIC_MBPS] = { "MB/s", BETTER_HIGHER, METRIC_FORM_BANDWIDTH, 1e3 },
	/* One operation per nanosecond is 10^3 million a second. */
	[METRIC_MHZ] = { "MHz", BETTER_HIGHER, METRIC_FORM_RATE, 1e3 },
	[METRIC_CALLS] = { "calls/s", BETTER_HIGHER, METRIC_FORM_RATE, 1e9 },
	[METRIC_OPS] = { "ops/s", BETTER_HIGHER, METRIC_FORM_RATE, 1e9 },
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

const struct metric *metric_get(enum bench_metric m)
{
	if ((size_t)m >= NELEM(metrics) || !metrics[m].unit)
		return NULL;
	return &metrics[m];
}

double metric_figure(const struct metric *m, double ns, double bytes)
{
	switch (m->form) {
	case METRIC_FORM_TIME: return ns / m->scale;
	case METRIC_FORM_RATE: return m->scale / ns;
	case METRIC_FORM_BANDWIDTH: return bytes * m->scale / ns;
	}
	BUG("metric '%s': bad form %d", m->unit, (int)m->form);
}

int metric_is_time(const struct metric *m)
{
	return m->form == METRIC_FORM_TIME;
}

int metric_unit_is_time(const char *unit, enum bench_better better)
{
	for (size_t i = 0; i < NELEM(metrics); i++)
		if (metrics[i].unit && strcmp(metrics[i].unit, unit) == 0)
			return metric_is_time(&metrics[i]);
	return better == BETTER_LOWER;
}
