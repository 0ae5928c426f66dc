/*
 * A result's scalar fields, listed once: their names, their types and
 * where each is in struct result, and how each says "none".  The store's
 * columns, the CSV's, the export's keys and the import are driven by this
 * table instead of spelling the fields out each.  The order is the CSV's;
 * the store names its columns, and the export is an object, so neither
 * cares.
 *
 * The records a result or a run has lists of (its values, a curve's
 * points, its replicas, a timed copy's usage, the run's sentinel) are
 * listed the same way, each with its store table and export key: the
 * store's insert and load, the export and the import read them from here.
 */
#ifndef KB_CORE_FIELDS_H
#define KB_CORE_FIELDS_H

#include <stddef.h>

enum field_type {
	FIELD_TEXT,	/* char[size] */
	FIELD_REAL,	/* double: NaN is none */
	FIELD_SIZE,	/* size_t */
	FIELD_U64,	/* uint64_t */
	FIELD_INT,	/* int */
	FIELD_BOOL,	/* int, 0 or 1 */
	FIELD_BETTER,	/* enum bench_better, by bench_better_name */
	FIELD_STATUS,	/* enum result_status, by result_status_name */
	FIELD_STOP,	/* enum stop_reason, by result_stop_name */
	FIELD_PLACE,	/* enum placement, by place_name: PLACE_NA is none */
};

enum {
	FIELD_MEASURED = 1u << 0,	/* a figure of the measurement: the export's null
					   when the result measured nothing (skip, fail) */
	FIELD_NEG_NONE = 1u << 1,	/* a negative value is none (interference: unknown) */
	FIELD_ZERO_NONE = 1u << 2,	/* 0 is none (jobs: not one of a -j sweep) */
	FIELD_EMPTY_NONE = 1u << 3,	/* "" is none (reason) */
	FIELD_DERIVED = 1u << 4,	/* counted from the result's lists (replicas): the
					   CSV's only, the store and the export keep the list */
	FIELD_OPTIONAL = 1u << 5,	/* an older kbench's export may leave it out: none */
	FIELD_NOT_EMPTY = 1u << 6,	/* never "" (the id) */
	FIELD_NONNEG = 1u << 7,		/* never below zero (a time, a rate, a spread) */
	FIELD_NUMBER = 1u << 8,		/* a real that is never none (a point's x) */
	FIELD_SHARE = 1u << 9,		/* a real from 0 to 1 where known */
	FIELD_COPY = 1u << 10,		/* a copy's number: 1 to its result's parallel */
	FIELD_POSITIVE = 1u << 11,	/* a real that is none unless above zero (a level:
					   a cost or a rate; a zeroed result has none) */
};

struct field {
	const char *key;	/* the export's key and the CSV's column: "median" */
	const char *column;	/* the store's column: "bench_id" for the key "id" */
	enum field_type type;
	size_t off, size;	/* in struct result */
	unsigned flags;
	long long lo, hi;	/* an integer's range, as the import takes it */
};

extern const struct field field_result[];
extern const size_t field_nresult;

/*
 * One kind of record in a list: its fields in the export's order, where
 * the store keeps it (the table, keyed by the parent's id and the
 * record's place in the list, idx) and how many one parent may hold.
 */
struct record {
	const char *name;		/* one of them, in messages: "replica" */
	const char *key;		/* the export's key for the list: "replicas" */
	const char *table;		/* the store's table: "result_replicas" */
	int of_run;			/* the parent is the run (run_id), not a result */
	size_t size;			/* of the struct */
	const struct field *fields;
	size_t nfields;
	size_t max;			/* at most this many to a parent */
};

extern const struct record record_value;	/* struct bench_value (the export: an object) */
extern const struct record record_point;	/* struct result_point */
extern const struct record record_replica;	/* struct result_replica */
extern const struct record record_usage;	/* struct result_usage, one a sample */
extern const struct record record_where;	/* struct result_sample, one a sample */
extern const struct record record_sentinel;	/* struct sentinel_point, the run's */
extern const struct record record_bucket;	/* struct result_bucket, a distribution's */

#endif
