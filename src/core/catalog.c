/*
 * The catalogue of result ids beyond the registry: a const table of kinds,
 * each an id prefix and a check of what follows it, and the lookups over
 * the table and the registry together.  Nothing here reads the database or
 * prints; a caller decides what an unknown id means to it.
 */
#include "core/catalog.h"

#include <stdio.h>
#include <string.h>

#include "core/registry.h"
#include "load/load.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* The longest name of a timed job: the id must fit struct result's id. */
#define CATALOG_TIME_NAME_MAX 40

/* contest.<load>: a load load_find knows, hidden ones (the tests') included. */
static int catalog_contest_rest(const char *rest)
{
	return load_find(rest) != NULL;
}

/*
 * time.<name>: the user names the job, so any word a shell passes without
 * quoting and a file name can hold ("make", "gcc-13", "kernel.O2"), but no
 * '/' or space, which would make the id unreadable in a table or a path.
 */
static int catalog_time_rest(const char *rest)
{
	static const char word[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				   "0123456789_.+-";
	size_t len = strlen(rest);

	return len > 0 && len <= CATALOG_TIME_NAME_MAX && strspn(rest, word) == len;
}

/*
 * clock.<source>.<call>: a name a kernel gives a clock source ("tsc",
 * "kvm-clock", "arch_sys_counter"), then one of the calls the registry's
 * clockcall.* rows measure.  The calls come from those rows, so that a
 * call added there is known here too.
 */
static int catalog_clock_rest(const char *rest)
{
	static const char word[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				   "0123456789_-";
	const char *dot = strrchr(rest, '.');
	const struct bench *b;
	char row[64];
	size_t len;

	if (!dot || !dot[1])
		return 0;
	len = (size_t)(dot - rest);
	if (len == 0 || len > CATALOG_CLOCK_SOURCE_MAX || strspn(rest, word) != len)
		return 0;
	if (snprintf(row, sizeof(row), "%s%s", CATALOG_CLOCK_CALL, dot + 1) >= (int)sizeof(row))
		return 0;
	b = registry_find(row);
	return b && (b->suites & SUITE_CLOCKS);
}

/*
 * The kinds, in the order compare prints their sections (after lmbench's).
 * To add one: pick a prefix ending in '.' that no registry family uses
 * (catalog_check refuses one that does), write a static check of the rest
 * of the id beside the others above, and add a row here with the unit and
 * direction every id of the kind is stored with, compare's section title,
 * and own_tables 1 only if a report prints the kind's results itself (as
 * report_contest_text, report_timed_text and report_clocks_text do); with
 * 0 the summary lists them among "Other results".  tables_need_samples 1 makes the readers load
 * the kind's samples (and usage) always: a few per result, and the timed
 * jobs' tables are made from them.  Import, show, summary and compare then know the kind.
 */
static const struct catalog_kind kinds[] = {
	{
		.prefix = CATALOG_CONTEST,
		.rest_valid = catalog_contest_rest,
		.unit = "s",
		.better = BETTER_LOWER,
		.title = "contest: the job's Time under each load (s)",
		.own_tables = 1,
	},
	{
		.prefix = CATALOG_TIME,
		.rest_valid = catalog_time_rest,
		.unit = "s",
		.better = BETTER_LOWER,
		.title = "Timed jobs: real time (s)",
		.own_tables = 1,
		.tables_need_samples = 1,
	},
	{
		.prefix = CATALOG_CLOCK,
		.rest_valid = catalog_clock_rest,
		.unit = "ns",
		.better = BETTER_LOWER,
		.title = "Clock sources: ns per call",
		.own_tables = 1,
	},
};

void catalog_check(void)
{
	const struct bench *b;

	for (size_t i = 0; i < NELEM(kinds); i++) {
		const struct catalog_kind *k = &kinds[i];
		size_t len = k->prefix ? strlen(k->prefix) : 0;

		if (len < 2 || k->prefix[len - 1] != '.')
			BUG("catalog row %zu: a prefix is a word and a dot", i);
		if (!k->rest_valid || !k->unit || !k->unit[0] || !k->title || !k->title[0])
			BUG("catalog: %s has no check, unit or title", k->prefix);
		if (k->better != BETTER_LOWER && k->better != BETTER_HIGHER)
			BUG("catalog: %s has a bad direction", k->prefix);
		/* One id, one owner: the first match would hide the other. */
		for (size_t j = 0; j < i; j++)
			if (strncmp(kinds[j].prefix, k->prefix, strlen(kinds[j].prefix)) == 0 ||
			    strncmp(k->prefix, kinds[j].prefix, len) == 0)
				BUG("catalog: prefixes %s and %s overlap", kinds[j].prefix, k->prefix);
		for (size_t r = 0; (b = registry_at(r)) != NULL; r++)
			if (strncmp(b->id, k->prefix, len) == 0)
				BUG("catalog: registry row %s has the prefix of %s", b->id, k->prefix);
	}
	/* clock.<source>.<call> takes its calls from these rows' ids, and their unit. */
	for (size_t r = 0; (b = registry_at(r)) != NULL; r++)
		if ((b->suites & SUITE_CLOCKS) &&
		    (strncmp(b->id, CATALOG_CLOCK_CALL, strlen(CATALOG_CLOCK_CALL)) != 0 ||
		     strchr(b->id + strlen(CATALOG_CLOCK_CALL), '.') ||
		     strcmp(bench_unit(b), "ns") != 0 || b->better != BETTER_LOWER))
			BUG("catalog: clock row %s is no clockcall.<call> in ns, lower-better", b->id);
}

size_t catalog_count(void)
{
	return NELEM(kinds);
}

const struct catalog_kind *catalog_at(size_t i)
{
	return i < NELEM(kinds) ? &kinds[i] : NULL;
}

const struct catalog_kind *catalog_prefixed(const char *id)
{
	for (size_t i = 0; i < NELEM(kinds); i++)
		if (strncmp(id, kinds[i].prefix, strlen(kinds[i].prefix)) == 0)
			return &kinds[i];
	return NULL;
}

const struct catalog_kind *catalog_find(const char *id)
{
	const struct catalog_kind *k = catalog_prefixed(id);

	return k && k->rest_valid(id + strlen(k->prefix)) ? k : NULL;
}

int catalog_known(const char *id, const char **unit, enum bench_better *better)
{
	const struct bench *b = registry_find(id);
	const struct catalog_kind *k = b ? NULL : catalog_find(id);

	if (!b && !k)
		return 0;
	if (unit)
		*unit = b ? bench_unit(b) : k->unit;
	if (better)
		*better = b ? b->better : k->better;
	return 1;
}
