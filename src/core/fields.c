/*
 * The table of core/fields.h.
 */
#include "core/fields.h"

#include <limits.h>
#include <stdint.h>

#include "core/result.h"
#include "stats/hist.h"

#define F(key, col, type, member, flags, lo, hi) \
	{ key, col, type, offsetof(struct result, member), sizeof(((struct result *)0)->member), \
	  flags, lo, hi }
/* A level and its interval's ends: a cost or a rate, absent from an older kbench's. */
#define LEVEL_FLAGS (FIELD_MEASURED | FIELD_NONNEG | FIELD_OPTIONAL | FIELD_POSITIVE)
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
	/* The figure quoted and its interval; absent (an older kbench) or null: none. */
	F("level", "level", FIELD_REAL, level, LEVEL_FLAGS, 0, 0),
	F("level_low", "level_low", FIELD_REAL, level_low, LEVEL_FLAGS, 0, 0),
	F("level_high", "level_high", FIELD_REAL, level_high, LEVEL_FLAGS, 0, 0),
	/* The slow spells: their share of the replicas, and how much slower. */
	F("slow_share", "slow_share", FIELD_REAL, slow_share, FIELD_MEASURED | FIELD_SHARE | FIELD_OPTIONAL, 0, 0),
	F("slow_depth", "slow_depth", FIELD_REAL, slow_depth, FIELD_MEASURED | FIELD_NONNEG | FIELD_OPTIONAL, 0, 0),
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

/* The records' tables, their fields named R(...) after the struct they are in. */
#define R(st, key, col, type, member, flags, lo, hi) \
	{ key, col, type, offsetof(struct st, member), sizeof(((struct st *)0)->member), \
	  flags, lo, hi }
#define RECORD(st, name, key, table, of_run, fields, max) \
	{ name, key, table, of_run, sizeof(struct st), fields, sizeof(fields) / sizeof(fields[0]), max }

/* A text value has no number (NULL); a number no text. */
static const struct field value_fields[] = {
	R(bench_value, "key", "key", FIELD_TEXT, key, FIELD_NOT_EMPTY, 0, 0),
	R(bench_value, "num", "num", FIELD_REAL, num, 0, 0, 0),
	R(bench_value, "text", "text", FIELD_TEXT, text, FIELD_EMPTY_NONE, 0, 0),
};
const struct record record_value =
	RECORD(bench_value, "value", "values", "result_values", 0, value_fields, BENCH_MAX_VALUES);

static const struct field point_fields[] = {
	R(result_point, "series", "series", FIELD_TEXT, series, 0, 0, 0),
	R(result_point, "x", "x", FIELD_REAL, x, FIELD_NUMBER, 0, 0),
	R(result_point, "y", "y", FIELD_REAL, y, 0, 0, 0),
	R(result_point, "ci_low", "lo", FIELD_REAL, lo, 0, 0, 0),
	R(result_point, "ci_high", "hi", FIELD_REAL, hi, 0, 0, 0),
	R(result_point, "noisy", "noisy", FIELD_BOOL, noisy, 0, 0, 1),
};
const struct record record_point =
	RECORD(result_point, "point", "points", "result_points", 0, point_fields, BENCH_MAX_POINTS);

static const struct field replica_fields[] = {
	R(result_replica, "median", "median", FIELD_REAL, median, 0, 0, 0),
	R(result_replica, "ci_low", "ci_low", FIELD_REAL, lo, 0, 0, 0),
	R(result_replica, "ci_high", "ci_high", FIELD_REAL, hi, 0, 0, 0),
	R(result_replica, "n", "n", FIELD_SIZE, n, 0, 0, 1000000000),
	R(result_replica, "t0", "t0", FIELD_REAL, t0, 0, 0, 0),
	R(result_replica, "t1", "t1", FIELD_REAL, t1, 0, 0, 0),
	R(result_replica, "stop", "stop", FIELD_STOP, stop, 0, 0, 0),
	R(result_replica, "sentinel_sys_ns", "sentinel_sys", FIELD_REAL, sentinel_sys, 0, 0, 0),
	R(result_replica, "sentinel_user_ns", "sentinel_user", FIELD_REAL, sentinel_user, 0, 0, 0),
	/* Absent from an older kbench's export: not known. */
	R(result_replica, "apart", "apart", FIELD_REAL, apart, FIELD_OPTIONAL | FIELD_SHARE, 0, 0),
	R(result_replica, "fast", "fast", FIELD_REAL, fast, FIELD_OPTIONAL | FIELD_NONNEG | FIELD_POSITIVE, 0, 0),
};
const struct record record_replica =
	RECORD(result_replica, "replica", "replicas", "result_replicas", 0, replica_fields, 100000);

/* What a timed copy used: none negative but its start, a time on the run's clock. */
#define USAGE(key) R(result_usage, #key, #key, FIELD_REAL, key, FIELD_NONNEG, 0, 0)
static const struct field usage_fields[] = {
	R(result_usage, "copy", "copy", FIELD_INT, copy, FIELD_COPY, 1, INT_MAX),
	/* A wait status: any int ("wait_status": "status" is a result's, a word). */
	R(result_usage, "wait_status", "status", FIELD_INT, status, 0, INT_MIN, INT_MAX),
	R(result_usage, "start", "start", FIELD_REAL, start, 0, 0, 0),
	USAGE(user_s), USAGE(sys_s), USAGE(maxrss_kb), USAGE(minflt), USAGE(majflt),
	USAGE(nvcsw), USAGE(nivcsw), USAGE(inblock), USAGE(oublock), USAGE(orphans),
};
/* One a sample: the result's n bounds them, not this table. */
const struct record record_usage =
	RECORD(result_usage, "usage", "usage", "result_usage", 0, usage_fields, SIZE_MAX);

/*
 * Where each sample ran, one a sample beside "samples": its end (seconds
 * from the run's start), its CPU (-1 unknown), its CPU's steal time (none
 * unknown) and its replica.  The store keeps them with the samples, not
 * in a table of their own (table NULL).
 */
static const struct field where_fields[] = {
	R(result_sample, "t", "t", FIELD_REAL, t, FIELD_NUMBER, 0, 0),
	R(result_sample, "cpu", "cpu", FIELD_INT, cpu, 0, -1, INT_MAX),
	R(result_sample, "steal_ns", "steal_ns", FIELD_REAL, steal_ns, 0, 0, 0),
	R(result_sample, "replica", "replica", FIELD_INT, replica, 0, 0, INT_MAX),
};
const struct record record_where =
	RECORD(result_sample, "sample's place", "where", NULL, 0, where_fields, SIZE_MAX);

/*
 * A run's sentinel points at most: two a replica and one a round, a full
 * suite's 8 replicas of every instance some 3,000, 100 replicas 40,000; 200,000 is
 * more than any run takes, and bounds what a page draws of an import.
 */
#define SENTINEL_MAX_POINTS 200000

static const struct field sentinel_fields[] = {
	R(sentinel_point, "t", "t", FIELD_REAL, t, FIELD_NUMBER, 0, 0),
	R(sentinel_point, "cpu", "cpu", FIELD_INT, cpu, 0, -1, INT_MAX),
	R(sentinel_point, "sys_ns", "sys_ns", FIELD_REAL, sys_ns, 0, 0, 0),
	R(sentinel_point, "user_ns", "user_ns", FIELD_REAL, user_ns, 0, 0, 0),
};
const struct record record_sentinel =
	RECORD(sentinel_point, "sentinel point", "sentinel", "sentinels", 1, sentinel_fields,
	       SENTINEL_MAX_POINTS);

/*
 * A distribution's histogram: each bucket's bounds in the result's unit
 * (hi none for the last, which holds everything above it) and a count of
 * at least one, since the empty buckets are left out.  At most every
 * bucket hist.h has.
 */
static const struct field bucket_fields[] = {
	R(result_bucket, "lo", "lo", FIELD_REAL, lo, FIELD_NONNEG | FIELD_NUMBER, 0, 0),
	R(result_bucket, "hi", "hi", FIELD_REAL, hi, FIELD_NONNEG, 0, 0),
	R(result_bucket, "count", "count", FIELD_U64, count, 0, 1, INT64_MAX),
};
const struct record record_bucket =
	RECORD(result_bucket, "histogram bucket", "histogram", "result_hist", 0, bucket_fields,
	       HIST_BUCKETS);
