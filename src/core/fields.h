/*
 * A result's scalar fields, listed once (issue 18): their names, their
 * types and where each is in struct result, and how each says "none".
 * The store's columns, the CSV's, the export's keys and the import are
 * driven by this table instead of spelling the fields out each.  The
 * order is the CSV's; the store names its columns, and the export is an
 * object, so neither cares.
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

#endif
