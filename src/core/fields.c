/*
 * The table of core/fields.h.
 */
#include "core/fields.h"

#include <limits.h>
#include <stdint.h>

#include "core/result.h"

#define F(key, col, type, member, flags, lo, hi) \
	{ key, col, type, offsetof(struct result, member), sizeof(((struct result *)0)->member), \
	  flags, lo, hi }
/* A statistic of the samples: times, rates, spreads and their ratios, none below zero. */
#define STAT(key) F(#key, #key, FIELD_REAL, key, FIELD_MEASURED | FIELD_NONNEG, 0, 0)

const struct field field_result[] = {
	F("id", "bench_id", FIELD_TEXT, id, FIELD_NOT_EMPTY, 0, 0),
	F("unit", "unit", FIELD_TEXT, unit, 0, 0, 0),
	F("better", "better", FIELD_BETTER, better, 0, 0, 0),
	F("status", "status", FIELD_STATUS, status, 0, 0, 0),
	F("placement", "placement", FIELD_PLACE, placement, 0, 0, 0),
	/* A count of copies run at once; 1 for one. */
	F("parallel", "parallel", FIELD_INT, parallel, 0, 1, INT_MAX),
	/* Absent (an older kbench) or null: not one of a -j sweep. */
	F("jobs", "jobs", FIELD_INT, jobs, FIELD_ZERO_NONE | FIELD_OPTIONAL, 1, 1000000),
	STAT(median), STAT(ci_low), STAT(ci_high), STAT(min), STAT(max), STAT(mean),
	STAT(stddev), STAT(cv), STAT(p5), STAT(p95),
	/* n bounds what is allocated for the samples; a billion is far past any run. */
	F("n", "n", FIELD_SIZE, n, 0, 0, 1000000000),
	F("iterations", "iterations", FIELD_U64, iterations, 0, 0, INT64_MAX),
	F("stop", "stop", FIELD_STOP, stop, 0, 0, 0),
	F("interference", "interference", FIELD_REAL, interference, FIELD_NEG_NONE, 0, 0),
	F("overhead", "overhead", FIELD_REAL, overhead, FIELD_MEASURED, 0, 0),
	F("wall_s", "wall_s", FIELD_REAL, wall_s, FIELD_NONNEG, 0, 0),
	F("aggregate", "aggregate", FIELD_REAL, aggregate, 0, 0, 0),
	F("replicas", NULL, FIELD_SIZE, nreplicas, FIELD_DERIVED, 0, 0),
	F("drift", "drift", FIELD_REAL, drift, FIELD_OPTIONAL, 0, 0),
	F("drifted", "drifted", FIELD_BOOL, drifted, FIELD_OPTIONAL, 0, 1),
	/* A share from 0 to 1; absent (an older kbench) or null: not known. */
	F("apart", "apart", FIELD_REAL, apart, FIELD_OPTIONAL | FIELD_NONNEG, 0, 0),
	F("reason", "reason", FIELD_TEXT, reason, FIELD_EMPTY_NONE, 0, 0),
};

const size_t field_nresult = sizeof(field_result) / sizeof(field_result[0]);
