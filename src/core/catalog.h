/*
 * The kinds of result id that are no row of the registry: contest's
 * measurements (contest.<load>), timed jobs (time.<name>) and the clock
 * calls under each clock source (clock.<source>.<call>).  One table
 * says, for each, which ids it owns and in what unit and direction they
 * are, so that import, show, summary and compare ask here instead of each
 * testing a prefix by hand.
 */
#ifndef KB_CATALOG_H
#define KB_CATALOG_H

#include <stddef.h>

#include "core/bench.h"

/* The prefixes, for code that builds or takes apart the ids of its own kind. */
#define CATALOG_CONTEST "contest."
#define CATALOG_TIME "time."
#define CATALOG_CLOCK "clock."
/*
 * The registry rows that measure the clock calls (src/bench/clock.c):
 * "clockcall.<call>", each stored under every source as clock.<source>.<call>.
 */
#define CATALOG_CLOCK_CALL "clockcall."
/* The longest clock source name an id holds. */
#define CATALOG_CLOCK_SOURCE_MAX 32

struct catalog_kind {
	const char *prefix;		/* "contest.": every id of the kind starts so */
	/* Whether the rest of the id, after the prefix, names one (a known load). */
	int (*rest_valid)(const char *rest);
	const char *unit;		/* of every id of the kind, as stored: "s" */
	enum bench_better better;
	const char *title;		/* compare's section for the kind */
	int own_tables;			/* 1: the summary prints the kind in tables of its
					   own, not in lmbench's nor among "Other results" */
	int tables_need_samples;	/* 1: those tables read the samples (a timed job's
					   per-copy usage), so a reader loads them for
					   this kind even when it loads no others */
};

/* Check every row; a bad row is a programmer's mistake and aborts (BUG). */
void catalog_check(void);

size_t catalog_count(void);
/* The kind at i, in the table's order (compare's sections'); NULL past the end. */
const struct catalog_kind *catalog_at(size_t i);

/* The kind that knows id (its prefix and a valid rest); NULL for any other id. */
const struct catalog_kind *catalog_find(const char *id);
/*
 * The kind whose prefix id starts with, whether or not it knows the rest:
 * where a stored result is shown, so that one of a load since removed
 * stays with contest's.  NULL when no prefix matches.
 */
const struct catalog_kind *catalog_prefixed(const char *id);

/*
 * Whether this kbench knows id, as a registry row or a kind of the table:
 * 1 with its unit and direction (either pointer may be NULL), else 0.
 */
int catalog_known(const char *id, const char **unit, enum bench_better *better);

#endif
